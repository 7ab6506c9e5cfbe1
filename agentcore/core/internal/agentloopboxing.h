#pragma once

#include <core/agentloop.h>

namespace AgentCore {

/// agentLoop() handing every event to \a consume in a box of its own, for a receiver that keeps
/// events (a queue to another thread, the Agent's worker): none is copied on its way. Otherwise
/// the same contract as agentLoop(). Internal to the loop and the Agent.
QList<Message> agentLoopBoxingEvents(const QList<Message> &prompts,
                                     const AgentContext &context,
                                     const AgentLoopConfig &config,
                                     const AbortToken &abort,
                                     const AgentEventConsumer &consume);

} // namespace AgentCore
