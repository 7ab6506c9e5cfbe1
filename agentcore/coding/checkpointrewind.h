#pragma once

#include <checkpoint/checkpointstore.h>
#include <context/rewind.h>

#include <QJsonObject>
#include <QList>
#include <QSet>

#include <optional>

namespace AgentCore {

class SessionLog;

/// Rewinding a session's files to one of its checkpoints: the one path the window's "Rewind to
/// here" (Ui::CheckpointRewindFiles, Ui::RewindController) and `agentdesk --rewind` both take,
/// so that a rewind picks its checkpoint, is made undoable and is recorded in the session the
/// same way wherever it is done. Blocking (it runs git): call it off the UI thread or from the
/// command line.
struct CheckpointRewind
{
    /// The checkpoint a rewind to right before raw message \a messageIndex restores: the latest
    /// of \a checkpoints (oldest first) whose messageIndex is at most \a messageIndex (a
    /// restore's own checkpoint, index -1, is never one) that is a state of the active branch,
    /// whose messages have the timestamps \a branchTimes (Checkpoint::isOnBranch: another
    /// branch's checkpoint at the same index holds another history of the files); nullopt when
    /// there is none.
    static std::optional<Checkpoint> before(const QList<Checkpoint> &checkpoints,
                                            qsizetype messageIndex,
                                            const QList<qint64> &branchTimes);

    /// The paths among \a diff's files (what restoring \a checkpoint would change) that the
    /// user changed since \a checkpoint: edited by hand, created or deleted, also when the agent
    /// changed them again later (a rewind would lose the user's part). The recorder takes a
    /// checkpoint at the turn after every side effect of the agent (BeforeTool), so each step
    /// of the session's chain in \a store after \a checkpoint is the agent's when it ends at
    /// one of those, and the user's when it ends at a prompt's checkpoint (UserMessage), a
    /// rewind's (BeforeRestore) or the tree now: what changed after the agent last worked. A
    /// file a rewind wrote back (as at one of the session's earlier checkpoints) is not the
    /// user's. A rewind asks before touching these (keep or overwrite). \a error: the chain
    /// could not be compared; all of \a diff's files are then returned, the safe answer.
    static QStringList userChanges(CheckpointStore &store,
                                   const Checkpoint &checkpoint,
                                   const CheckpointDiff &diff,
                                   QString *error = nullptr);

    /// Restores \a checkpoint in \a store except the paths in \a keep (CheckpointStore::restore:
    /// the state it replaces is recorded first, RestoreOutcome::undo) and fills in what
    /// \a rewind records of it: its checkpoint, undoCheckpoint, restoredFiles (written back or
    /// deleted) and keptFiles. \a rewind is left alone when nothing was restored (undo is null).
    static RestoreOutcome restore(CheckpointStore &store,
                                  const Checkpoint &checkpoint,
                                  const QSet<QString> &keep,
                                  Rewind *rewind);

    /// Records \a rewind in the session file \a log holds, the way the window's session does
    /// (AgentSession::rewind through its SessionRecorder): the rewind message, then the state
    /// \a state (the file's last one) with \a undo added to its checkpoints (when not null), so
    /// that opening the session shows the rewind and offers "Undo rewind", and the resumed
    /// session knows the undo checkpoint. Synced to disk. false and \a error when it cannot be
    /// written.
    static bool record(SessionLog &log,
                       const QJsonObject &state,
                       const Rewind &rewind,
                       const Checkpoint &undo,
                       QString *error);
};

} // namespace AgentCore
