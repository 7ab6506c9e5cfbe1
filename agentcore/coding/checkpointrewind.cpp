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

QStringList CheckpointRewind::userChanges(CheckpointStore &store,
                                          const Checkpoint &checkpoint,
                                          const CheckpointDiff &diff,
                                          QString *error)
{
    QStringList all;
    for (const CheckpointFileChange &change : diff.files)
        all.append(change.path);
    if (all.isEmpty())
        return all;
    const QList<Checkpoint> checkpoints = store.list(checkpoint.sessionId);
    if (checkpoints.isEmpty()) {
        if (error)
            *error = QStringLiteral("the session %1 has no checkpoints in %2")
                         .arg(checkpoint.sessionId, store.gitDir());
        return all;
    }
    // What changed since the latest state AgentDesk recorded: nothing of the agent's (it is
    // recorded after each of its effects), so the user's.
    const CheckpointDiff since = store.diff(checkpoints.constLast());
    if (!since.ok()) {
        if (error)
            *error = since.error;
        return all;
    }
    QSet<QString> candidates;
    for (const CheckpointFileChange &change : since.files)
        candidates.insert(change.path);
    candidates.intersect(QSet<QString>(all.cbegin(), all.cend()));
    // The latest state is the one a rewind replaced: the files that rewind wrote differ from
    // it, but are as at an earlier checkpoint (the one it restored). A file as at one of the
    // session's checkpoints is AgentDesk's; a few of them are compared, newest first.
    if (checkpoints.constLast().reason == Checkpoint::Reason::BeforeRestore) {
        constexpr int maxCompared = 16;
        for (qsizetype i = checkpoints.size() - 2, compared = 0;
             i >= 0 && compared < maxCompared && !candidates.isEmpty();
             --i, ++compared) {
            const CheckpointDiff then = store.diff(checkpoints.at(i));
            if (!then.ok())
                break;
            QSet<QString> differs;
            for (const CheckpointFileChange &change : then.files)
                differs.insert(change.path);
            candidates.intersect(differs);
        }
    }
    QStringList users;
    for (const QString &path : std::as_const(all)) {
        if (candidates.contains(path))
            users.append(path);
    }
    return users;
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
