#pragma once

#include "requestbuilder.h"

namespace AgentCore {

/// The OpenAI Chat Completions request: POST {baseUrl}/chat/completions, streaming, Bearer auth
/// (none without a key, for local servers). Which optional fields it carries (stream_options,
/// prompt_cache_key, max_completion_tokens, reasoning_effort) and how the server's own earlier
/// reasoning goes back (reasoning_content, reasoning, reasoning_details, or not at all) follow
/// serverProfileOf(config). Pure; thread-safe.
HttpRequestSpec buildOpenAiChatRequest(const ProviderConfig &config, const Context &context);

/// True for OpenAI models that take reasoning_effort (o1, o3, o4-mini, gpt-5 families).
bool isOpenAiReasoningModel(const QString &model);

} // namespace AgentCore
