#include "toolprotocolcheck.h"

namespace TestSupport {

using AgentCore::Message;

QString toolProtocolProblem(const QList<Message> &messages)
{
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const Message &message = messages.at(i);
        if (message.isToolResult()) {
            return QStringLiteral("message %1: tool result %2 does not directly follow its call")
                .arg(i)
                .arg(message.toolCallId);
        }
        if (!message.isAssistant())
            continue;
        const QList<AgentCore::ContentBlock> calls = message.toolCalls();
        if (calls.isEmpty() && message.text().trimmed().isEmpty())
            return QStringLiteral("message %1: empty assistant message").arg(i);
        for (qsizetype k = 0; k < calls.size(); ++k) {
            const qsizetype at = i + 1 + k;
            if (at >= messages.size() || !messages.at(at).isToolResult()
                || messages.at(at).toolCallId != calls.at(k).id) {
                return QStringLiteral("message %1: call %2 (%3) is not answered by message %4")
                    .arg(i)
                    .arg(k)
                    .arg(calls.at(k).id)
                    .arg(at);
            }
        }
        i += calls.size();
    }
    return {};
}

} // namespace TestSupport
