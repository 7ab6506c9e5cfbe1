#pragma once

#include "picture.h"
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

/// Whether a model reads pictures (image input).
enum class PictureInput {
    Yes,     ///< a vision model: pictures go as image blocks
    No,      ///< text only: a picture would make the provider refuse the request
    Unknown, ///< not in the table (a local server's model, a new one): pictures are sent
};

/// Whether \a model takes pictures, matched like contextWindowTokens(). Known vision models
/// (Claude 3 and 4, GPT-4o, GPT-4.1, GPT-5, o1, o3, o4-mini, Gemini) say Yes, known text-only
/// ones (DeepSeek's, o1-mini, o3-mini, GPT-3.5, the first GPT-4, gpt-oss, Kimi K2) No; any
/// provider's model whose name says vision (llava, "-vl", "vision") Yes; the rest Unknown:
/// the user may run a vision model the table does not know. Pure; thread-safe.
PictureInput pictureInput(const QString &provider, const QString &model);

/// pictureInput() is not No: pictures are sent to \a config's model.
bool takesPictures(const ProviderConfig &config);

/// What "this model takes no pictures" says, for people and the model: names the model.
QString noPicturesNote(const ProviderConfig &config);

/// How large the pictures sent to \a config are made (PictureScaler), by its wire API:
/// Anthropic at most 1568 px on the long edge and 5 MB of base64 (the API's own limit), the
/// OpenAI APIs at most 2048 px on the long edge and 768 px on the short one (what their high
/// detail looks at) within the same 5 MB, so the picture still goes if the session switches
/// to Anthropic. Pure; thread-safe.
PictureLimits pictureLimits(const ProviderConfig &config);

} // namespace AgentCore
