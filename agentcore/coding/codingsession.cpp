#include "codingsession.h"

#include <loop/agent.h>
#include <permissions/permissionsessionstate.h>

namespace AgentCore {

void CodingSession::restore(const QJsonObject &state,
                            Agent &agent,
                            PermissionPolicy &policy,
                            QStringList *warnings)
{
    SessionRecorder::restore(state, agent);
    restorePermissionSessionState(state, policy, warnings);
}

SessionRecorder *CodingSession::record(Agent *agent,
                                       std::shared_ptr<PermissionPolicy> policy,
                                       const QString &path,
                                       const QJsonObject &header,
                                       const QJsonObject &state,
                                       std::optional<SessionResumption> resumption,
                                       QObject *parent)
{
    auto recorder = new SessionRecorder(
        agent,
        [policy = std::move(policy)] { return permissionSessionState(*policy); },
        path,
        header,
        state,
        parent);
    if (resumption)
        recorder->adopt(std::move(*resumption));
    return recorder;
}

} // namespace AgentCore
