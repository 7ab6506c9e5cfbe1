#include "requestbuildertest.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

namespace TestSupport {

using namespace AgentCore;

QJsonObject jsonLiteral(const char *text)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray(text), &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("bad JSON literal in test: %s", qPrintable(error.errorString()));
    return document.object();
}

QJsonObject bodyOf(const HttpRequestSpec &spec)
{
    return QJsonDocument::fromJson(spec.body).object();
}

ProviderConfig requestConfig(WireApi api, const QString &provider, const QString &model)
{
    ProviderConfig config;
    config.api = api;
    config.provider = provider;
    config.model = model;
    config.apiKey = QStringLiteral("sk-secret-test-key");
    config.baseUrl = QUrl(api == WireApi::AnthropicMessages
                              ? QStringLiteral("https://api.anthropic.com")
                              : QStringLiteral("https://api.example.com/v1"));
    return config;
}

Message assistantFrom(const ProviderConfig &origin,
                      const QList<ContentBlock> &content,
                      StopReason stop)
{
    Message message;
    message.role = Message::Role::Assistant;
    message.api = wireApiName(origin.api);
    message.provider = origin.provider;
    message.model = origin.model;
    message.content = content;
    message.stopReason = stop;
    return message;
}

Message customMessage(const QString &type, const QString &text)
{
    Message message;
    message.role = Message::Role::Custom;
    message.customType = type;
    message.content = {ContentBlock::makeText(text)}; // blank: nothing to convert
    return message;
}

QJsonObject pathSchema()
{
    return jsonLiteral(
        R"({"type":"object","properties":{"path":{"type":"string"}},"required":["path"]})");
}

// system prompt, user, assistant (thinking + text + two tool calls), two results (the second
// an error), a reminder, user: made by \a origin's model, with \a firstId / \a secondId.
Context sampleConversation(const ProviderConfig &origin,
                           const QString &firstId,
                           const QString &secondId)
{
    Context context;
    context.systemPrompt = "You are a careful coding agent.";
    context.tools = {{"ls", "List a directory.", pathSchema()},
                     {"read", "Read a file.", pathSchema()}};
    const QList<ContentBlock> content{
        ContentBlock::makeThinking("I should look around first.", "sig-1"),
        ContentBlock::makeText("Let me look."),
        ContentBlock::makeToolCall(firstId, "ls", jsonLiteral(R"({"path":"."})")),
        ContentBlock::makeToolCall(secondId, "read", jsonLiteral(R"({"path":"README.md"})"))};
    context.messages = {
        Message::makeUser("What is in this project?"),
        assistantFrom(origin, content),
        Message::makeToolResult(firstId, "ls", "README.md\nsrc/", false),
        Message::makeToolResult(secondId, "read", "README.md: permission denied", true),
        customMessage("system-reminder", "The user is watching."),
        Message::makeUser("Go on."),
    };
    return context;
}

QString stringAt(const QJsonObject &object, const char *key)
{
    return object.value(QLatin1String(key)).toString();
}

QJsonArray arrayAt(const QJsonObject &object, const char *key)
{
    return object.value(QLatin1String(key)).toArray();
}

// The first content block of an Anthropic message.
QJsonObject firstBlock(const QJsonValue &message)
{
    return arrayAt(message.toObject(), "content").at(0).toObject();
}

const QRegularExpression &validToolCallId()
{
    static const QRegularExpression pattern(QStringLiteral("^[a-zA-Z0-9_-]{1,64}$"));
    return pattern;
}

QString openAiChatRuleViolation(const QJsonObject &body)
{
    const QJsonArray messages = arrayAt(body, "messages");
    QSet<QString> seen;
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const QJsonObject m = messages.at(i).toObject();
        const QString role = stringAt(m, "role");
        if (m.contains(QLatin1String("reasoning_content")))
            return QStringLiteral("reasoning_content sent at %1").arg(i);
        const QJsonArray calls = arrayAt(m, "tool_calls");
        if (role == QLatin1String("tool"))
            return QStringLiteral("tool message %1 does not follow its call").arg(i);
        // Text, or parts (a message with pictures).
        if (stringAt(m, "content").trimmed().isEmpty() && arrayAt(m, "content").isEmpty()
            && calls.isEmpty())
            return QStringLiteral("empty message %1").arg(i);
        for (qsizetype c = 0; c < calls.size(); ++c) {
            const QString id = stringAt(calls.at(c).toObject(), "id");
            if (!validToolCallId().match(id).hasMatch() || id.size() > 40 || seen.contains(id))
                return QStringLiteral("bad or repeated call id %1").arg(id);
            seen.insert(id);
            const QJsonObject result = messages.at(i + 1 + c).toObject();
            if (stringAt(result, "role") != QLatin1String("tool")
                || stringAt(result, "tool_call_id") != id) {
                return QStringLiteral("result of %1 is not right after its call").arg(id);
            }
        }
        i += calls.size();
    }
    return {};
}

