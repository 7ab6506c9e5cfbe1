#pragma once

#include "requestbuilder.h"

namespace AgentCore {

/// The OpenAI Chat Completions request: POST {baseUrl}/chat/completions, streaming with usage,
/// Bearer auth (none without a key, for local servers). Earlier thinking is never sent back:
/// DeepSeek rejects reasoning_content in input, and the others ignore it. Pure; thread-safe.
HttpRequestSpec buildOpenAiChatRequest(const ProviderConfig &config, const Context &context);

/// True for OpenAI models that take reasoning_effort (o1, o3, o4-mini, gpt-5 families).
bool isOpenAiReasoningModel(const QString &model);

} // namespace AgentCore
