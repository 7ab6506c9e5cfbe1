#pragma once

#include "treewatcher.h"

#include <QByteArray>
#include <QMutex>
#include <QString>

namespace AgentCore {

/// The state an incremental snapshot builds on, one per CheckpointStore. Guarded by the store's
/// lock (one snapshot at a time) and, within the process, its mutex.
struct SnapshotBase
{
    explicit SnapshotBase(const QString &workTree)
        : watcher(workTree)
    {}

    QMutex mutex;
    TreeWatcher watcher;
    /// The previous snapshot's tree (an object id or a revision naming it); empty: none to
    /// build on (none yet, it failed, or it had nested repositories).
    QString tree;
    QByteArray rules; ///< the user's ignore files that snapshot was taken with
};

} // namespace AgentCore
