#include "agentsession.h"

#include <ai/modelclient.h>
#include <core/agent.h>
#include <permissions/permissionbroker.h>

#include <QDateTime>
#include <QJsonObject>

#include <utility>

namespace Ui {

using AgentCore::AgentEvent;

namespace {

// Stands in for the model when none can be called: every task ends at once with the reason,
// so the user's text stays in the conversation and the problem is said where they look.
class UnavailableModelClient final : public AgentCore::ModelClient
{
public:
    explicit UnavailableModelClient(QString problem)
        : m_problem(std::move(problem))
    {}

    AgentCore::Message complete(const AgentCore::Context &,
                                const AgentCore::AbortToken &,
                                const AgentCore::StreamEventSink &) override
    {
        AgentCore::Message message;
        message.role = AgentCore::Message::Role::Assistant;
        message.stopReason = AgentCore::StopReason::Error;
        message.errorMessage = m_problem;
        message.timestamp = QDateTime::currentMSecsSinceEpoch();
        return message;
    }

private:
    const QString m_problem;
};

} // namespace

AgentSession::AgentSession(AgentCore::CodingAgentOptions options, ModelChoice model, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_model(std::move(model))
    , m_broker(new AgentCore::PermissionBroker(this))
{
    // The broker is a QObject of this thread, shared with the tool threads through a
    // non-owning pointer: the session outlives the Agent (a child, deleted first) and so the
    // tool calls that might ask.
    m_options.asker = std::shared_ptr<AgentCore::PermissionAsker>(m_broker,
                                                                  [](AgentCore::PermissionAsker *) {
                                                                  });
    // Called on a tool thread; the Agent (and its tool threads) ends before the session.
    m_options.onAuditError = [this](const QString &message) {
        QMetaObject::invokeMethod(this, [this, message] { emit warning(message); });
    };
    // The destructor joins this thread, so `this` is alive when it posts; a call still
    // queued when the session is destroyed is dropped with it.
    m_assembly = std::thread([this, options = m_options] {
        AgentCore::CodingAgent parts = AgentCore::CodingAgent::assemble(options);
        QMetaObject::invokeMethod(
            this,
            [this, parts = std::move(parts)]() mutable { assembled(std::move(parts)); },
            Qt::QueuedConnection);
    });
}

AgentSession::~AgentSession()
{
    if (m_assembly.joinable())
        m_assembly.join();
    delete m_agent; // joins the worker while the broker still answers (with a deny)
    m_agent = nullptr;
}

void AgentSession::assembled(AgentCore::CodingAgent parts)
{
    if (m_assembly.joinable())
        m_assembly.join();
    m_policy = parts.policy;
    m_warnings = parts.warnings;
    if (m_model.client)
        parts.config.loop.model = m_model.client;
    else if (!m_model.problem.isEmpty())
        parts.config.loop.model = std::make_shared<UnavailableModelClient>(m_model.problem);

    m_agent = new AgentCore::Agent(std::move(parts.config), this);
    connect(m_agent, &AgentCore::Agent::eventEmitted, this, &AgentSession::onEvent);
    connect(m_agent, &AgentCore::Agent::idleChanged, this, [this](bool idle) {
        setState(idle ? State::Idle : State::Running);
    });
    setState(State::Idle);
    for (const QString &message : std::as_const(m_warnings))
        emit warning(message);
    emit permissionModeChanged(m_policy->mode());
    emit ready();

    const auto waiting = std::exchange(m_waiting, {});
    for (const auto &[action, text] : waiting)
        perform(action, text);
}

void AgentSession::send(const QString &text)
{
    perform(Action::Send, text);
}

void AgentSession::steer(const QString &text)
{
    perform(Action::Steer, text);
}

void AgentSession::followUp(const QString &text)
{
    perform(Action::FollowUp, text);
}

void AgentSession::perform(Action action, const QString &text)
{
    if (!m_agent) {
        m_waiting.append({action, text});
        return;
    }
    switch (action) {
    case Action::Send:
        if (m_agent->prompt(text) == AgentCore::Agent::PromptResult::Busy)
            m_agent->steer(text);
        break;
    case Action::Steer:
        // Steering an idle agent would leave the text waiting for a run nobody starts.
        if (m_agent->isIdle())
            m_agent->prompt(text);
        else
            m_agent->steer(text);
        break;
    case Action::FollowUp:
        if (m_agent->isIdle())
            m_agent->prompt(text);
        else
            m_agent->followUp(text);
        break;
    }
}

void AgentSession::stop()
{
    if (!m_agent) {
        m_waiting.clear();
        return;
    }
    if (m_state != State::Running)
        return;
    setState(State::Stopping);
    m_agent->abort();
}

AgentCore::PermissionMode AgentSession::permissionMode() const
{
    if (m_policy)
        return m_policy->mode();
    return m_options.permissionMode.value_or(AgentCore::PermissionMode::Default);
}

void AgentSession::setPermissionMode(AgentCore::PermissionMode mode)
{
    if (mode == permissionMode())
        return;
    if (m_policy)
        m_policy->setMode(mode);
    m_options.permissionMode = mode;
    emit permissionModeChanged(mode);
}

QList<ChangedFile> AgentSession::changedFiles() const
{
    return m_changed;
}

void AgentSession::onEvent(const AgentEvent &event)
{
    if (event.type == AgentEvent::Type::ToolExecutionEnd && !event.isError)
        noteChange(event);
    emit eventEmitted(event);
}

void AgentSession::noteChange(const AgentEvent &event)
{
    if (event.toolName != QLatin1String("Edit") && event.toolName != QLatin1String("Write"))
        return;
    const QJsonObject details = event.result.details.toObject();
    const QString path = details.value(u"path").toString();
    if (path.isEmpty())
        return;
    auto it = m_changedIndex.constFind(path);
    if (it == m_changedIndex.cend()) {
        ChangedFile file;
        file.path = path;
        file.displayPath = details.value(u"displayPath").toString(path);
        file.created = details.value(u"created").toBool();
        it = m_changedIndex.insert(path, int(m_changed.size()));
        m_changed.append(file);
    }
    ChangedFile &file = m_changed[*it];
    file.additions += details.value(u"additions").toInt();
    file.deletions += details.value(u"deletions").toInt();
    ++file.changes;
    emit changedFilesChanged();
}

void AgentSession::setState(State state)
{
    // agent_end of an aborted run reports idle; a run that had ended by itself never
    // passes through Stopping.
    if (state == m_state)
        return;
    m_state = state;
    emit stateChanged(state);
}

} // namespace Ui
