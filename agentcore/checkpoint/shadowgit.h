#pragma once

#include <process/gitprocess.h>

#include <QByteArray>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace AgentCore {

/// Runs the `git` command on a shadow repository: its own GIT_DIR, work tree and index file,
/// with nothing of the user's git setup (no GIT_* variables inherited, no global or system
/// config, no hooks, no fsmonitor, no end-of-line conversion), through GitProcess (its
/// environment without secrets, its configuration that runs nothing, its guard). A value; each run is one
/// blocking process.
class ShadowGit final
{
public:
    /// What a run gave: exit code, output, git's words (GitProcess::Result).
    using Result = GitProcess::Result;

    /// \a indexFile: empty for <gitDir>/index (another one: a nested repository's snapshot).
    ShadowGit(QString gitDir, QString workTree, const QString &indexFile = {});

    QString gitDir() const { return m_gitDir; }
    QString workTree() const { return m_workTree; }

    /// `git <args>` in the work tree, \a input on its stdin. Waits up to \a timeoutMs. A lock
    /// file of the store in git's way (kill -9 of AgentDesk while its git wrote: "Unable to
    /// create '.../index.lock': File exists") that no process holds open any more is removed
    /// and the command run again; one still held is waited for a few seconds (the git of a
    /// killed AgentDesk, which ChildGroupGuard ends). Call it only while holding the store's
    /// lock (CheckpointStore does), so no live AgentDesk's git can be the holder.
    Result run(const QStringList &args, const QByteArray &input = {}, int timeoutMs = 600000) const;
    /// Like run(), but git may write the index back when it reads it (`git status` keeps the
    /// refreshed stat data and the untracked cache there, so the next one stats less). Only
    /// while the store's lock is held.
    Result runUpdatingIndex(const QStringList &args) const;
    /// Creates the bare repository at gitDir() (git refuses GIT_WORK_TREE for init).
    Result init() const;
    /// Where a line for people is appended for each stale lock removed (not owned; null:
    /// removed without a word).
    void setRepairLog(QStringList *repairs) { m_repairs = repairs; }

private:
    QString m_gitDir;
    QString m_workTree;
    Result run(const QStringList &args,
               const QByteArray &input,
               int timeoutMs,
               const QProcessEnvironment &environment) const;
    /// The store's lock file git said was in its way; empty when none.
    QString lockInTheWay(const Result &result) const;
    /// Removes \a lock unless a process holds it after a wait; true when it is gone.
    bool clearStaleLock(const QString &lock) const;

    QProcessEnvironment m_environment;
    QStringList *m_repairs = nullptr;
};

} // namespace AgentCore
