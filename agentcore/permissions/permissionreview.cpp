#include "permissionreview.h"

#include "pathcapability.h"

#include <loop/toolkind.h>
#include <tools/bashtool.h>
#include <tools/edittool.h>
#include <tools/textfile.h>
#include <tools/unifieddiff.h>
#include <tools/writetool.h>

#include <QFileInfo>
#include <QRegularExpression>

namespace AgentCore {

namespace {

PermissionRule allowRule(const QString &tool, const QString &specifier = {})
{
    PermissionRule rule;
    rule.toolName = tool;
    rule.specifier = specifier;
    rule.behavior = PermissionBehavior::Allow;
    return rule;
}

// A prefix rule is only offered where the first words name what runs: `npm test:*` is
// narrow, `python3:*` or `bash:*` would allow any program.
bool allowsAnything(const QString &program)
{
    static const QStringList interpreters{
        QStringLiteral("bash"),    QStringLiteral("sh"),    QStringLiteral("zsh"),
        QStringLiteral("dash"),    QStringLiteral("fish"),  QStringLiteral("python"),
        QStringLiteral("python3"), QStringLiteral("node"),  QStringLiteral("perl"),
        QStringLiteral("ruby"),    QStringLiteral("php"),   QStringLiteral("env"),
        QStringLiteral("xargs"),   QStringLiteral("sudo"),  QStringLiteral("doas"),
        QStringLiteral("su"),      QStringLiteral("eval"),  QStringLiteral("exec"),
        QStringLiteral("command"), QStringLiteral("nohup"), QStringLiteral("time"),
        QStringLiteral("timeout"), QStringLiteral("nice"),  QStringLiteral("watch"),
        QStringLiteral("rm"),      QStringLiteral("find"),  QStringLiteral("npx"),
        QStringLiteral("source"),  QStringLiteral("."),
    };
    return interpreters.contains(program.section(QLatin1Char('/'), -1));
}

bool isSubcommand(const QString &word)
{
    static const QRegularExpression shape(QStringLiteral("^[A-Za-z][A-Za-z0-9_:-]*$"));
    return shape.match(word).hasMatch();
}

// Quotes a word for a rule when the rule's word splitting would change it.
QString quoted(const QString &word)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_./:=@%+,-]+$"));
    if (plain.match(word).hasMatch())
        return word;
    QString escaped = word;
    escaped.replace(QLatin1Char('\''), QLatin1String("'\\''"));
    return QLatin1Char('\'') + escaped + QLatin1Char('\'');
}

QString joined(const QStringList &words)
{
    QStringList parts;
    for (const QString &word : words)
        parts.append(quoted(word));
    return parts.join(QLatin1Char(' '));
}

QList<PermissionRule> commandRules(const SimpleCommand &command)
{
    QList<PermissionRule> rules;
    const QStringList &words = command.words;
    if (words.isEmpty())
        return rules;
    if (!allowsAnything(words.first())) {
        const qsizetype prefix = words.size() >= 2 && isSubcommand(words.at(1)) ? 2 : 1;
        rules.append(allowRule(toolKindName(ToolKind::Bash),
                               joined(words.mid(0, prefix)) + QStringLiteral(":*")));
    }
    rules.append(allowRule(toolKindName(ToolKind::Bash), joined(words)));
    return rules;
}

QList<PermissionRule> pathRules(const QString &tool, const PermissionSubject::Path &path)
{
    QList<PermissionRule> rules;
    const bool isDirectory = QFileInfo(path.absolute).isDir();
    if (!path.relative.isEmpty()) {
        const QString directory = isDirectory ? path.relative : QFileInfo(path.relative).path();
        if (directory != QLatin1String(".") && !directory.isEmpty())
            rules.append(allowRule(tool, directory + QStringLiteral("/**")));
        rules.append(allowRule(tool, QStringLiteral("./") + path.relative));
        return rules;
    }
    const QString directory = isDirectory ? path.absolute : QFileInfo(path.absolute).path();
    rules.append(allowRule(tool,
                           (directory == QLatin1String("/") ? QString() : directory)
                               + QStringLiteral("/**")));
    if (!isDirectory)
        rules.append(allowRule(tool, path.absolute));
    return rules;
}

