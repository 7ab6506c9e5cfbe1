#pragma once

#include <ai/providerconfig.h>
#include <ai/requestbuilder.h>
#include <ai/types.h>

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

/// What the request builder tests share: conversations to convert, access to the JSON bodies,
/// and the rules of each wire API, checked independently of the builder. Pure functions.
namespace TestSupport {

/// \a text parsed as a JSON object; a malformed literal is a defect of the test (qFatal).
QJsonObject jsonLiteral(const char *text);

/// The parsed body of \a spec.
QJsonObject bodyOf(const AgentCore::HttpRequestSpec &spec);

/// A config for \a api with a secret-looking API key and the provider's usual base URL.
AgentCore::ProviderConfig requestConfig(AgentCore::WireApi api,
                                        const QString &provider,
                                        const QString &model);

/// An assistant message with \a content, made by \a origin's provider, API and model.
AgentCore::Message assistantFrom(const AgentCore::ProviderConfig &origin,
                                 const QList<AgentCore::ContentBlock> &content,
                                 AgentCore::StopReason stop = AgentCore::StopReason::ToolUse);

/// A custom message of \a type holding \a text (blank: nothing to convert).
AgentCore::Message customMessage(const QString &type, const QString &text);

/// An object schema with one required string "path".
QJsonObject pathSchema();

/// System prompt, tools ls and read, then: user, assistant (thinking + text + two tool calls),
/// two results (the second an error), a reminder, user. Made by \a origin's model, with the
/// call ids \a firstId and \a secondId.
AgentCore::Context sampleConversation(const AgentCore::ProviderConfig &origin,
                                      const QString &firstId,
                                      const QString &secondId);

QString stringAt(const QJsonObject &object, const char *key);
QJsonArray arrayAt(const QJsonObject &object, const char *key);

/// The first content block of an Anthropic message.
QJsonObject firstBlock(const QJsonValue &message);

/// The tool-call ids every provider accepts.
const QRegularExpression &validToolCallId();

// The rules of each API for histories of any origin; each returns the first violation, or an
// empty string when \a body is valid.
QString openAiChatRuleViolation(const QJsonObject &body);
QString anthropicRuleViolation(const QJsonObject &body);
QString openAiResponsesRuleViolation(const QJsonObject &body);
QString apiRuleViolation(AgentCore::WireApi api, const QJsonObject &body);

/// Empty when \a body, the Chat Completions request that follows an assistant turn to a server
/// of \a profile (a ServerProfile name), keeps that server's rules, written from its
/// documentation and code rather than from ServerProfile: only the optional top-level fields it
/// takes (besides model, messages, stream, tools), the turn's tool calls under the ids it
/// issued (\a issued, byte for byte, on the calls and their results), and the turn's reasoning
/// (\a thinking; OpenRouter: \a receivedDetails, the reasoning_details blocks of its stream)
/// back where that server reads it and nowhere else. Else the first violation.
QString compatibleServerViolation(const QString &profile,
                                  const QJsonObject &body,
                                  const QStringList &issued,
                                  const QString &thinking,
                                  const QJsonArray &receivedDetails);

/// Every reasoning_details block in the "data:" chunks of \a stream, in order.
QJsonArray reasoningDetailsIn(const QByteArray &stream);

/// The messages (Chat, Anthropic) or input items (Responses) of a request body.
QJsonArray requestTurns(AgentCore::WireApi api, const QJsonObject &body);

} // namespace TestSupport
