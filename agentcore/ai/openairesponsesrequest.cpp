#include "openairesponsesrequest.h"

#include <QJsonArray>

namespace AgentCore {

namespace {

QJsonObject typedText(const char *type, const QString &text)
{
    return QJsonObject{{jsonKey("type"), jsonKey(type)}, {jsonKey("text"), text}};
}

// Sent without its item id: with store false the server would look the id up and fail ("Item
// with id 'rs_...' not found"); the encrypted content alone carries the reasoning.
QJsonObject reasoningItem(const ContentBlock &thinking)
{
    QJsonArray summary;
    if (!thinking.text.isEmpty())
        summary.append(typedText("summary_text", thinking.text));
    return QJsonObject{{jsonKey("type"), jsonKey("reasoning")},
                       {jsonKey("summary"), summary},
                       {jsonKey("encrypted_content"), thinking.signature}};
}

QJsonObject functionCallItem(const ContentBlock &call)
{
    return QJsonObject{{jsonKey("type"), jsonKey("function_call")},
                       {jsonKey("call_id"), call.id},
                       {jsonKey("name"), call.name},
                       {jsonKey("arguments"), argumentsJson(call.arguments)}};
}

QJsonObject inputImage(const ContentBlock &image)
{
    return QJsonObject{{jsonKey("type"), jsonKey("input_image")},
                       {jsonKey("image_url"), imageDataUrl(image)}};
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
        if (b.isImage())
            parts.append(inputImage(b));
    }
    return parts;
}

void appendAssistantItems(QJsonArray &input, const Message &message, bool keepReasoning)
{
    QJsonArray text;
    const auto flushText = [&] {
        if (text.isEmpty())
            return;
        input.append(
            QJsonObject{{jsonKey("role"), jsonKey("assistant")}, {jsonKey("content"), text}});
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
        case ContentBlock::Type::Image: // only the user's and tools' messages
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
                content.append(b.isImage() ? inputImage(b) : typedText("input_text", b.text));
            input.append(
                QJsonObject{{jsonKey("role"), jsonKey("user")}, {jsonKey("content"), content}});
            break;
        }
        case Message::Role::Assistant:
            appendAssistantItems(input, message, isFromSameModel(message, config));
            break;
        case Message::Role::ToolResult:
            input.append(QJsonObject{{jsonKey("type"), jsonKey("function_call_output")},
                                     {jsonKey("call_id"), message.toolCallId},
                                     {jsonKey("output"), toolOutput(message)}});
            break;
        }
    }
    return input;
}

QJsonArray responsesTools(const QList<ToolDefinition> &tools)
{
    QJsonArray array;
    for (const ToolDefinition &tool : tools) {
        // strict false: strict mode would demand every property be required and
        // additionalProperties false, which ordinary tool schemas do not say.
        QJsonObject object{{jsonKey("type"), jsonKey("function")},
                           {jsonKey("name"), tool.name},
                           {jsonKey("parameters"), toolParameters(tool)},
                           {jsonKey("strict"), false}};
        if (!tool.description.isEmpty())
            object.insert(jsonKey("description"), tool.description);
        array.append(object);
    }
    return array;
}

} // namespace

HttpRequestSpec buildOpenAiResponsesRequest(const ProviderConfig &config, const Context &context)
{
    QJsonObject body{
        {jsonKey("model"), config.model},
        {jsonKey("input"), inputJson(config, context)},
        {jsonKey("stream"), true},
        // Stateless: the whole history is sent every time, and nothing is kept at OpenAI.
        {jsonKey("store"), false},
    };
    if (!context.systemPrompt.trimmed().isEmpty())
        body.insert(jsonKey("instructions"), context.systemPrompt);
    if (!context.tools.isEmpty())
        body.insert(jsonKey("tools"), responsesTools(context.tools));
    if (config.maxOutputTokens > 0)
        body.insert(jsonKey("max_output_tokens"), config.maxOutputTokens);
    // The Responses API is OpenAI's own, but proxies and local servers speak it too.
    if (config.provider == jsonKey("openai") && !config.promptCacheKey.isEmpty())
        body.insert(jsonKey("prompt_cache_key"), config.promptCacheKey);
    if (config.thinkingBudget > 0) {
        body.insert(jsonKey("reasoning"),
                    QJsonObject{{jsonKey("effort"), reasoningEffortForBudget(config.thinkingBudget)},
                                {jsonKey("summary"), jsonKey("auto")}});
        // Without store, the reasoning can only be carried to the next request encrypted.
        body.insert(jsonKey("include"), QJsonArray{jsonKey("reasoning.encrypted_content")});
    }

    return openAiStreamingRequest(config, jsonKey("/responses"), body);
}

} // namespace AgentCore
