#pragma once

#include <loop/agenttypes.h>

#include <QMutex>
#include <QStringList>

#include <atomic>

QT_FORWARD_DECLARE_CLASS(QThread)

namespace TestSupport {

/// An AgentTool whose execute() is a function: for loop and agent tests.
/// Thread-safe when the function is.
class FunctionTool final : public AgentCore::AgentTool
{
public:
    using Body = std::function<AgentCore::ToolResult(const AgentCore::ToolCallContext &)>;

    FunctionTool(const AgentCore::ToolDefinition &definition,
                 AgentCore::ExecutionMode mode,
                 Body body);
    /// A tool named \a name taking the string arguments \a required (all required).
    static std::shared_ptr<FunctionTool> make(const QString &name,
                                              const QStringList &required,
                                              AgentCore::ExecutionMode mode,
                                              Body body);

    AgentCore::ToolDefinition definition() const override { return m_definition; }
    AgentCore::ExecutionMode executionMode() const override { return m_mode; }
    AgentCore::ToolResult execute(const AgentCore::ToolCallContext &context) override;

    /// How often execute() was entered.
    int calls() const { return m_calls.load(); }

private:
    AgentCore::ToolDefinition m_definition;
    AgentCore::ExecutionMode m_mode;
    Body m_body;
    std::atomic_int m_calls = 0;
};

/// A JSON Schema object with the given required string properties.
QJsonObject stringArgumentsSchema(const QStringList &required);

/// Records the events of a run, from any thread. An optional hook runs inside the sink with
/// each event and its index (e.g. to abort at a given event).
class EventLog
{
public:
    using Hook = std::function<void(const AgentCore::AgentEvent &event, int index)>;

    AgentCore::AgentEventSink sink(Hook hook = {});
    QList<AgentCore::AgentEvent> events() const;
    /// Type names in order, with each run of message_update collapsed to "message_update*".
    QStringList types() const;
    /// The threads the events were emitted on, deduplicated.
    QList<QThread *> threads() const;
    int count() const;

private:
    mutable QMutex m_mutex;
    QList<AgentCore::AgentEvent> m_events;
    QList<QThread *> m_threads;
};

} // namespace TestSupport
