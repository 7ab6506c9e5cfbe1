#pragma once

#include "checkpointstore.h"
#include "fullsnapshot.h"

namespace AgentCore {

class StoreSession;
struct SnapshotBase;

/// Records the working tree as a session's newest checkpoint: an IncrementalSnapshot when the
/// watcher is sure what changed, else a FullSnapshot committed on the session's chain. Keeps
/// the SnapshotBase the next incremental snapshot builds on.
class SnapshotWriter final
{
public:
    /// \a base: null when there is no watcher (every snapshot is a full pass).
    SnapshotWriter(StoreSession &session, SnapshotBase *base);

    /// The full pass, which the next incremental snapshot builds on. The watcher starts before
    /// it, and what it saw until now is dropped: the pass reads all of it.
    Snapshot snapshot();
    /// Records \a checkpoint: its id, time and skipped are filled in.
    CheckpointOutcome commit(Checkpoint checkpoint);

private:
    CheckpointOutcome commitTree(Checkpoint checkpoint, const Snapshot &snapshot);

    StoreSession &m_session;
    SnapshotBase *m_base;
};

} // namespace AgentCore
