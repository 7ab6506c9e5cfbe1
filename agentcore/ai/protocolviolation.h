#pragma once

#include <QString>

namespace AgentCore {

/// A fake tool call written as text instead of a native one.
struct ProtocolViolation
{
    bool found = false;
    QString detail; ///< what was found, e.g. "<invoke name=\"Read\"> in text"
};

/// Looks for tool calls written as text: <invoke name=...>, <function_calls>, and Hermes/Qwen
/// <tool_call>{json}</tool_call> blocks. Text inside Markdown code fences (``` or ~~~) and inline
/// code spans never counts, so a model explaining the syntax is not flagged. Pure; thread-safe.
/// Also found: Qwen3-Coder's <function=X> (in a <tool_call> or followed by <parameter=...>), GLM's
/// <tool_call>X<arg_key>, chat-template tokens such as <|tool_call|>, Kimi's and DeepSeek's
/// tool-call tokens, Mistral's [TOOL_CALLS]. detail names the first finding, its line and how
/// many more there are, e.g. "<invoke name=\"Read\"> in text at line 3 (and 1 more)".
/// Linear time; a message without any of the marker words costs a few vectorized searches.
ProtocolViolation detectFakeToolCalls(const QString &text);

} // namespace AgentCore
