#include "modelcatalog.h"

#include "modelname.h"
#include "translation.h"

#include <QCoreApplication>

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

struct PictureEntry
{
    std::string_view family; ///< as WindowEntry::family
    bool takesPictures;
};

// Image input as the vendors publish it (late 2025). The longest family wins, so "gpt-4" (the
// first GPT-4, text only) does not hide "gpt-4o" or "gpt-4-1".
constexpr std::array pictureTable{
    // Anthropic: every Claude 3 and 4 model reads images (docs.anthropic.com/en/docs/vision)
    PictureEntry{"claude-3", true},
    PictureEntry{"claude-opus-4", true},
    PictureEntry{"claude-sonnet-4", true},
    PictureEntry{"claude-haiku-4", true},
    // OpenAI
    PictureEntry{"gpt-5", true},
    PictureEntry{"gpt-4-1", true},
    PictureEntry{"gpt-4o", true},
    PictureEntry{"gpt-4-turbo", true},
    PictureEntry{"gpt-4", false},
    PictureEntry{"gpt-3-5-turbo", false},
    PictureEntry{"o1", true},
    PictureEntry{"o1-mini", false},
    PictureEntry{"o1-preview", false},
    PictureEntry{"o3", true},
    PictureEntry{"o3-mini", false},
    PictureEntry{"o4-mini", true},
    PictureEntry{"codex-mini", true},
    PictureEntry{"gpt-oss", false},
    // DeepSeek's API models read text only
    PictureEntry{"deepseek-chat", false},
    PictureEntry{"deepseek-reasoner", false},
    PictureEntry{"deepseek-coder", false},
    // Moonshot
    PictureEntry{"kimi-k2", false},
    // Google, as OpenRouter and compatible gateways serve them
    PictureEntry{"gemini-1-5", true},
    PictureEntry{"gemini-2", true},
    PictureEntry{"gemini-2-5", true},
    PictureEntry{"gemini-3", true},
};

// A local or unknown model whose name says it sees: llava, qwen2.5-vl, llama3.2-vision.
bool nameSaysVision(std::string_view name)
{
    return name.find("llava") != std::string_view::npos
           || name.find("vision") != std::string_view::npos
           || name.find("-vl") != std::string_view::npos
           || name.find("pixtral") != std::string_view::npos;
}

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

PictureInput pictureInput(const QString &provider, const QString &model)
{
    const QByteArray normalized = normalizedModelId(model);
    const std::string_view name(normalized.constData(), size_t(normalized.size()));
    if (nameSaysVision(name))
        return PictureInput::Yes;
    // A local server serves what the user pulled under any name: only its name can tell.
    if (isLocalProvider(provider))
        return PictureInput::Unknown;
    const PictureEntry *best = nullptr;
    for (const PictureEntry &entry : pictureTable) {
        if (matchesModelFamily(name, entry.family)
            && (!best || entry.family.size() > best->family.size())) {
            best = &entry;
        }
    }
    if (!best)
        return PictureInput::Unknown;
    return best->takesPictures ? PictureInput::Yes : PictureInput::No;
}

bool takesPictures(const ProviderConfig &config)
{
    return pictureInput(config.provider, config.model) != PictureInput::No;
}

QString noPicturesNote(const ProviderConfig &config)
{
    return AiTr::tr("%1 takes no pictures").arg(config.model);
}

PictureLimits pictureLimits(const ProviderConfig &config)
{
    PictureLimits limits;
    // Anthropic scales a picture whose long edge is over 1568 px down itself, which only adds
    // latency ("Evaluate image size", docs.anthropic.com/en/docs/vision; over 8000 px, or
    // 2000 px with more than 20 pictures, it refuses), and refuses more than 5 MB of base64
    // per picture ("image exceeds 5 MB maximum: N bytes > 5242880 bytes",
    // anthropics/claude-code#14887; Claude Code's constants/apiLimits.ts,
    // API_IMAGE_MAX_BASE64_SIZE). 1568 also keeps every picture under the 2000 px limit.
    limits.maxLongEdge = 1568;
    limits.maxBase64 = ContentBlock::maxImageBase64;
    if (config.api != WireApi::AnthropicMessages) {
        // OpenAI, high detail: the picture is fitted into 2048 x 2048, then its short side to
        // 768 px (the vision guide's "Calculating costs"; openai/codex#18384 fits pictures
        // into 2048 px); anything larger is scaled on their side and costs only time. Up to
        // 20 MB per picture are taken; the 5 MB above stays, for a session that goes on with
        // Claude.
        limits.maxLongEdge = 2048;
        limits.maxShortEdge = 768;
    }
    return limits;
}

} // namespace AgentCore
