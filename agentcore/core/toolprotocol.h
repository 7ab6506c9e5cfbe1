#pragma once

#include <ai/types.h>

namespace AgentCore {

/// Makes a history valid for every provider before a request (pure; thread-safe; O(n)):
/// drops assistant messages with no tool call and no non-blank text (left by errors and
/// aborts) and tool results without a matching call (orphans, duplicates); puts each result
/// right after the assistant message that called it, in call order; adds a synthetic error
/// result for any call that has none. A result belongs to the nearest assistant message before
/// it that has a call with its id, so ids reused across turns pair correctly. Every other
/// message (user, custom) keeps its relative order. Idempotent; a valid history is returned
/// unchanged.
QList<Message> projectToolCallProtocol(const QList<Message> &messages);

/// True for an assistant message the projection drops: no tool call, no non-blank text.
bool isEmptyAssistantMessage(const Message &message);

/// The synthetic result projectToolCallProtocol adds for \a call of \a assistant (error, with
/// the assistant's timestamp so the projection stays pure).
Message missingToolResult(const Message &assistant, const ContentBlock &call);

} // namespace AgentCore
