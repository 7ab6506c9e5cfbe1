#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QUrl>

#include <utility>

namespace AgentCore {

/// The wire protocols AgentDesk speaks.
enum class WireApi {
    OpenAiChat,        ///< "openai-chat": Chat Completions, and every compatible server
    AnthropicMessages, ///< "anthropic-messages"
    OpenAiResponses,   ///< "openai-responses"
};

QString wireApiName(WireApi api);

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

    // Transport
    int idleTimeoutMs = 120'000; ///< no byte (pings included) for this long ends the stream
    int maxRetries = 4;          ///< for 429, 503, 529 and connection resets before any byte
    int retryBaseDelayMs = 1'000;
    int retryMaxDelayMs = 60'000; ///< a longer Retry-After is not waited for: the error stands
};

} // namespace AgentCore
