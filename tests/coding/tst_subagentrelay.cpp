// SubagentRelay (#37): a child's events, which come from its own thread, are told in order with
// the main agent's, which come through the Agent's queue: held until their Task call's
// tool_execution_start was told, dropped once its tool_execution_end was (an abandoned child
// finishing after a Stop), a grandchild's within its parent's call likewise.
#include <coding/subagentrelay.h>
#include <testmain.h>

#include <QTest>

using namespace AgentCore;
using namespace Qt::StringLiterals;

namespace tst_subagentrelay {

namespace {

AgentEvent relayToolEvent(AgentEvent::Type type, const QString &id)
{
    AgentEvent event;
    event.type = type;
    event.toolCallId = id;
    event.toolName = u"Task"_s;
    return event;
}

SubagentEvent relayChildEvent(const QStringList &path, AgentEvent event)
{
    return SubagentEvent{path, u"explore"_s, u"Look"_s, std::move(event)};
}

SubagentEvent relayChildEvent(const QStringList &path, AgentEvent::Type type)
{
    AgentEvent event;
    event.type = type;
    return relayChildEvent(path, event);
}

} // namespace

class tst_SubagentRelay : public QObject
{
    Q_OBJECT

private slots:
    void childEventsWaitForTheirCallAndStopAtItsEnd()
    {
        QStringList told;
        SubagentRelay relay([&told](const SubagentEvent &event) {
            told.append(event.key() + u' ' + agentEventTypeName(event.event.type));
        });
        const auto parent = [&](const AgentEvent &event) {
            relay.beforeParent(event);
            told.append(u"P "_s + agentEventTypeName(event.type) + u' ' + event.toolCallId);
            relay.afterParent(event);
        };
        // The child's first events arrive before its parent's tool_execution_start.
        relay.child(relayChildEvent({u"call_1"_s}, AgentEvent::Type::AgentStart));
        relay.child(relayChildEvent({u"call_1"_s}, AgentEvent::Type::TurnStart));
        QVERIFY(told.isEmpty());
        parent(relayToolEvent(AgentEvent::Type::ToolExecutionStart, u"call_1"_s));
        // A grandchild's call inside the child: its events come after its call's start.
        relay.child(relayChildEvent({u"call_1"_s, u"call_7"_s}, AgentEvent::Type::AgentStart));
        relay.child(
            relayChildEvent({u"call_1"_s},
                            relayToolEvent(AgentEvent::Type::ToolExecutionStart, u"call_7"_s)));
        relay.child(relayChildEvent({u"call_1"_s, u"call_7"_s}, AgentEvent::Type::AgentEnd));
        relay.child(
            relayChildEvent({u"call_1"_s},
                            relayToolEvent(AgentEvent::Type::ToolExecutionEnd, u"call_7"_s)));
        relay.child(relayChildEvent({u"call_1"_s, u"call_7"_s}, AgentEvent::Type::TurnEnd));
        relay.child(relayChildEvent({u"call_1"_s}, AgentEvent::Type::AgentEnd));
        parent(relayToolEvent(AgentEvent::Type::ToolExecutionEnd, u"call_1"_s));
        // What a stopped child still sends after its call ended is not told.
        relay.child(relayChildEvent({u"call_1"_s}, AgentEvent::Type::TurnEnd));
        QCOMPARE(told,
                 (QStringList{u"P tool_execution_start call_1"_s,
                              u"call_1 agent_start"_s,
                              u"call_1 turn_start"_s,
                              u"call_1 tool_execution_start"_s,
                              u"call_1/call_7 agent_start"_s,
                              u"call_1/call_7 agent_end"_s,
                              u"call_1 tool_execution_end"_s,
                              u"call_1 agent_end"_s,
                              u"P tool_execution_end call_1"_s}));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_SubagentRelay)

} // namespace tst_subagentrelay

#include "tst_subagentrelay.moc"
