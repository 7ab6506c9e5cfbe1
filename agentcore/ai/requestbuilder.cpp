#include "requestbuilder.h"

#include "anthropicrequest.h"
#include "modelcatalog.h"
#include "openaichatrequest.h"
#include "openairesponsesrequest.h"
#include "toolcallpairing.h"
#include "translation.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <optional>

namespace AgentCore {

namespace {

// Sent to the model, not shown to the user: stays English.
constexpr QLatin1StringView noOutputText("(no output)");

constexpr int maxToolCallIdLength = 64;
constexpr int minToolCallIdLength = 16; // room for a hash suffix
constexpr int idHashLength = 12;        // hex digits: 48 bits

bool isBlank(const QString &text)
{
    return std::all_of(text.cbegin(), text.cend(), [](QChar c) { return c.isSpace(); });
}

bool isToolCallIdChar(QChar c)
{
    const char16_t u = c.unicode();
    return (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9')
           || u == u'_' || u == u'-';
}

std::optional<Message> userFromCustom(const Message &custom)
{
    const QString text = custom.text();
    if (isBlank(text))
        return std::nullopt;
    Message user = custom;
    user.role = Message::Role::User;
    user.customType.clear();
    user.content = {ContentBlock::makeText(QStringLiteral("<system-reminder>") + text
                                           + QStringLiteral("</system-reminder>"))};
    return user;
}

std::optional<Message> cleanedMessage(const Message &message)
{
    Message out = message;
    switch (message.role) {
    case Message::Role::Custom:
        return userFromCustom(message);
    case Message::Role::User:
        // The user's pictures go with the text.
        out.content.removeIf(
            [](const ContentBlock &b) { return !b.isImage() && (!b.isText() || isBlank(b.text)); });
        if (out.content.isEmpty())
            return std::nullopt;
        return out;
    case Message::Role::Assistant: {
        out.content.removeIf([](const ContentBlock &b) { return b.isText() && isBlank(b.text); });
        // Covers errored and aborted turns with nothing in them; thinking alone is no answer.
        const bool hasOutput = std::any_of(out.content.cbegin(),
                                           out.content.cend(),
                                           [](const ContentBlock &b) { return !b.isThinking(); });
        if (!hasOutput)
            return std::nullopt;
        return out;
    }
    case Message::Role::ToolResult:
        out.content.removeIf([](const ContentBlock &b) { return !b.isText() && !b.isImage(); });
        if (hasImages(out)) // the pictures are the output; no blank text beside them
            out.content.removeIf(
                [](const ContentBlock &b) { return b.isText() && isBlank(b.text); });
        else if (isBlank(out.text()))
            out.content = {ContentBlock::makeText(noOutputText)};
        return out;
    }
    return std::nullopt;
}

// Two calls with the same id (servers that number calls per turn, or empty ids) must still
// be told apart by the API: later ones get a counter suffix. The agent loop already gives each
// call of a conversation an id of its own (loop/toolcallids.h); this keeps a request valid for
// any other history (a context a caller built by hand, an extension's rewrite).
QString uniqueToolCallId(const QString &id, int maxLength, QSet<QString> *used)
{
    QString candidate = id;
    for (int n = 2; used->contains(candidate); ++n) {
        const QString suffix = u'_' + QString::number(n);
        candidate = id.left(maxLength - suffix.size()) + suffix;
    }
    used->insert(candidate);
    return candidate;
}

// A model that takes no pictures would refuse the whole request for one: each goes as a
// line that says what it was and why it was not sent, so the model can tell the user.
Context withPictureNotes(const Context &context, const ProviderConfig &config)
{
    Context out = context;
    const QString why = noPicturesNote(config);
    for (Message &message : out.messages) {
        if (!hasImages(message))
            continue;
        for (ContentBlock &block : message.content) {
            if (!block.isImage())
                continue;
            //: Sent to a text-only model in place of a picture: "[a picture (image/png,
            //: 412 KB) was not sent: deepseek-chat takes no pictures]"
            block = ContentBlock::makeText(AiTr::tr("[a picture (%1, %2 KB) was not sent: %3]")
                                               .arg(block.mimeType)
                                               .arg((block.data.size() * 3 / 4 + 1023) / 1024)
                                               .arg(why));
        }
    }
    return out;
}

bool anyPictures(const QList<Message> &messages)
{
    return std::any_of(messages.cbegin(), messages.cend(), [](const Message &m) {
        return hasImages(m);
    });
}

} // namespace

HttpRequestSpec buildRequest(const ProviderConfig &config, const Context &context)
{
    if (!takesPictures(config) && anyPictures(context.messages))
        return buildRequest(config, withPictureNotes(context, config)); // none left: once
    switch (config.api) {
    case WireApi::OpenAiChat:
        return buildOpenAiChatRequest(config, context);
    case WireApi::AnthropicMessages:
        return buildAnthropicRequest(config, context);
    case WireApi::OpenAiResponses:
        return buildOpenAiResponsesRequest(config, context);
    }
    return {};
}

QString normalizedToolCallId(const QString &id)
{
    return normalizedToolCallId(id, maxToolCallIdLength);
}

QString normalizedToolCallId(const QString &id, int maxLength)
{
    maxLength = std::clamp(maxLength, minToolCallIdLength, maxToolCallIdLength);
    if (!id.isEmpty() && id.size() <= maxLength
        && std::all_of(id.cbegin(), id.cend(), isToolCallIdChar)) {
        return id;
    }
    QString sanitized = id;
    for (QChar &c : sanitized) {
        if (!isToolCallIdChar(c))
            c = u'_';
    }
    if (sanitized.isEmpty())
        sanitized = QStringLiteral("call");
    // The hash is of the original id, so ids that only differ in replaced characters or beyond
    // the cut stay distinct.
    const QByteArray hash = QCryptographicHash::hash(id.toUtf8(), QCryptographicHash::Sha256);
    const QString suffix = u'_' + QString::fromLatin1(hash.toHex().left(idHashLength));
    return sanitized.left(maxLength - suffix.size()) + suffix;
}

QList<Message> wireHistory(const QList<Message> &messages,
                           int maxIdLength,
                           const ProviderConfig *issuer,
                           int maxOwnIdLength)
{
    QList<Message> cleaned;
    cleaned.reserve(messages.size());
    for (const Message &message : messages) {
        if (std::optional<Message> m = cleanedMessage(message))
            cleaned.append(std::move(*m));
    }

    // The loop's projection already paired a history it sends; this pairs any other the same
    // way (one rule set, one missing-result text), then every call and its result get one id.
    QList<Message> out = pairToolCalls(cleaned);
    const int idLength = std::clamp(maxIdLength, minToolCallIdLength, maxToolCallIdLength);
    QSet<QString> usedIds;
    for (qsizetype i = 0; i < out.size(); ++i) {
        if (!out.at(i).isAssistant() || out.at(i).toolCalls().isEmpty())
            continue;
        Message &assistant = out[i];
        const bool issuedThere = issuer && isFromSameServer(assistant, *issuer);
        qsizetype r = i; // paired: the results follow in call order
        for (ContentBlock &call : assistant.content) {
            if (!call.isToolCall())
                continue;
            Message &result = out[++r];
            const bool keep = issuedThere && !call.id.isEmpty() && !usedIds.contains(call.id)
                              && (maxOwnIdLength <= 0 || call.id.size() <= maxOwnIdLength);
            const QString wireId = keep
                                       ? call.id
                                       : uniqueToolCallId(normalizedToolCallId(call.id, maxIdLength),
                                                          idLength,
                                                          &usedIds);
            usedIds.insert(wireId);
            call.id = wireId;
            result.toolCallId = wireId;
            if (result.toolName.isEmpty())
                result.toolName = call.name;
        }
        i = r;
    }
    return out;
}

namespace {

// The stream names the dated snapshot that answered ("claude-sonnet-4-5-20250929",
// "gpt-4o-mini-2024-07-18") while the configuration may name its alias: the same model.
QString withoutSnapshotDate(const QString &model)
{
    static const QRegularExpression date(QStringLiteral("-\\d{4}-?\\d{2}-?\\d{2}$"));
    const QRegularExpressionMatch match = date.match(model);
    return match.hasMatch() ? model.left(match.capturedStart()) : model;
}

} // namespace

bool hasImages(const Message &message)
{
    return std::any_of(message.content.cbegin(), message.content.cend(), [](const ContentBlock &b) {
        return b.isImage();
    });
}

QString imageDataUrl(const ContentBlock &image)
{
    return QStringLiteral("data:%1;base64,%2").arg(image.mimeType, QString::fromLatin1(image.data));
}

bool isFromSameModel(const Message &message, const ProviderConfig &config)
{
    return message.api == wireApiName(config.api) && message.provider == config.provider
           && (message.model == config.model
               || withoutSnapshotDate(message.model) == withoutSnapshotDate(config.model));
}

bool isFromSameServer(const Message &message, const ProviderConfig &config)
{
    return message.api == wireApiName(config.api) && message.provider == config.provider;
}

QUrl appendedUrlPath(const QUrl &baseUrl, const QString &suffix)
{
    QUrl url = baseUrl;
    QString path = url.path(QUrl::FullyEncoded);
    while (path.endsWith(u'/'))
        path.chop(1);
    url.setPath(path + suffix, QUrl::TolerantMode);
    return url;
}

QList<std::pair<QByteArray, QByteArray>> withExtraHeaders(
    QList<std::pair<QByteArray, QByteArray>> defaults, const ProviderConfig &config)
{
    for (const auto &extra : config.extraHeaders) {
        defaults.removeIf([&extra](const std::pair<QByteArray, QByteArray> &header) {
            return header.first.compare(extra.first, Qt::CaseInsensitive) == 0;
        });
    }
    defaults.append(config.extraHeaders);
    return defaults;
}

HttpRequestSpec openAiStreamingRequest(const ProviderConfig &config,
                                       const QString &path,
                                       const QJsonObject &body)
{
    HttpRequestSpec spec;
    spec.url = appendedUrlPath(config.baseUrl, path);
    QList<std::pair<QByteArray, QByteArray>> headers{
        {"Content-Type", "application/json"},
        {"Accept", "text/event-stream"},
    };
    if (!config.apiKey.isEmpty())
        headers.append({"Authorization", "Bearer " + config.apiKey.toUtf8()});
    spec.headers = withExtraHeaders(std::move(headers), config);
    spec.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    return spec;
}

QJsonObject toolParameters(const ToolDefinition &tool)
{
    if (!tool.parameters.isEmpty())
        return tool.parameters;
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                       {QStringLiteral("properties"), QJsonObject()}};
}

QString argumentsJson(const QJsonObject &arguments)
{
    return QString::fromUtf8(QJsonDocument(arguments).toJson(QJsonDocument::Compact));
}

QString reasoningEffortForBudget(int thinkingBudget)
{
    if (thinkingBudget <= 4096)
        return QStringLiteral("low");
    if (thinkingBudget <= 16384)
        return QStringLiteral("medium");
    return QStringLiteral("high");
}

} // namespace AgentCore
