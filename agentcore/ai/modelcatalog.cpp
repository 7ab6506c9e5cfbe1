#include "modelcatalog.h"

#include "modelname.h"

#include <array>
#include <string_view>

namespace AgentCore {

namespace {

struct WindowEntry
{
    std::string_view family; ///< model id prefix, lowercase, versions with dashes
    qint64 tokens;
};

// Context windows as published late 2025 (the default tier: Anthropic's 1M-token beta needs a
// header AgentDesk does not send).
constexpr std::array windows{
    // Anthropic
    WindowEntry{"claude-opus-4", 200'000},
    WindowEntry{"claude-sonnet-4", 200'000},
    WindowEntry{"claude-haiku-4", 200'000},
    WindowEntry{"claude-3", 200'000},
    // OpenAI
    WindowEntry{"gpt-5", 400'000},
    WindowEntry{"gpt-5-chat", 128'000},
    WindowEntry{"gpt-5-1-chat", 128'000},
    WindowEntry{"gpt-4-1", 1'047'576},
    WindowEntry{"gpt-4o", 128'000},
    WindowEntry{"gpt-4-turbo", 128'000},
    WindowEntry{"gpt-4", 8'192},
    WindowEntry{"gpt-3-5-turbo", 16'385},
    WindowEntry{"o1", 200'000},
    WindowEntry{"o1-mini", 128'000},
    WindowEntry{"o1-preview", 128'000},
    WindowEntry{"o3", 200'000},
    WindowEntry{"o4-mini", 200'000},
    WindowEntry{"codex-mini", 200'000},
    // DeepSeek (V3.2)
    WindowEntry{"deepseek-chat", 128'000},
    WindowEntry{"deepseek-reasoner", 128'000},
    // Google, as OpenRouter and compatible gateways serve them
    WindowEntry{"gemini-2-5-pro", 1'048'576},
    WindowEntry{"gemini-2-5-flash", 1'048'576},
};

} // namespace

QStringList suggestedModels(WireApi api, const QString &provider)
{
    const QString vendor = provider.trimmed().toLower();
    if (vendor == QLatin1StringView("anthropic") && api == WireApi::AnthropicMessages) {
        return {QStringLiteral("claude-sonnet-4-5"),
                QStringLiteral("claude-opus-4-5"),
                QStringLiteral("claude-opus-4-1"),
                QStringLiteral("claude-haiku-4-5")};
    }
    if (vendor == QLatin1StringView("openai") && api != WireApi::AnthropicMessages) {
        QStringList models{QStringLiteral("gpt-5.1"),
                           QStringLiteral("gpt-5"),
                           QStringLiteral("gpt-5-mini"),
                           QStringLiteral("gpt-5-nano"),
                           QStringLiteral("gpt-4.1"),
                           QStringLiteral("gpt-4.1-mini"),
                           QStringLiteral("o3"),
                           QStringLiteral("o4-mini")};
        // The Codex models are served on the Responses API only.
        if (api == WireApi::OpenAiResponses)
            models << QStringLiteral("gpt-5.1-codex") << QStringLiteral("gpt-5-codex");
        return models;
    }
    if (vendor == QLatin1StringView("deepseek") && api == WireApi::OpenAiChat)
        return {QStringLiteral("deepseek-chat"), QStringLiteral("deepseek-reasoner")};
    return {};
}

std::optional<qint64> contextWindowTokens(const QString &provider, const QString &model)
{
    if (isLocalProvider(provider))
        return std::nullopt;
    const QByteArray normalized = normalizedModelId(model);
    const std::string_view name(normalized.constData(), size_t(normalized.size()));
    const WindowEntry *best = nullptr;
    for (const WindowEntry &entry : windows) {
        if (matchesModelFamily(name, entry.family)
            && (!best || entry.family.size() > best->family.size())) {
            best = &entry;
        }
    }
    if (!best)
        return std::nullopt;
    return best->tokens;
}

} // namespace AgentCore
