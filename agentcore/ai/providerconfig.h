#pragma once

#include "serverprofile.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <optional>
#include <utility>

namespace AgentCore {

/// The wire protocols AgentDesk speaks.
enum class WireApi {
    OpenAiChat,        ///< "openai-chat": Chat Completions, and every compatible server
    AnthropicMessages, ///< "anthropic-messages"
    OpenAiResponses,   ///< "openai-responses"
};

QString wireApiName(WireApi api);

/// The environment variable AgentDesk reads the API key for \a api from when none is given:
/// ANTHROPIC_API_KEY for the Anthropic Messages API, OPENAI_API_KEY for both OpenAI APIs. The
/// one place these names are spelled: the command line's default (--api-key-env), the model
/// settings' fallback and the Bash environment's scrubbing all read them here.
QString apiKeyVariable(WireApi api);

/// Every apiKeyVariable(), each once: the names a Bash command never sees.
QStringList apiKeyVariables();

// Limits on what one response may make the client hold in memory. Real streams stay far below
// them (lines and events of a few KB; tool arguments arrive in many small deltas), but a broken
// or hostile server could otherwise make the client buffer without bound until the body ends.
// Exceeding one fails the request at once with streamLimitMessage().

/// The longest line of an event stream accepted, line break excluded: 16 MiB.
constexpr qsizetype DefaultMaxStreamLineBytes = 16 * 1024 * 1024;
/// The largest event (its data lines joined) accepted: 16 MiB.
constexpr qsizetype DefaultMaxStreamEventBytes = 16 * 1024 * 1024;
/// The largest arguments of one tool call accepted (UTF-8 bytes as streamed): 16 MiB.
constexpr qsizetype DefaultMaxToolArgumentsBytes = 16 * 1024 * 1024;
/// The longest a whole request may take, retries and their waits included: 30 minutes.
/// Generous for the longest answers; it ends servers that keep a connection alive with pings.
constexpr int DefaultRequestTimeoutMs = 30 * 60'000;

enum class StreamLimit {
    Line,          ///< ProviderConfig::maxLineBytes
    Event,         ///< ProviderConfig::maxEventBytes
    ToolArguments, ///< ProviderConfig::maxToolArgumentsBytes
};

/// The error a request ends with when the response exceeded \a limit of \a bytes; names the
/// limit and its size.
QString streamLimitMessage(StreamLimit limit, qsizetype bytes);

/// \a text with every occurrence of \a secret replaced by "[API key]", and, for a secret of 24
/// characters or more, every occurrence of its last 16 characters too (servers that echo a
/// key sometimes shorten it at the front). A secret shorter than 4 characters is left alone.
QString redactSecret(QString text, const QString &secret);

/// Where and how to reach one model. A plain value; the API key is never logged or written
/// anywhere by agentcore.
struct ProviderConfig
{
    WireApi api = WireApi::OpenAiChat;
    QString provider; ///< "openai", "anthropic", "openrouter", "deepseek", "ollama", ...
    /// The API root as the official SDK takes it: OpenAI ".../v1", Anthropic without "/v1".
    QUrl baseUrl;
    QString apiKey;
    QString model;
    QList<std::pair<QByteArray, QByteArray>> extraHeaders;
    int maxOutputTokens = 0; ///< 0: the provider's default (Anthropic needs one: 16384 is sent)
    int thinkingBudget = 0;  ///< 0: thinking off; Anthropic budget_tokens, OpenAI effort from it
    /// One value per conversation (the session's id), so the provider routes its requests to
    /// the machine that holds their cached prefix. Sent as prompt_cache_key to OpenAI only
    /// (Chat Completions: the OpenAI server profile; Responses: provider "openai"): compatible
    /// servers (vLLM, Ollama, some proxies) may reject a field they do not know. Anthropic
    /// caches by its cache_control markers instead. Empty: not sent.
    QString promptCacheKey;
    /// Chat Completions: which server this is (ServerProfile). The command line and the
    /// settings always set it (ServerProfileChoice::choose); nullopt: see serverProfileOf().
    std::optional<ServerProfile::Id> serverProfile;

    // Transport
    int idleTimeoutMs = 120'000; ///< no byte (pings included) for this long ends the stream
    int maxRetries = 4;          ///< for 429, 503, 529 and connection resets before any byte
    int retryBaseDelayMs = 1'000;
    int retryMaxDelayMs = 60'000; ///< a longer Retry-After is not waited for: the error stands
    /// The whole request, retries included, ends after this long even while bytes still come
    /// (pings); 0: no deadline.
    int requestTimeoutMs = DefaultRequestTimeoutMs;

    // Memory limits (see the constants above); smaller values are for tests. 0: no limit.
    qsizetype maxLineBytes = DefaultMaxStreamLineBytes;
    qsizetype maxEventBytes = DefaultMaxStreamEventBytes;
    qsizetype maxToolArgumentsBytes = DefaultMaxToolArgumentsBytes;
};

/// The ServerProfile \a config's Chat Completions requests follow: config.serverProfile when
/// set; else the one a vendor's host in the base URL names; else config.provider read as a
/// profile name ("openai", "deepseek", "ollama", ...: what the settings derive from the URL);
/// else the one the local port suggests; else the generic one.
ServerProfile serverProfileOf(const ProviderConfig &config);

} // namespace AgentCore
