#include "serverprofile.h"
#include "translation.h"

#include <QCoreApplication>
#include <QHostAddress>

namespace AgentCore {

namespace {

using Id = ServerProfile::Id;

struct Entry
{
    Id id;
    const char *name;
    const char *displayName;
};

constexpr Entry entries[] = {
    {Id::Generic, "generic", nullptr}, // translated: displayName()
    {Id::OpenAi, "openai", "OpenAI"},
    {Id::DeepSeek, "deepseek", "DeepSeek"},
    {Id::OpenRouter, "openrouter", "OpenRouter"},
    {Id::Mistral, "mistral", "Mistral"},
    {Id::LlamaCpp, "llamacpp", "llama.cpp"},
    {Id::Ollama, "ollama", "Ollama"},
    {Id::Vllm, "vllm", "vLLM"},
    {Id::LmStudio, "lmstudio", "LM Studio"},
    {Id::Moonshot, "moonshot", "Kimi / Moonshot"},
};

const Entry &entry(Id id)
{
    for (const Entry &e : entries) {
        if (e.id == id)
            return e;
    }
    return entries[0];
}

bool hostIs(const QString &host, const char *domain)
{
    const QString d = QLatin1String(domain);
    return host == d || host.endsWith(QLatin1Char('.') + d);
}

bool isLocal(const QString &host)
{
    return host == QLatin1String("localhost") || QHostAddress(host).isLoopback();
}
} // namespace

ServerProfile ServerProfile::of(Id id)
{
    ServerProfile p;
    p.id = id;
    switch (id) {
    case Id::Generic:
        break;
    case Id::OpenAi:
        p.streamOptions = true;
        p.promptCacheKey = true;
        p.maxCompletionTokens = true;
        p.reasoningEffort = true;
        p.maxToolCallIdLength = 40;
        break;
    case Id::DeepSeek:
        // Thinking mode with tools: "The reasoning_content in the thinking mode must be passed
        // back to the API" (HTTP 400) on the tool-call turns of the running task.
        p.streamOptions = true;
        p.reasoningBack = ReasoningBack::ReasoningContentOnToolCalls;
        break;
    case Id::OpenRouter:
        // Signed and encrypted reasoning blocks must go back as they came for the model to
        // continue its reasoning across tool calls.
        p.streamOptions = true;
        p.reasoningBack = ReasoningBack::ReasoningDetails;
        break;
    case Id::Mistral:
        // 422 extra_forbidden for any field outside its schema; usage always comes.
        break;
    case Id::LlamaCpp:
        // Its chat templates (gpt-oss, Qwen3, DeepSeek) render reasoning_content back.
        p.streamOptions = true;
        p.reasoningBack = ReasoningBack::ReasoningContent;
        break;
    case Id::Ollama:
        // openai/openai.go reads an assistant message's "reasoning" into its thinking.
        p.streamOptions = true;
        p.reasoningBack = ReasoningBack::Reasoning;
        break;
    case Id::Vllm:
        // Its chat templates read reasoning_content; unknown fields are only logged.
        p.streamOptions = true;
        p.reasoningBack = ReasoningBack::ReasoningContent;
        break;
    case Id::LmStudio:
        p.streamOptions = true;
        break;
    case Id::Moonshot:
        // kimi-k2-thinking keeps its reasoning across tool calls like DeepSeek.
        p.streamOptions = true;
        p.reasoningBack = ReasoningBack::ReasoningContentOnToolCalls;
        break;
    }
    return p;
}

QList<ServerProfile::Id> ServerProfile::all()
{
    QList<Id> ids;
    for (const Entry &e : entries)
        ids.append(e.id);
    return ids;
}

QString ServerProfile::name(Id id)
{
    return QLatin1String(entry(id).name);
}

QString ServerProfile::displayName(Id id)
{
    if (id == Id::Generic)
        return AiTr::tr("Generic (conservative)");
    return QLatin1String(entry(id).displayName);
}

std::optional<ServerProfile::Id> ServerProfile::fromName(const QString &name)
{
    const QString n = name.trimmed().toLower();
    for (const Entry &e : entries) {
        if (n == QLatin1String(e.name))
            return e.id;
    }
    if (n == QLatin1String("llama.cpp") || n == QLatin1String("llama-cpp"))
        return Id::LlamaCpp;
    if (n == QLatin1String("lm-studio") || n == QLatin1String("lm studio"))
        return Id::LmStudio;
    if (n == QLatin1String("kimi"))
        return Id::Moonshot;
    return std::nullopt;
}

QString ServerProfile::namesForHelp()
{
    QStringList names;
    for (const Entry &e : entries)
        names.append(QLatin1String(e.name));
    return names.join(QLatin1String(", "));
}

std::optional<ServerProfile::Id> ServerProfile::fromBaseUrl(const QUrl &baseUrl, bool *weak)
{
    if (weak)
        *weak = false;
    const QString host = baseUrl.host().toLower();
    if (hostIs(host, "api.openai.com"))
        return Id::OpenAi;
    if (hostIs(host, "api.deepseek.com"))
        return Id::DeepSeek;
    if (hostIs(host, "openrouter.ai"))
        return Id::OpenRouter;
    if (hostIs(host, "api.mistral.ai"))
        return Id::Mistral;
    if (hostIs(host, "api.moonshot.ai") || hostIs(host, "api.moonshot.cn"))
        return Id::Moonshot;
    if (!isLocal(host))
        return std::nullopt;
    // The servers' default ports: a sign only, another server may listen there.
    std::optional<Id> byPort;
    switch (baseUrl.port()) {
    case 11434:
        byPort = Id::Ollama;
        break;
    case 1234:
        byPort = Id::LmStudio;
        break;
    case 8080:
        byPort = Id::LlamaCpp;
        break;
    default:
        break;
    }
    if (byPort && weak)
        *weak = true;
    return byPort;
}

std::optional<ServerProfile::Id> ServerProfile::fromOwnedBy(const QString &ownedBy)
{
    const QString o = ownedBy.trimmed().toLower();
    if (o == QLatin1String("llamacpp"))
        return Id::LlamaCpp;
    if (o == QLatin1String("vllm"))
        return Id::Vllm;
    if (o == QLatin1String("library") || o == QLatin1String("ollama"))
        return Id::Ollama;
    if (o == QLatin1String("organization_owner"))
        return Id::LmStudio;
    if (o == QLatin1String("deepseek"))
        return Id::DeepSeek;
    if (o == QLatin1String("mistralai"))
        return Id::Mistral;
    if (o == QLatin1String("moonshot"))
        return Id::Moonshot;
    // "openai" and "system" are not taken: proxies (LiteLLM, one-api) answer with them too, and
    // the OpenAI profile sends fields only OpenAI takes.
    return std::nullopt;
}

QString ServerProfileChoice::reason() const
{
    switch (source) {
    case Source::Default:
        return AiTr::tr("unknown server: the conservative profile");
    case Source::BaseUrl:
        return AiTr::tr("from the base URL (%1)").arg(evidence);
    case Source::BaseUrlPort:
        return AiTr::tr("from the base URL's port (%1)").arg(evidence);
    case Source::ServedModels:
        return AiTr::tr("from /v1/models: owned_by %1").arg(evidence);
    case Source::User:
        return AiTr::tr("set by you");
    }
    return {};
}

ServerProfileChoice ServerProfileChoice::choose(const QUrl &baseUrl,
                                                std::optional<ServerProfile::Id> explicitId,
                                                const QString &ownedBy)
{
    ServerProfileChoice choice;
    if (explicitId) {
        choice.id = *explicitId;
        choice.source = Source::User;
        return choice;
    }
    bool weak = false;
    const std::optional<ServerProfile::Id> byUrl = ServerProfile::fromBaseUrl(baseUrl, &weak);
    if (byUrl && !weak) {
        choice.id = *byUrl;
        choice.source = Source::BaseUrl;
        choice.evidence = baseUrl.host().toLower();
        return choice;
    }
    if (const std::optional<ServerProfile::Id> served = ServerProfile::fromOwnedBy(ownedBy)) {
        choice.id = *served;
        choice.source = Source::ServedModels;
        choice.evidence = ownedBy.trimmed().toLower();
        return choice;
    }
    if (byUrl) {
        choice.id = *byUrl;
        choice.source = Source::BaseUrlPort;
        choice.evidence = QString::number(baseUrl.port());
    }
    return choice;
}

} // namespace AgentCore
