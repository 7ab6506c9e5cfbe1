#include "anthropicrequest.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace AgentCore {

namespace {

constexpr int defaultMaxTokens = 16384;
constexpr int minimumThinkingBudget = 1024; // smaller budget_tokens are rejected

QJsonObject typed(const char *type)
{
    return QJsonObject{{jsonKey("type"), jsonKey(type)}};
}

QJsonObject textBlock(const QString &text)
{
    QJsonObject block = typed("text");
    block.insert(jsonKey("text"), text);
    return block;
}

// Anthropic's image block: the base64 data with its media type.
QJsonObject imageBlock(const ContentBlock &image)
{
    QJsonObject source = typed("base64");
    source.insert(jsonKey("media_type"), image.mimeType);
    source.insert(jsonKey("data"), QString::fromLatin1(image.data));
    QJsonObject block = typed("image");
    block.insert(jsonKey("source"), source);
    return block;
}

QJsonObject thinkingBlock(const ContentBlock &thinking)
{
    if (thinking.redacted) {
        QJsonObject block = typed("redacted_thinking");
        block.insert(jsonKey("data"), thinking.signature);
        return block;
    }
    QJsonObject block = typed("thinking");
    block.insert(jsonKey("thinking"), thinking.text);
    block.insert(jsonKey("signature"), thinking.signature);
    return block;
}

QJsonArray assistantBlocks(const Message &message, bool keepThinking)
{
    QJsonArray blocks;
    for (const ContentBlock &b : message.content) {
        switch (b.type) {
        case ContentBlock::Type::Thinking:
            // Unsigned thinking, or thinking signed for another model, would be rejected. It is
            // dropped rather than sent as "<thinking>" text: the model would take another model's
            // reasoning for its own visible output and start writing such tags itself, and the
            // API ignores earlier turns' thinking anyway, so the model loses nothing it would
            // otherwise have seen.
            if (keepThinking && !b.signature.isEmpty())
                blocks.append(thinkingBlock(b));
            break;
        case ContentBlock::Type::Text:
            blocks.append(textBlock(b.text));
            break;
        case ContentBlock::Type::ToolCall: {
            QJsonObject block = typed("tool_use");
            block.insert(jsonKey("id"), b.id);
            block.insert(jsonKey("name"), b.name);
            block.insert(jsonKey("input"), b.arguments);
            blocks.append(block);
            break;
        }
        case ContentBlock::Type::Image: // only the user's and tools' messages
            break;
        }
    }
    return blocks;
}

QJsonObject toolResultBlock(const Message &result)
{
    QJsonObject block = typed("tool_result");
    block.insert(jsonKey("tool_use_id"), result.toolCallId);
    if (!hasImages(result)) {
        block.insert(jsonKey("content"), result.text());
    } else {
        // The text, then the pictures (a tool's screenshot, a chart), as image blocks.
        QJsonArray content;
        if (const QString text = result.text(); !text.isEmpty())
            content.append(textBlock(text));
        for (const ContentBlock &b : result.content) {
            if (b.isImage())
                content.append(imageBlock(b));
        }
        block.insert(jsonKey("content"), content);
    }
    if (result.isError)
        block.insert(jsonKey("is_error"), true);
    return block;
}

struct Turn
{
    QString role;
    QJsonArray content;
};

// The API wants user and assistant turns to alternate: consecutive messages of one role share
// a turn, so tool results and a following user message (a reminder, a steering message) form
// one user turn with the tool_result blocks first.
void appendToTurns(QList<Turn> &turns, const QString &role, const QJsonArray &blocks)
{
    if (blocks.isEmpty())
        return;
    if (!turns.isEmpty() && turns.last().role == role) {
        for (const QJsonValue &block : blocks)
            turns.last().content.append(block);
        return;
    }
    turns.append({role, blocks});
}

QList<Turn> turnsFor(const ProviderConfig &config, const QList<Message> &history)
{
    const QString user = jsonKey("user");
    const QString assistant = jsonKey("assistant");
    QList<Turn> turns;
    for (const Message &message : history) {
        switch (message.role) {
        case Message::Role::User:
        case Message::Role::Custom: {
            QJsonArray blocks;
            for (const ContentBlock &b : message.content)
                blocks.append(b.isImage() ? imageBlock(b) : textBlock(b.text));
            appendToTurns(turns, user, blocks);
            break;
        }
        case Message::Role::ToolResult:
            appendToTurns(turns, user, QJsonArray{toolResultBlock(message)});
            break;
        case Message::Role::Assistant:
            appendToTurns(turns,
                          assistant,
                          assistantBlocks(message, isFromSameModel(message, config)));
            break;
        }
    }
    return turns;
}

QString firstBlockType(const Turn &turn)
{
    return turn.content.at(0).toObject().value(jsonKey("type")).toString();
}

// With thinking on, the assistant turn a tool loop continues from must start with its signed
// thinking. A history from another model (or one without thinking) cannot provide that, so
// that request goes without thinking; the next user turn gets it back.
bool canThink(const QList<Turn> &turns)
{
    if (turns.size() < 2 || firstBlockType(turns.last()) != jsonKey("tool_result"))
        return true;
    const QString type = firstBlockType(turns.at(turns.size() - 2));
    return type == jsonKey("thinking") || type == jsonKey("redacted_thinking");
}

void markCacheControl(QJsonArray &blocks)
{
    QJsonObject last = blocks.last().toObject();
    last.insert(jsonKey("cache_control"), typed("ephemeral"));
    blocks.replace(blocks.size() - 1, last);
}

// Anthropic caches only up to marked blocks (at most four per request), and a marker's place is
// not part of what it hashes. The tools and the system prompt are marked where the request is
// built; here the conversation gets two: its last block, which writes this request to the
// cache, and the last block of the user turn before, where the previous request's marker was.
// The next request reads that entry even when this request added more blocks than the twenty
// Anthropic looks back from a marker (a turn of many parallel tool results).
void markCacheEnd(QList<Turn> &turns)
{
    if (turns.isEmpty())
        return;
    markCacheControl(turns.last().content);
    for (qsizetype i = turns.size() - 2; i >= 0; --i) {
        if (turns.at(i).role == jsonKey("user")) {
            markCacheControl(turns[i].content);
            return;
        }
    }
}

// The tools come first in what Anthropic caches, so their own marker keeps them cached when
// the system prompt after them changes or there is none.
QJsonArray anthropicTools(const QList<ToolDefinition> &tools)
{
    QJsonArray array;
    for (const ToolDefinition &tool : tools) {
        QJsonObject object{{jsonKey("name"), tool.name},
                           {jsonKey("input_schema"), toolParameters(tool)}};
        if (!tool.description.isEmpty())
            object.insert(jsonKey("description"), tool.description);
        array.append(object);
    }
    if (!array.isEmpty())
        markCacheControl(array);
    return array;
}

QUrl messagesUrl(const QUrl &baseUrl)
{
    // The SDKs take the root without /v1; a pasted ".../v1" would otherwise become /v1/v1.
    const bool hasVersion = baseUrl.path().endsWith(QLatin1StringView("/v1"))
                            || baseUrl.path().endsWith(QLatin1StringView("/v1/"));
    return appendedUrlPath(baseUrl, hasVersion ? jsonKey("/messages") : jsonKey("/v1/messages"));
}

} // namespace

