#pragma once

#include "types.h"

#include <optional>

namespace AgentCore {

/// US dollars per million tokens.
struct ModelPrice
{
    double input = 0;
    double output = 0;
    double cacheRead = 0;
    double cacheWrite = 0;
};

/// The built-in price table, matched on the model id (dated snapshots match their family).
/// Prices are the providers' published list prices as of late 2025 (standard tier, no batch or
/// long-context surcharges); they live in the table at the top of pricing.cpp, change them there.
/// Matching is case-insensitive and ignores a router prefix ("openai/gpt-4o",
/// "anthropic/claude-sonnet-4.5") and dots versus dashes in versions; the longest matching
/// family wins ("gpt-4o-mini" before "gpt-4o"). Local servers (Ollama, llama.cpp, vLLM,
/// LM Studio) have no price. Pure; thread-safe.
std::optional<ModelPrice> priceForModel(const QString &provider, const QString &model);

/// \a usage with cost filled in from the table (0 when the model is unknown).
Usage withCost(Usage usage, const QString &provider, const QString &model);

} // namespace AgentCore
