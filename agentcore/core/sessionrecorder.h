#pragma once

#include "sessionlog.h"

#include <QJsonObject>
#include <QObject>

#include <memory>

namespace AgentCore {

class Agent;
class PermissionPolicy;
struct AgentEvent;

/// Keeps one conversation's session file up to date while its Agent works: appends each
/// message as it ends, forces the file to disk at each turn end, and appends the session's
/// state whenever it changed: the follow-up queue (and whether it is paused), the permission mode and the rules the user
/// allowed for this session, and what the window adds (the model, the title).
///
/// The file is created with the first message, so a conversation that never started leaves
/// nothing behind. A write that fails is reported once through failed(); the conversation goes
/// on. Lives on the Agent's thread; \a agent must outlive it (make it the agent's child, or
/// destroy it first).
class SessionRecorder final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SessionRecorder)
public:
    /// \a state: the state the session was resumed with (empty for a new one); its keys that
    /// the recorder does not own (model, title, ...) are kept.
    SessionRecorder(Agent *agent,
                    std::shared_ptr<PermissionPolicy> policy,
                    QString path,
                    QJsonObject header,
                    QJsonObject state,
                    QObject *parent = nullptr);
    ~SessionRecorder() override;

    QString path() const { return m_path; }
    /// The state as it would be written now.
    QJsonObject state() const;

    /// Sets a key of the state the window owns ("model", "title"); written at once when the
    /// file exists, else with the first message.
    void setStateValue(const QString &key, const QJsonValue &value);
    /// Something the state is made of changed outside the Agent (the permission mode, a rule).
    void refreshState();

    /// Applies a resumed state to a new Agent and its policy: the follow-up queue and its pause,
    /// the mode and the session's rules. Problems (a rule that no longer parses) go to \a warnings.
    static void restore(const QJsonObject &state,
                        Agent &agent,
                        PermissionPolicy &policy,
                        QStringList *warnings);

signals:
    /// The file cannot be written; said once per kind of failure, the conversation goes on.
    void failed(const QString &message);

private:
    void onEvent(const AgentEvent &event);
    bool ensureOpen();
    void writeStateIfChanged();
    void sync();
    void fail(const QString &message);

    Agent *m_agent;
    std::shared_ptr<PermissionPolicy> m_policy;
    QString m_path;
    QJsonObject m_header;
    QJsonObject m_extra;   // keys the window owns
    QJsonObject m_written; // the last state in the file
    std::unique_ptr<SessionLog> m_log;
    bool m_failed = false;
};

} // namespace AgentCore
