#pragma once

#include <tools/shellwrite.h>

#include <QHash>
#include <QList>
#include <QString>

namespace AgentCore {

/// What a session's worktree changed against the commit it started from (its branch's commits
/// and what is not committed, untracked files included, ignored ones not), as the writes
/// review shows and the applier applies it: one ShellWrite per path, old side the base
/// commit's, new side the worktree's. A plain value (SessionWorktrees::changes).
struct WorktreeChanges
{
    QList<ShellWrite> changes; ///< sorted by path
    /// Index into changes -> why it cannot come back: the main checkout's file is no longer
    /// the base commit's (changed, created or deleted there since). Never applied.
    QHash<int, QString> conflicts;
    QString error; ///< the changes could not be read (the worktree is broken: why)
};

} // namespace AgentCore
