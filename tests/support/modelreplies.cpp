#include "modelreplies.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace TestSupport {

namespace {

QByteArray compact(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

QByteArray argumentsText(const ReplyToolCall &call)
{
    return call.rawArguments.isNull() ? compact(call.arguments) : call.rawArguments;
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
                         {QStringLiteral("arguments"), QString::fromUtf8(argumentsText(call))}}},
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
                                  QString::fromUtf8(argumentsText(call))}});
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

QByteArray responsesEvent(const QJsonObject &data)
{
    return "event: " + data.value(u"type").toString().toUtf8() + "\ndata: " + compact(data)
           + "\n\n";
}

QList<QByteArray> responsesEvents(const QString &text, const QList<ReplyToolCall> &calls)
{
    QJsonObject response{{QStringLiteral("id"), QStringLiteral("resp_test")},
                         {QStringLiteral("object"), QStringLiteral("response")},
                         {QStringLiteral("model"), QStringLiteral("test-model")},
                         {QStringLiteral("status"), QStringLiteral("in_progress")},
                         {QStringLiteral("output"), QJsonArray()}};
    QList<QByteArray> events;
    events.append(responsesEvent({{QStringLiteral("type"), QStringLiteral("response.created")},
                                  {QStringLiteral("response"), response}}));
    QJsonArray output;
    int index = 0;
    if (!text.isEmpty()) {
        const QJsonObject
            item{{QStringLiteral("type"), QStringLiteral("message")},
                 {QStringLiteral("id"), QStringLiteral("msg_test")},
                 {QStringLiteral("role"), QStringLiteral("assistant")},
                 {QStringLiteral("status"), QStringLiteral("completed")},
                 {QStringLiteral("content"),
                  QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("output_text")},
                                         {QStringLiteral("text"), text},
                                         {QStringLiteral("annotations"), QJsonArray()}}}}};
        events.append(
            responsesEvent({{QStringLiteral("type"), QStringLiteral("response.output_text.delta")},
                            {QStringLiteral("output_index"), index},
                            {QStringLiteral("content_index"), 0},
                            {QStringLiteral("delta"), text}}));
        events.append(
            responsesEvent({{QStringLiteral("type"), QStringLiteral("response.output_item.done")},
                            {QStringLiteral("output_index"), index},
                            {QStringLiteral("item"), item}}));
        output.append(item);
        ++index;
    }
    for (const ReplyToolCall &call : calls) {
        const QString arguments = QString::fromUtf8(argumentsText(call));
        const QString itemId = QStringLiteral("fc_") + call.id;
        QJsonObject item{{QStringLiteral("type"), QStringLiteral("function_call")},
                         {QStringLiteral("id"), itemId},
                         {QStringLiteral("call_id"), call.id},
                         {QStringLiteral("name"), call.name},
                         {QStringLiteral("arguments"), QString()},
                         {QStringLiteral("status"), QStringLiteral("in_progress")}};
        events.append(
            responsesEvent({{QStringLiteral("type"), QStringLiteral("response.output_item.added")},
                            {QStringLiteral("output_index"), index},
                            {QStringLiteral("item"), item}}));
        events.append(responsesEvent(
            {{QStringLiteral("type"), QStringLiteral("response.function_call_arguments.delta")},
             {QStringLiteral("output_index"), index},
             {QStringLiteral("item_id"), itemId},
             {QStringLiteral("delta"), arguments}}));
        item.insert(u"arguments", arguments);
        item.insert(u"status", QStringLiteral("completed"));
        events.append(
            responsesEvent({{QStringLiteral("type"), QStringLiteral("response.output_item.done")},
                            {QStringLiteral("output_index"), index},
                            {QStringLiteral("item"), item}}));
        output.append(item);
        ++index;
    }
    response.insert(u"status", QStringLiteral("completed"));
    response.insert(u"output", output);
    response.insert(u"usage",
                    QJsonObject{{QStringLiteral("input_tokens"), 10},
                                {QStringLiteral("output_tokens"), 5},
                                {QStringLiteral("total_tokens"), 15}});
    events.append(responsesEvent({{QStringLiteral("type"), QStringLiteral("response.completed")},
                                  {QStringLiteral("response"), response}}));
    return events;
}

} // namespace

QList<ReplyToolCall> numberedPerResponse(QList<ReplyToolCall> calls)
{
    for (qsizetype i = 0; i < calls.size(); ++i)
        calls[i].id = QStringLiteral("call_") + QString::number(i);
    return calls;
}

QList<QByteArray> replyEvents(ReplyApi api, const QString &text, const QList<ReplyToolCall> &calls)
{
    switch (api) {
    case ReplyApi::OpenAiChat:
        return openAiChatEvents(text, calls);
    case ReplyApi::AnthropicMessages:
        return anthropicEvents(text, calls);
    case ReplyApi::OpenAiResponses:
        return responsesEvents(text, calls);
    }
    return {};
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
    switch (api) {
    case ReplyApi::OpenAiChat:
        return "/v1/chat/completions";
    case ReplyApi::AnthropicMessages:
        return "/v1/messages";
    case ReplyApi::OpenAiResponses:
        return "/v1/responses";
    }
    return {};
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

QStringList requestConversation(const QByteArray &body)
{
    QStringList lines;
    const QJsonArray messages = QJsonDocument::fromJson(body).object().value(u"messages").toArray();
    for (const QJsonValue &value : messages) {
        const QString role = value[QLatin1String("role")].toString();
        if (role != QLatin1String("user") && role != QLatin1String("assistant"))
            continue;
        const QJsonValue content = value[QLatin1String("content")];
        QString text = content.toString();
        for (const QJsonValue &part : content.toArray())
            text += part[QLatin1String("text")].toString();
        lines.append(role + QStringLiteral(": ") + text);
    }
    return lines;
}

} // namespace TestSupport