QString anthropicRuleViolation(const QJsonObject &body)
{
    const QJsonArray messages = arrayAt(body, "messages");
    QStringList pendingCalls;
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const QJsonObject m = messages.at(i).toObject();
        const QString role = stringAt(m, "role");
        if (role != (i % 2 == 0 ? QLatin1String("user") : QLatin1String("assistant")))
            return QStringLiteral("roles do not alternate at %1").arg(i);
        const QJsonArray content = arrayAt(m, "content");
        if (content.isEmpty())
            return QStringLiteral("empty content at %1").arg(i);
        QStringList calls;
        for (qsizetype b = 0; b < content.size(); ++b) {
            const QJsonObject block = content.at(b).toObject();
            const QString type = stringAt(block, "type");
            if (type == QLatin1String("text") && stringAt(block, "text").trimmed().isEmpty()) {
                return QStringLiteral("blank text at %1").arg(i);
            }
            if (type == QLatin1String("tool_use")) {
                const QString id = stringAt(block, "id");
                if (!validToolCallId().match(id).hasMatch())
                    return QStringLiteral("invalid tool_use id %1").arg(id);
                calls.append(id);
            }
            if (type == QLatin1String("tool_result")) {
                if (b >= pendingCalls.size()
                    || stringAt(block, "tool_use_id") != pendingCalls.at(b)) {
                    return QStringLiteral("tool_result at %1/%2 does not answer its call")
                        .arg(i)
                        .arg(b);
                }
            }
        }
        for (qsizetype b = 0; b < pendingCalls.size(); ++b) {
            if (stringAt(content.at(b).toObject(), "type") != QLatin1String("tool_result")) {
                return QStringLiteral("call %1 has no result right after it").arg(pendingCalls.at(b));
            }
        }
        pendingCalls = calls;
    }
    return pendingCalls.isEmpty() ? QString() : QStringLiteral("calls without results at the end");
}

QString openAiResponsesRuleViolation(const QJsonObject &body)
{
    const QJsonArray input = arrayAt(body, "input");
    QStringList open; // calls of the current assistant turn without output yet
    QSet<QString> answered;
    for (const QJsonValue &value : input) {
        const QJsonObject item = value.toObject();
        const QString type = stringAt(item, "type");
        const QString callId = stringAt(item, "call_id");
        if (type == QLatin1String("function_call")) {
            if (!validToolCallId().match(callId).hasMatch())
                return QStringLiteral("invalid call_id %1").arg(callId);
            open.append(callId);
        } else if (type == QLatin1String("function_call_output")) {
            if (open.isEmpty() || open.first() != callId || answered.contains(callId))
                return QStringLiteral("output %1 is not in call order").arg(callId);
            open.removeFirst();
            answered.insert(callId);
        } else if (!open.isEmpty()) {
            return QStringLiteral("item between calls and their outputs");
        }
    }
    return open.isEmpty() ? QString() : QStringLiteral("calls without outputs");
}

QString apiRuleViolation(WireApi api, const QJsonObject &body)
{
    return api == WireApi::OpenAiChat          ? openAiChatRuleViolation(body)
           : api == WireApi::AnthropicMessages ? anthropicRuleViolation(body)
                                               : openAiResponsesRuleViolation(body);
}

// The messages (Chat, Anthropic) or input items (Responses) of a request.
QJsonArray requestTurns(WireApi api, const QJsonObject &body)
{
    return body
        .value(api == WireApi::OpenAiResponses ? QLatin1String("input") : QLatin1String("messages"))
        .toArray();
}

