#pragma once

#include <QString>
#include <QStringList>

namespace AgentCore {

/// Where a work tree's git data lives, read from the files alone (no git runs): `ROOT/.git`
/// when it is a folder; for a linked worktree or a submodule, the folder its `.git` file names
/// (`gitdir: ...`) and the common folder that one's `commondir` names. These folders hold the
/// configuration and the hooks git runs, so the sandbox keeps them read-only except for git's
/// own work (BwrapCommand::addGitDirectories). A plain value.
struct GitDirectories
{
    QString gitDirectory;    ///< canonical; empty when the root is no work tree
    QString commonDirectory; ///< canonical; the same as gitDirectory for a plain repository
    /// `ROOT/.git` when it is a file (a linked worktree, a submodule): rewritten, it would send
    /// the user's next git to another folder's configuration. Empty for a plain repository.
    QString gitFile;

    /// \a root: the work tree's top folder.
    static GitDirectories of(const QString &root);

    /// What to protect: gitDirectory, commonDirectory when it differs, gitFile; the empty ones
    /// left out.
    QStringList paths() const;
};

} // namespace AgentCore
