#include "diagnosticstool.h"
#include "proposaldiagnostics.h"
#include "translation.h"

#include <lsp/lsphost.h>
#include <tools/textfile.h>
#include <tools/toolschema.h>
#include <tools/toolworkspace.h>

#include <QDir>
#include <QJsonArray>

#include <algorithm>

namespace AgentCore {

namespace {

constexpr qint64 maxServerTextBytes = 4 * 1024 * 1024;
constexpr qsizetype maxIntroducedShown = 20;

QString serverNames(const LspHost &host)
{
    QStringList names;
    for (const LspServerConfig &config : host.servers())
        names.append(QStringLiteral("%1 (.%2)")
                         .arg(config.name, config.suffixes.join(QStringLiteral(", ."))));
    return names.join(QStringLiteral("; "));
}

bool worthTelling(const LspDiagnostic &diagnostic)
{
    return diagnostic.severity == LspDiagnostic::Severity::Error
           || diagnostic.severity == LspDiagnostic::Severity::Warning;
}

// What the model is told after a change of \a displayPath: empty when there is nothing new.
QString feedback(const LspFileDiagnostics &answer, const QString &server, const QString &displayPath)
{
    QStringList parts;
    if (!answer.notice.isEmpty())
        parts.append(answer.notice + u'.');
    if (!answer.ok) {
        parts.append(CodingTr::tr("No diagnostics for this change: %1.").arg(answer.error));
        return parts.join(u'\n');
    }
    QList<LspDiagnostic> shown;
    QString heading;
    if (answer.before) {
        for (const LspDiagnostic &d : introducedDiagnostics(*answer.before, answer.diagnostics)) {
            if (worthTelling(d))
                shown.append(d);
        }
        heading = CodingTr::tr("%1 reports %n new problem(s) in %2 after this change:",
                               nullptr,
                               int(shown.size()))
                      .arg(server, displayPath);
    } else {
        // The server had not checked the text before: what is new cannot be told, the errors
        // the file has now can.
        for (const LspDiagnostic &d : answer.diagnostics) {
            if (d.severity == LspDiagnostic::Severity::Error)
                shown.append(d);
        }
        heading = CodingTr::tr("%1 reports %n error(s) in %2 now:", nullptr, int(shown.size()))
                      .arg(server, displayPath);
    }
    if (!shown.isEmpty())
        parts.append(heading + u'\n' + diagnosticsText(shown, maxIntroducedShown));
    return parts.join(u'\n');
}

void append(ToolResult &result, const QString &text)
{
    if (text.isEmpty())
        return;
    // The card shows the diff, not the text: its details show what the model was told.
    result.details.other.insert(QStringLiteral("diagnostics"), text);
    for (ContentBlock &block : result.content) {
        if (block.type == ContentBlock::Type::Text) {
            block.text += QStringLiteral("\n\n") + text;
            return;
        }
    }
    result.content.append(ContentBlock::makeText(text));
}

} // namespace

DiagnosticsTool::DiagnosticsTool(std::shared_ptr<LspHost> host,
                                 std::shared_ptr<ToolWorkspace> workspace)
    : m_host(std::move(host))
    , m_workspace(std::move(workspace))
{}

ToolDefinition DiagnosticsTool::definition() const
{
    return {
        toolName(),
        CodingTr::tr("The language server's current problems in a file (line:column severity: "
                     "message, errors first); without file_path, those of every file checked "
                     "in this session. Servers: %1.")
            .arg(serverNames(*m_host)),
        QJsonObject{
            {QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"),
             QJsonObject{{QStringLiteral("file_path"), schemaProperty("string")}}},
            {QStringLiteral("additionalProperties"), false},
        },
    };
}

std::optional<QString> DiagnosticsTool::serverText(const QString &path)
{
    TextFile file;
    QString error;
    if (!file.load(path, maxServerTextBytes, &error))
        return std::nullopt;
    return file.text();
}

ToolResult DiagnosticsTool::execute(const ToolCallContext &context)
{
    const QString asked = context.arguments.value(QLatin1String("file_path")).toString();
    if (asked.isEmpty())
        return everyFile();
    const ResolvedPath path = m_workspace->resolve(asked, PathAccess::Read);
    if (!path.ok())
        return ToolResult::makeError(path.error);
    if (!path.insideRoot) {
        return ToolResult::makeError(
            CodingTr::tr("%1 is outside the repository: only its files are checked.")
                .arg(path.displayPath()));
    }
    const std::shared_ptr<LspClient> client = m_host->clientFor(path.path);
    if (!client) {
        return ToolResult::makeError(
            CodingTr::tr("No language server here is for %1 (servers: %2).")
                .arg(path.displayPath(), serverNames(*m_host)));
    }
    const std::optional<QString> text = serverText(path.path);
    if (!text) {
        return ToolResult::makeError(
            CodingTr::tr("%1 cannot be checked: it is missing, binary or over 4 MB.")
                .arg(path.displayPath()));
    }
    const LspFileDiagnostics answer = client->diagnose(path.path, *text, waitMs, context.abort);
    if (!answer.ok)
        return ToolResult::makeError(answer.error);
    const QString server = client->config().name;
    QString out = answer.notice.isEmpty() ? QString() : answer.notice + QStringLiteral(".\n");
    if (answer.diagnostics.isEmpty()) {
        out += CodingTr::tr("%1: no problems in %2.").arg(server, path.displayPath());
    } else {
        out += CodingTr::tr("%1: %n problem(s) in %2:", nullptr, int(answer.diagnostics.size()))
                   .arg(server, path.displayPath())
               + u'\n' + diagnosticsText(answer.diagnostics, maxShown);
    }
    return ToolResult::makeText(out);
}

ToolResult DiagnosticsTool::everyFile() const
{
    QStringList lines;
    qsizetype problems = 0;
    const QDir root(m_workspace->root());
    for (const std::shared_ptr<LspClient> &client : m_host->clients()) {
        for (const auto &[path, diagnostics] : client->allDiagnostics()) {
            if (diagnostics.isEmpty())
                continue;
            problems += diagnostics.size();
            lines.append(
                QStringLiteral("%1 (%2):").arg(root.relativeFilePath(path), client->config().name));
            lines.append(diagnosticsText(diagnostics, maxShown));
        }
    }
    if (lines.isEmpty()) {
        return ToolResult::makeText(
            CodingTr::tr("No problems in the files checked in this session (a file is checked "
                         "when it is edited, or asked about with file_path)."));
    }
    return ToolResult::makeText(
        CodingTr::tr("%n problem(s) in the files checked in this session:", nullptr, int(problems))
        + u'\n' + lines.join(u'\n'));
}

ToolMiddleware makeDiagnosticsMiddleware(std::shared_ptr<LspHost> host,
                                         std::shared_ptr<ToolWorkspace> workspace,
                                         std::shared_ptr<ProposalDiagnostics> proposals,
                                         int waitMs)
{
    return [host, workspace, proposals, waitMs](ToolCallContext &context, const ToolNext &next) {
        const ToolKind kind = toolKindOf(context);
        if (kind == ToolKind::Read) {
            // A file read is often a file about to be changed: its server starts and checks it
            // while the model thinks, and the change's wait is then only the check of the change.
            ToolResult result = next(context);
            const ResolvedPath path
                = workspace->resolve(context.arguments.value(QLatin1String("file_path")).toString(),
                                     PathAccess::Read);
            if (result.isError || !path.ok() || !path.insideRoot)
                return result;
            if (const std::shared_ptr<LspClient> client = host->clientFor(path.path)) {
                if (const std::optional<QString> text = DiagnosticsTool::serverText(path.path))
                    client->open(path.path, *text);
            }
            return result;
        }
        if (!changesFile(kind))
            return next(context);
        const ResolvedPath path
            = workspace->resolve(context.arguments.value(QLatin1String("file_path")).toString(),
                                 PathAccess::Write);
        const std::shared_ptr<LspClient> client = path.ok() && path.insideRoot
                                                      ? host->clientFor(path.path)
                                                      : nullptr;
        if (!client)
            return next(context);
        const std::optional<QString> before = DiagnosticsTool::serverText(path.path);
        // The review's check of this change, if it had one: not one of another change that
        // was denied (its text before is not this file's).
        std::optional<ProposalDiagnostics::Pending> proposal = proposals
                                                                   ? proposals->take(path.path)
                                                                   : std::nullopt;
        if (proposal && proposal->oldText != before.value_or(QString()))
            proposal.reset();
        if (!proposal && before)
            client->open(path.path, *before); // checked while the change is applied
        ToolResult result = next(context);
        if (result.isError)
            return result;
        const std::optional<QString> after = DiagnosticsTool::serverText(path.path);
        if (!after)
            return result;
        const bool checked = proposal
                             && proposal->answer.wait_for(std::chrono::milliseconds(waitMs))
                                    == std::future_status::ready;
        LspFileDiagnostics answer;
        if (checked && proposal->newText == *after && proposal->answer.get().ok) {
            answer = proposal->answer.get(); // the proposal as the reviewer saw it checked
        } else {
            // The user's own version, or some hunks only: the server checks what was written,
            // against the text before as the review's check had it.
            answer = client->diagnose(path.path, *after, waitMs, context.abort);
            if (checked && proposal->answer.get().before)
                answer.before = proposal->answer.get().before;
        }
        append(result, feedback(answer, client->config().name, path.displayPath()));
        if (answer.ok) {
            // What the file has now, the changed-files list shows it (FileChange::problems).
            result.details.other.insert(QStringLiteral("problems"),
                                        int(std::count_if(answer.diagnostics.cbegin(),
                                                          answer.diagnostics.cend(),
                                                          worthTelling)));
        }
        return result;
    };
}

} // namespace AgentCore
