#include "toolslot.h"

namespace AgentCore {

void ToolSlot::setTools(const QList<AgentToolPtr> &tools)
{
    QMutexLocker locker(&m_mutex);
    m_tools = tools;
}

QList<AgentToolPtr> ToolSlot::tools() const
{
    QMutexLocker locker(&m_mutex);
    return m_tools;
}

} // namespace AgentCore
