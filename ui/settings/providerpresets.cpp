#include "providerpresets.h"

#include <ai/modelcatalog.h>

namespace Ui {

namespace {

QString presetKey(const char *text)
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
        {presetKey("Ollama"),
         presetKey("http://localhost:11434/v1"),
         {presetKey("qwen3-coder"), presetKey("gpt-oss:20b"), presetKey("devstral")}},
        {presetKey("llama.cpp"), presetKey("http://localhost:8080/v1"), {presetKey("default")}},
        {presetKey("vLLM"),
         presetKey("http://localhost:8000/v1"),
         {presetKey("Qwen/Qwen3-Coder-30B-A3B-Instruct"), presetKey("openai/gpt-oss-20b")}},
        {presetKey("LM Studio"),
         presetKey("http://localhost:1234/v1"),
         {presetKey("qwen/qwen3-coder-30b")}},
        {presetKey("DeepSeek"),
         presetKey("https://api.deepseek.com/v1"),
         {presetKey("deepseek-chat"), presetKey("deepseek-reasoner")},
         presetKey("DEEPSEEK_API_KEY")},
        {presetKey("Qwen (DashScope)"),
         presetKey("https://dashscope-intl.aliyuncs.com/compatible-mode/v1"),
         {presetKey("qwen3-coder-plus"), presetKey("qwen3-max")},
         presetKey("DASHSCOPE_API_KEY")},
        {presetKey("OpenRouter"),
         presetKey("https://openrouter.ai/api/v1"),
         {presetKey("anthropic/claude-sonnet-4.5"),
          presetKey("openai/gpt-5"),
          presetKey("qwen/qwen3-coder")},
         presetKey("OPENROUTER_API_KEY")},
    };
}

std::optional<ServerPreset> serverPresetAt(const QString &baseUrl)
{
    const QString url = withoutTrailingSlash(baseUrl);
    for (const ServerPreset &preset : serverPresets()) {
        if (preset.baseUrl.compare(url, Qt::CaseInsensitive) == 0)
            return preset;
    }
    return std::nullopt;
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
