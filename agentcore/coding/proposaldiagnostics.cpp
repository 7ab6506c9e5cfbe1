#include "proposaldiagnostics.h"

#include <lsp/lsphost.h>

#include <QtConcurrent/QtConcurrentRun>

namespace AgentCore {

namespace {

// One check, on a pool thread: the file as it is first, so that what the proposal adds can be
// told apart (a new file has no problems yet), then the proposal, held in the server's memory.
ProposalCheck checkOnServer(const std::shared_ptr<LspClient> &client,
                            const QString &filePath,
                            const QString &oldText,
                            const QString &newText,
                            bool newFile,
                            int waitMs,
                            const std::shared_ptr<std::promise<LspFileDiagnostics>> &promise)
{
    std::optional<QList<LspDiagnostic>> before;
    if (newFile) {
        before.emplace();
    } else if (const LspFileDiagnostics old = client->diagnose(filePath, oldText, waitMs); old.ok) {
        before = old.diagnostics;
    }
    LspFileDiagnostics answer = client->diagnose(filePath,
                                                 newText,
                                                 waitMs,
                                                 {},
                                                 LspClient::TextSource::Proposal);
    if (before)
        answer.before = before;
    promise->set_value(answer);
    return proposalCheckOf(answer, client->config().name);
}

} // namespace

ProposalDiagnostics::ProposalDiagnostics(std::shared_ptr<LspHost> host, int waitMs)
    : m_host(std::move(host))
    , m_waitMs(waitMs)
    , m_pool(std::make_unique<QThreadPool>())
{
    // Each check waits on a server: two at once are plenty, and none takes a thread another
    // part of the program needs (the global pool is as large as the machine has cores).
    m_pool->setMaxThreadCount(2);
}

ProposalDiagnostics::~ProposalDiagnostics()
{
    // A check still waiting on its server (up to twice the wait) is not the caller's to wait
    // for: the window may drop the last reference on its UI thread. The pool ends after its
    // checks on a thread of the application's (which waits for it as it quits); the checks
    // hold their client and promise, nothing of this object.
    (void) QtConcurrent::run(
        [pool = std::shared_ptr<QThreadPool>(std::move(m_pool))] { pool->waitForDone(); });
}

QFuture<ProposalCheck> ProposalDiagnostics::check(const QString &filePath,
                                                  const QString &oldText,
                                                  const QString &newText,
                                                  bool newFile)
{
    const std::shared_ptr<LspClient> client = m_host->clientFor(filePath);
    if (!client)
        return {};
    auto promise = std::make_shared<std::promise<LspFileDiagnostics>>();
    {
        const QMutexLocker locker(&m_mutex);
        m_pending.insert(filePath, Pending{oldText, newText, promise->get_future().share()});
    }
    return QtConcurrent::run(m_pool.get(),
                             checkOnServer,
                             client,
                             filePath,
                             oldText,
                             newText,
                             newFile,
                             m_waitMs,
                             promise);
}

std::optional<ProposalDiagnostics::Pending> ProposalDiagnostics::take(const QString &filePath)
{
    const QMutexLocker locker(&m_mutex);
    const auto it = m_pending.find(filePath);
    if (it == m_pending.end())
        return std::nullopt;
    Pending pending = *it;
    m_pending.erase(it);
    return pending;
}

ProposalCheck proposalCheckOf(const LspFileDiagnostics &answer, const QString &checker)
{
    ProposalCheck check;
    check.checker = checker;
    if (!answer.ok) {
        check.error = answer.error;
        return check;
    }
    // Without the text before, every error of the proposal is shown: the reviewer reads them
    // against the diff.
    const QList<LspDiagnostic> shown = answer.before ? introducedDiagnostics(*answer.before,
                                                                             answer.diagnostics)
                                                     : answer.diagnostics;
    for (const LspDiagnostic &diagnostic : shown) {
        const bool error = diagnostic.severity == LspDiagnostic::Severity::Error;
        if (!error && diagnostic.severity != LspDiagnostic::Severity::Warning)
            continue;
        if (!answer.before && !error)
            continue;
        ProposalProblem problem;
        problem.line = diagnostic.line;
        problem.column = diagnostic.column;
        problem.isError = error;
        problem.message = diagnostic.source.isEmpty()
                              ? diagnostic.message
                              : QStringLiteral("%1 [%2]").arg(diagnostic.message, diagnostic.source);
        check.introduced.append(problem);
    }
    std::stable_sort(check.introduced.begin(),
                     check.introduced.end(),
                     [](const ProposalProblem &a, const ProposalProblem &b) {
                         return a.isError != b.isError ? a.isError : a.line < b.line;
                     });
    return check;
}

} // namespace AgentCore
