#pragma once

#include "providerconfig.h"
#include "types.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QUrl>

#include <utility>

namespace AgentCore {

/// A streaming HTTP request, ready for QNetworkAccessManager::post.
struct HttpRequestSpec
{
    QUrl url;
    QList<std::pair<QByteArray, QByteArray>> headers; ///< includes auth and content type
    QByteArray body;                                  ///< JSON
};

/// Builds the wire request for \a context. Pictures (image blocks of user messages and tool
/// results) go as the API wants them; to a model that takes none (takesPictures(), the model
/// catalog) each goes as a line of text that says so instead. The result satisfies the target API's rules even for
/// a history written by another provider: every tool result directly after its call, no empty
/// content, tool-call ids rewritten to ^[a-zA-Z0-9_-]{1,64}$ (consistently for call and result),
/// thinking signatures only sent back to the provider that made them, custom messages converted
/// or dropped. Pure; thread-safe.
HttpRequestSpec buildRequest(const ProviderConfig &config, const Context &context);

/// The same id everywhere it appears, valid for every provider.
QString normalizedToolCallId(const QString &id);

/// normalizedToolCallId() with a tighter length limit (OpenAI Chat Completions rejects ids over
/// 40 characters). Valid ids that fit are returned unchanged; others get a hash suffix, so two
/// different ids do not collide.
QString normalizedToolCallId(const QString &id, int maxLength);

// Shared by the per-API builders (anthropicrequest, openaichatrequest, openairesponsesrequest).

/// The history cleaned for any wire API: custom messages with text become user messages wrapped
/// in <system-reminder>, the rest are dropped; blank text blocks are removed; assistant messages
/// without text or tool calls are skipped; tool calls and results are paired by pairToolCalls()
/// (the loop's projection: each call followed by exactly one result, in call order, a call
/// without one gets missingToolResult(), a result without a call is dropped); tool-call ids are
/// normalized to \a maxIdLength and unique within the request. Thinking blocks are kept: each
/// builder decides what to send back. With \a issuer set, the ids of the calls \a issuer's server
/// made (isFromSameServer) go back byte for byte, whatever their characters or length: they are
/// that server's own, and some render them into the prompt (Kimi's "functions.Read:0" is where
/// its template finds the function's name). Only an id that collides, or one longer than
/// \a maxOwnIdLength (0: no limit; OpenAI's 40 holds for any id), is renamed.
QList<Message> wireHistory(const QList<Message> &messages,
                           int maxIdLength = 64,
                           const ProviderConfig *issuer = nullptr,
                           int maxOwnIdLength = 0);

/// True when \a message (a tool's result, a user's message) holds a picture.
bool hasImages(const Message &message);

/// "data:image/png;base64,...": how the OpenAI APIs take a picture.
QString imageDataUrl(const ContentBlock &image);

/// True when \a message was made by the same provider, wire API and model as \a config, so its
/// thinking signatures (or encrypted reasoning) are valid there. A dated snapshot counts as its
/// alias ("claude-sonnet-4-5-20250929" is "claude-sonnet-4-5").
bool isFromSameModel(const Message &message, const ProviderConfig &config);

/// True when \a message came from the same provider and wire API as \a config, whatever model
/// the stream named: a local server reports its own name for the model (llama.cpp the file it
/// loaded), so the model cannot tell its messages apart.
bool isFromSameServer(const Message &message, const ProviderConfig &config);

/// \a baseUrl with \a suffix ("/chat/completions") appended to its path without doubling slashes;
/// the query (e.g. Azure's api-version) is kept.
QUrl appendedUrlPath(const QUrl &baseUrl, const QString &suffix);

/// \a defaults followed by \a config's extra headers; an extra header replaces a default of the
/// same name (case-insensitive), so a proxy can override e.g. the auth header.
QList<std::pair<QByteArray, QByteArray>> withExtraHeaders(
    QList<std::pair<QByteArray, QByteArray>> defaults, const ProviderConfig &config);

/// The streaming POST of the OpenAI APIs (Chat Completions, Responses): \a path appended to the
/// base URL, the JSON \a body, bearer auth when a key is set (none for Ollama, llama.cpp), then
/// the extra headers.
HttpRequestSpec openAiStreamingRequest(const ProviderConfig &config,
                                       const QString &path,
                                       const QJsonObject &body);

/// A request body's key: the wire names are Latin-1 literals.
inline QString jsonKey(const char *name)
{
    return QString::fromLatin1(name);
}

/// The tool's JSON Schema, or an empty object schema when it has none (every API wants one).
QJsonObject toolParameters(const ToolDefinition &tool);

/// Tool-call arguments as the compact JSON string the OpenAI APIs take.
QString argumentsJson(const QJsonObject &arguments);

/// "low", "medium" or "high" for an OpenAI reasoning effort from a thinking budget in tokens.
QString reasoningEffortForBudget(int thinkingBudget);

} // namespace AgentCore
