#pragma once

#include <QByteArray>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace AgentCore {

/// One blocking run of the `git` command: the one place AgentDesk starts git and reads what it
/// said, shared by the checkpoints' shadow repository (ShadowGit) and the session worktrees
/// (worktree/). A value; thread-safe (no state).
struct GitProcess
{
    struct Result
    {
        int exitCode = -1;
        QByteArray out;
        QByteArray err;
        QString startError; ///< git could not be started or crashed
        bool ok() const { return startError.isEmpty() && exitCode == 0; }
        /// git's own words, for a message: the last lines of stderr, or the start error.
        QString problem() const;
    };

    /// `git <args>` in \a workingDirectory (the root when it does not exist) with exactly
    /// \a environment, \a input on its stdin. Waits up to \a timeoutMs, then kills it.
    static Result run(const QStringList &args,
                      const QString &workingDirectory,
                      const QProcessEnvironment &environment,
                      const QByteArray &input = {},
                      int timeoutMs = 600000);

    /// The process environment without any GIT_* variable: a hook or a terminal that started
    /// AgentDesk (GIT_DIR, GIT_INDEX_FILE, GIT_WORK_TREE...) would point git at another
    /// repository or index. LC_ALL=C (messages parsed), no terminal prompt.
    static QProcessEnvironment cleanEnvironment();
};

} // namespace AgentCore
