#include "checkpointrewind.h"

#include "codingsession.h"

#include <session/sessionlog.h>

namespace AgentCore {

std::optional<Checkpoint> CheckpointRewind::before(const QList<Checkpoint> &checkpoints,
                                                   qsizetype messageIndex)
{
    std::optional<Checkpoint> found;
    for (const Checkpoint &checkpoint : checkpoints) {
        if (checkpoint.messageIndex >= 0 && checkpoint.messageIndex <= messageIndex)
            found = checkpoint;
    }
    return found;
}

RestoreOutcome CheckpointRewind::restore(CheckpointStore &store,
                                         const Checkpoint &checkpoint,
                                         const QSet<QString> &keep,
                                         Rewind *rewind)
{
    RestoreOutcome outcome = store.restore(checkpoint, keep);
    if (outcome.undo.isNull() || !rewind)
        return outcome;
    rewind->checkpoint = checkpoint.id;
    rewind->undoCheckpoint = outcome.undo.id;
    rewind->restoredFiles = outcome.written + outcome.deleted;
    rewind->keptFiles = outcome.kept;
    return outcome;
}

bool CheckpointRewind::record(SessionLog &log,
                              const QJsonObject &state,
                              const Rewind &rewind,
                              const Checkpoint &undo,
                              QString *error)
{
    if (!log.appendMessage(rewind.toMessage(), error))
        return false;
    if (!undo.isNull() && !log.appendState(CodingSession::withCheckpoint(state, undo), error))
        return false;
    return log.sync(error);
}

} // namespace AgentCore
