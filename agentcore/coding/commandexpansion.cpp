#include "commandexpansion.h"

#include "translation.h"

#include <loop/toolexecution.h>
#include <permissions/pathcapability.h>
#include <permissions/permissionpolicy.h>
#include <tools/textfile.h>
#include <tools/toolworkspace.h>

#include <QFileInfo>
#include <QRegularExpression>
#include <QUuid>

#include <atomic>

namespace AgentCore {

namespace {

// `@` at the start of a word, then a path (no spaces); a trailing punctuation mark is the
// sentence's, not the path's.
const QRegularExpression &referencePattern()
{
    static const QRegularExpression pattern(
        QStringLiteral("(?:^|(?<=\\s))@([^\\s@]+?)(?=[.,;:!?)\\]]*(?:\\s|$))"));
    return pattern;
}

struct Reference
{
    bool found = false; ///< names a file (or something) of the file system
    QString relative;
    QString text;
    QString error;
};

Reference readReference(const CommandExpansionTools &tools, const QString &reference)
{
    Reference read;
    const ResolvedPath path = tools.workspace->resolve(reference, PathAccess::Read);
    if (!path.path.isEmpty() && !path.insideRoot) {
        read.found = true;
        read.error = CodingTr::tr("@%1 is outside the repository: a command attaches the "
                                  "repository's files only")
                         .arg(reference);
        return read;
    }
    const QFileInfo info(path.path);
    if (path.path.isEmpty() || !info.exists())
        return read; // a word that happens to start with @: it stays text
    read.found = true;
    read.relative = path.relative;
    if (!path.ok()) {
        read.error = QStringLiteral("@%1: %2").arg(reference, path.error);
        return read;
    }
    if (!info.isFile()) {
        read.error = CodingTr::tr("@%1 is not a file").arg(reference);
        return read;
    }
    if (tools.policy) {
        PermissionSubject subject;
        subject.toolName = toolKindName(ToolKind::Read);
        subject.arguments = {{QStringLiteral("file_path"), path.path}};
        PermissionSubject::Path touched;
        touched.absolute = path.path;
        touched.relative = path.relative;
        touched.insideWritableRoot = PathCapability::isWritable(path.path,
                                                                tools.policy->writableRoots());
        subject.paths.append(touched);
        const PermissionDecision decision = tools.policy->decide(subject);
        if (decision.behavior != PermissionBehavior::Allow) {
            read.error = CodingTr::tr("@%1 may not be read without asking (%2): a command does "
                                      "not attach it")
                             .arg(reference, decision.reason);
            return read;
        }
    }
    TextFile file;
    QString error;
    if (!file.load(path.path, maxReferencedFileBytes, &error)) {
        read.error = CodingTr::tr("@%1 is not attached: %2").arg(reference, error);
        return read;
    }
    if (TextFile::looksBinary(file.bytes)) {
        read.error = CodingTr::tr("@%1 is a binary file: a command attaches text only")
                         .arg(reference);
        return read;
    }
    read.text = file.text();
    return read;
}

QString shellCommandOf(const QString &line)
{
    QString command = line.trimmed().mid(1).trimmed();
    if (command.size() >= 2 && command.startsWith(u'`') && command.endsWith(u'`'))
        command = command.mid(1, command.size() - 2).trimmed();
    return command;
}

} // namespace

CommandExpansion expandCustomCommand(const CustomCommand &command,
                                     const CustomCommandInvocation &invocation,
                                     const CommandExpansionTools &tools,
                                     const AbortToken &abort)
{
    CommandExpansion expansion;
    const QString text = substituteArguments(command.body, invocation);
    QStringList lines;
    QStringList attachments;
    for (const QString &line : text.split(u'\n')) {
        if (abort.isAborted()) {
            expansion.error = CodingTr::tr("stopped");
            return expansion;
        }
        if (line.trimmed().startsWith(u'!') && line.trimmed().size() > 1) {
            const QString shell = shellCommandOf(line);
            if (!tools.runShellLine) {
                expansion.error = CodingTr::tr("its line \"!%1\" cannot run: this session has no "
                                               "Bash tool")
                                      .arg(shell);
                return expansion;
            }
            const ShellLineResult result = tools.runShellLine(shell);
            if (!result.ran) {
                expansion.error = CodingTr::tr("its line \"!%1\" was not run: %2")
                                      .arg(shell, result.refusal);
                return expansion;
            }
            expansion.ran.append(shell);
            QString output = result.output;
            if (output.size() > maxShellLineOutputChars) {
                output.truncate(maxShellLineOutputChars);
                output += u'\n' + CodingTr::tr("[... the rest of the output was left out]");
            }
            if (output.endsWith(u'\n'))
                output.chop(1);
            lines.append(output);
            continue;
        }
        lines.append(line);
        if (!tools.workspace || !line.contains(u'@'))
            continue;
        QRegularExpressionMatchIterator it = referencePattern().globalMatch(line);
        while (it.hasNext()) {
            const QString reference = it.next().captured(1);
            const Reference read = readReference(tools, reference);
            if (!read.found)
                continue;
            if (!read.error.isEmpty()) {
                expansion.error = read.error;
                return expansion;
            }
            if (expansion.attached.contains(read.relative))
                continue;
            if (expansion.attached.size() >= maxCommandReferences) {
                expansion.error = CodingTr::tr("it names more than %1 files")
                                      .arg(maxCommandReferences);
                return expansion;
            }
            expansion.attached.append(read.relative);
            QString block = QStringLiteral("<file path=\"%1\">\n").arg(read.relative) + read.text;
            if (!block.endsWith(u'\n'))
                block += u'\n';
            attachments.append(block + QStringLiteral("</file>"));
        }
    }
    expansion.text = lines.join(u'\n').trimmed();
    if (!attachments.isEmpty())
        expansion.text += QStringLiteral("\n\n") + attachments.join(QStringLiteral("\n\n"));
    return expansion;
}

ShellLineResult runShellLine(const AgentToolPtr &bash,
                             const QList<ToolMiddleware> &middlewares,
                             const QString &command,
                             const AbortToken &abort)
{
    ShellLineResult line;
    auto reached = std::make_shared<std::atomic_bool>(false);
    ToolJob job;
    job.tool = bash;
    job.middlewares = middlewares;
    // Innermost: the layers outside it let the call through.
    job.middlewares.append([reached](ToolCallContext &context, const ToolNext &next) {
        reached->store(true);
        return next(context);
    });
    ToolCallContext &context = job.context;
    context.toolCallId = QStringLiteral("command-") + QUuid::createUuid().toString(QUuid::Id128);
    context.toolName = bash->definition().name;
    context.arguments = {{QStringLiteral("command"), command},
                         {QStringLiteral("description"), CodingTr::tr("a custom command's ! line")}};
    context.tool = bash.get();
    context.abort = abort;
    job.validatedArguments = context.arguments;
    const ToolResult result = executeToolCall(std::move(job));
    line.ran = reached->load();
    if (line.ran)
        line.output = result.text();
    else
        line.refusal = result.text();
    return line;
}

} // namespace AgentCore
