#pragma once

#include "providerconfig.h"

#include <QStringList>

#include <optional>

namespace AgentCore {

/// The models the UI offers for an endpoint, best first: current models of the vendors whose
/// line-up is known (Anthropic, OpenAI, DeepSeek; as of late 2025). Empty for every other
/// endpoint (Ollama, vLLM, OpenRouter, ...), where only the user knows what is served. The
/// list is a suggestion, never a restriction: any model id may still be configured.
/// \a provider is ProviderConfig::provider, matched case-insensitively. Pure; thread-safe.
QStringList suggestedModels(WireApi api, const QString &provider);

/// The context window of \a model in tokens (input and output together), or nullopt when it
/// is not known. Matched like priceForModel(): case-insensitive, router prefixes ignored, dots
/// and dashes alike, dated snapshots match their family, the longest family wins. Local
/// servers (Ollama, llama.cpp, vLLM, LM Studio) answer nullopt: their window is whatever the
/// server was started with. Pure; thread-safe.
std::optional<qint64> contextWindowTokens(const QString &provider, const QString &model);

} // namespace AgentCore
