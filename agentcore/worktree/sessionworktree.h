#pragma once

#include <QJsonObject>
#include <QLatin1StringView>
#include <QString>

#include <optional>

namespace AgentCore {

/// Where a session that works in a git worktree of its own works, as its session state keeps
/// it (key stateKey) so a resumed session finds it again: the main checkout it came from, the
/// worktree's folder, its branch and the commit it started from. A plain value; made by
/// SessionWorktrees::create, never by hand.
struct SessionWorktree
{
    /// The session state's key (SessionRecorder::setStateValue).
    static constexpr QLatin1StringView stateKey{"worktree"};

    QString repositoryRoot; ///< the main checkout's top level
    QString path;           ///< the worktree's folder, in AgentDesk's data folder
    QString branch;         ///< "agentdesk/<slug>-<short id>", without refs/heads/
    QString baseCommit;     ///< full id of the main checkout's HEAD when it was made

    bool isValid() const
    {
        return !repositoryRoot.isEmpty() && !path.isEmpty() && !branch.isEmpty()
               && !baseCommit.isEmpty();
    }

    QJsonObject toJson() const;
    /// nullopt when \a object lacks one of the four keys.
    static std::optional<SessionWorktree> fromJson(const QJsonObject &object);
    /// The worktree of a session \a state (its stateKey), nullopt for an ordinary session.
    static std::optional<SessionWorktree> fromState(const QJsonObject &state);
};

} // namespace AgentCore
