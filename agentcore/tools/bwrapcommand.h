#pragma once

#include "sandboxpolicy.h"

#include <QString>
#include <QStringList>

namespace AgentCore {

/// The bwrap command line that runs a command in the sandbox of a SandboxPolicy:
///
///     bwrap --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp
///           --tmpfs HOME --tmpfs /run ...  (the home, SandboxHome; sockets' folders, SandboxSockets)
///           --ro-bind P P [--symlink T L] ... (what commands need there: git's configuration,
///                                           the toolchains, readablePaths, worktree git folders)
///           --tmpfs HIDDEN_DIR_AROUND_ROOT ... (a hidden folder that holds the repository)
///           [--ro-bind PATH PATH ...]   (addReadablePath(): the full-output logs in /tmp)
///           --bind ROOT ROOT            (or the overlay of ROOT, setRepositoryOverlay(): bwrap's
///                                        own, or one unshare(1) mounted before, bound here)
///           [--bind PATH PATH ...]      (addWritablePath())
///           [--ro-bind GITDIR GITDIR ...]  (addGitDirectories(); --bind for git's own work)
///           [--overlay-src C --tmp-overlay C | --tmpfs C ...]  (privatePaths, SandboxCaches)
///           --tmpfs HIDDEN_DIR --remount-ro HIDDEN_DIR | --ro-bind /dev/null HIDDEN_FILE ...
///           --tmpfs $XDG_RUNTIME_DIR    (the D-Bus session bus, keyring and agent sockets)
///           --remount-ro HOME --remount-ro /run ... --remount-ro HIDDEN_DIR_AROUND_ROOT ...
///           --unshare-ipc --unshare-pid --unshare-uts --unshare-cgroup-try
///           [--unshare-net] --cap-drop ALL --die-with-parent   (--unshare-all [--share-net])
///           --unsetenv DBUS_SESSION_BUS_ADDRESS --unsetenv SSH_AUTH_SOCK ...
///           --chdir WORKDIR -- COMMAND...
///
/// No --new-session: the caller starts bwrap in a session and process group of its own
/// (setsid), and the command stays in that group, so one signal to the group reaches all of it;
/// --unshare-pid makes bwrap the init of the command's processes, so when it goes, they all go;
/// with --die-with-parent it goes with AgentDesk (BashTool needs no guard process for it).
/// A value; thread-safe for reading.
class BwrapCommand final
{
public:
    /// \a bwrapPath: the program (SandboxDecision::bwrapPath). \a repositoryRoot: the one
    /// writable folder (its links are resolved), also the working directory unless
    /// setWorkingDirectory().
    BwrapCommand(const QString &bwrapPath,
                 const QString &repositoryRoot,
                 const SandboxPolicy &policy);

    /// Who mounts the overlay of setRepositoryOverlay() (ShellOverlay::mount() tells which
    /// works here).
    enum class OverlayMount {
        /// bwrap itself (--overlay-src, --overlay): bubblewrap 0.9 or later.
        Bwrap,
        /// For an older bwrap (Debian 12's 0.8): util-linux's unshare(1) and mount(8) in a
        /// user namespace of their own, before bwrap starts: the overlay is mounted on
        /// `merged` in the folder that holds the upper and work folders (the repository
        /// bound on `lower` there first, so no path needs escaping in the mount options),
        /// and bwrap binds it at the repository's path. bwrap, the root of that namespace,
        /// gives the command the user's own ids again (--unshare-user --uid --gid). The git
        /// folders bound on top come from the real tree, as with bwrap's overlay. Needs
        /// unprivileged user namespaces and overlayfs in them (Linux 5.11).
        Unshare,
    };

    /// Mounts an overlay on the repository instead of binding it: the real tree is the lower
    /// layer (read-only), writes land in \a upperDir; \a workDir is overlayfs' work folder on
    /// the same filesystem as \a upperDir, in the same folder. Both outside the repository.
    void setRepositoryOverlay(const QString &upperDir,
                              const QString &workDir,
                              OverlayMount mount = OverlayMount::Bwrap);
    bool hasRepositoryOverlay() const { return !m_upperDir.isEmpty(); }

    /// One more folder the command may write to (bound read-write at the same path).
    void addWritablePath(const QString &path);
    /// One more folder the command may read, wherever it is (/tmp included, which is private
    /// inside): bound read-only at the same path. An empty or missing one is left out.
    void addReadablePath(const QString &path);
    void setWorkingDirectory(const QString &path) { m_workingDirectory = path; }
    /// The repository's git folders (GitDirectories::paths()): read-only, or, when
    /// \a writable (a command the analysis found to be ordinary git work), read-write. Mounted
    /// over the repository's bind or overlay, so even a folder inside it stays read-only: a
    /// command cannot plant hooks or configuration that git runs later, outside the sandbox.
    void addGitDirectories(const QStringList &paths, bool writable);

    /// bwrap, or unshare for an overlay that OverlayMount::Unshare mounts.
    QString program() const;
    /// bwrap's arguments, then `--`, then \a command (program and arguments); for an overlay
    /// that OverlayMount::Unshare mounts, unshare's and its script's first.
    QStringList arguments(const QStringList &command) const;

    /// The variables removed inside the sandbox: they point at sockets outside it (the session
    /// bus, the SSH and GnuPG agents).
    static QStringList unsetVariables();

private:
    bool mountsOverlayFirst() const
    {
        return hasRepositoryOverlay() && m_overlayMount == OverlayMount::Unshare;
    }
    /// unshare's arguments up to bwrap's path (OverlayMount::Unshare).
    QStringList unshareArguments(const QString &root) const;
    /// The namespaces of --unshare-all (the network's unless allowed) and no capabilities.
    QStringList namespaceArguments() const;
    /// The policy's hidden paths and $XDG_RUNTIME_DIR.
    QStringList hiddenPaths() const;
    /// The folders shown empty and read-only (real paths, a folder before those inside it):
    /// the home and the sockets' folders that exist, unless inside \a root; none with the
    /// mode Off (an overlay for review only).
    QStringList emptiedFolders(const QString &root) const;
    /// The binds and links that show again, read-only, what commands need inside \a emptied
    /// (SandboxHome, SandboxSockets, the policy's readable paths).
    QStringList readableMounts(const QString &root, const QStringList &emptied) const;
    /// The hidden folders that hold \a root (a session worktree in AgentDesk's data folder):
    /// emptied with the repository bound back on top.
    QStringList hiddenFoldersAround(const QString &root) const;

    QString m_bwrapPath;
    QString m_root;
    QString m_workingDirectory;
    SandboxPolicy m_policy;
    QStringList m_writablePaths;
    QStringList m_readablePaths;
    QStringList m_gitDirectories;
    bool m_gitWritable = false;
    QString m_upperDir;
    QString m_workDir;
    OverlayMount m_overlayMount = OverlayMount::Bwrap;
};

} // namespace AgentCore
