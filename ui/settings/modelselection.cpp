#include "modelselection.h"
#include "common/translation.h"
#include "providerpresets.h"

#include <ai/servedmodels.h>

#include <QCoreApplication>
#include <QHostAddress>
#include <QUrl>

namespace Ui {

namespace {

QString jsonKey(const char *text)
{
    return QLatin1String(text);
}

struct ProviderInfo
{
    ProviderKind kind;
    const char *id; ///< in settings and session files: never translated, never renamed
    AgentCore::WireApi api;
    const char *defaultBaseUrl; ///< nullptr: the user gives one
};

constexpr ProviderInfo providerInfos[] = {
    {ProviderKind::Anthropic,
     "anthropic",
     AgentCore::WireApi::AnthropicMessages,
     "https://api.anthropic.com"},
    {ProviderKind::OpenAi, "openai", AgentCore::WireApi::OpenAiChat, "https://api.openai.com/v1"},
    {ProviderKind::OpenAiResponses,
     "openai-responses",
     AgentCore::WireApi::OpenAiResponses,
     "https://api.openai.com/v1"},
    {ProviderKind::OpenAiCompatible, "openai-compatible", AgentCore::WireApi::OpenAiChat, nullptr},
};

const ProviderInfo &info(ProviderKind kind)
{
    for (const ProviderInfo &entry : providerInfos) {
        if (entry.kind == kind)
            return entry;
    }
    return providerInfos[0];
}

constexpr const char *thinkingIds[] = {"off", "low", "medium", "high"};

bool isPrivateAddress(const QHostAddress &address)
{
    if (address.isLoopback() || address.isLinkLocal())
        return true;
    // QHostAddress::isPrivateUse() is Qt 6.6; these are its ranges (RFC 1918, RFC 4193).
    static const QList<std::pair<QHostAddress, int>> privateRanges{
        QHostAddress::parseSubnet(QStringLiteral("10.0.0.0/8")),
        QHostAddress::parseSubnet(QStringLiteral("172.16.0.0/12")),
        QHostAddress::parseSubnet(QStringLiteral("192.168.0.0/16")),
        QHostAddress::parseSubnet(QStringLiteral("fc00::/7")),
    };
    for (const auto &[network, prefix] : privateRanges) {
        if (address.isInSubnet(network, prefix))
            return true;
    }
    return false;
}

// "localhost", "gpu-box.local" and loopback or private addresses: a server the user runs.
bool isLocalHost(const QString &host)
{
    if (host.compare(jsonKey("localhost"), Qt::CaseInsensitive) == 0
        || host.endsWith(jsonKey(".localhost"), Qt::CaseInsensitive)
        || host.endsWith(jsonKey(".local"), Qt::CaseInsensitive)) {
        return true;
    }
    const QHostAddress address(host);
    return !address.isNull() && isPrivateAddress(address);
}

// A vendor name agentcore knows (requestbuilder's display names, pricing), from the URL of a
// compatible endpoint.
QString compatibleVendor(const QUrl &url)
{
    const QString host = url.host().toLower();
    if (url.port() == 11434)
        return jsonKey("ollama");
    if (url.port() == 1234)
        return jsonKey("lmstudio");
    if (host.endsWith(jsonKey("dashscope.aliyuncs.com"))
        || host.endsWith(jsonKey("dashscope-intl.aliyuncs.com"))) {
        return jsonKey("qwen");
    }
    if (host.isEmpty() || isLocalHost(host) || !QHostAddress(host).isNull())
        return jsonKey("openai-compatible");
    // api.deepseek.com -> deepseek, openrouter.ai -> openrouter
    const QStringList labels = host.split(u'.', Qt::SkipEmptyParts);
    if (labels.size() < 2)
        return jsonKey("openai-compatible");
    return labels.at(labels.size() - 2);
}

// The base URL as one string per endpoint: no trailing slash, lower-case scheme and host.
QString normalizedUrl(const QString &text)
{
    QUrl url(text.trimmed());
    QString path = url.path();
    while (path.endsWith(u'/'))
        path.chop(1);
    url.setPath(path);
    return url.adjusted(QUrl::NormalizePathSegments).toString();
}
} // namespace

QString ModelSelection::label() const
{
    return UiTr::tr("%1 (%2)").arg(model, endpointLabel());
}

QString ModelSelection::endpointLabel() const
{
    if (provider == ProviderKind::OpenAiCompatible) {
        const QUrl url(baseUrl.trimmed());
        const QString where = url.port() > 0 ? url.host() + u':' + QString::number(url.port())
                                             : url.host();
        return where.isEmpty() ? providerKindName(provider) : where;
    }
    // Shorter than providerKindName(): no parentheses inside the label's own.
    return provider == ProviderKind::OpenAiResponses ? UiTr::tr("OpenAI Responses")
                                                     : providerKindName(provider);
}

bool ModelSelection::sameModelAs(const ModelSelection &other) const
{
    const auto endpoint = [](const ModelSelection &selection) {
        const char *fallback = info(selection.provider).defaultBaseUrl;
        const QString url = selection.baseUrl.trimmed();
        return normalizedUrl(url.isEmpty() && fallback ? jsonKey(fallback) : url);
    };
    return provider == other.provider && model.trimmed() == other.model.trimmed()
           && endpoint(*this) == endpoint(other);
}

QString ModelSelection::keyAccount() const
{
    // OpenAI's two APIs take the same key. A key is only ever sent where it was typed in: an
    // overridden base URL gets an account of its own.
    const QString base = provider == ProviderKind::Anthropic ? jsonKey("anthropic")
                                                             : jsonKey("openai");
    if (provider == ProviderKind::OpenAiCompatible)
        return jsonKey("openai-compatible@") + normalizedUrl(baseUrl);
    const QString url = normalizedUrl(baseUrl);
    if (url.isEmpty() || url == jsonKey(info(provider).defaultBaseUrl))
        return base;
    return base + u'@' + url;
}

bool ModelSelection::needsKey() const
{
    const QUrl url(baseUrl.trimmed().isEmpty() && info(provider).defaultBaseUrl
                       ? jsonKey(info(provider).defaultBaseUrl)
                       : baseUrl.trimmed());
    return !isLocalHost(url.host());
}

QString ModelSelection::keyVariable() const
{
    // A compatible server's key is its own, not the one the provider's SDK reads; a vendor's
    // own variable (DEEPSEEK_API_KEY) goes to that vendor's address only.
    if (provider == ProviderKind::OpenAiCompatible) {
        const std::optional<ServerPreset> preset = serverPresetAt(baseUrl);
        return preset ? preset->keyVariable : QString();
    }
    return AgentCore::apiKeyVariable(info(provider).api);
}

AgentCore::ServerProfileChoice ModelSelection::serverProfileChoice() const
{
    using AgentCore::ServerProfileChoice;
    switch (provider) {
    case ProviderKind::OpenAi: {
        ServerProfileChoice choice;
        choice.id = AgentCore::ServerProfile::Id::OpenAi;
        choice.source = ServerProfileChoice::Source::User; // the user chose "OpenAI"
        return choice;
    }
    case ProviderKind::OpenAiCompatible:
        return ServerProfileChoice::choose(QUrl(baseUrl.trimmed()), serverProfile, servedOwnedBy);
    case ProviderKind::Anthropic:
    case ProviderKind::OpenAiResponses:
        break;
    }
    return {};
}

AgentCore::ProviderConfig ModelSelection::providerConfig(const QString &apiKey) const
{
    const ProviderInfo &entry = info(provider);
    AgentCore::ProviderConfig config;
    config.api = entry.api;
    config.baseUrl = QUrl(baseUrl.trimmed().isEmpty() && entry.defaultBaseUrl
                              ? jsonKey(entry.defaultBaseUrl)
                              : baseUrl.trimmed());
    switch (provider) {
    case ProviderKind::Anthropic:
        config.provider = jsonKey("anthropic");
        break;
    case ProviderKind::OpenAi:
    case ProviderKind::OpenAiResponses:
        config.provider = jsonKey("openai");
        break;
    case ProviderKind::OpenAiCompatible:
        config.provider = compatibleVendor(config.baseUrl);
        break;
    }
    if (entry.api == AgentCore::WireApi::OpenAiChat)
        config.serverProfile = serverProfileChoice().id;
    config.model = model;
    config.apiKey = apiKey;
    config.thinkingBudget = thinkingBudget(thinking);
    return config;
}

QJsonObject ModelSelection::toJson() const
{
    QJsonObject json{{jsonKey("provider"), jsonKey(info(provider).id)},
                     {jsonKey("model"), model},
                     {jsonKey("thinking"), jsonKey(thinkingIds[int(thinking)])}};
    if (!baseUrl.isEmpty())
        json.insert(jsonKey("baseUrl"), baseUrl);
    if (serverProfile)
        json.insert(jsonKey("serverProfile"), AgentCore::ServerProfile::name(*serverProfile));
    if (!servedOwnedBy.isEmpty())
        json.insert(jsonKey("servedOwnedBy"), servedOwnedBy);
    return json;
}

std::optional<ModelSelection> ModelSelection::fromJson(const QJsonObject &json)
{
    ModelSelection selection;
    const QString providerId = json.value(jsonKey("provider")).toString();
    const ProviderInfo *found = nullptr;
    for (const ProviderInfo &entry : providerInfos) {
        if (providerId == jsonKey(entry.id))
            found = &entry;
    }
    if (!found)
        return std::nullopt;
    selection.provider = found->kind;

    const QJsonValue model = json.value(jsonKey("model"));
    if (!model.isString() || model.toString().trimmed().isEmpty())
        return std::nullopt;
    selection.model = model.toString();

    const QJsonValue baseUrl = json.value(jsonKey("baseUrl"));
    if (!baseUrl.isUndefined()) {
        const QUrl url(baseUrl.toString(), QUrl::StrictMode);
        if (!baseUrl.isString() || !url.isValid() || url.host().isEmpty()
            || (url.scheme() != jsonKey("http") && url.scheme() != jsonKey("https"))) {
            return std::nullopt;
        }
        selection.baseUrl = baseUrl.toString();
    }
    if (selection.provider == ProviderKind::OpenAiCompatible && selection.baseUrl.isEmpty())
        return std::nullopt;
    // An unknown profile (a later version's) is left to the base URL rather than refused.
    selection.serverProfile = AgentCore::ServerProfile::fromName(
        json.value(jsonKey("serverProfile")).toString());
    const QString owner = json.value(jsonKey("servedOwnedBy")).toString();
    if (owner.size() <= AgentCore::ServedModels::maxOwnedByLength)
        selection.servedOwnedBy = owner;

    const QJsonValue thinking = json.value(jsonKey("thinking"));
    if (!thinking.isUndefined()) {
        const QString id = thinking.toString();
        bool known = false;
        for (int level = 0; level < int(std::size(thinkingIds)); ++level) {
            if (id == jsonKey(thinkingIds[level])) {
                selection.thinking = ThinkingLevel(level);
                known = true;
            }
        }
        if (!known)
            return std::nullopt;
    }
    return selection;
}

QString providerKindName(ProviderKind kind)
{
    switch (kind) {
    case ProviderKind::Anthropic:
        return UiTr::tr("Anthropic");
    case ProviderKind::OpenAi:
        return UiTr::tr("OpenAI");
    case ProviderKind::OpenAiResponses:
        return UiTr::tr("OpenAI (Responses)");
    case ProviderKind::OpenAiCompatible:
        return UiTr::tr("OpenAI-compatible");
    }
    return {};
}

QString thinkingLevelName(ThinkingLevel level)
{
    switch (level) {
    case ThinkingLevel::Off:
        return UiTr::tr("Off");
    case ThinkingLevel::Low:
        return UiTr::tr("Low");
    case ThinkingLevel::Medium:
        return UiTr::tr("Medium");
    case ThinkingLevel::High:
        return UiTr::tr("High");
    }
    return {};
}

int thinkingBudget(ThinkingLevel level)
{
    switch (level) {
    case ThinkingLevel::Off:
        return 0;
    case ThinkingLevel::Low:
        return 4096;
    case ThinkingLevel::Medium:
        return 12288;
    case ThinkingLevel::High:
        return 32768;
    }
    return 0;
}

} // namespace Ui
