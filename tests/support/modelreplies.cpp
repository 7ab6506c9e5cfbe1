#include "modelreplies.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace TestSupport {

namespace {

QByteArray compact(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

QByteArray argumentsText(const QJsonObject &arguments)
{
    return compact(arguments);
}

QByteArray chatChunk(const QJsonObject &delta, const QJsonValue &finishReason = QJsonValue::Null)
{
    const QJsonObject chunk{
        {QStringLiteral("id"), QStringLiteral("chatcmpl-test")},
        {QStringLiteral("object"), QStringLiteral("chat.completion.chunk")},
        {QStringLiteral("created"), 1700000000},
        {QStringLiteral("model"), QStringLiteral("test-model")},
        {QStringLiteral("choices"),
         QJsonArray{QJsonObject{{QStringLiteral("index"), 0},
                                {QStringLiteral("delta"), delta},
                                {QStringLiteral("finish_reason"), finishReason}}}},
    };
    return "data: " + compact(chunk) + "\n\n";
}

QList<QByteArray> openAiChatEvents(const QString &text, const QList<ReplyToolCall> &calls)
{
    QList<QByteArray> events;
    events.append(chatChunk({{QStringLiteral("role"), QStringLiteral("assistant")},
                             {QStringLiteral("content"), QString()}}));
    if (!text.isEmpty()) {
        // Two pieces, so that the client really assembles deltas.
        const qsizetype half = text.size() / 2;
        events.append(chatChunk({{QStringLiteral("content"), text.left(half)}}));
        events.append(chatChunk({{QStringLiteral("content"), text.mid(half)}}));
    }
    for (qsizetype i = 0; i < calls.size(); ++i) {
        const ReplyToolCall &call = calls.at(i);
        const QJsonObject toolCall{
            {QStringLiteral("index"), int(i)},
            {QStringLiteral("id"), call.id},
            {QStringLiteral("type"), QStringLiteral("function")},
            {QStringLiteral("function"),
             QJsonObject{{QStringLiteral("name"), call.name},
                         {QStringLiteral("arguments"),
                          QString::fromUtf8(argumentsText(call.arguments))}}},
        };
        events.append(chatChunk({{QStringLiteral("tool_calls"), QJsonArray{toolCall}}}));
    }
    events.append(
        chatChunk(QJsonObject(),
                  calls.isEmpty() ? QStringLiteral("stop") : QStringLiteral("tool_calls")));
    const QJsonObject usage{
        {QStringLiteral("id"), QStringLiteral("chatcmpl-test")},
        {QStringLiteral("object"), QStringLiteral("chat.completion.chunk")},
        {QStringLiteral("choices"), QJsonArray()},
        {QStringLiteral("usage"),
         QJsonObject{{QStringLiteral("prompt_tokens"), 10},
                     {QStringLiteral("completion_tokens"), 5},
                     {QStringLiteral("total_tokens"), 15}}},
    };
    events.append("data: " + compact(usage) + "\n\n");
    events.append("data: [DONE]\n\n");
    return events;
}

QByteArray anthropicEvent(const QJsonObject &data)
{
    return "event: " + data.value(u"type").toString().toUtf8() + "\ndata: " + compact(data)
           + "\n\n";
}

QJsonObject blockEvent(const char *type, int index)
{
    return {{QStringLiteral("type"), QLatin1String(type)}, {QStringLiteral("index"), index}};
}

QList<QByteArray> anthropicEvents(const QString &text, const QList<ReplyToolCall> &calls)
{
    QList<QByteArray> events;
    events.append(
        anthropicEvent({{QStringLiteral("type"), QStringLiteral("message_start")},
                        {QStringLiteral("message"),
                         QJsonObject{{QStringLiteral("id"), QStringLiteral("msg_test")},
                                     {QStringLiteral("type"), QStringLiteral("message")},
                                     {QStringLiteral("role"), QStringLiteral("assistant")},
                                     {QStringLiteral("model"), QStringLiteral("test-model")},
                                     {QStringLiteral("content"), QJsonArray()},
                                     {QStringLiteral("stop_reason"), QJsonValue::Null},
                                     {QStringLiteral("usage"),
                                      QJsonObject{{QStringLiteral("input_tokens"), 10},
                                                  {QStringLiteral("output_tokens"), 1}}}}}}));
    int index = 0;
    if (!text.isEmpty()) {
        QJsonObject start = blockEvent("content_block_start", index);
        start.insert(u"content_block",
                     QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                 {QStringLiteral("text"), QString()}});
        events.append(anthropicEvent(start));
        QJsonObject delta = blockEvent("content_block_delta", index);
        delta.insert(u"delta",
                     QJsonObject{{QStringLiteral("type"), QStringLiteral("text_delta")},
                                 {QStringLiteral("text"), text}});
        events.append(anthropicEvent(delta));
        events.append(anthropicEvent(blockEvent("content_block_stop", index)));
        ++index;
    }
    for (const ReplyToolCall &call : calls) {
        QJsonObject start = blockEvent("content_block_start", index);
        start.insert(u"content_block",
                     QJsonObject{{QStringLiteral("type"), QStringLiteral("tool_use")},
                                 {QStringLiteral("id"), call.id},
                                 {QStringLiteral("name"), call.name},
                                 {QStringLiteral("input"), QJsonObject()}});
        events.append(anthropicEvent(start));
        QJsonObject delta = blockEvent("content_block_delta", index);
        delta.insert(u"delta",
                     QJsonObject{{QStringLiteral("type"), QStringLiteral("input_json_delta")},
                                 {QStringLiteral("partial_json"),
                                  QString::fromUtf8(argumentsText(call.arguments))}});
        events.append(anthropicEvent(delta));
        events.append(anthropicEvent(blockEvent("content_block_stop", index)));
        ++index;
    }
    events.append(anthropicEvent(
        {{QStringLiteral("type"), QStringLiteral("message_delta")},
         {QStringLiteral("delta"),
          QJsonObject{{QStringLiteral("stop_reason"),
                       calls.isEmpty() ? QStringLiteral("end_turn") : QStringLiteral("tool_use")},
                      {QStringLiteral("stop_sequence"), QJsonValue::Null}}},
         {QStringLiteral("usage"), QJsonObject{{QStringLiteral("output_tokens"), 5}}}}));
    events.append(anthropicEvent({{QStringLiteral("type"), QStringLiteral("message_stop")}}));
    return events;
}

} // namespace

