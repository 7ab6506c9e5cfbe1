#pragma once

#include "requestbuilder.h"

namespace AgentCore {

/// The OpenAI Responses request: POST {baseUrl}/responses, streaming, stateless (store false).
/// Earlier reasoning goes back as encrypted reasoning items, only to the model that made them.
/// Pure; thread-safe.
HttpRequestSpec buildOpenAiResponsesRequest(const ProviderConfig &config, const Context &context);

} // namespace AgentCore
