#pragma once

#include "types.h"

namespace AgentCore {

/// The one implementation of the tool-call rules every provider shares, used by the loop's
/// projection (loop/toolprotocol.h, before every request) and by the wire builders
/// (wireHistory, for any history a caller hands them). Pure; thread-safe; O(n):
/// drops assistant messages with no tool call and no non-blank text (left by errors and
/// aborts) and tool results without a matching call (orphans, duplicates); puts each result
/// right after the assistant message that called it, in call order, even when later messages
/// came in between (steering typed while the tool ran); adds missingToolResult() for any call
/// that has none. A result belongs to the nearest assistant message before it that has a call
/// with its id, so ids reused across turns pair correctly and a result recorded before its call
/// is an orphan. Every other message (user, custom) keeps its relative order. Idempotent; a
/// valid history is returned unchanged (without a copy).
QList<Message> pairToolCalls(const QList<Message> &messages);

/// True for an assistant message pairToolCalls drops: no tool call, no non-blank text.
bool isEmptyAssistantMessage(const Message &message);

/// The synthetic result pairToolCalls adds for \a call of \a assistant: an error the model can
/// read, with the assistant's timestamp so the pairing stays pure.
Message missingToolResult(const Message &assistant, const ContentBlock &call);

} // namespace AgentCore
