#include "agentloop.h"

#include "agentrun.h"
#include "internal/agentloopboxing.h"

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
    const AgentEventConsumer consume = [&sink](std::unique_ptr<AgentEvent> event) {
        if (sink)
            sink(*event);
    };
    return agentLoopBoxingEvents(prompts, context, config, abort, consume);
}

QList<Message> agentLoopBoxingEvents(const QList<Message> &prompts,
                                     const AgentContext &context,
                                     const AgentLoopConfig &config,
                                     const AbortToken &abort,
                                     const AgentEventConsumer &consume)
{
    AgentRun run(context, config, abort, consume);
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
