#pragma once

#include <QString>
#include <QStringList>

namespace AgentCore {

/// The home folder inside the sandbox: hidden but for what commands need (an allow-list, not
/// a list of secrets, which can never be complete: ~/.pgpass, ~/.vault-token, shell history,
/// browser profiles, editors' state and other projects' .env files are all in a home). The
/// home is an empty, read-only tmpfs at its real path, so HOME-relative tools still find their
/// folder; shown in it, read-only, are git's configuration, the toolchains and their caches
/// (defaultReadablePaths()), the repository and its git folders, the additional directories
/// and the user's extra paths (SandboxPolicy::readablePaths); the caches are privately
/// writable on top (SandboxCaches). The secrets (SandboxPolicy::hiddenPaths) stay hidden, also
/// inside what is shown. Stateless; thread-safe.
class SandboxHome final
{
public:
    /// What commands read under \a home: ~/.gitconfig, ~/.config/git, the toolchains and their
    /// caches (~/.cargo, ~/.rustup, ~/.npm, ~/.nvm, ~/.pyenv, ~/.local/bin, ~/.local/lib/python*,
    /// ~/go, ~/.m2, ~/.gradle, ...). Whether each exists is not checked here. No settings of
    /// other programs, no history, no credentials (those inside a toolchain folder, like
    /// ~/.cargo/credentials.toml, are among SandboxPolicy::defaultHiddenPaths()).
    static QStringList defaultReadablePaths(const QString &home);

    /// The folders of \a pathVariable (a PATH, ':'-separated) that lie inside \a home: a
    /// command finds the programs it found outside (~/bin, ~/opt/tool/bin). Absolute entries
    /// only; the home itself is never one (a PATH naming $HOME does not show the whole home).
    static QStringList pathFolders(const QString &home, const QString &pathVariable);

    /// The git folders of the repository at \a repositoryRoot that lie outside it, which git
    /// reads there: for a worktree (the window's session worktrees) or a submodule `.git` is a
    /// file naming its git folder (and that folder's `commondir`, the main repository's .git).
    /// Empty for an ordinary repository.
    static QStringList gitFolders(const QString &repositoryRoot);
};

} // namespace AgentCore
