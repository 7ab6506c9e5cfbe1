#include "openairesponsesrequest.h"

#include <QJsonArray>

namespace AgentCore {

namespace {

QString key(const char *name)
{
    return QString::fromLatin1(name);
}

QJsonObject typedText(const char *type, const QString &text)
{
    return QJsonObject{{key("type"), key(type)}, {key("text"), text}};
}

// Sent without its item id: with store false the server would look the id up and fail ("Item
// with id 'rs_...' not found"); the encrypted content alone carries the reasoning.
QJsonObject reasoningItem(const ContentBlock &thinking)
{
    QJsonArray summary;
    if (!thinking.text.isEmpty())
        summary.append(typedText("summary_text", thinking.text));
    return QJsonObject{{key("type"), key("reasoning")},
                       {key("summary"), summary},
                       {key("encrypted_content"), thinking.signature}};
}

QJsonObject functionCallItem(const ContentBlock &call)
{
    return QJsonObject{{key("type"), key("function_call")},
                       {key("call_id"), call.id},
                       {key("name"), call.name},
                       {key("arguments"), argumentsJson(call.arguments)}};
}

// A tool's text, or with its pictures the list of input_text and input_image parts.
QJsonValue toolOutput(const Message &result)
{
    if (!hasImages(result))
        return result.text();
    QJsonArray parts;
    if (const QString text = result.text(); !text.isEmpty())
        parts.append(typedText("input_text", text));
    for (const ContentBlock &b : result.content) {
        if (b.isImage()) {
            parts.append(QJsonObject{{key("type"), key("input_image")},
                                     {key("image_url"),
                                      QStringLiteral("data:%1;base64,%2")
                                          .arg(b.mimeType, QString::fromLatin1(b.data))}});
        }
    }
    return parts;
}

void appendAssistantItems(QJsonArray &input, const Message &message, bool keepReasoning)
{
    QJsonArray text;
    const auto flushText = [&] {
        if (text.isEmpty())
            return;
        input.append(QJsonObject{{key("role"), key("assistant")}, {key("content"), text}});
        text = QJsonArray();
    };
    for (const ContentBlock &b : message.content) {
        switch (b.type) {
        case ContentBlock::Type::Thinking:
            // Reasoning encrypted for another model (or from another API) cannot be read there.
            if (keepReasoning && !b.redacted && !b.signature.isEmpty()) {
                flushText();
                input.append(reasoningItem(b));
            }
            break;
        case ContentBlock::Type::Text:
            text.append(typedText("output_text", b.text));
            break;
        case ContentBlock::Type::ToolCall:
            flushText();
            input.append(functionCallItem(b));
            break;
        case ContentBlock::Type::Image: // only in tool results
            break;
        }
    }
    flushText();
}

QJsonArray inputJson(const ProviderConfig &config, const Context &context)
{
    QJsonArray input;
    for (const Message &message : wireHistory(context.messages)) {
        switch (message.role) {
        case Message::Role::User:
        case Message::Role::Custom: {
            QJsonArray content;
            for (const ContentBlock &b : message.content)
                content.append(typedText("input_text", b.text));
            input.append(QJsonObject{{key("role"), key("user")}, {key("content"), content}});
            break;
        }
        case Message::Role::Assistant:
            appendAssistantItems(input, message, isFromSameModel(message, config));
            break;
        case Message::Role::ToolResult:
            input.append(QJsonObject{{key("type"), key("function_call_output")},
                                     {key("call_id"), message.toolCallId},
                                     {key("output"), toolOutput(message)}});
            break;
        }
    }
    return input;
}

QJsonArray toolsJson(const QList<ToolDefinition> &tools)
{
    QJsonArray array;
    for (const ToolDefinition &tool : tools) {
        // strict false: strict mode would demand every property be required and
        // additionalProperties false, which ordinary tool schemas do not say.
        QJsonObject object{{key("type"), key("function")},
                           {key("name"), tool.name},
                           {key("parameters"), toolParameters(tool)},
                           {key("strict"), false}};
        if (!tool.description.isEmpty())
            object.insert(key("description"), tool.description);
        array.append(object);
    }
    return array;
}

} // namespace

HttpRequestSpec buildOpenAiResponsesRequest(const ProviderConfig &config, const Context &context)
{
    QJsonObject body{
        {key("model"), config.model},
        {key("input"), inputJson(config, context)},
        {key("stream"), true},
        // Stateless: the whole history is sent every time, and nothing is kept at OpenAI.
        {key("store"), false},
    };
    if (!context.systemPrompt.trimmed().isEmpty())
        body.insert(key("instructions"), context.systemPrompt);
    if (!context.tools.isEmpty())
        body.insert(key("tools"), toolsJson(context.tools));
    if (config.maxOutputTokens > 0)
        body.insert(key("max_output_tokens"), config.maxOutputTokens);
    // The Responses API is OpenAI's own, but proxies and local servers speak it too.
    if (config.provider == key("openai") && !config.promptCacheKey.isEmpty())
        body.insert(key("prompt_cache_key"), config.promptCacheKey);
    if (config.thinkingBudget > 0) {
        body.insert(key("reasoning"),
                    QJsonObject{{key("effort"), reasoningEffortForBudget(config.thinkingBudget)},
                                {key("summary"), key("auto")}});
        // Without store, the reasoning can only be carried to the next request encrypted.
        body.insert(key("include"), QJsonArray{key("reasoning.encrypted_content")});
    }

    return openAiStreamingRequest(config, key("/responses"), body);
}

} // namespace AgentCore
