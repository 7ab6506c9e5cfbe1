#include "openairesponsesassembler.h"
#include "translation.h"

#include <QCoreApplication>

#include <cstring>

namespace AgentCore {

namespace {

// Output indexes are small and dense; anything larger is a corrupt stream, not an item.
constexpr int maxOutputIndex = 4096;

bool sameBytes(QByteArrayView a, QByteArrayView b)
{
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size()) == 0;
}

bool isKind(JsonReader::Value item, QByteArrayView kind)
{
    return item.value("type").equals(kind);
}

} // namespace

OpenAiResponsesAssembler::OpenAiResponsesAssembler(const ProviderConfig &config)
    : StreamAssemblerBase(config)
{}

void OpenAiResponsesAssembler::handleEvent(const SseEvent &event,
                                           JsonReader::Value data,
                                           const StreamEventSink &sink)
{
    const JsonReader::Value typeValue = data.value("type");
    const bool typeFromEvent = !typeValue.isString() || typeValue.isEmptyString();
    const auto is = [&](QByteArrayView name) {
        return typeFromEvent ? sameBytes(event.type, name) : typeValue.equals(name);
    };

    if (is("response.output_text.delta")) {
        if (Item *item = itemAt(data))
            appendText(ensureBlock(*item, ItemKind::Message, {}, sink),
                       data.value("delta").toString(),
                       sink);
    } else if (is("response.function_call_arguments.delta")) {
        Item *item = itemAt(data);
        if (item && item->kind == ItemKind::FunctionCall)
            appendToolArguments(item->contentIndex, data.value("delta").toString(), sink);
    } else if (is("response.reasoning_summary_text.delta")) {
        if (Item *item = itemAt(data)) {
            const int index = ensureBlock(*item, ItemKind::Reasoning, {}, sink);
            beginSummaryPart(*item, data.value("summary_index").toInt(0), sink);
            appendText(index, data.value("delta").toString(), sink);
        }
    } else if (is("response.reasoning_summary_part.added")) {
        if (Item *item = itemAt(data)) {
            ensureBlock(*item, ItemKind::Reasoning, {}, sink);
            beginSummaryPart(*item, data.value("summary_index").toInt(0), sink);
        }
    } else if (is("response.content_part.added")) {
        Item *item = itemAt(data);
        if (item && isKind(data.value("part"), "output_text"))
            ensureBlock(*item, ItemKind::Message, {}, sink);
    } else if (is("response.refusal.delta")) {
        message().refusal += data.value("delta").toString();
    } else if (is("response.output_item.added")) {
        if (Item *item = itemAt(data))
            openItem(*item, data.value("item"), sink);
    } else if (is("response.output_item.done")) {
        if (Item *item = itemAt(data))
            applyItem(*item, data.value("item"), sink);
    } else if (is("response.created") || is("response.in_progress") || is("response.queued")) {
        applyResponseHeader(data.value("response"));
    } else if (is("response.completed") || is("response.incomplete") || is("response.failed")) {
        const QByteArray type = typeFromEvent ? event.type : typeValue.toString().toUtf8();
        finishResponse(data.value("response"), type, sink);
    } else if (is("error")) {
        // As the openai SDK's APIError: error.message, else the event's own message.
        QString text = data.value("error").value("message").toString();
        if (text.isEmpty())
            text = data.value("message").toString();
        QString code = data.value("error").value("code").toString();
        if (code.isEmpty())
            code = data.value("code").toString();
        failWithStreamedError(text.isEmpty() ? compactJson(event.data) : text, code);
    }
    // Other events (…done echoes, annotations, web search progress) restate or add nothing.
}

OpenAiResponsesAssembler::Item *OpenAiResponsesAssembler::itemAt(JsonReader::Value data)
{
    return itemAt(data.value("output_index").toInt(-1));
}

OpenAiResponsesAssembler::Item *OpenAiResponsesAssembler::itemAt(int outputIndex)
{
    if (outputIndex < 0 || outputIndex > maxOutputIndex)
        return nullptr;
    if (qsizetype(m_items.size()) <= outputIndex)
        m_items.resize(outputIndex + 1);
    return &m_items[outputIndex];
}

int OpenAiResponsesAssembler::ensureBlock(Item &item,
                                          ItemKind kind,
                                          JsonReader::Value source,
                                          const StreamEventSink &sink)
{
    if (item.contentIndex >= 0)
        return item.kind == kind ? item.contentIndex : -1;
    if (item.kind != ItemKind::Unknown && item.kind != kind)
        return -1;
    item.kind = kind;
    switch (kind) {
    case ItemKind::Reasoning:
        item.contentIndex = openThinking(sink);
        break;
    case ItemKind::Message:
        item.contentIndex = openText(sink);
        break;
    case ItemKind::FunctionCall:
        item.contentIndex = openToolCall(source.value("call_id").toString(),
                                         source.value("name").toString(),
                                         {},
                                         sink);
        break;
    case ItemKind::Unknown:
    case ItemKind::Other:
        break;
    }
    return item.contentIndex;
}

