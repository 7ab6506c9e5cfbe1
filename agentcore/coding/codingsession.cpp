#include "codingsession.h"

#include <loop/agent.h>
#include <permissions/permissionsessionstate.h>
#include <session/sessionlog.h>
#include <session/sessionstore.h>
#include <worktree/sessionworktrees.h>

namespace AgentCore {

QList<PermissionRule> CodingSession::restore(const QJsonObject &state,
                                             Agent &agent,
                                             PermissionPolicy &policy,
                                             QStringList *warnings)
{
    SessionRecorder::restore(state, agent);
    return restorePermissionSessionState(state, policy, warnings);
}

namespace {

const QLatin1String checkpointsKey("checkpoints");

} // namespace

void CodingSession::restoreCheckpoints(const QJsonObject &state, CheckpointRecorder &recorder)
{
    QList<Checkpoint> checkpoints;
    for (const QJsonValue &value : state.value(checkpointsKey).toArray()) {
        if (std::optional<Checkpoint> checkpoint = Checkpoint::fromJson(value.toObject()))
            checkpoints.append(*checkpoint);
    }
    recorder.setCheckpoints(checkpoints);
}

QJsonArray CodingSession::checkpointState(const QList<Checkpoint> &checkpoints)
{
    QJsonArray array;
    for (const Checkpoint &checkpoint : checkpoints) {
        QJsonObject object = checkpoint.toJson();
        object.remove(QLatin1String("skipped"));
        if (!checkpoint.skipped.isEmpty())
            object.insert(QLatin1String("skippedCount"), int(checkpoint.skipped.size()));
        array.append(object);
    }
    return array;
}

bool CodingSession::remove(const QString &path, QString *error, QString *warning)
{
    // The worktree is read before the file goes and removed after: a session that cannot be
    // deleted (open in another window) keeps its worktree.
    QString unreadable;
    const std::optional<SessionLog::Contents> contents = SessionLog::load(path, &unreadable);
    const std::optional<SessionWorktree> worktree = contents
                                                        ? SessionWorktree::fromState(contents->state)
                                                        : std::nullopt;
    if (!SessionStore::remove(path, error))
        return false;
    if (worktree) {
        const QString problem = SessionWorktrees::remove(*worktree);
        if (warning)
            *warning = problem;
    }
    return true;
}

QJsonObject CodingSession::withCheckpoint(QJsonObject state, const Checkpoint &checkpoint)
{
    QJsonArray checkpoints = state.value(checkpointsKey).toArray();
    checkpoints.append(checkpointState({checkpoint}).first());
    state.insert(checkpointsKey, checkpoints);
    return state;
}

SessionRecorder *CodingSession::record(Agent *agent,
                                       std::shared_ptr<PermissionPolicy> policy,
                                       const QString &path,
                                       const QJsonObject &header,
                                       const QJsonObject &state,
                                       std::optional<SessionResumption> resumption,
                                       QObject *parent,
                                       std::shared_ptr<CheckpointRecorder> checkpoints,
                                       std::shared_ptr<const QList<PermissionRule>> unconfirmed)
{
    auto recorder = new SessionRecorder(
        agent,
        [policy = std::move(policy),
         checkpoints = std::move(checkpoints),
         unconfirmed = std::move(unconfirmed)] {
            QJsonObject state = permissionSessionState(*policy,
                                                       unconfirmed ? *unconfirmed
                                                                   : QList<PermissionRule>());
            if (checkpoints)
                state.insert(checkpointsKey, checkpointState(checkpoints->checkpoints()));
            return state;
        },
        path,
        header,
        state,
        parent);
    if (resumption)
        recorder->adopt(std::move(*resumption));
    return recorder;
}

} // namespace AgentCore
