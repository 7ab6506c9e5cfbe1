#pragma once

#include <loop/subagentevent.h>

#include <QHash>
#include <QList>
#include <QSet>

#include <functional>

namespace AgentCore {

/// Puts the subagents' events in order with their parents' on the session's thread. A child's
/// events come from its own thread, the main agent's through the Agent's queue: either may
/// arrive first. An event is told once its path is open (its Task call's
/// tool_execution_start was told) and held until then; once the call's tool_execution_end was
/// told, what still comes from the child (an abandoned child finishing after a Stop) is
/// dropped. Not thread-safe: the session's thread only.
class SubagentRelay final
{
public:
    explicit SubagentRelay(std::function<void(const SubagentEvent &event)> tell);

    /// A child's event, as its thread reported it.
    void child(const SubagentEvent &event);
    /// The main agent's \a event, before it is told (a Task call's end closes its child).
    void beforeParent(const AgentEvent &event);
    /// The main agent's \a event, after it was told (a Task call's start opens its child).
    void afterParent(const AgentEvent &event);

private:
    void open(const QString &key);
    void close(const QString &key);
    void tellNow(const SubagentEvent &event);

    std::function<void(const SubagentEvent &event)> m_tell;
    QSet<QString> m_open;   // keys of the children whose Task call started and did not end
    QSet<QString> m_closed; // keys of the children whose Task call ended
    QHash<QString, QList<SubagentEvent>> m_held; // by key, until it opens
};

} // namespace AgentCore
