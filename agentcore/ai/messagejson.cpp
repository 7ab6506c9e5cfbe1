#include "messagejson.h"
#include "translation.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <array>
#include <utility>

namespace AgentCore {

namespace {

constexpr std::array roleNames{
    std::pair{Message::Role::User, "user"},
    std::pair{Message::Role::Assistant, "assistant"},
    std::pair{Message::Role::ToolResult, "toolResult"},
    std::pair{Message::Role::Custom, "custom"},
};

QString roleName(Message::Role role)
{
    for (const auto &[value, name] : roleNames) {
        if (value == role)
            return QLatin1String(name);
    }
    return {};
}

bool roleFromName(const QString &name, Message::Role *role)
{
    for (const auto &[value, text] : roleNames) {
        if (name == QLatin1String(text)) {
            *role = value;
            return true;
        }
    }
    return false;
}

QJsonValue stringOrNull(const QString &text)
{
    return text.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text);
}

QJsonObject blockToJson(const ContentBlock &block, bool full)
{
    QJsonObject json;
    switch (block.type) {
    case ContentBlock::Type::Text:
        json.insert(u"type", QStringLiteral("text"));
        json.insert(u"text", block.text);
        break;
    case ContentBlock::Type::Thinking:
        json.insert(u"type", QStringLiteral("thinking"));
        json.insert(u"thinking", block.text);
        json.insert(u"signature", stringOrNull(block.signature));
        if (full && block.redacted)
            json.insert(u"redacted", true);
        break;
    case ContentBlock::Type::ToolCall:
        json.insert(u"type", QStringLiteral("toolCall"));
        json.insert(u"id", block.id);
        json.insert(u"name", block.name);
        json.insert(u"arguments", block.arguments);
        if (full && !block.argumentsError.isEmpty())
            json.insert(u"argumentsError", block.argumentsError);
        if (full && !block.providerId.isEmpty())
            json.insert(u"providerId", block.providerId);
        break;
    case ContentBlock::Type::Image:
        json.insert(u"type", QStringLiteral("image"));
        json.insert(u"mimeType", block.mimeType);
        json.insert(u"data", QString::fromLatin1(block.data));
        break;
    }
    return json;
}

QJsonArray contentToJson(const QList<ContentBlock> &content, bool full)
{
    QJsonArray array;
    for (const ContentBlock &block : content)
        array.append(blockToJson(block, full));
    return array;
}

bool blockFromJson(const QJsonValue &value, ContentBlock *block)
{
    const QJsonObject json = value.toObject();
    const QString type = json.value(u"type").toString();
    if (type == QLatin1String("text")) {
        *block = ContentBlock::makeText(json.value(u"text").toString());
    } else if (type == QLatin1String("thinking")) {
        *block = ContentBlock::makeThinking(json.value(u"thinking").toString(),
                                            json.value(u"signature").toString());
        block->redacted = json.value(u"redacted").toBool();
    } else if (type == QLatin1String("toolCall")) {
        *block = ContentBlock::makeToolCall(json.value(u"id").toString(),
                                            json.value(u"name").toString(),
                                            json.value(u"arguments").toObject());
        block->argumentsError = json.value(u"argumentsError").toString();
        block->providerId = json.value(u"providerId").toString();
    } else if (type == QLatin1String("image")) {
        // A file's picture goes to a provider as it is: only the kinds and sizes AgentDesk
        // itself would have kept.
        const QString mimeType = json.value(u"mimeType").toString();
        const QString data = json.value(u"data").toString();
        if (!ContentBlock::isImageType(mimeType) || data.isEmpty()
            || data.size() > ContentBlock::maxImageBase64)
            return false;
        *block = ContentBlock::makeImage(mimeType, data.toLatin1());
    } else {
        return false;
    }
    return true;
}

QJsonObject usageToJson(const Usage &usage, bool withCost)
{
    QJsonObject json{
        {QStringLiteral("input"), usage.input},
        {QStringLiteral("output"), usage.output},
        {QStringLiteral("cacheRead"), usage.cacheRead},
        {QStringLiteral("cacheWrite"), usage.cacheWrite},
    };
    if (withCost)
        json.insert(u"cost", usage.cost);
    return json;
}

Usage usageFromJson(const QJsonObject &json)
{
    Usage usage;
    usage.input = json.value(u"input").toInteger();
    usage.output = json.value(u"output").toInteger();
    usage.cacheRead = json.value(u"cacheRead").toInteger();
    usage.cacheWrite = json.value(u"cacheWrite").toInteger();
    usage.cost = json.value(u"cost").toDouble();
    return usage;
}

// Writes a field when its role uses it, or when it differs from its default.
void insertString(QJsonObject &json, QStringView key, const QString &value, bool always)
{
    if (always || !value.isEmpty())
        json.insert(key, value);
}

void readString(const QJsonObject &json, QStringView key, QString *target)
{
    const QJsonValue value = json.value(key);
    if (value.isString())
        *target = value.toString();
}

bool fail(QString *error, const QString &reason)
{
    if (error)
        *error = reason;
    return false;
}
} // namespace

