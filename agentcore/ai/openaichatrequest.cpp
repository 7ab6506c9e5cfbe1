#include "openaichatrequest.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>

namespace AgentCore {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(AgentCore::OpenAiChatRequest)
};

QString key(const char *name)
{
    return QString::fromLatin1(name);
}

QString joinedText(const Message &message)
{
    QStringList parts;
    for (const ContentBlock &b : message.content) {
        if (b.isText())
            parts.append(b.text);
    }
    return parts.join(key("\n\n"));
}

QJsonObject toolCallJson(const ContentBlock &call)
{
    return QJsonObject{
        {key("id"), call.id},
        {key("type"), key("function")},
        {key("function"),
         QJsonObject{{key("name"), call.name}, {key("arguments"), argumentsJson(call.arguments)}}},
    };
}

QString joinedReasoning(const Message &message)
{
    QStringList parts;
    for (const ContentBlock &b : message.content) {
        if (b.isThinking() && !b.text.isEmpty())
            parts.append(b.text);
    }
    return parts.join(key("\n\n"));
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
            object.insert(key("reasoning_details"), details);
        return;
    }
    if (profile.reasoningBack == Back::ReasoningContentOnToolCalls && !hasToolCalls)
        return;
    const QString reasoning = joinedReasoning(message);
    if (reasoning.isEmpty())
        return;
    object.insert(profile.reasoningBack == Back::Reasoning ? key("reasoning")
                                                           : key("reasoning_content"),
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
    QJsonObject object{{key("role"), key("assistant")},
                       {key("content"), text.isEmpty() ? QJsonValue() : QJsonValue(text)}};
    if (!toolCalls.isEmpty())
        object.insert(key("tool_calls"), toolCalls);
    insertReasoning(object, message, profile, config, !toolCalls.isEmpty());
    return object;
}

// Some chat templates of local servers (Mistral's, Gemma's) insist that user and assistant
// alternate, so consecutive messages of one role are merged. A tool message in between keeps
// them apart, which those templates accept.
void appendMerged(QList<QJsonObject> &messages, QJsonObject message)
{
    if (messages.isEmpty() || messages.last().value(key("role")) != message.value(key("role"))) {
        messages.append(std::move(message));
        return;
    }
    QJsonObject &last = messages.last();
    const QString before = last.value(key("content")).toString();
    const QString after = message.value(key("content")).toString();
    const QString merged = before.isEmpty() || after.isEmpty()
                               ? QString(before + after)
                               : QString(before + key("\n\n") + after);
    last.insert(key("content"), merged.isEmpty() ? QJsonValue() : QJsonValue(merged));
    QJsonArray calls = last.value(key("tool_calls")).toArray();
    for (const QJsonValue &call : message.value(key("tool_calls")).toArray())
        calls.append(call);
    if (!calls.isEmpty())
        last.insert(key("tool_calls"), calls);
    for (const char *name : {"reasoning_content", "reasoning"}) {
        const QString more = message.value(key(name)).toString();
        if (!more.isEmpty()) {
            const QString had = last.value(key(name)).toString();
            last.insert(key(name), had.isEmpty() ? more : had + key("\n\n") + more);
        }
    }
    QJsonArray details = last.value(key("reasoning_details")).toArray();
    for (const QJsonValue &detail : message.value(key("reasoning_details")).toArray())
        details.append(detail);
    if (!details.isEmpty())
        last.insert(key("reasoning_details"), details);
}

// Chat Completions takes only text from a tool: a picture it returned is named, not sent.
QString toolText(const Message &result)
{
    QString text = result.text();
    for (const ContentBlock &b : result.content) {
        if (!b.isImage())
            continue;
        if (!text.isEmpty())
            text += QLatin1Char('\n');
        text += Tr::tr("[the tool returned a picture (%1, %2 KB); this API takes no pictures from "
                       "a tool, so it was not sent]")
                    .arg(b.mimeType)
                    .arg((b.data.size() * 3 / 4 + 1023) / 1024);
    }
    return text;
}

QJsonArray messagesJson(const ProviderConfig &config,
                        const ServerProfile &profile,
                        const Context &context)
{
    QList<QJsonObject> messages;
    if (!context.systemPrompt.trimmed().isEmpty()) {
        messages.append(
            QJsonObject{{key("role"), key("system")}, {key("content"), context.systemPrompt}});
    }
    for (const Message &message : wireHistory(context.messages,
                                              profile.maxForeignToolCallIdLength,
                                              &config,
                                              profile.maxToolCallIdLength)) {
        switch (message.role) {
        case Message::Role::User:
        case Message::Role::Custom:
            appendMerged(messages,
                         QJsonObject{{key("role"), key("user")},
                                     {key("content"), joinedText(message)}});
            break;
        case Message::Role::Assistant:
            appendMerged(messages, assistantJson(message, profile, config));
            break;
        case Message::Role::ToolResult:
            messages.append(QJsonObject{{key("role"), key("tool")},
                                        {key("tool_call_id"), message.toolCallId},
                                        {key("content"), toolText(message)}});
            break;
        }
    }
    QJsonArray array;
    for (const QJsonObject &message : std::as_const(messages))
        array.append(message);
    return array;
}

QJsonArray toolsJson(const QList<ToolDefinition> &tools)
{
    QJsonArray array;
    for (const ToolDefinition &tool : tools) {
        QJsonObject function{{key("name"), tool.name}, {key("parameters"), toolParameters(tool)}};
        if (!tool.description.isEmpty())
            function.insert(key("description"), tool.description);
        array.append(QJsonObject{{key("type"), key("function")}, {key("function"), function}});
    }
    return array;
}

} // namespace

bool isOpenAiReasoningModel(const QString &model)
{
    const QString name = model.toLower();
    if (name.startsWith(key("o1-mini")) || name.startsWith(key("o1-preview"))
        || name.contains(key("-chat"))) {
        return false; // no reasoning_effort there
    }
    return name.startsWith(key("o1")) || name.startsWith(key("o3")) || name.startsWith(key("o4"))
           || name.startsWith(key("gpt-5"));
}

HttpRequestSpec buildOpenAiChatRequest(const ProviderConfig &config, const Context &context)
{
    // Every field beyond the common core is the profile's: an unknown server gets none that it
    // might reject (Mistral answers 422 to any field outside its schema).
    const ServerProfile profile = serverProfileOf(config);
    QJsonObject body{
        {key("model"), config.model},
        {key("messages"), messagesJson(config, profile, context)},
        {key("stream"), true},
    };
    if (profile.streamOptions)
        body.insert(key("stream_options"), QJsonObject{{key("include_usage"), true}});
    if (!context.tools.isEmpty())
        body.insert(key("tools"), toolsJson(context.tools));
    if (config.maxOutputTokens > 0) {
        // OpenAI's reasoning models reject max_tokens; most compatible servers only know it.
        body.insert(profile.maxCompletionTokens ? key("max_completion_tokens") : key("max_tokens"),
                    config.maxOutputTokens);
    }
    if (profile.reasoningEffort && config.thinkingBudget > 0
        && isOpenAiReasoningModel(config.model)) {
        body.insert(key("reasoning_effort"), reasoningEffortForBudget(config.thinkingBudget));
    }
    if (profile.promptCacheKey && !config.promptCacheKey.isEmpty())
        body.insert(key("prompt_cache_key"), config.promptCacheKey);

    return openAiStreamingRequest(config, key("/chat/completions"), body);
}

} // namespace AgentCore
