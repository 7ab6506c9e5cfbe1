#include "providerpresets.h"

#include <ai/modelcatalog.h>

namespace Ui {

namespace {

QString key(const char *text)
{
    return QLatin1String(text);
}

QString withoutTrailingSlash(QString url)
{
    url = url.trimmed();
    while (url.endsWith(u'/'))
        url.chop(1);
    return url;
}

} // namespace

QList<ServerPreset> serverPresets()
{
    return {
        {key("Ollama"),
         key("http://localhost:11434/v1"),
         {key("qwen3-coder"), key("gpt-oss:20b"), key("devstral")}},
        {key("llama.cpp"), key("http://localhost:8080/v1"), {key("default")}},
        {key("vLLM"),
         key("http://localhost:8000/v1"),
         {key("Qwen/Qwen3-Coder-30B-A3B-Instruct"), key("openai/gpt-oss-20b")}},
        {key("LM Studio"), key("http://localhost:1234/v1"), {key("qwen/qwen3-coder-30b")}},
        {key("DeepSeek"),
         key("https://api.deepseek.com/v1"),
         {key("deepseek-chat"), key("deepseek-reasoner")}},
        {key("Qwen (DashScope)"),
         key("https://dashscope-intl.aliyuncs.com/compatible-mode/v1"),
         {key("qwen3-coder-plus"), key("qwen3-max")}},
        {key("OpenRouter"),
         key("https://openrouter.ai/api/v1"),
         {key("anthropic/claude-sonnet-4.5"), key("openai/gpt-5"), key("qwen/qwen3-coder")}},
    };
}

QStringList suggestedModels(ProviderKind provider, const QString &baseUrl)
{
    // The vendors whose line-up agentcore knows (Anthropic, OpenAI, DeepSeek) first.
    const AgentCore::ProviderConfig config = ModelSelection{provider, baseUrl, {}, {}}
                                                 .providerConfig({});
    const QStringList known = AgentCore::suggestedModels(config.api, config.provider);
    if (!known.isEmpty() || provider != ProviderKind::OpenAiCompatible)
        return known;
    const QList<ServerPreset> presets = serverPresets();
    const QString url = withoutTrailingSlash(baseUrl);
    for (const ServerPreset &preset : presets) {
        if (preset.baseUrl == url)
            return preset.models;
    }
    QStringList all;
    for (const ServerPreset &preset : presets)
        all += preset.models;
    all.removeDuplicates();
    return all;
}

QString defaultBaseUrl(ProviderKind provider)
{
    return withoutTrailingSlash(
        ModelSelection{provider, {}, {}, ThinkingLevel::Off}.providerConfig({}).baseUrl.toString());
}

} // namespace Ui
