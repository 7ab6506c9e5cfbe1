#pragma once

#include <core/agentloop.h>

namespace AgentCore {

/// agentLoop() handing every event to \a consume in a box of its own, for a receiver that keeps
/// events (a queue to another thread, the Agent's worker): none is copied on its way. Otherwise
/// the same contract as agentLoop(). Internal to the loop and the Agent.
/// Not measured on its own yet: its alternative, agentLoop() with a sink that copies each event
/// into a new box, costs a copy and an allocation per event; an allocation per event measured
/// about 0.7 µs per turn of 12 (2026-12-01, bench_loop variants, the event box pool removed then).
QList<Message> agentLoopBoxingEvents(const QList<Message> &prompts,
                                     const AgentContext &context,
                                     const AgentLoopConfig &config,
                                     const AbortToken &abort,
                                     const AgentEventConsumer &consume);

} // namespace AgentCore
