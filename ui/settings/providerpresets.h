#pragma once

#include "modelselection.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace Ui {

/// A well-known OpenAI-compatible server: what the settings dialog offers for the base URL.
struct ServerPreset
{
    QString name;    ///< "Ollama"
    QString baseUrl; ///< "http://localhost:11434/v1"
    QStringList models;
    /// The environment variable the vendor's own tools read its key from ("DEEPSEEK_API_KEY"):
    /// used for this base URL, and only for it, when no key is stored. Empty for local servers.
    QString keyVariable = {};
};

/// Ollama, llama.cpp, vLLM, LM Studio, DeepSeek, Qwen (DashScope), OpenRouter.
QList<ServerPreset> serverPresets();

/// Model names to suggest for \a provider; for OpenAI-compatible, those of the preset whose
/// URL is \a baseUrl, or of all presets. The first is the default for a new selection.
QStringList suggestedModels(ProviderKind provider, const QString &baseUrl = {});

/// The preset whose base URL is \a baseUrl (a trailing slash aside); nullopt for any other.
std::optional<ServerPreset> serverPresetAt(const QString &baseUrl);

/// The default base URL of \a provider ("https://api.anthropic.com"), empty for compatible.
QString defaultBaseUrl(ProviderKind provider);

} // namespace Ui