QString fileChange(const ToolWorkspace &workspace,
                   const PermissionSubject &subject,
                   PermissionRequest &request)
{
    ResolvedPath path;
    QByteArray oldBody;
    QByteArray newBody;
    if (toolKind(subject.toolName) == ToolKind::Edit) {
        const EditTool::Change change = EditTool::prepare(workspace, subject.arguments);
        if (!change.error.isEmpty())
            return change.error;
        path = change.path;
        oldBody = change.oldBody;
        newBody = change.newBody;
    } else {
        const WriteTool::Change change = WriteTool::prepare(workspace, subject.arguments);
        if (!change.error.isEmpty())
            return change.error;
        path = change.path;
        oldBody = change.oldBody;
        newBody = change.newBody;
        request.newFile = change.created;
    }
    // As the tools' own details show it: LF line endings, no byte order mark.
    request.filePath = path.path;
    request.displayPath = path.displayPath();
    request.oldText = QString::fromUtf8(TextFile::toLf(oldBody));
    request.newText = QString::fromUtf8(TextFile::toLf(newBody));
    request.diff = UnifiedDiff::compute(request.oldText, request.newText);
    return {};
}

} // namespace

QString PermissionReview::describe(const ToolWorkspace *workspace,
                                   const PermissionSubject &subject,
                                   PermissionRequest &request)
{
    request.toolName = subject.toolName;
    request.arguments = subject.arguments;
    request.suggestedRules = suggestedRules(subject);
    if (toolKind(subject.toolName) == ToolKind::Bash) {
        request.bash = subject.bash;
        if (workspace) {
            request.workingDirectory = workspace->root();
            request.sandbox = workspace->sandboxPolicy().decide();
        }
        request.timeoutMs = int(
            subject.arguments.value(QLatin1String("timeout")).toInteger(BashTool::defaultTimeoutMs));
        return {};
    }
    if (workspace && changesFile(toolKind(subject.toolName)))
        return fileChange(*workspace, subject, request);
    if (!subject.paths.isEmpty()) {
        request.filePath = subject.paths.first().absolute;
        request.displayPath = subject.paths.first().relative.isEmpty()
                                  ? subject.paths.first().absolute
                                  : subject.paths.first().relative;
    }
    return {};
}

QList<PermissionRule> PermissionReview::suggestedRules(const PermissionSubject &subject)
{
    QList<PermissionRule> rules;
    const auto add = [&rules](const QList<PermissionRule> &more) {
        for (const PermissionRule &rule : more) {
            if (!rules.contains(rule))
                rules.append(rule);
        }
    };
    if (toolKind(subject.toolName) == ToolKind::Bash) {
        // A rule never approves what the analysis did not understand: nothing to offer.
        if (!subject.bash || !subject.bash->understood)
            return rules;
        for (const SimpleCommand &command : subject.bash->commands)
            add(commandRules(command));
        return rules;
    }
    const bool edits = changesFile(toolKind(subject.toolName));
    const bool reads = allowRule(toolKindName(ToolKind::Read)).appliesTo(subject.toolName);
    if ((edits || reads) && !subject.paths.isEmpty()) {
        for (const PermissionSubject::Path &path : subject.paths)
            add(pathRules(toolKindName(edits ? ToolKind::Edit : ToolKind::Read), path));
        return rules;
    }
    rules.append(allowRule(subject.toolName));
    return rules;
}

QList<PermissionRule> PermissionReview::defaultRules(const PermissionSubject &subject)
{
    if (toolKind(subject.toolName) != ToolKind::Bash) {
        const QList<PermissionRule> suggested = suggestedRules(subject);
        return suggested.isEmpty() ? suggested : suggested.mid(0, 1);
    }
    QList<PermissionRule> rules;
    if (!subject.bash || !subject.bash->understood)
        return rules;
    for (const SimpleCommand &command : subject.bash->commands) {
        const QList<PermissionRule> suggested = commandRules(command);
        if (!suggested.isEmpty() && !rules.contains(suggested.first()))
            rules.append(suggested.first());
    }
    return rules;
}

} // namespace AgentCore
