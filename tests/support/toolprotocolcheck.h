#pragma once

#include <ai/types.h>

namespace TestSupport {

/// Checks \a messages against the tool-call rules of both OpenAI and Anthropic, written
/// independently of projectToolCallProtocol: no assistant message without a tool call and
/// without non-blank text; every assistant message with N tool calls is followed directly by
/// N tool results answering them in call order; no other tool result anywhere.
/// Returns an empty string when the history is valid, otherwise the first problem, readable.
QString toolProtocolProblem(const QList<AgentCore::Message> &messages);

} // namespace TestSupport
