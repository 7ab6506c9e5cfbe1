#pragma once

#include <loop/agenttypes.h>

#include <memory>
#include <optional>

namespace AgentCore {

class LspHost;
class ProposalDiagnostics;
class ToolWorkspace;

/// Diagnostics: the language servers' current problems in a file of the repository (errors
/// first), or without a file those of every file they checked in this session. Offered when a
/// server was found (LspHost); read-only, parallel.
class DiagnosticsTool final : public AgentTool
{
public:
    static QString toolName() { return QStringLiteral("Diagnostics"); }
    static constexpr int waitMs = 10'000; ///< for a server's answer, its start included
    static constexpr qsizetype maxShown = 50;

    DiagnosticsTool(std::shared_ptr<LspHost> host, std::shared_ptr<ToolWorkspace> workspace);

    ToolDefinition definition() const override;
    ToolResult execute(const ToolCallContext &context) override;

    /// The text a server is sent for \a path: the file's, when it is a text file of at most
    /// 4 MB; nullopt otherwise (a server is not asked about it).
    static std::optional<QString> serverText(const QString &path);

private:
    ToolResult everyFile() const;

    std::shared_ptr<LspHost> m_host;
    std::shared_ptr<ToolWorkspace> m_workspace;
};

/// After an approved Edit or Write of a file a language server is for, the problems the server
/// finds that the change introduced (errors and warnings, errors first, at most 20), appended
/// to the tool's result so the model sees them in the same turn; waits at most \a waitMs for
/// the server. When the change was reviewed, \a proposals checked it during the review: that
/// answer is used when the change applied is the proposal, and its text before otherwise.
/// Else the server is sent the file's text before the change first; when it has not checked
/// it by the time the change is applied, the errors of the new text are given instead. A
/// server that could not answer is said in one line. A Read of such a file sends its text too
/// (the server starts and checks it while the model thinks). Other tools and files pass
/// through untouched.
ToolMiddleware makeDiagnosticsMiddleware(std::shared_ptr<LspHost> host,
                                         std::shared_ptr<ToolWorkspace> workspace,
                                         std::shared_ptr<ProposalDiagnostics> proposals,
                                         int waitMs);

} // namespace AgentCore
