#include "testtools.h"

#include <QJsonArray>
#include <QThread>

namespace TestSupport {

using namespace AgentCore;

FunctionTool::FunctionTool(const ToolDefinition &definition, ExecutionMode mode, Body body)
    : m_definition(definition)
    , m_mode(mode)
    , m_body(std::move(body))
{}

std::shared_ptr<FunctionTool> FunctionTool::make(const QString &name,
                                                 const QStringList &required,
                                                 ExecutionMode mode,
                                                 Body body)
{
    ToolDefinition definition;
    definition.name = name;
    definition.description = QStringLiteral("Test tool %1").arg(name);
    definition.parameters = stringArgumentsSchema(required);
    return std::make_shared<FunctionTool>(definition, mode, std::move(body));
}

ToolResult FunctionTool::execute(const ToolCallContext &context)
{
    ++m_calls;
    return m_body ? m_body(context) : ToolResult::makeText(QStringLiteral("ok"));
}

QJsonObject stringArgumentsSchema(const QStringList &required)
{
    QJsonObject properties;
    for (const QString &name : required)
        properties.insert(name, QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}});
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                       {QStringLiteral("properties"), properties},
                       {QStringLiteral("required"), QJsonArray::fromStringList(required)}};
}

AgentEventSink EventLog::sink(Hook hook)
{
    return [this, hook](const AgentEvent &event) {
        int index = 0;
        {
            QMutexLocker locker(&m_mutex);
            index = int(m_events.size());
            m_events.append(event);
            if (!m_threads.contains(QThread::currentThread()))
                m_threads.append(QThread::currentThread());
        }
        if (hook)
            hook(event, index);
    };
}

QList<AgentEvent> EventLog::events() const
{
    QMutexLocker locker(&m_mutex);
    return m_events;
}

QStringList EventLog::types() const
{
    QStringList names;
    for (const AgentEvent &event : events()) {
        const QString name = event.type == AgentEvent::Type::MessageUpdate
                                 ? QStringLiteral("message_update*")
                                 : agentEventTypeName(event.type);
        if (names.isEmpty() || names.last() != name || !name.endsWith(u'*'))
            names.append(name);
    }
    return names;
}

QList<QThread *> EventLog::threads() const
{
    QMutexLocker locker(&m_mutex);
    return m_threads;
}

int EventLog::count() const
{
    QMutexLocker locker(&m_mutex);
    return int(m_events.size());
}

} // namespace TestSupport
