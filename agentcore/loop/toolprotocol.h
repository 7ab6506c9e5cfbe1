#pragma once

#include <ai/toolcallpairing.h>

namespace AgentCore {

/// Makes a history valid for every provider before a request: pairToolCalls() (see there for
/// the rules: empty assistant messages and orphan results dropped, each result right after its
/// call, a missingToolResult() for a call without one). The loop's name for the step; the
/// wire builders apply the same pairing (wireHistory), so a history the loop projected goes
/// out unchanged. Pure; thread-safe; O(n); idempotent.
QList<Message> projectToolCallProtocol(const QList<Message> &messages);

} // namespace AgentCore
