#pragma once

#include <ai/providerconfig.h>

#include <QJsonObject>
#include <QMetaType>
#include <QString>

#include <optional>

namespace Ui {

/// The kinds of endpoint the settings offer. Each maps to a wire API and a default base URL.
enum class ProviderKind {
    Anthropic,        ///< Messages API, api.anthropic.com
    OpenAi,           ///< Chat Completions, api.openai.com
    OpenAiResponses,  ///< Responses API, api.openai.com
    OpenAiCompatible, ///< Chat Completions at a base URL the user gives (Ollama, vLLM, ...)
};

/// How much the model may think before answering; mapped to ProviderConfig::thinkingBudget.
enum class ThinkingLevel { Off, Low, Medium, High };

/// Which model a conversation talks to: what the settings dialog saves, what the status bar
/// switches, and what a session file remembers. Never holds the API key (keys live in the
/// KeyStore, under keyAccount()). A plain value.
struct ModelSelection
{
    ProviderKind provider = ProviderKind::Anthropic;
    QString baseUrl; ///< empty: the provider's default (required for OpenAiCompatible)
    QString model;
    ThinkingLevel thinking = ThinkingLevel::Off;
    /// OpenAiCompatible: the server profile the user chose; nullopt: found (serverProfileChoice).
    std::optional<AgentCore::ServerProfile::Id> serverProfile = std::nullopt;
    /// OpenAiCompatible: the "owned_by" the server's /v1/models answered when the settings were
    /// saved (empty: not asked, or it told nothing).
    QString servedOwnedBy = {};

    /// "claude-sonnet-4-5 (Anthropic)", "qwen3-coder (localhost:11434)": endpointLabel() in
    /// parentheses. The one label of a model everywhere (status bar, menus, settings, whether
    /// it was chosen in the settings or on the command line).
    QString label() const;
    /// "Anthropic", "OpenAI Responses", "localhost:11434": the endpoint's name in label().
    QString endpointLabel() const;
    /// The same model at the same endpoint, whatever the thinking level and however the base
    /// URL is spelled (a trailing slash, the provider's default given or left out).
    bool sameModelAs(const ModelSelection &other) const;
    /// The KeyStore account of this provider's key: one per kind, and one per base URL for
    /// OpenAI-compatible endpoints.
    QString keyAccount() const;
    /// False for compatible endpoints on a loopback or private address (Ollama needs no key).
    bool needsKey() const;
    /// The environment variable whose key is used when none is stored: "ANTHROPIC_API_KEY",
    /// "OPENAI_API_KEY" (both OpenAI APIs); empty for OpenAI-compatible endpoints.
    QString keyVariable() const;
    /// The server profile of an OpenAI-compatible endpoint and why: the user's, else from the
    /// base URL and servedOwnedBy. The OpenAI kind is the OpenAI profile whatever its URL (a
    /// proxy for OpenAI); the other kinds are not Chat Completions servers (generic, Default).
    AgentCore::ServerProfileChoice serverProfileChoice() const;
    /// What the agent calls: wire API, vendor, base URL, model, thinking budget, the server
    /// profile (Chat Completions) and \a apiKey.
    AgentCore::ProviderConfig providerConfig(const QString &apiKey) const;

    QJsonObject toJson() const;
    /// nullopt when \a json is not a selection this version understands.
    static std::optional<ModelSelection> fromJson(const QJsonObject &json);

    friend bool operator==(const ModelSelection &, const ModelSelection &) = default;
};

QString providerKindName(ProviderKind kind);    ///< translated, for menus: "OpenAI (Responses)"
QString thinkingLevelName(ThinkingLevel level); ///< translated: "Off", "Low", ...
int thinkingBudget(ThinkingLevel level);        ///< tokens: 0, 4096, 12288, 32768

} // namespace Ui

Q_DECLARE_METATYPE(Ui::ModelSelection)
