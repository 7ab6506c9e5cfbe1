#pragma once

#include <lsp/lspclient.h>
#include <permissions/proposalcheck.h>

#include <QHash>
#include <QMutex>
#include <QThreadPool>

#include <future>
#include <memory>
#include <optional>

namespace AgentCore {

class LspHost;

/// The language servers' view of an Edit's or Write's proposal while it is reviewed: started
/// when the review is asked for (PermissionGate::checkProposal), the problems the proposal
/// would introduce go to the reviewer (PermissionRequest::proposalCheck), and the same answer
/// to the model after the change, when what was applied is the proposal (take()), so the
/// server checks that text once. Thread-safe: checks run on a pool of their own, their waits
/// bounded by waitMs for each text; dropping it waits for none of them.
class ProposalDiagnostics
{
    Q_DISABLE_COPY_MOVE(ProposalDiagnostics)
public:
    ProposalDiagnostics(std::shared_ptr<LspHost> host, int waitMs);
    ~ProposalDiagnostics();

    /// ProposalChecker: an invalid future when no server is for \a filePath.
    QFuture<ProposalCheck> check(const QString &filePath,
                                 const QString &oldText,
                                 const QString &newText,
                                 bool newFile);

    /// A check of \a filePath's proposal, taken by the change that follows its review.
    struct Pending
    {
        QString oldText;
        QString newText;
        /// The server's answer for newText, with before: the text's before the change.
        std::shared_future<LspFileDiagnostics> answer;
    };
    /// The last check started for \a filePath, forgotten here; nullopt when none was.
    std::optional<Pending> take(const QString &filePath);

private:
    std::shared_ptr<LspHost> m_host;
    const int m_waitMs;
    std::unique_ptr<QThreadPool> m_pool; ///< ended without waiting (~ProposalDiagnostics)
    QMutex m_mutex;
    QHash<QString, Pending> m_pending; ///< by path
};

/// What \a answer says \a after introduced, as the review shows it (errors and warnings).
ProposalCheck proposalCheckOf(const LspFileDiagnostics &answer, const QString &checker);

} // namespace AgentCore
