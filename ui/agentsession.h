#pragma once

#include <core/codingagent.h>

#include <QHash>
#include <QObject>

#include <memory>
#include <thread>

namespace AgentCore {
class Agent;
class ModelClient;
class PermissionBroker;
} // namespace AgentCore

namespace Ui {

/// Which model a window's agent talks to.
struct ModelChoice
{
    QString label; ///< for the status bar: "gpt-5 (openai)"
    /// Non-empty: no model can be called, and every task says this instead of running
    /// ("OPENAI_API_KEY is not set: ...").
    QString problem;
    /// Non-null: used instead of an HttpModelClient for CodingAgentOptions::provider (tests,
    /// and the offline demo). Called on the agent's worker thread only.
    std::shared_ptr<AgentCore::ModelClient> client;
};

/// One file the agent changed in this session, summed over its Edit and Write calls.
struct ChangedFile
{
    QString path;        ///< absolute
    QString displayPath; ///< relative to the repository when inside
    int additions = 0;
    int deletions = 0;
    int changes = 0;      ///< successful Edit/Write calls
    bool created = false; ///< the first change created the file
};

/// The agent of one window on one repository: assembles the coding agent off the UI thread
/// (reading settings and running git take time), owns the Agent and the PermissionBroker its
/// reviews go through, and tells the window what state the run is in and which files changed.
/// Tasks sent before the agent is assembled wait for it. UI thread; never blocks on the agent
/// (the destructor waits for an assembly still going on, which reads a few files and runs git).
class AgentSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AgentSession)
public:
    enum class State {
        Preparing, ///< the agent is being assembled
        Idle,
        Running,
        Stopping, ///< abort() was called; agent_end follows promptly
    };
    Q_ENUM(State)

    /// \a options.asker is replaced by the session's broker.
    AgentSession(AgentCore::CodingAgentOptions options,
                 ModelChoice model,
                 QObject *parent = nullptr);
    ~AgentSession() override;

    /// Null while Preparing. Owned by the session.
    AgentCore::Agent *agent() const { return m_agent; }
    AgentCore::PermissionBroker *broker() const { return m_broker; }
    State state() const { return m_state; }
    const ModelChoice &model() const { return m_model; }
    QString repositoryRoot() const { return m_options.repositoryRoot; }

    /// Starts a task when idle; steers the running one otherwise (see Agent::steer).
    void send(const QString &text);
    void steer(const QString &text);
    void followUp(const QString &text);
    /// Aborts the run, if any. The session is Idle again as soon as agent_end arrived.
    void stop();

    AgentCore::PermissionMode permissionMode() const;
    /// Takes effect at the next tool call and the next model request (plan mode's tool list).
    void setPermissionMode(AgentCore::PermissionMode mode);

    QList<ChangedFile> changedFiles() const;            ///< in the order they were first changed
    QStringList warnings() const { return m_warnings; } ///< from the settings files

signals:
    void ready();
    void stateChanged(Ui::AgentSession::State state);
    /// Every event of every run, in order (the Agent's eventEmitted).
    void eventEmitted(const AgentCore::AgentEvent &event);
    void changedFilesChanged();
    void permissionModeChanged(AgentCore::PermissionMode mode);
    /// Something the user should know that is not part of the conversation (settings files
    /// with problems, an audit log that cannot be written).
    void warning(const QString &message);

private:
    enum class Action { Send, Steer, FollowUp };
    void assembled(AgentCore::CodingAgent parts);
    void perform(Action action, const QString &text);
    void onEvent(const AgentCore::AgentEvent &event);
    void noteChange(const AgentCore::AgentEvent &event);
    void setState(State state);

    AgentCore::CodingAgentOptions m_options;
    ModelChoice m_model;
    AgentCore::PermissionBroker *m_broker = nullptr;
    AgentCore::Agent *m_agent = nullptr;
    std::shared_ptr<AgentCore::PermissionPolicy> m_policy;
    std::thread m_assembly;
    QList<std::pair<Action, QString>> m_waiting; // sent while Preparing
    QList<ChangedFile> m_changed;
    QHash<QString, int> m_changedIndex; // path -> index into m_changed
    QStringList m_warnings;
    State m_state = State::Preparing;
};

} // namespace Ui
