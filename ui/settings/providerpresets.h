#pragma once

#include "modelselection.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace Ui {

/// A well-known OpenAI-compatible server: what the settings dialog offers for the base URL.
struct ServerPreset
{
    QString name;    ///< "Ollama"
    QString baseUrl; ///< "http://localhost:11434/v1"
    QStringList models;
};

/// Ollama, llama.cpp, vLLM, LM Studio, DeepSeek, Qwen (DashScope), OpenRouter.
QList<ServerPreset> serverPresets();

/// Model names to suggest for \a provider; for OpenAI-compatible, those of the preset whose
/// URL is \a baseUrl, or of all presets. The first is the default for a new selection.
QStringList suggestedModels(ProviderKind provider, const QString &baseUrl = {});

/// The default base URL of \a provider ("https://api.anthropic.com"), empty for compatible.
QString defaultBaseUrl(ProviderKind provider);

} // namespace Ui
