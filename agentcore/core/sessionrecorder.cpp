#include "sessionrecorder.h"

#include "agent.h"

#include <ai/messagejson.h>
#include <permissions/permissionpolicy.h>

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>

namespace AgentCore {

namespace {
struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(AgentCore::SessionRecorder)
};

// The state keys the recorder owns; every other key belongs to the window.
const QLatin1String followUpsKey("followUps");
const QLatin1String pausedKey("followUpsPaused");
const QLatin1String modeKey("permissionMode");
const QLatin1String rulesKey("sessionRules");
const QLatin1String sessionSource("session");

QString behaviorName(PermissionBehavior behavior)
{
    switch (behavior) {
    case PermissionBehavior::Allow:
        return QStringLiteral("allow");
    case PermissionBehavior::Ask:
        return QStringLiteral("ask");
    case PermissionBehavior::Deny:
        return QStringLiteral("deny");
    }
    return {};
}

std::optional<PermissionBehavior> parseBehavior(const QString &name)
{
    for (const PermissionBehavior behavior :
         {PermissionBehavior::Allow, PermissionBehavior::Ask, PermissionBehavior::Deny}) {
        if (behaviorName(behavior) == name)
            return behavior;
    }
    return std::nullopt;
}

} // namespace

SessionRecorder::SessionRecorder(Agent *agent,
                                 std::shared_ptr<PermissionPolicy> policy,
                                 QString path,
                                 QJsonObject header,
                                 QJsonObject state,
                                 QObject *parent)
    : QObject(parent)
    , m_agent(agent)
    , m_policy(std::move(policy))
    , m_path(std::move(path))
    , m_header(std::move(header))
    , m_written(state)
{
    for (const QLatin1String key : {followUpsKey, pausedKey, modeKey, rulesKey})
        state.remove(key);
    m_extra = state;
    connect(m_agent, &Agent::eventEmitted, this, &SessionRecorder::onEvent);
    connect(m_agent, &Agent::queuesChanged, this, &SessionRecorder::writeStateIfChanged);
}

SessionRecorder::~SessionRecorder()
{
    // A queue edited after the last turn, or a title given, must not wait for a next turn.
    writeStateIfChanged();
    sync();
}

QJsonObject SessionRecorder::state() const
{
    QJsonObject state = m_extra;
    QJsonArray followUps;
    for (const Message &message : m_agent->followUpQueue())
        followUps.append(messageToJson(message));
    state.insert(followUpsKey, followUps);
    state.insert(pausedKey, m_agent->followUpsPaused());
    state.insert(modeKey, permissionModeName(m_policy->mode()));
    QJsonArray rules;
    for (const PermissionRule &rule : m_policy->rules()) {
        if (rule.source != sessionSource)
            continue;
        rules.append(QJsonObject{{QLatin1String("rule"), rule.toString()},
                                 {QLatin1String("behavior"), behaviorName(rule.behavior)}});
    }
    state.insert(rulesKey, rules);
    return state;
}

void SessionRecorder::setStateValue(const QString &key, const QJsonValue &value)
{
    m_extra.insert(key, value);
    writeStateIfChanged();
}

void SessionRecorder::refreshState()
{
    writeStateIfChanged();
}

void SessionRecorder::onEvent(const AgentEvent &event)
{
    switch (event.type) {
    case AgentEvent::Type::MessageEnd:
        if (!ensureOpen())
            return;
        if (QString error; !m_log->appendMessage(event.message, &error))
            fail(error);
        break;
    case AgentEvent::Type::TurnEnd:
    case AgentEvent::Type::AgentEnd:
        writeStateIfChanged();
        sync();
        break;
    default:
        break;
    }
}

bool SessionRecorder::ensureOpen()
{
    if (m_log)
        return true;
    const bool created = !QFile::exists(m_path);
    QString error;
    m_log = SessionLog::open(m_path, m_header, &error);
    if (!m_log) {
        fail(error);
        return false;
    }
    // A new file starts with its state, so the model and title are there from the start.
    if (created)
        m_written = {};
    writeStateIfChanged();
    return true;
}

void SessionRecorder::writeStateIfChanged()
{
    // Nothing to keep before the first message: the file does not exist yet.
    if (!m_log)
        return;
    const QJsonObject now = state();
    if (now == m_written)
        return;
    if (QString error; !m_log->appendState(now, &error)) {
        fail(error);
        return;
    }
    m_written = now;
}

void SessionRecorder::sync()
{
    if (QString error; m_log && !m_log->sync(&error))
        fail(error);
}

void SessionRecorder::fail(const QString &message)
{
    if (m_failed)
        return;
    m_failed = true;
    emit failed(message);
}

void SessionRecorder::restore(const QJsonObject &state,
                              Agent &agent,
                              PermissionPolicy &policy,
                              QStringList *warnings)
{
    if (const auto mode = parsePermissionMode(state.value(modeKey).toString()))
        policy.setMode(*mode);
    const QJsonArray rules = state.value(rulesKey).toArray();
    for (const QJsonValue &value : rules) {
        const QJsonObject object = value.toObject();
        const QString text = object.value(u"rule").toString();
        const std::optional<PermissionBehavior> behavior = parseBehavior(
            object.value(u"behavior").toString());
        QString error;
        std::optional<PermissionRule> rule;
        if (behavior)
            rule = PermissionRule::parse(text, *behavior, &error);
        if (!rule) {
            warnings->append(Tr::tr("The session's permission rule \"%1\" was not restored: %2")
                                 .arg(text, error.isEmpty() ? Tr::tr("unknown kind") : error));
            continue;
        }
        rule->source = sessionSource;
        policy.addRule(*rule);
    }
    QList<Message> queue;
    const QJsonArray followUps = state.value(followUpsKey).toArray();
    for (const QJsonValue &value : followUps) {
        Message message;
        if (messageFromJson(value.toObject(), &message))
            queue.append(message);
    }
    // Paused first: a queue restored into an idle agent waits either way, and stays paused.
    agent.setFollowUpsPaused(state.value(pausedKey).toBool());
    if (!queue.isEmpty())
        agent.setFollowUpQueue(queue);
}

} // namespace AgentCore
