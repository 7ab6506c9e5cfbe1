#pragma once

#include <QFuture>
#include <QList>
#include <QString>

#include <algorithm>
#include <functional>

namespace AgentCore {

/// A problem a checker (a language server) finds that an Edit's or Write's proposal would
/// introduce: one the file as it is does not have.
struct ProposalProblem
{
    int line = 0; ///< 1-based, in PermissionRequest::newText
    int column = 0;
    bool isError = true; ///< else a warning (information and hints are not shown)
    QString message;     ///< "use of undeclared identifier 'x' [clang]"
};

/// What a checker found in a proposal before it was applied (PermissionRequest::proposalCheck).
struct ProposalCheck
{
    QString checker; ///< "clangd"
    QList<ProposalProblem> introduced;
    QString error; ///< non-empty: the checker could not tell (it took too long, it died)

    int errorCount() const
    {
        return int(std::count_if(introduced.cbegin(), introduced.cend(), [](const auto &problem) {
            return problem.isError;
        }));
    }
    int warningCount() const { return int(introduced.size()) - errorCount(); }
};

/// Starts the check of an Edit's or Write's proposal, off the caller's thread; an invalid
/// future when nothing checks that file (PermissionGate::checkProposal).
using ProposalChecker = std::function<QFuture<ProposalCheck>(
    const QString &filePath, const QString &oldText, const QString &newText, bool newFile)>;

} // namespace AgentCore
