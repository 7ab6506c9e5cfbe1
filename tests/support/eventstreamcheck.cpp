#include "eventstreamcheck.h"

#include <QSet>

using namespace AgentCore;

namespace TestSupport {

QString eventStreamProblem(const QList<AgentEvent> &events)
{
    using Type = AgentEvent::Type;
    if (events.isEmpty())
        return QStringLiteral("no events");
    bool inTurn = false;
    bool inMessage = false;
    QSet<QString> runningTools;
    for (qsizetype i = 0; i < events.size(); ++i) {
        const AgentEvent &event = events.at(i);
        const QString at
            = QStringLiteral("event %1 (%2): ").arg(i).arg(agentEventTypeName(event.type));
        switch (event.type) {
        case Type::AgentStart:
            if (i != 0)
                return at + QStringLiteral("agent_start after the first event");
            break;
        case Type::AgentEnd:
            if (i != events.size() - 1)
                return at + QStringLiteral("agent_end before the last event");
            if (inTurn)
                return at + QStringLiteral("the run ends inside a turn");
            break;
        case Type::TurnStart:
            if (inTurn)
                return at + QStringLiteral("a turn starts inside a turn");
            inTurn = true;
            break;
        case Type::TurnEnd:
            if (!inTurn)
                return at + QStringLiteral("turn_end without turn_start");
            if (inMessage)
                return at + QStringLiteral("the turn ends inside a message");
            if (!runningTools.isEmpty())
                return at + QStringLiteral("the turn ends with tool calls still running");
            inTurn = false;
            break;
        case Type::MessageStart:
            if (!inTurn)
                return at + QStringLiteral("a message outside any turn");
            if (inMessage)
                return at + QStringLiteral("a message starts inside a message");
            inMessage = true;
            break;
        case Type::MessageUpdate:
            if (!inMessage)
                return at + QStringLiteral("message_update outside a message");
            break;
        case Type::MessageEnd:
        case Type::MessageDiscard:
            if (!inMessage)
                return at + QStringLiteral("a message ends that did not start");
            inMessage = false;
            break;
        case Type::ToolExecutionStart:
            if (!inTurn || inMessage)
                return at + QStringLiteral("a tool starts outside a turn or inside a message");
            if (runningTools.contains(event.toolCallId))
                return at + QStringLiteral("%1 starts twice").arg(event.toolCallId);
            runningTools.insert(event.toolCallId);
            break;
        case Type::ToolExecutionUpdate:
        case Type::ToolExecutionEnd:
            if (!runningTools.contains(event.toolCallId))
                return at + QStringLiteral("%1 did not start").arg(event.toolCallId);
            if (event.type == Type::ToolExecutionEnd)
                runningTools.remove(event.toolCallId);
            break;
        }
    }
    if (events.constFirst().type != Type::AgentStart)
        return QStringLiteral("the first event is not agent_start");
    if (events.constLast().type != Type::AgentEnd)
        return QStringLiteral("the last event is not agent_end");
    return {};
}

} // namespace TestSupport
