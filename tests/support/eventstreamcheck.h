#pragma once

#include <loop/agenttypes.h>

namespace TestSupport {

/// Checks the shape of one run's event stream (DESIGN.md section 1), written independently of
/// the loop: agent_start first and agent_end last, once each; turns do not nest and every
/// turn_start has its turn_end; every message and tool event lies inside a turn; a message is
/// message_start, message_update*, then message_end or message_discard, never interleaved with
/// another message; every tool_execution_start has one tool_execution_end before the turn ends.
/// Returns an empty string when the stream is well formed, otherwise the first problem,
/// readable (with the event's index).
QString eventStreamProblem(const QList<AgentCore::AgentEvent> &events);

} // namespace TestSupport