QList<QByteArray> replyEvents(ReplyApi api, const QString &text, const QList<ReplyToolCall> &calls)
{
    return api == ReplyApi::OpenAiChat ? openAiChatEvents(text, calls)
                                       : anthropicEvents(text, calls);
}

ScriptedResponse scriptedReply(ReplyApi api, const QString &text, const QList<ReplyToolCall> &calls)
{
    return ScriptedResponse::sse(replyEvents(api, text, calls));
}

ScriptedResponse stalledReply(ReplyApi api, int events)
{
    ScriptedResponse response = ScriptedResponse::sse(
        replyEvents(api, QStringLiteral("I will look at the")).mid(0, events));
    response.ending = ScriptedResponse::Ending::Stall;
    return response;
}

QByteArray replyPath(ReplyApi api)
{
    return api == ReplyApi::OpenAiChat ? "/v1/chat/completions" : "/v1/messages";
}

QStringList requestToolNames(ReplyApi api, const QByteArray &body)
{
    QStringList names;
    const QJsonArray tools = QJsonDocument::fromJson(body).object().value(u"tools").toArray();
    for (const QJsonValue &tool : tools) {
        names.append(api == ReplyApi::OpenAiChat
                         ? tool[QLatin1String("function")][QLatin1String("name")].toString()
                         : tool[QLatin1String("name")].toString());
    }
    return names;
}

} // namespace TestSupport
