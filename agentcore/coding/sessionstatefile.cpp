#include "sessionstatefile.h"

#include "sessionstate.h"

#include <loop/agent.h>
#include <permissions/permissionsessionstate.h>
#include <session/sessionlog.h>
#include <session/sessionstore.h>
#include <worktree/sessionworktrees.h>

namespace AgentCore {

QList<PermissionRule> SessionStateFile::restore(const QJsonObject &state,
                                                Agent &agent,
                                                PermissionPolicy &policy,
                                                QStringList *warnings)
{
    SessionRecorder::restore(state, agent);
    return restorePermissionSessionState(state, policy, warnings);
}

void SessionStateFile::restoreCheckpoints(const QJsonObject &state, CheckpointRecorder &recorder)
{
    recorder.setCheckpoints(SessionState::fromJson(state).checkpoints);
}

QJsonArray SessionStateFile::checkpointState(const QList<Checkpoint> &checkpoints)
{
    return SessionState::checkpointsJson(checkpoints);
}

bool SessionStateFile::remove(const QString &path, QString *error, QString *warning)
{
    // The worktree is read before the file goes and removed after: a session that cannot be
    // deleted (open in another window) keeps its worktree.
    QString unreadable;
    // Only its state is needed: its outputs stay on disk.
    const std::optional<SessionLog::Contents> contents = SessionLog::load(path,
                                                                          &unreadable,
                                                                          SessionLog::Paging::Paged);
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

QJsonObject SessionStateFile::withCheckpoint(QJsonObject state, const Checkpoint &checkpoint)
{
    QJsonArray checkpoints = state.value(SessionState::checkpointsKey).toArray();
    checkpoints.append(checkpointState({checkpoint}).first());
    state.insert(SessionState::checkpointsKey, checkpoints);
    return state;
}

SessionRecorder *SessionStateFile::record(Agent *agent,
                                          std::shared_ptr<PermissionPolicy> policy,
                                          const QString &path,
                                          const QJsonObject &header,
                                          const QJsonObject &state,
                                          std::optional<SessionResumption> resumption,
                                          QObject *parent,
                                          std::shared_ptr<CheckpointRecorder> checkpoints,
                                          std::shared_ptr<const QList<PermissionRule>> unconfirmed,
                                          std::shared_ptr<SessionPages> pages)
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
                state.insert(SessionState::checkpointsKey,
                             checkpointState(checkpoints->checkpoints()));
            return state;
        },
        path,
        header,
        state,
        parent);
    recorder->setPages(std::move(pages));
    if (resumption)
        recorder->adopt(std::move(*resumption));
    return recorder;
}

} // namespace AgentCore
