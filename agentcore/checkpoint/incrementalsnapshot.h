#pragma once

#include "changedpathscan.h"
#include "checkpointstore.h"
#include "treewatcher.h"

#include <QByteArray>
#include <QSet>
#include <QString>

#include <optional>

namespace AgentCore {

class StoreSession;
struct SnapshotBase;

/// A checkpoint of the previous snapshot's tree with only the paths the watcher names read
/// again (ChangedPathScan): no stat of the whole tree, no read of the shadow index; one
/// `git check-ignore`, one `git fast-import`. The tree it makes is the one the full pass would
/// make, or there is none (nullopt) and the full pass runs: the watcher is unsure, the ignore
/// rules from outside the tree changed, a file crossed the size cap either way or became
/// unreadable (the full pass keeps the index and the list of files left out in step), a nested
/// repository is involved, a path is ignored that the previous tree holds (added before the
/// rule), or anything fails.
class IncrementalSnapshot final
{
public:
    IncrementalSnapshot(StoreSession &session, SnapshotBase &base);

    /// Records \a checkpoint (its time and skipped filled in) on its session's chain; nullopt:
    /// the full pass must run.
    std::optional<CheckpointOutcome> commit(Checkpoint checkpoint);

private:
    bool canBuildOn(const TreeWatcher::Changes &changes) const;
    std::optional<QSet<QByteArray>> ignoredPaths(const QList<ChangedPathScan::Entry> &entries) const;
    bool baseLacks(const QString &base, const QSet<QByteArray> &ignored) const;
    std::optional<QString> treeId(const QString &base) const;
    std::optional<QByteArray> importStream(const Checkpoint &checkpoint,
                                           const QString &ref,
                                           const QString &base,
                                           const ChangedPathScan &scan,
                                           const QSet<QByteArray> &ignored) const;
    std::optional<QByteArray> contentOf(const ChangedPathScan::Entry &entry) const;
    std::optional<CheckpointOutcome> runImport(Checkpoint checkpoint,
                                               const QString &ref,
                                               const QByteArray &stream);

    StoreSession &m_session;
    SnapshotBase &m_base;
};

} // namespace AgentCore
