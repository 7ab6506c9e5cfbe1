#pragma once

#include <permissions/permissionpolicy.h>
#include <session/sessionrecorder.h>
#include <session/sessionresumption.h>

#include <QJsonObject>
#include <QStringList>

#include <memory>
#include <optional>

namespace AgentCore {

class Agent;

/// A coding agent's session file: what the window and the headless mode both do to record a
/// conversation and to go on with one, so that a session is written and continued the same way
/// wherever it runs, and the window lists headless runs as its own.
struct CodingSession
{
    /// Applies the state of a resumed session to a freshly assembled agent: the follow-up queue
    /// and the steering left over (SessionRecorder::restore), the permission mode and the rules
    /// the user allowed for this session (restorePermissionSessionState). A rule that no longer
    /// parses is skipped with a message in \a warnings.
    static void restore(const QJsonObject &state,
                        Agent &agent,
                        PermissionPolicy &policy,
                        QStringList *warnings);

    /// Records \a agent's conversation in \a path, its state including \a policy's permission
    /// state. \a resumption: the session taken over, written from now on (its repair first);
    /// nullopt: the file is opened (created with \a header) at the first message. \a state: the
    /// session's state when it was resumed (its model, title, draft are kept), else empty.
    static SessionRecorder *record(Agent *agent,
                                   std::shared_ptr<PermissionPolicy> policy,
                                   const QString &path,
                                   const QJsonObject &header,
                                   const QJsonObject &state,
                                   std::optional<SessionResumption> resumption,
                                   QObject *parent = nullptr);
};

} // namespace AgentCore
