#pragma once

#include <QByteArray>
#include <QList>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <utility>

namespace AgentCore {

/// One blocking run of the `git` command: the one place AgentDesk itself starts git (the system
/// prompt's status, the checkpoints' shadow store through ShadowGit, the session worktrees, the
/// window's diff baseline and its uncommitted-changes check). Never the agent's own `git` in
/// Bash, which stays the user's.
///
/// Opening a repository runs nothing of it: a repository's configuration (.git/config and what
/// it includes) may name commands, and git runs them on ordinary reads. Each run therefore gets
///  - an environment from an allow-list (environment()): no provider key nor any other secret
///    of AgentDesk's, no GIT_* of whoever started AgentDesk, no system config, no prompt, no
///    pager, no optional lock;
///  - a configuration that cannot execute (lockedConfig()), given in the command scope
///    (GIT_CONFIG_COUNT, as `-c` but whatever the names hold), which wins over the repository's
///    config and anything it includes: no fsmonitor, hooks, pager, editor, external diff, ssh
///    command, credential helper, signing program or transport, no automatic gc, and every
///    filter driver the configuration or any file it includes names blanked (clean, smudge,
///    process; not required) unless the user's own global configuration defines it (LFS);
///  - `--no-ext-diff --no-textconv` on the commands that diff, and submodules ignored by
///    status and diff (a submodule's own configuration is not listed here);
///  - a process group of its own that ChildGroupGuard ends should AgentDesk die.
/// safe.directory keeps git's meaning: a repository of another user is refused as git refuses
/// it. The user's global configuration (identity, excludes file) still applies.
/// A value; thread-safe (no state).
class GitProcess final
{
public:
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

    struct Options
    {
        /// Set over the allow-list (GIT_DIR, GIT_INDEX_FILE, an identity...): AgentDesk's own
        /// values, never the user's environment.
        QProcessEnvironment environment;
        QByteArray input; ///< on git's stdin
        int timeoutMs = 600000;
        /// The repository's configuration is AgentDesk's own, without global or system config
        /// (the checkpoints' shadow store): no filter driver to list, no extra process.
        bool ownConfiguration = false;
    };

    /// `git <args>` in \a workingDirectory (the root when it does not exist), hardened as said
    /// above. Waits up to Options::timeoutMs, then kills git's group. Never on a window's UI
    /// thread: a run there is reported (a warning of category agentdesk.uithread, which the
    /// window's tests fail on).
    static Result run(const QStringList &args,
                      const QString &workingDirectory,
                      const Options &options);
    /// run() with the default Options but \a timeoutMs.
    static Result run(const QStringList &args,
                      const QString &workingDirectory,
                      int timeoutMs = 600000);

    /// What git sees of the environment: PATH, HOME, USER, LOGNAME, LANG, LC_*, TZ, TMPDIR,
    /// XDG_CONFIG_HOME and EMAIL of AgentDesk's, nothing else (no *_API_KEY, no GIT_*);
    /// LC_ALL=C (messages are parsed), GIT_CONFIG_NOSYSTEM=1, GIT_TERMINAL_PROMPT=0, pagers
    /// and editors off, GIT_OPTIONAL_LOCKS=0 (a read never rewrites an index behind the user's
    /// back).
    static QProcessEnvironment environment();

    /// The settings (key, value) that make git run none of the configuration's commands but
    /// its filters (filterSettings()).
    static QList<std::pair<QString, QString>> lockedConfig();

    /// The filter drivers' settings for a run in \a workingDirectory: every driver the
    /// configuration git reads there names (filter.<name>.*), or any file an include or
    /// includeIf of it names whatever the condition (it may hold where a command's own child
    /// git runs: a new worktree), gets the user's own global values (Git LFS) or none (clean,
    /// smudge, process blank; not required): the repository's commands never run. Reading
    /// configuration runs nothing.
    static QList<std::pair<QString, QString>> filterSettings(const QString &workingDirectory,
                                                             const QProcessEnvironment &environment);
};

} // namespace AgentCore
