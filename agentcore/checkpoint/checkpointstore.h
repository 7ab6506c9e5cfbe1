#pragma once

#include "checkpoint.h"
#include "checkpointdiff.h"

#include <QSet>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace AgentCore {

class ShadowGit;
struct SnapshotBase;

/// What CheckpointStore::create() made, or why it could not.
struct CheckpointOutcome
{
    std::optional<Checkpoint> checkpoint;
    QString error; ///< for people: "could not record a checkpoint: <git's words>"
    /// For people: what had to be repaired on the way (a stale lock a killed AgentDesk's git
    /// left in the store, removed); empty when nothing.
    QString repaired;
    /// The snapshot read only the paths the TreeWatcher named, not the whole tree (tests, the
    /// benchmark).
    bool incremental = false;
    bool ok() const { return checkpoint.has_value(); }
};

/// What CheckpointStore::restore() did.
struct RestoreOutcome
{
    /// The state just before the restore (Reason::BeforeRestore): restoring it undoes the
    /// restore. Null when it could not be recorded (then nothing was restored).
    Checkpoint undo;
    QStringList written; ///< paths written back (relative), in order
    QStringList deleted; ///< paths deleted (they did not exist at the checkpoint)
    QStringList kept;    ///< paths left as they are because the caller asked
    QStringList failed;  ///< "path: reason" for each file that could not be restored
    QString error;       ///< non-empty: nothing, or not everything, was restored
    bool ok() const { return error.isEmpty() && failed.isEmpty(); }
};

/// The shadow store of one working tree's checkpoints: a bare git repository in AgentDesk's
/// data folder, driven through the `git` command with its own GIT_DIR, work tree and index
/// file, so file contents are stored once and a snapshot of an unchanged tree costs a stat
/// pass (the shadow index keeps the stat data). With a TreeWatcher (Linux: inotify) it costs
/// not even that: from its first snapshot on, a store watches the tree, and a checkpoint whose
/// watcher is sure what changed since the store's previous snapshot is the previous tree with
/// only those paths read again (one `git check-ignore`, one `git fast-import`); whenever the
/// watcher is unsure, or the ignore rules, the files left out or nested repositories are
/// involved, the full `git status` pass runs as before. The user's .git (index, refs, stash, hooks,
/// config) is never read for writing nor changed: only its info/exclude is read, so the files
/// its .gitignore files, info/exclude and the user's own excludes file (core.excludesFile,
/// ~/.config/git/ignore) leave out are left out here too: what `git status` shows as the
/// user's. A repository nested in the tree (not a submodule) is covered file by file (its
/// .gitignore files apply, its .git is left alone). A folder that is not a git repository
/// works the same. CheckpointPruner keeps the store from growing without bound. Hooks, attributes filters, end-of-line conversion and the
/// user's global and system git config do not apply: bytes, modes and symbolic links (as
/// links) are kept exactly.
///
/// Each session's checkpoints are a chain of commits (parent: the session's previous
/// checkpoint) under refs/agentdesk/<session>/head; the metadata is the commit's message.
///
/// Thread-safe and safe across processes: every operation takes a lock file in the store.
/// Blocking (it runs git); call it on a worker thread (CheckpointRecorder does).
/// A restore interrupted by kill -9 is finished by the next operation on the store
/// (recoverInterruptedRestore): each file is either as before or as after, never half
/// written.
class CheckpointStore final
{
public:
    static constexpr qint64 defaultMaxFileBytes = 10 * 1024 * 1024;

    /// \a workTree: the working tree's top folder (canonical). \a storeRoot: the folder
    /// holding the shadow stores of every working tree (defaultStoreRoot()).
    CheckpointStore(QString workTree, QString storeRoot, qint64 maxFileBytes = defaultMaxFileBytes);
    ~CheckpointStore();
    CheckpointStore(const CheckpointStore &) = delete;
    CheckpointStore &operator=(const CheckpointStore &) = delete;

    /// <AppLocalDataLocation>/checkpoints
    static QString defaultStoreRoot();

    QString workTree() const { return m_workTree; }
    /// The shadow repository of this working tree: <storeRoot>/<folder name>-<hash of the path>.git
    QString gitDir() const { return m_gitDir; }
    qint64 maxFileBytes() const { return m_maxFileBytes; }

    /// Records the working tree as it is now as the session's newest checkpoint. \a request's
    /// id, time and skipped are filled in; the rest is kept.
    CheckpointOutcome create(const Checkpoint &request);

    /// The session's checkpoints, oldest first (read from the store, so a resumed session
    /// or the command line sees them without the session file).
    QList<Checkpoint> list(const QString &sessionId) const;
    /// The checkpoint \a id (any session), or nullopt when the store does not have it.
    std::optional<Checkpoint> find(const QString &id) const;

    /// What restoring \a checkpoint would change in the working tree now.
    CheckpointDiff diff(const Checkpoint &checkpoint) const;
    /// The paths whose content or mode differs between the checkpoints \a from and \a to (any
    /// order; names only, nothing read): what changed from one recorded state to the other.
    /// Empty with \a error set when either is not in the store.
    QStringList changedPaths(const Checkpoint &from, const Checkpoint &to, QString *error) const;

    /// Brings the working tree back to \a checkpoint, except the paths in \a keep (relative,
    /// as CheckpointFileChange::path) and the files the checkpoint does not cover. First
    /// records the current state (RestoreOutcome::undo, in the checkpoint's session), so the
    /// restore can be undone. Each file is written to a temporary file and renamed over the
    /// old one, under a journal replayed after a crash. Symbolic links are restored as links;
    /// nothing is ever written through a link (a folder on the way that is a link is an error
    /// for that file, not followed).
    RestoreOutcome restore(const Checkpoint &checkpoint, const QSet<QString> &keep = {});

    /// Finishes a restore a crash interrupted (its journal is in the store). Returns the paths
    /// it wrote or deleted; empty when there was nothing to finish. Every operation above
    /// calls it first; call it at start-up to repair the tree early.
    QStringList recoverInterruptedRestore();

private:
    QString m_workTree;
    QString m_gitDir;
    qint64 m_maxFileBytes;
    /// What the next snapshot can build on: the watcher and the previous snapshot's tree.
    /// Null when the store is inside the tree (its own writes would be changes).
    std::unique_ptr<SnapshotBase> m_base;
};

} // namespace AgentCore
