#include "pricing.h"

#include "modelname.h"

#include <array>
#include <string_view>

namespace AgentCore {

namespace {

struct PriceEntry
{
    std::string_view family; ///< model id prefix, lowercase, versions with dashes
    ModelPrice price;
};

// USD per million tokens: input, output, cache read, cache write. List prices as of late 2025.
// OpenAI and DeepSeek charge nothing extra to write their automatic caches: cache write is the
// input price there.
constexpr std::array prices{
    // Anthropic (cache write: 5-minute TTL)
    PriceEntry{"claude-opus-4-5", {5, 25, 0.5, 6.25}},
    PriceEntry{"claude-opus-4-1", {15, 75, 1.5, 18.75}},
    PriceEntry{"claude-opus-4", {15, 75, 1.5, 18.75}},
    PriceEntry{"claude-sonnet-4-5", {3, 15, 0.3, 3.75}},
    PriceEntry{"claude-sonnet-4", {3, 15, 0.3, 3.75}},
    PriceEntry{"claude-haiku-4-5", {1, 5, 0.1, 1.25}},
    PriceEntry{"claude-3-7-sonnet", {3, 15, 0.3, 3.75}},
    PriceEntry{"claude-3-5-sonnet", {3, 15, 0.3, 3.75}},
    PriceEntry{"claude-3-5-haiku", {0.8, 4, 0.08, 1}},
    PriceEntry{"claude-3-opus", {15, 75, 1.5, 18.75}},
    PriceEntry{"claude-3-haiku", {0.25, 1.25, 0.03, 0.3}},
    // OpenAI
    PriceEntry{"gpt-4o", {2.5, 10, 1.25, 2.5}},
    PriceEntry{"gpt-4o-2024-05-13", {5, 15, 5, 5}},
    PriceEntry{"gpt-4o-mini", {0.15, 0.6, 0.075, 0.15}},
    PriceEntry{"gpt-4-1", {2, 8, 0.5, 2}},
    PriceEntry{"gpt-4-1-mini", {0.4, 1.6, 0.1, 0.4}},
    PriceEntry{"gpt-4-1-nano", {0.1, 0.4, 0.025, 0.1}},
    PriceEntry{"o1", {15, 60, 7.5, 15}},
    PriceEntry{"o1-mini", {1.1, 4.4, 0.55, 1.1}},
    PriceEntry{"o3", {2, 8, 0.5, 2}},
    PriceEntry{"o3-mini", {1.1, 4.4, 0.55, 1.1}},
    PriceEntry{"o3-pro", {20, 80, 20, 20}},
    PriceEntry{"o4-mini", {1.1, 4.4, 0.275, 1.1}},
    PriceEntry{"gpt-5", {1.25, 10, 0.125, 1.25}},
    PriceEntry{"gpt-5-mini", {0.25, 2, 0.025, 0.25}},
    PriceEntry{"gpt-5-nano", {0.05, 0.4, 0.005, 0.05}},
    PriceEntry{"gpt-5-pro", {15, 120, 15, 15}},
    PriceEntry{"gpt-5-codex", {1.25, 10, 0.125, 1.25}},
    PriceEntry{"gpt-5-1", {1.25, 10, 0.125, 1.25}},
    PriceEntry{"gpt-5-1-codex", {1.25, 10, 0.125, 1.25}},
    PriceEntry{"gpt-5-1-codex-mini", {0.25, 2, 0.025, 0.25}},
    // DeepSeek (V3.2 prices, the same for both models since September 2025)
    PriceEntry{"deepseek-chat", {0.28, 0.42, 0.028, 0.28}},
    PriceEntry{"deepseek-reasoner", {0.28, 0.42, 0.028, 0.28}},
};

} // namespace

std::optional<ModelPrice> priceForModel(const QString &provider, const QString &model)
{
    if (isLocalProvider(provider))
        return std::nullopt;
    const QByteArray normalized = normalizedModelId(model);
    const std::string_view name(normalized.constData(), size_t(normalized.size()));
    const PriceEntry *best = nullptr;
    for (const PriceEntry &entry : prices) {
        if (matchesModelFamily(name, entry.family)
            && (!best || entry.family.size() > best->family.size())) {
            best = &entry;
        }
    }
    if (!best)
        return std::nullopt;
    return best->price;
}

Usage withCost(Usage usage, const QString &provider, const QString &model)
{
    const std::optional<ModelPrice> price = priceForModel(provider, model);
    if (!price) {
        usage.cost = 0;
        return usage;
    }
    usage.cost = (double(usage.input) * price->input + double(usage.output) * price->output
                  + double(usage.cacheRead) * price->cacheRead
                  + double(usage.cacheWrite) * price->cacheWrite)
                 / 1'000'000.0;
    return usage;
}

} // namespace AgentCore
