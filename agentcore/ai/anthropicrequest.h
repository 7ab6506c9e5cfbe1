#pragma once

#include "requestbuilder.h"

namespace AgentCore {

/// The Anthropic Messages request: POST {baseUrl}/v1/messages, streaming, x-api-key auth.
/// Thinking blocks go back only to the model that signed them; thinking is switched off for a
/// request whose open tool loop has no signed thinking to continue from (the API demands it).
/// Prompt-cache breakpoints (cache_control), never more than Anthropic's four: the last tool,
/// the system prompt, the last block of the conversation and the last block of the user turn
/// before it (where the previous request ended). Pure; thread-safe.
HttpRequestSpec buildAnthropicRequest(const ProviderConfig &config, const Context &context);

} // namespace AgentCore