void OpenAiResponsesAssembler::beginSummaryPart(Item &item,
                                                int summaryIndex,
                                                const StreamEventSink &sink)
{
    if (summaryIndex <= item.summaryIndex)
        return;
    if (item.summaryIndex >= 0)
        appendText(item.contentIndex, QStringLiteral("\n\n"), sink);
    item.summaryIndex = summaryIndex;
}

void OpenAiResponsesAssembler::openItem(Item &item,
                                        JsonReader::Value source,
                                        const StreamEventSink &sink)
{
    if (isKind(source, "reasoning"))
        ensureBlock(item, ItemKind::Reasoning, source, sink);
    else if (isKind(source, "function_call"))
        ensureBlock(item, ItemKind::FunctionCall, source, sink);
    else if (isKind(source, "message"))
        item.kind = ItemKind::Message; // the text block opens with its first output_text part
    else if (item.kind == ItemKind::Unknown)
        item.kind = ItemKind::Other;
}

void OpenAiResponsesAssembler::applyItem(Item &item,
                                         JsonReader::Value source,
                                         const StreamEventSink &sink)
{
    if (isKind(source, "reasoning")) {
        const int index = ensureBlock(item, ItemKind::Reasoning, source, sink);
        if (index < 0)
            return;
        QStringList summaries;
        for (const JsonReader::Value part : source.value("summary").elements())
            summaries.append(part.value("text").toString());
        syncText(index, summaries.join(QStringLiteral("\n\n")), sink);
        message().content[index].signature = source.value("encrypted_content").toString();
        closeBlock(index, sink);
    } else if (isKind(source, "message")) {
        applyMessageItem(item, source, sink);
    } else if (isKind(source, "function_call")) {
        const int index = ensureBlock(item, ItemKind::FunctionCall, source, sink);
        if (index < 0)
            return;
        setToolCallIdentity(index,
                            source.value("call_id").toString(),
                            source.value("name").toString());
        setToolArgumentsJson(index, source.value("arguments").toString());
        closeBlock(index, sink);
    }
}

void OpenAiResponsesAssembler::applyMessageItem(Item &item,
                                                JsonReader::Value source,
                                                const StreamEventSink &sink)
{
    QString text;
    QString refusal;
    bool hasText = false;
    for (const JsonReader::Value part : source.value("content").elements()) {
        if (isKind(part, "output_text")) {
            hasText = true;
            text += part.value("text").toString();
        } else if (isKind(part, "refusal")) {
            refusal += part.value("refusal").toString();
        }
    }
    if (!refusal.isEmpty())
        message().refusal = refusal;
    if (item.kind == ItemKind::Unknown)
        item.kind = ItemKind::Message;
    if (hasText || item.contentIndex >= 0) {
        const int index = ensureBlock(item, ItemKind::Message, source, sink);
        syncText(index, text, sink);
        closeBlock(index, sink);
    }
}

void OpenAiResponsesAssembler::applyResponseHeader(JsonReader::Value response)
{
    const QString id = response.value("id").toString();
    if (!id.isEmpty())
        message().responseId = id;
    const QString model = response.value("model").toString();
    if (!model.isEmpty())
        message().model = model;
}

void OpenAiResponsesAssembler::finishResponse(JsonReader::Value response,
                                              const QByteArray &eventType,
                                              const StreamEventSink &sink)
{
    applyResponseHeader(response);
    int outputIndex = 0;
    for (const JsonReader::Value output : response.value("output").elements()) {
        if (Item *item = itemAt(outputIndex++))
            applyItem(*item, output, sink);
    }
    readUsage(response.value("usage"));

    QString status = response.value("status").toString();
    if (status.isEmpty())
        status = QString::fromUtf8(eventType.mid(eventType.indexOf('.') + 1));
    if (status == QLatin1String("completed")) {
        const bool toolUse = !partial().toolCalls().isEmpty();
        setStop(toolUse ? StopReason::ToolUse : StopReason::Stop, status);
    } else if (status == QLatin1String("incomplete")) {
        setStop(StopReason::Length, status);
    } else {
        QString text = response.value("error").value("message").toString();
        if (text.isEmpty())
            text = AiTr::tr("The response ended with status \"%1\".").arg(status);
        failWithStreamedError(text, response.value("error").value("code").toString());
        message().providerStopReason = status;
    }
    markComplete();
}

void OpenAiResponsesAssembler::readUsage(JsonReader::Value usage)
{
    if (!usage.isObject() || usage.size() == 0)
        return;
    const qint64 cached = intValue(usage.value("input_tokens_details"), "cached_tokens");
    Usage &target = message().usage;
    target.input = intValue(usage, "input_tokens") - cached;
    target.output = intValue(usage, "output_tokens");
    target.cacheRead = cached;
    target.cacheWrite = 0;
}

} // namespace AgentCore
