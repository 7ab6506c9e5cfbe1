#include "agentloop.h"

#include "agentrun.h"
#include "eventboxpool.h"

#include <QCoreApplication>

namespace AgentCore {

namespace {
struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(AgentCore::AgentLoop)
};
} // namespace

QList<Message> agentLoop(const QList<Message> &prompts,
                         const AgentContext &context,
                         const AgentLoopConfig &config,
                         const AbortToken &abort,
                         const AgentEventSink &sink)
{
    // The sink never keeps an event: its box serves the next one.
    EventBoxPool boxes;
    const AgentEventConsumer consume = [&sink, &boxes](std::unique_ptr<AgentEvent> event) {
        if (sink)
            sink(*event);
        boxes.recycle(std::move(event));
    };
    AgentRun run(context, config, abort, consume, &boxes);
    return run.run(prompts);
}

QList<Message> agentLoopBoxingEvents(const QList<Message> &prompts,
                                     const AgentContext &context,
                                     const AgentLoopConfig &config,
                                     const AbortToken &abort,
                                     const AgentEventConsumer &consume)
{
    return agentLoopBoxingEvents(prompts, context, config, abort, consume, nullptr);
}

QList<Message> agentLoopBoxingEvents(const QList<Message> &prompts,
                                     const AgentContext &context,
                                     const AgentLoopConfig &config,
                                     const AbortToken &abort,
                                     const AgentEventConsumer &consume,
                                     EventBoxPool *boxes)
{
    AgentRun run(context, config, abort, consume, boxes);
    return run.run(prompts);
}

Message protocolRepairDirective(const Message &violating)
{
    const QString found = violating.protocolViolationDetail.isEmpty()
                              ? Tr::tr("tool-call markup")
                              : violating.protocolViolationDetail;
    return Message::makeUser(
        Tr::tr("Your previous reply wrote a tool call as text (%1) instead of calling the tool, "
               "so nothing was run. Call tools only through the native tool-calling interface, "
               "and do not write tool-call markup such as <invoke>, <function_calls> or "
               "<tool_call> in your reply.")
            .arg(found));
}

} // namespace AgentCore
