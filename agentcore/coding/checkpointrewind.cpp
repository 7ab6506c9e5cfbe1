#include "checkpointrewind.h"

#include "sessionstatefile.h"

#include <session/sessionlog.h>

namespace AgentCore {

std::optional<Checkpoint> CheckpointRewind::before(const QList<Checkpoint> &checkpoints,
                                                   qsizetype messageIndex,
                                                   const QList<qint64> &branchTimes)
{
    std::optional<Checkpoint> found;
    for (const Checkpoint &checkpoint : checkpoints) {
        if (checkpoint.messageIndex >= 0 && checkpoint.messageIndex <= messageIndex
            && checkpoint.isOnBranch(branchTimes))
            found = checkpoint;
    }
    return found;
}

namespace {

// The paths that differ between \a from and \a to; \a to null: the working tree now.
std::optional<QSet<QString>> changedBetween(const CheckpointStore &store,
                                            const Checkpoint &from,
                                            const Checkpoint &to,
                                            QString *error)
{
    QSet<QString> changed;
    if (to.isNull()) {
        const CheckpointDiff since = store.diff(from);
        if (!since.ok()) {
            if (error)
                *error = since.error;
            return std::nullopt;
        }
        for (const CheckpointFileChange &change : since.files)
            changed.insert(change.path);
        return changed;
    }
    QString problem;
    const QStringList paths = store.changedPaths(from, to, &problem);
    if (!problem.isEmpty()) {
        if (error)
            *error = problem;
        return std::nullopt;
    }
    return QSet<QString>(paths.cbegin(), paths.cend());
}

} // namespace

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
    // The rewind's target in the session's chain; not there (pruned, another session's):
    // every step of the chain is looked at, the side that names more.
    qsizetype first = 0;
    for (qsizetype i = 0; i < checkpoints.size(); ++i) {
        if (checkpoints.at(i).id == checkpoint.id)
            first = i;
    }
    // Each step of the chain since the target, and the last one to the tree now, is either
    // the agent's or the user's. The recorder takes a checkpoint at the turn after each of the
    // agent's effects (BeforeTool): what changed up to one is the agent's. What changed up to
    // a prompt's checkpoint (UserMessage), a rewind's (BeforeRestore), or the tree now
    // happened after the agent's last recorded change: the user's (edited by hand, created).
    // A file the user changed and the agent changed after is the user's too: a rewind would
    // lose the user's part.
    QSet<QString> open(all.cbegin(), all.cend());
    QSet<QString> users;
    for (qsizetype i = first + 1; i <= checkpoints.size() && !open.isEmpty(); ++i) {
        const Checkpoint &from = checkpoints.at(i - 1);
        const Checkpoint to = i < checkpoints.size() ? checkpoints.at(i) : Checkpoint();
        if (!to.isNull() && to.reason == Checkpoint::Reason::BeforeTool)
            continue;
        std::optional<QSet<QString>> changed = changedBetween(store, from, to, error);
        if (!changed)
            return all;
        changed->intersect(open);
        // After a rewind's checkpoint come the files that rewind wrote: as at an earlier
        // checkpoint (the one it restored), so AgentDesk's. A few are compared, newest first.
        if (from.reason == Checkpoint::Reason::BeforeRestore) {
            constexpr int maxCompared = 16;
            for (qsizetype j = i - 2, compared = 0;
                 j >= 0 && compared < maxCompared && !changed->isEmpty();
                 --j, ++compared) {
                const std::optional<QSet<QString>> differs = changedBetween(store,
                                                                            checkpoints.at(j),
                                                                            to,
                                                                            nullptr);
                if (!differs)
                    break;
                changed->intersect(*differs);
            }
        }
        users.unite(*changed);
        open.subtract(*changed);
    }
    QStringList named;
    for (const QString &path : std::as_const(all)) {
        if (users.contains(path))
            named.append(path);
    }
    return named;
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
    if (!undo.isNull() && !log.appendState(SessionStateFile::withCheckpoint(state, undo), error))
        return false;
    return log.sync(error);
}

} // namespace AgentCore