namespace {

/// What one server accepts in the request after a turn, written from its documentation and code
/// rather than from ServerProfile (that would only test the profile against itself).
struct ServerRules
{
    QStringList optionalFields; ///< top-level fields beyond model, messages, stream, tools
    QString reasoningKey;       ///< where the assistant's reasoning goes back; empty: nowhere
    bool reasoningOnToolTurnsOnly = false;
};

ServerRules rulesOf(const QString &profile)
{
    const QString usage = QStringLiteral("stream_options");
    if (profile == QLatin1String("openai")) // the only one that takes prompt_cache_key
        return {{usage, QStringLiteral("prompt_cache_key")}, {}, false};
    if (profile == QLatin1String("deepseek")) // 400 without it on the tool-call turns
        return {{usage}, QStringLiteral("reasoning_content"), true};
    if (profile == QLatin1String("moonshot")) // kimi-k2-thinking: as DeepSeek
        return {{usage}, QStringLiteral("reasoning_content"), true};
    if (profile == QLatin1String("openrouter")) // the blocks as received
        return {{usage}, QStringLiteral("reasoning_details"), false};
    if (profile == QLatin1String("llamacpp") || profile == QLatin1String("vllm"))
        return {{usage}, QStringLiteral("reasoning_content"), false}; // their templates read it
    if (profile == QLatin1String("ollama")) // openai.go: Message.Reasoning -> Thinking
        return {{usage}, QStringLiteral("reasoning"), false};
    if (profile == QLatin1String("lmstudio"))
        return {{usage}, {}, false};
    return {}; // mistral: 422 extra_forbidden; generic: nothing it may reject
}

QStringList keysOf(const QJsonObject &object)
{
    QStringList keys = object.keys();
    keys.sort();
    return keys;
}

} // namespace

QString compatibleServerViolation(const QString &profile,
                                  const QJsonObject &body,
                                  const QStringList &issued,
                                  const QString &thinking,
                                  const QJsonArray &receivedDetails)
{
    const ServerRules rules = rulesOf(profile);
    QStringList expectedTop = QStringList{QStringLiteral("messages"),
                                          QStringLiteral("model"),
                                          QStringLiteral("stream"),
                                          QStringLiteral("tools")}
                              + rules.optionalFields;
    expectedTop.sort();
    if (keysOf(body) != expectedTop) {
        return QStringLiteral("top-level fields %1, expected %2")
            .arg(keysOf(body).join(u','), expectedTop.join(u','));
    }
    QJsonObject assistant;
    QStringList sentIds;
    QStringList resultIds;
    for (const QJsonValue &value : body.value(QLatin1String("messages")).toArray()) {
        const QJsonObject message = value.toObject();
        if (message.value(QLatin1String("role")) == QLatin1String("assistant"))
            assistant = message;
        if (message.value(QLatin1String("role")) == QLatin1String("tool"))
            resultIds.append(message.value(QLatin1String("tool_call_id")).toString());
    }
    for (const QJsonValue &call : assistant.value(QLatin1String("tool_calls")).toArray())
        sentIds.append(call[QLatin1String("id")].toString());
    if (sentIds != issued || resultIds != issued) {
        return QStringLiteral("ids %1 / %2, issued %3")
            .arg(sentIds.join(u','), resultIds.join(u','), issued.join(u','));
    }
    const bool reasoningWanted = !rules.reasoningKey.isEmpty() && !thinking.isEmpty()
                                 && (!rules.reasoningOnToolTurnsOnly || !issued.isEmpty());
    QStringList allowed{QStringLiteral("content"), QStringLiteral("role")};
    if (!issued.isEmpty())
        allowed.append(QStringLiteral("tool_calls"));
    if (reasoningWanted)
        allowed.append(rules.reasoningKey);
    allowed.sort();
    if (keysOf(assistant) != allowed) {
        return QStringLiteral("assistant fields %1, expected %2")
            .arg(keysOf(assistant).join(u','), allowed.join(u','));
    }
    if (!reasoningWanted)
        return {};
    if (rules.reasoningKey == QLatin1String("reasoning_details")) {
        if (assistant.value(rules.reasoningKey).toArray() != receivedDetails)
            return QStringLiteral("reasoning_details not as received");
    } else if (assistant.value(rules.reasoningKey).toString() != thinking) {
        return QStringLiteral("%1 is \"%2\"")
            .arg(rules.reasoningKey, assistant.value(rules.reasoningKey).toString());
    }
    return {};
}

QJsonArray reasoningDetailsIn(const QByteArray &stream)
{
    QJsonArray details;
    for (const QByteArray &line : stream.split('\n')) {
        if (!line.startsWith("data: {"))
            continue;
        const QJsonObject chunk = QJsonDocument::fromJson(line.mid(6)).object();
        for (const QJsonValue &choice : chunk.value(QLatin1String("choices")).toArray()) {
            for (const QJsonValue &detail :
                 choice[QLatin1String("delta")][QLatin1String("reasoning_details")].toArray())
                details.append(detail);
        }
    }
    return details;
}

} // namespace TestSupport
