#include "toolprotocol.h"

namespace AgentCore {

QList<Message> projectToolCallProtocol(const QList<Message> &messages)
{
    return pairToolCalls(messages);
}

} // namespace AgentCore
