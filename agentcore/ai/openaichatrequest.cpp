#include "openaichatrequest.h"
#include "modelcatalog.h"
#include "translation.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>

namespace AgentCore {

namespace {

QString joinedText(const Message &message)
{
    QStringList parts;
    for (const ContentBlock &b : message.content) {
        if (b.isText())
            parts.append(b.text);
    }
    return parts.join(jsonKey("\n\n"));
}

QJsonObject toolCallJson(const ContentBlock &call)
{
    return QJsonObject{
        {jsonKey("id"), call.id},
        {jsonKey("type"), jsonKey("function")},
        {jsonKey("function"),
         QJsonObject{{jsonKey("name"), call.name},
                     {jsonKey("arguments"), argumentsJson(call.arguments)}}},
    };
}

QString joinedReasoning(const Message &message)
{
    QStringList parts;
    for (const ContentBlock &b : message.content) {
        if (b.isThinking() && !b.text.isEmpty())
            parts.append(b.text);
    }
    return parts.join(jsonKey("\n\n"));
}

// OpenRouter's reasoning_details as the assembler kept them: the blocks of the stream, in
// order, as one JSON array's text in the thinking block's signature.
QJsonArray reasoningDetails(const Message &message)
{
    QJsonArray details;
    for (const ContentBlock &b : message.content) {
        if (!b.isThinking() || b.signature.isEmpty())
            continue;
        for (const QJsonValue &detail : QJsonDocument::fromJson(b.signature.toUtf8()).array())
            details.append(detail);
    }
    return details;
}

// The reasoning of \a message as \a profile wants it back, on \a object. Only the server's own
// reasoning goes back (another server's would read as this one's). The model is not compared:
// local servers name it as they like, and OpenRouter's blocks say their own format.
void insertReasoning(QJsonObject &object,
                     const Message &message,
                     const ServerProfile &profile,
                     const ProviderConfig &config,
                     bool hasToolCalls)
{
    using Back = ServerProfile::ReasoningBack;
    if (profile.reasoningBack == Back::None || !isFromSameServer(message, config))
        return;
    if (profile.reasoningBack == Back::ReasoningDetails) {
        const QJsonArray details = reasoningDetails(message);
        if (!details.isEmpty())
            object.insert(jsonKey("reasoning_details"), details);
        return;
    }
    if (profile.reasoningBack == Back::ReasoningContentOnToolCalls && !hasToolCalls)
        return;
    const QString reasoning = joinedReasoning(message);
    if (reasoning.isEmpty())
        return;
    object.insert(profile.reasoningBack == Back::Reasoning ? jsonKey("reasoning")
                                                           : jsonKey("reasoning_content"),
                  reasoning);
}

QJsonObject assistantJson(const Message &message,
                          const ServerProfile &profile,
                          const ProviderConfig &config)
{
    const QString text = joinedText(message);
    QJsonArray toolCalls;
    for (const ContentBlock &b : message.content) {
        if (b.isToolCall())
            toolCalls.append(toolCallJson(b));
    }
    QJsonObject object{{jsonKey("role"), jsonKey("assistant")},
                       {jsonKey("content"), text.isEmpty() ? QJsonValue() : QJsonValue(text)}};
    if (!toolCalls.isEmpty())
        object.insert(jsonKey("tool_calls"), toolCalls);
    insertReasoning(object, message, profile, config, !toolCalls.isEmpty());
    return object;
}

QJsonObject textPart(const QString &text)
{
    return QJsonObject{{jsonKey("type"), jsonKey("text")}, {jsonKey("text"), text}};
}

QJsonObject imagePart(const ContentBlock &image)
{
    return QJsonObject{{jsonKey("type"), jsonKey("image_url")},
                       {jsonKey("image_url"), QJsonObject{{jsonKey("url"), imageDataUrl(image)}}}};
}

// A message's content as parts: a string becomes one text part.
QJsonArray contentParts(const QJsonValue &content)
{
    if (content.isArray())
        return content.toArray();
    const QString text = content.toString();
    return text.isEmpty() ? QJsonArray() : QJsonArray{textPart(text)};
}

// A user's text, or with pictures the text and image_url parts in the message's order.
QJsonValue userContent(const Message &message)
{
    if (!hasImages(message))
        return joinedText(message);
    QJsonArray parts;
    for (const ContentBlock &b : message.content) {
        if (b.isImage())
            parts.append(imagePart(b));
        else if (b.isText())
            parts.append(textPart(b.text));
    }
    return parts;
}

// Some chat templates of local servers (Mistral's, Gemma's) insist that user and assistant
// alternate, so consecutive messages of one role are merged. A tool message in between keeps
// them apart, which those templates accept.
void appendMerged(QList<QJsonObject> &messages, QJsonObject message)
{
    if (messages.isEmpty()
        || messages.last().value(jsonKey("role")) != message.value(jsonKey("role"))) {
        messages.append(std::move(message));
        return;
    }
    QJsonObject &last = messages.last();
    const QJsonValue beforeContent = last.value(jsonKey("content"));
    const QJsonValue afterContent = message.value(jsonKey("content"));
    if (beforeContent.isArray() || afterContent.isArray()) {
        // A message with pictures has parts: the text goes on as parts too.
        QJsonArray parts = contentParts(beforeContent);
        for (const QJsonValue &part : contentParts(afterContent))
            parts.append(part);
        last.insert(jsonKey("content"), parts);
    } else {
        const QString before = beforeContent.toString();
        const QString after = afterContent.toString();
        const QString merged = before.isEmpty() || after.isEmpty()
                                   ? QString(before + after)
                                   : QString(before + jsonKey("\n\n") + after);
        last.insert(jsonKey("content"), merged.isEmpty() ? QJsonValue() : QJsonValue(merged));
    }
    QJsonArray calls = last.value(jsonKey("tool_calls")).toArray();
    for (const QJsonValue &call : message.value(jsonKey("tool_calls")).toArray())
        calls.append(call);
    if (!calls.isEmpty())
        last.insert(jsonKey("tool_calls"), calls);
    for (const char *name : {"reasoning_content", "reasoning"}) {
        const QString more = message.value(jsonKey(name)).toString();
        if (!more.isEmpty()) {
            const QString had = last.value(jsonKey(name)).toString();
            last.insert(jsonKey(name), had.isEmpty() ? more : had + jsonKey("\n\n") + more);
        }
    }
    QJsonArray details = last.value(jsonKey("reasoning_details")).toArray();
    for (const QJsonValue &detail : message.value(jsonKey("reasoning_details")).toArray())
        details.append(detail);
    if (!details.isEmpty())
        last.insert(jsonKey("reasoning_details"), details);
}

// Chat Completions takes only text from a tool: a picture it returned is named, and goes in a
// user message after the tools' results when \a picturesFollow (a model known to see), else
// is not sent.
QString toolText(const Message &result, bool picturesFollow)
{
    QString text = result.text();
    for (const ContentBlock &b : result.content) {
        if (!b.isImage())
            continue;
        if (!text.isEmpty())
            text += QLatin1Char('\n');
        const qsizetype kilobytes = (b.data.size() * 3 / 4 + 1023) / 1024;
        text += picturesFollow
                    ? AiTr::tr("[the tool returned a picture (%1, %2 KB): it follows in the next "
                               "message]")
                          .arg(b.mimeType)
                          .arg(kilobytes)
                    : AiTr::tr("[the tool returned a picture (%1, %2 KB); this API takes no "
                               "pictures from a tool, so it was not sent]")
                          .arg(b.mimeType)
                          .arg(kilobytes);
    }
    return text;
}

QJsonArray messagesJson(const ProviderConfig &config,
                        const ServerProfile &profile,
                        const Context &context)
{
    QList<QJsonObject> messages;
    if (!context.systemPrompt.trimmed().isEmpty()) {
        messages.append(QJsonObject{{jsonKey("role"), jsonKey("system")},
                                    {jsonKey("content"), context.systemPrompt}});
    }
    // A tool message carries text only: the pictures of a batch of results go in one user
    // message right after it, to a model known to see them (an unknown one might refuse the
    // request, and then every request after it).
    const bool picturesFollow = pictureInput(config.provider, config.model) == PictureInput::Yes;
    QJsonArray toolPictures;
    const auto flushToolPictures = [&] {
        if (toolPictures.isEmpty())
            return;
        QJsonArray parts{textPart(AiTr::tr("The pictures the tools returned above:"))};
        for (const QJsonValue &part : std::as_const(toolPictures))
            parts.append(part);
        appendMerged(messages,
                     QJsonObject{{jsonKey("role"), jsonKey("user")}, {jsonKey("content"), parts}});
        toolPictures = QJsonArray();
    };
    for (const Message &message : wireHistory(context.messages,
                                              profile.maxForeignToolCallIdLength,
                                              &config,
                                              profile.maxToolCallIdLength)) {
        if (!message.isToolResult())
            flushToolPictures();
        switch (message.role) {
        case Message::Role::User:
        case Message::Role::Custom:
            appendMerged(messages,
                         QJsonObject{{jsonKey("role"), jsonKey("user")},
                                     {jsonKey("content"), userContent(message)}});
            break;
        case Message::Role::Assistant:
            appendMerged(messages, assistantJson(message, profile, config));
            break;
        case Message::Role::ToolResult:
            messages.append(QJsonObject{{jsonKey("role"), jsonKey("tool")},
                                        {jsonKey("tool_call_id"), message.toolCallId},
                                        {jsonKey("content"), toolText(message, picturesFollow)}});
            for (const ContentBlock &b : message.content) {
                if (picturesFollow && b.isImage())
                    toolPictures.append(imagePart(b));
            }
            break;
        }
    }
    flushToolPictures();
    QJsonArray array;
    for (const QJsonObject &message : std::as_const(messages))
        array.append(message);
    return array;
}

QJsonArray chatTools(const QList<ToolDefinition> &tools)
{
    QJsonArray array;
    for (const ToolDefinition &tool : tools) {
        QJsonObject function{{jsonKey("name"), tool.name},
                             {jsonKey("parameters"), toolParameters(tool)}};
        if (!tool.description.isEmpty())
            function.insert(jsonKey("description"), tool.description);
        array.append(
            QJsonObject{{jsonKey("type"), jsonKey("function")}, {jsonKey("function"), function}});
    }
    return array;
}

} // namespace

bool isOpenAiReasoningModel(const QString &model)
{
    const QString name = model.toLower();
    if (name.startsWith(jsonKey("o1-mini")) || name.startsWith(jsonKey("o1-preview"))
        || name.contains(jsonKey("-chat"))) {
        return false; // no reasoning_effort there
    }
    return name.startsWith(jsonKey("o1")) || name.startsWith(jsonKey("o3"))
           || name.startsWith(jsonKey("o4")) || name.startsWith(jsonKey("gpt-5"));
}

HttpRequestSpec buildOpenAiChatRequest(const ProviderConfig &config, const Context &context)
{
    // Every field beyond the common core is the profile's: an unknown server gets none that it
    // might reject (Mistral answers 422 to any field outside its schema).
    const ServerProfile profile = serverProfileOf(config);
    QJsonObject body{
        {jsonKey("model"), config.model},
        {jsonKey("messages"), messagesJson(config, profile, context)},
        {jsonKey("stream"), true},
    };
    if (profile.streamOptions)
        body.insert(jsonKey("stream_options"), QJsonObject{{jsonKey("include_usage"), true}});
    if (!context.tools.isEmpty())
        body.insert(jsonKey("tools"), chatTools(context.tools));
    if (config.maxOutputTokens > 0) {
        // OpenAI's reasoning models reject max_tokens; most compatible servers only know it.
        body.insert(profile.maxCompletionTokens ? jsonKey("max_completion_tokens")
                                                : jsonKey("max_tokens"),
                    config.maxOutputTokens);
    }
    if (profile.reasoningEffort && config.thinkingBudget > 0
        && isOpenAiReasoningModel(config.model)) {
        body.insert(jsonKey("reasoning_effort"), reasoningEffortForBudget(config.thinkingBudget));
    }
    if (profile.promptCacheKey && !config.promptCacheKey.isEmpty())
        body.insert(jsonKey("prompt_cache_key"), config.promptCacheKey);

    return openAiStreamingRequest(config, jsonKey("/chat/completions"), body);
}

} // namespace AgentCore