HttpRequestSpec buildAnthropicRequest(const ProviderConfig &config, const Context &context)
{
    QList<Turn> turns = turnsFor(config, wireHistory(context.messages));
    markCacheEnd(turns);
    QJsonArray messages;
    for (const Turn &turn : std::as_const(turns))
        messages.append(
            QJsonObject{{jsonKey("role"), turn.role}, {jsonKey("content"), turn.content}});

    int maxTokens = config.maxOutputTokens > 0 ? config.maxOutputTokens : defaultMaxTokens;
    QJsonObject body{{jsonKey("model"), config.model},
                     {jsonKey("messages"), messages},
                     {jsonKey("stream"), true}};
    if (config.thinkingBudget > 0 && canThink(turns)) {
        const int budget = std::max(config.thinkingBudget, minimumThinkingBudget);
        // max_tokens counts the thinking too and must exceed the budget; keep the room the
        // user asked for to answer.
        if (maxTokens <= budget)
            maxTokens += budget;
        QJsonObject thinking = typed("enabled");
        thinking.insert(jsonKey("budget_tokens"), budget);
        body.insert(jsonKey("thinking"), thinking);
    }
    body.insert(jsonKey("max_tokens"), maxTokens);
    if (!context.systemPrompt.trimmed().isEmpty()) {
        QJsonObject system = textBlock(context.systemPrompt);
        system.insert(jsonKey("cache_control"), typed("ephemeral"));
        body.insert(jsonKey("system"), QJsonArray{system});
    }
    if (!context.tools.isEmpty())
        body.insert(jsonKey("tools"), anthropicTools(context.tools));

    HttpRequestSpec spec;
    spec.url = messagesUrl(config.baseUrl);
    QList<std::pair<QByteArray, QByteArray>> headers{
        {"Content-Type", "application/json"},
        {"Accept", "text/event-stream"},
        {"anthropic-version", "2023-06-01"},
    };
    if (!config.apiKey.isEmpty())
        headers.append({"x-api-key", config.apiKey.toUtf8()});
    spec.headers = withExtraHeaders(std::move(headers), config);
    spec.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    return spec;
}

} // namespace AgentCore
