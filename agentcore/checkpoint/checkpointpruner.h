#pragma once

#include <QSet>
#include <QString>
#include <QStringList>

namespace AgentCore {

class CheckpointStore;

/// Keeps a checkpoint store from growing without bound: the checkpoints of sessions that no
/// longer exist are dropped, and of each session only the newest ones are kept (Limits); then
/// git's garbage collection frees what nothing reaches any more.
///
/// How, without changing the id of any kept checkpoint (session files name them): a session's
/// checkpoints are a chain of commits under its ref, so a deleted session's ref is deleted,
/// and a chain is cut below its oldest kept checkpoint by listing that commit in the store's
/// `shallow` file (git then treats it as having no parent: `git log` stops there and gc no
/// longer reaches the older ones).
///
/// Blocking (it runs git, gc can take seconds on a large store): run it on a worker thread,
/// off the agent's critical path (CodingAgent does when it is made, at most once a day per
/// store). The refs and the shallow file are changed under the store's lock; gc runs after the
/// lock is released (a snapshot is never kept waiting for it), so it only deletes unreachable
/// objects older than Limits::unreachableExpiry: an object a concurrent snapshot just wrote is
/// never among them.
class CheckpointPruner final
{
public:
    struct Limits
    {
        /// The newest checkpoints of a session kept whatever their age.
        int keepNewest = 50;
        /// Beyond keepNewest, checkpoints are kept up to this many per session while they are
        /// younger than maxAgeDays.
        int maxPerSession = 500;
        int maxAgeDays = 30;
        /// A session with no file is dropped once its newest checkpoint is this old: another
        /// window may be starting a session whose file is not written yet.
        int deletedSessionGraceSeconds = 600;
        /// git's --prune=: unreachable objects younger than this stay (see above). "now" is
        /// safe only while nothing else writes to the store (tests).
        QString unreachableExpiry = QStringLiteral("1.hour.ago");
    };

    struct Outcome
    {
        QStringList droppedSessions; ///< ids whose checkpoints all went
        int droppedCheckpoints = 0;  ///< older checkpoints cut from kept sessions
        QString error;               ///< for the log; nothing, or not everything, was pruned
    };

    /// Prunes \a store. \a liveSessions: the ids of the sessions that exist (their files'
    /// ids, SessionStore::idOf); every other session's checkpoints are dropped.
    static Outcome prune(const CheckpointStore &store,
                         const QSet<QString> &liveSessions,
                         const Limits &limits);
    static Outcome prune(const CheckpointStore &store, const QSet<QString> &liveSessions)
    {
        return prune(store, liveSessions, Limits());
    }
};

} // namespace AgentCore
