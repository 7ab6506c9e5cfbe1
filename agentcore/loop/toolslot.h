#pragma once

#include "agenttypes.h"

#include <QMutex>

namespace AgentCore {

/// Tools that may come and go while an agent runs (an MCP server's tools after its
/// notifications/tools/list_changed): whoever learns of a change replaces them, from any
/// thread; the loop takes them at the start of its next turn (AgentLoopConfig::currentTools),
/// never in the middle of a batch. Thread-safe.
class ToolSlot final
{
public:
    void setTools(const QList<AgentToolPtr> &tools);
    /// The same objects until the next setTools(): the loop rebuilds nothing meanwhile.
    QList<AgentToolPtr> tools() const;

private:
    mutable QMutex m_mutex;
    QList<AgentToolPtr> m_tools;
};

} // namespace AgentCore
