#pragma once

#include "bashtool.h"
#include "bwrapcommand.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace AgentCore {

/// The scratch layer of one command run on an overlay of the repository: bubblewrap mounts an
/// overlayfs at the repository's own path (BwrapCommand::setRepositoryOverlay; the real tree
/// as the read-only lower layer, an upper and a work directory made here), so everything the
/// command writes lands in the upper directory for review (ShellWrites) and the real tree is
/// untouched. The repository's git folders are bound over it (BwrapCommand::addGitDirectories):
/// writable for git's own work (its index, objects and refs are not reviewed, git's undo covers
/// them), read-only for any other command. bubblewrap 0.9 or newer mounts the overlay itself
/// (--overlay-src); with an older one (Debian 12's 0.8) unshare(1) mounts it in a user
/// namespace before bwrap starts (BwrapCommand::OverlayMount). The directories are removed
/// with the object. Not thread-safe; one per command.
class ShellOverlay final
{
public:
    ~ShellOverlay();

    /// Whether commands in \a bwrap (a path or a name on PATH; empty: "bwrap") can run on an
    /// overlay: empty when they can, else why not, said so the user can act ("bubblewrap
    /// cannot run here: ...", "needs bubblewrap 0.9 or newer, found 0.8.0, or unprivileged
    /// user namespaces for unshare"). Tries bwrap's own overlay, then unshare's (mount()), once
    /// per program (a trial run of each), and remembers the answer. Thread-safe.
    static QString unsupportedReason(const QString &bwrap = {});
    /// Who mounts the overlay for \a bwrap (BwrapCommand::setRepositoryOverlay): bwrap itself
    /// where it can (0.9 or newer), else unshare; nullopt where neither can
    /// (unsupportedReason()). Only OverlayMount::Bwrap can overlay the caches too
    /// (SandboxCaches). Thread-safe; the same trial runs as unsupportedReason().
    static std::optional<BwrapCommand::OverlayMount> mount(const QString &bwrap = {});

    /// Makes the scratch directories in \a scratchParent (a folder in AgentDesk's cache or
    /// /tmp: a filesystem overlayfs accepts as upper layer, not overlayfs itself) for
    /// \a root. nullptr and \a error when they cannot be made.
    static std::unique_ptr<ShellOverlay> create(const QString &root,
                                                const QString &scratchParent,
                                                QString *error);

    QString root() const { return m_root; }
    QString upper() const { return m_scratch + QStringLiteral("/upper"); }

    QString work() const { return m_scratch + QStringLiteral("/work"); }

    /// The BashOptions::overlay that makes BashTool run on this overlay.
    BashOptions::Overlay bashOverlay() const { return {upper(), work()}; }

private:
    ShellOverlay() = default;
    QString m_root;
    QString m_scratch;
};

} // namespace AgentCore
