#include "subagentrelay.h"

#include "subagentrunner.h"

namespace AgentCore {

namespace {

bool isTaskCall(const AgentEvent &event)
{
    return event.toolName == TaskTool::toolName();
}

QString childKey(const QStringList &parentPath, const QString &callId)
{
    return (parentPath + QStringList{callId}).join(u'/');
}

} // namespace

SubagentRelay::SubagentRelay(std::function<void(const SubagentEvent &event)> tell)
    : m_tell(std::move(tell))
{}

void SubagentRelay::child(const SubagentEvent &event)
{
    const QString key = event.key();
    if (m_closed.contains(key))
        return;
    if (!m_open.contains(key)) {
        m_held[key].append(event);
        return;
    }
    tellNow(event);
}

void SubagentRelay::beforeParent(const AgentEvent &event)
{
    if (event.type == AgentEvent::Type::ToolExecutionEnd && isTaskCall(event))
        close(childKey({}, event.toolCallId));
    if (event.type == AgentEvent::Type::AgentEnd) {
        // Whatever a stopped child still sends belongs to a run that is over.
        const QSet<QString> open = m_open;
        for (const QString &key : open)
            close(key);
        m_held.clear();
    }
}

void SubagentRelay::afterParent(const AgentEvent &event)
{
    if (event.type == AgentEvent::Type::ToolExecutionStart && isTaskCall(event))
        open(childKey({}, event.toolCallId));
}

void SubagentRelay::tellNow(const SubagentEvent &event)
{
    const AgentEvent &inner = event.event;
    // A child's Task call ends its own child before the end is told; its start opens it after.
    if (inner.type == AgentEvent::Type::ToolExecutionEnd && isTaskCall(inner))
        close(childKey(event.path, inner.toolCallId));
    m_tell(event);
    if (inner.type == AgentEvent::Type::ToolExecutionStart && isTaskCall(inner))
        open(childKey(event.path, inner.toolCallId));
}

void SubagentRelay::open(const QString &key)
{
    // A call id used again (a resumed session's numbering, a model that repeats ids) starts
    // a new child under the same key.
    m_closed.remove(key);
    m_open.insert(key);
    const QList<SubagentEvent> held = m_held.take(key);
    for (const SubagentEvent &event : held)
        tellNow(event);
}

void SubagentRelay::close(const QString &key)
{
    m_open.remove(key);
    m_held.remove(key);
    m_closed.insert(key);
    // Its children end with it.
    const QString prefix = key + u'/';
    const QSet<QString> open = m_open;
    for (const QString &child : open) {
        if (child.startsWith(prefix)) {
            m_open.remove(child);
            m_closed.insert(child);
        }
    }
}

} // namespace AgentCore
