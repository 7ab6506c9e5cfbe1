#pragma once

#include <QList>
#include <QString>
#include <QUrl>

#include <optional>

namespace AgentCore {

/// What one kind of OpenAI-compatible Chat Completions server takes and sends beyond the common
/// core of the API: the one home of these differences. The request builder asks it which
/// optional fields to send and how reasoning goes back in the history. Where a server reports
/// its cache hits is no part of it: the assembler reads every vendor's usage and reasoning
/// fields whatever the profile (reading costs nothing, and proxies mix them). A plain value; pure; thread-safe.
struct ServerProfile
{
    enum class Id {
        Generic, ///< unknown server: only the fields every server takes
        OpenAi,
        DeepSeek,
        OpenRouter,
        Mistral,
        LlamaCpp,
        Ollama,
        Vllm,
        LmStudio,
        Moonshot, ///< Kimi (api.moonshot.ai / .cn)
    };

    /// How the assistant's reasoning of an earlier turn goes back to the server.
    enum class ReasoningBack {
        None,                        ///< not sent (the server ignores or rejects it)
        ReasoningContent,            ///< "reasoning_content" on every assistant message
        ReasoningContentOnToolCalls, ///< "reasoning_content" on assistant messages with tool calls
        Reasoning,                   ///< "reasoning" (Ollama)
        ReasoningDetails,            ///< "reasoning_details": the blocks kept as received
    };

    Id id = Id::Generic;
    bool streamOptions = false;       ///< stream_options.include_usage (else usage may not come)
    bool promptCacheKey = false;      ///< prompt_cache_key (OpenAI only)
    bool maxCompletionTokens = false; ///< max_completion_tokens rather than max_tokens
    bool reasoningEffort = false;     ///< reasoning_effort for OpenAI's reasoning models
    ReasoningBack reasoningBack = ReasoningBack::None;
    /// The longest tool-call id of another origin the server takes; the server's own ids go
    /// back byte for byte whatever their length (Kimi's "functions.Read:0", vLLM's long ones).
    int maxForeignToolCallIdLength = 40;
    /// The longest id the server takes at all, its own included (OpenAI: 40, which its own ids
    /// never exceed, so a history from another server at the same provider name still fits);
    /// 0: no limit.
    int maxToolCallIdLength = 0;

    /// The profile of \a id.
    static ServerProfile of(Id id);
    /// Every profile id, in the order the settings list them (generic first).
    static QList<Id> all();
    /// "generic", "openai", "deepseek", "openrouter", "mistral", "llamacpp", "ollama", "vllm",
    /// "lmstudio", "moonshot": the name of the command line and the settings file.
    static QString name(Id id);
    /// The id named \a name (case-insensitive; "llama.cpp", "kimi" and "lm-studio" too).
    static std::optional<Id> fromName(const QString &name);
    /// "llama.cpp", "LM Studio", "Kimi / Moonshot", ...: for people; only the generic one's is
    /// translated, the others are names.
    static QString displayName(Id id);
    /// Every name fromName() takes, for an error message: "generic, openai, ...".
    static QString namesForHelp();

    /// The server an address names: a vendor's host (api.deepseek.com, openrouter.ai,
    /// api.mistral.ai, api.moonshot.ai/.cn, api.openai.com) is a strong sign; a local port
    /// (11434 Ollama, 1234 LM Studio, 8080 llama.cpp) a weak one (\a weak set true), which
    /// /v1/models may overrule. nullopt: the address says nothing.
    static std::optional<Id> fromBaseUrl(const QUrl &baseUrl, bool *weak = nullptr);
    /// The server whose /v1/models answer has \a ownedBy in its entries' "owned_by":
    /// "llamacpp", "vllm", "library"/"ollama", "deepseek", "mistralai", "moonshot",
    /// "organization_owner" (LM Studio). nullopt for any other value, "openai" and "system"
    /// included: proxies answer with them too.
    static std::optional<Id> fromOwnedBy(const QString &ownedBy);

    friend bool operator==(const ServerProfile &, const ServerProfile &) = default;
};

/// Which profile a configuration uses, and why: what the settings dialog shows.
struct ServerProfileChoice
{
    enum class Source {
        Default,      ///< nothing told: the generic profile
        BaseUrl,      ///< from the vendor's host in the base URL
        BaseUrlPort,  ///< from the local port alone (a weak sign)
        ServedModels, ///< from the /v1/models answer ("owned_by")
        User,         ///< set by the user (settings or --server-profile)
    };

    ServerProfile::Id id = ServerProfile::Id::Generic;
    Source source = Source::Default;
    QString evidence; ///< ServedModels: the owned_by value; BaseUrl(Port): the host or port

    /// "from the base URL (api.deepseek.com)", "from /v1/models: owned_by llamacpp", "set by
    /// you", "unknown server: the conservative profile". Translated.
    QString reason() const;

    /// The choice for \a baseUrl when the user set \a explicitId (nullopt: not set) and the
    /// server's /v1/models entries said \a ownedBy (empty: not asked or not told). The user's
    /// choice wins; a vendor's host beats owned_by, owned_by beats a port.
    static ServerProfileChoice choose(const QUrl &baseUrl,
                                      std::optional<ServerProfile::Id> explicitId,
                                      const QString &ownedBy = {});
};

} // namespace AgentCore