QJsonObject toNormalizedJson(const Message &assistant)
{
    QJsonObject json;
    json.insert(u"content", contentToJson(assistant.content, false));
    json.insert(u"stopReason", stopReasonName(assistant.stopReason));
    json.insert(u"providerStopReason", stringOrNull(assistant.providerStopReason));
    json.insert(u"usage", usageToJson(assistant.usage, false));
    if (!assistant.refusal.isEmpty())
        json.insert(u"refusal", assistant.refusal);
    if (assistant.stopReason == StopReason::Error)
        json.insert(u"errorMessage", assistant.errorMessage);
    return json;
}

QJsonObject messageToJson(const Message &message)
{
    const bool assistant = message.role == Message::Role::Assistant;
    const bool toolResult = message.role == Message::Role::ToolResult;
    QJsonObject json;
    json.insert(u"role", roleName(message.role));
    json.insert(u"timestamp", message.timestamp);
    json.insert(u"content", contentToJson(message.content, true));
    // A prompt, the common case, writes nothing: files stay as they were before origins.
    if (message.origin != MessageOrigin::Prompt)
        json.insert(u"origin", messageOriginName(message.origin));

    const Message defaults;
    if (assistant || message.stopReason != defaults.stopReason)
        json.insert(u"stopReason", stopReasonName(message.stopReason));
    if (assistant || !message.providerStopReason.isEmpty())
        json.insert(u"providerStopReason", stringOrNull(message.providerStopReason));
    if (assistant || message.usage != defaults.usage)
        json.insert(u"usage", usageToJson(message.usage, true));
    if (message.discardedUsage != defaults.discardedUsage)
        json.insert(u"discardedUsage", usageToJson(message.discardedUsage, true));
    insertString(json, u"api", message.api, assistant);
    insertString(json, u"provider", message.provider, assistant);
    insertString(json, u"model", message.model, assistant);
    insertString(json, u"responseId", message.responseId, assistant);
    insertString(json, u"errorMessage", message.errorMessage, false);
    insertString(json, u"refusal", message.refusal, false);
    if (message.protocolViolation)
        json.insert(u"protocolViolation", true);
    insertString(json, u"protocolViolationDetail", message.protocolViolationDetail, false);

    insertString(json, u"toolCallId", message.toolCallId, toolResult);
    insertString(json, u"toolName", message.toolName, toolResult);
    if (toolResult || message.isError)
        json.insert(u"isError", message.isError);
    if (!message.details.isEmpty())
        json.insert(u"details", message.details.toJson());
    // A stub says so: its preview must never pass for the whole output.
    if (message.isPaged())
        json.insert(u"pagedChars", message.pagedChars);

    insertString(json, u"customType", message.customType, message.role == Message::Role::Custom);
    if (!message.customData.isEmpty())
        json.insert(u"customData", message.customData);
    return json;
}

bool messageFromJson(const QJsonObject &json, Message *message, QString *error)
{
    Message result;
    const QString role = json.value(u"role").toString();
    if (!roleFromName(role, &result.role))
        return fail(error, AiTr::tr("unknown message role \"%1\"").arg(role));

    const QJsonValue content = json.value(u"content");
    if (!content.isUndefined() && !content.isArray())
        return fail(error, AiTr::tr("the message content is not an array"));
    const QJsonArray blocks = content.toArray();
    for (qsizetype i = 0; i < blocks.size(); ++i) {
        ContentBlock block;
        if (!blockFromJson(blocks.at(i), &block))
            return fail(error, AiTr::tr("content block %1 has an unknown type").arg(i));
        result.content.append(block);
    }
    result.timestamp = json.value(u"timestamp").toInteger();
    // Without one (a session written before origins) or with one a later version added, the
    // message reads as a prompt: shown without a caption, never refused.
    result.origin = messageOriginFromName(json.value(u"origin").toString());

    const QJsonValue stopReason = json.value(u"stopReason");
    if (stopReason.isString()) {
        bool ok = false;
        result.stopReason = stopReasonFromName(stopReason.toString(), &ok);
        if (!ok)
            return fail(error, AiTr::tr("unknown stop reason \"%1\"").arg(stopReason.toString()));
    }
    readString(json, u"providerStopReason", &result.providerStopReason);
    if (json.value(u"usage").isObject())
        result.usage = usageFromJson(json.value(u"usage").toObject());
    if (json.value(u"discardedUsage").isObject())
        result.discardedUsage = usageFromJson(json.value(u"discardedUsage").toObject());
    readString(json, u"api", &result.api);
    readString(json, u"provider", &result.provider);
    readString(json, u"model", &result.model);
    readString(json, u"responseId", &result.responseId);
    readString(json, u"errorMessage", &result.errorMessage);
    readString(json, u"refusal", &result.refusal);
    result.protocolViolation = json.value(u"protocolViolation").toBool();
    readString(json, u"protocolViolationDetail", &result.protocolViolationDetail);

    readString(json, u"toolCallId", &result.toolCallId);
    readString(json, u"toolName", &result.toolName);
    result.isError = json.value(u"isError").toBool();
    result.details = ToolDetails::fromJson(json.value(u"details"));
    if (json.value(u"pagedChars").isDouble())
        result.pagedChars = json.value(u"pagedChars").toInteger();

    readString(json, u"customType", &result.customType);
    result.customData = json.value(u"customData").toObject();
    *message = std::move(result);
    return true;
}

} // namespace AgentCore
