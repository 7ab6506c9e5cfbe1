#include "openaichatassembler.h"
#include "translation.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace AgentCore {

OpenAiChatAssembler::OpenAiChatAssembler(const ProviderConfig &config)
    : StreamAssemblerBase(config)
{}

bool OpenAiChatAssembler::handleRawEvent(const SseEvent &event, const StreamEventSink &)
{
    if (event.data == "[DONE]") {
        if (!hasStop()) {
            const bool toolCalls = !m_tools.empty();
            setStop(toolCalls ? StopReason::ToolUse : StopReason::Stop, {});
        }
        markComplete();
        return true;
    }
    if (event.type != "error")
        return false;
    // The body of an error event need not be JSON; then it is quoted as it came.
    JsonReader &reader = jsonReader();
    const JsonReader::Value data = reader.parse(event.data) ? reader.root() : JsonReader::Value();
    const JsonReader::Value error = data.value("error");
    failWithErrorBody(error.isUndefined() ? data : error, event.data);
    return true;
}

void OpenAiChatAssembler::handleEvent(const SseEvent &event,
                                      JsonReader::Value data,
                                      const StreamEventSink &sink)
{
    const JsonReader::Value error = data.value("error");
    if (!error.isUndefined() && !error.isNull()) {
        failWithErrorBody(error, event.data);
        return;
    }
    if (!m_identityKnown) {
        // Every chunk repeats them; a placeholder first chunk (Azure-style proxies) has them empty.
        const QString model = data.value("model").toString();
        if (!model.isEmpty())
            message().model = model;
        const QString id = data.value("id").toString();
        if (!id.isEmpty())
            message().responseId = id;
        m_identityKnown = !model.isEmpty() && !id.isEmpty();
    }
    for (const JsonReader::Value choice : data.value("choices").elements())
        handleChoice(choice, sink);
    const JsonReader::Value usage = data.value("usage");
    if (usage.isObject())
        readUsage(usage, data.value("timings"));
}

void OpenAiChatAssembler::handleChoice(JsonReader::Value choice, const StreamEventSink &sink)
{
    if (choice.value("index").toInt(0) != 0)
        return; // n > 1: only the first choice is the assistant's message
    handleDelta(choice.value("delta"), sink);
    // Moonshot's stream reports usage inside its last choice rather than beside the choices.
    const JsonReader::Value usage = choice.value("usage");
    if (usage.isObject())
        readUsage(usage, {});
    const JsonReader::Value reason = choice.value("finish_reason");
    if (reason.isString() && !reason.isEmptyString())
        handleFinishReason(reason);
}

void OpenAiChatAssembler::handleDelta(JsonReader::Value delta, const StreamEventSink &sink)
{
    if (!delta.isObject() || delta.size() == 0)
        return;
    // DeepSeek/Qwen name it reasoning_content, OpenRouter reasoning; some proxies send both.
    const QString reasoning = delta.value("reasoning_content").toString();
    appendReasoning(reasoning.isEmpty() ? delta.value("reasoning").toString() : reasoning, sink);
    const JsonReader::Value details = delta.value("reasoning_details");
    if (details.isArray() && details.size() > 0)
        keepReasoningDetails(details, sink);

    const JsonReader::Value content = delta.value("content");
    if (content.isString())
        appendContent(content.toString(), sink);
    else if (content.isArray())
        handleContentParts(content, sink);

    const JsonReader::Value refusal = delta.value("refusal");
    if (refusal.isString())
        message().refusal += refusal.toString();

    int position = 0;
    for (const JsonReader::Value toolCall : delta.value("tool_calls").elements())
        handleToolCallFragment(toolCall, position++, sink);
}

void OpenAiChatAssembler::handleContentParts(JsonReader::Value parts, const StreamEventSink &sink)
{
    // Mistral: [{"type":"thinking","thinking":[{"type":"text","text":...}]}, {"type":"text",...}]
    for (const JsonReader::Value part : parts.elements()) {
        const JsonReader::Value type = part.value("type");
        if (type.equals("text")) {
            appendContent(part.value("text").toString(), sink);
        } else if (type.equals("thinking")) {
            const JsonReader::Value thinking = part.value("thinking");
            if (thinking.isString()) {
                appendReasoning(thinking.toString(), sink);
                continue;
            }
            for (const JsonReader::Value chunk : thinking.elements())
                appendReasoning(chunk.value("text").toString(), sink);
        }
    }
}

void OpenAiChatAssembler::handleToolCallFragment(JsonReader::Value fragment,
                                                 int position,
                                                 const StreamEventSink &sink)
{
    const QString id = fragment.value("id").toString();
    const JsonReader::Value function = fragment.value("function");
    const QString name = function.value("name").toString();
    const JsonReader::Value wireIndex = fragment.value("index");
    const auto idOf = [this](const ToolSlot &tool) -> const QString & {
        return partial().content.at(tool.contentIndex).id;
    };

    // The latest call with this index; servers that omit the index tell calls apart by id, and
    // some number every call 0, so a new id always starts a new call.
    ToolSlot *slot = nullptr;
    for (auto it = m_tools.rbegin(); it != m_tools.rend() && !slot; ++it) {
        const bool sameIndex = wireIndex.isNumber() ? it->wireIndex == wireIndex.toInt()
                                                    : id.isEmpty() || idOf(*it) == id;
        if (sameIndex)
            slot = &*it;
    }
    if (slot && !id.isEmpty() && !idOf(*slot).isEmpty() && idOf(*slot) != id)
        slot = nullptr;

    if (!slot) {
        ToolSlot tool;
        if (wireIndex.isNumber())
            tool.wireIndex = wireIndex.toInt();
        else
            tool.wireIndex = m_tools.empty() ? position : m_tools.back().wireIndex + 1;
        tool.contentIndex = openToolCall(id, name, {}, sink);
        m_tools.push_back(tool);
        slot = &m_tools.back();
    } else {
        setToolCallIdentity(slot->contentIndex, id, name);
    }
    // Mistral's schema lets the arguments be an object rather than its JSON text, and some
    // compatible servers send them so: the object is the arguments. It goes in as its compact
    // text so that the size and depth limits of the string path hold for it too.
    const JsonReader::Value arguments = function.value("arguments");
    const QString text = arguments.isObject() ? QString::fromUtf8(
                             QJsonDocument(arguments.toJsonObject()).toJson(QJsonDocument::Compact))
                                              : arguments.toString();
    appendToolArguments(slot->contentIndex, text, sink);
}

void OpenAiChatAssembler::handleFinishReason(JsonReader::Value reason)
{
    if (reason.equals("content_filter")) {
        failWithProviderError(AiTr::tr("The provider's content filter stopped the response."));
        message().providerStopReason = reason.toString();
        return;
    }
    StopReason stop = StopReason::Stop;
    if (reason.equals("length"))
        stop = StopReason::Length;
    else if (reason.equals("tool_calls") || reason.equals("function_call"))
        stop = StopReason::ToolUse;
    setStop(stop, reason.toString());
}

void OpenAiChatAssembler::appendReasoning(const QString &fragment, const StreamEventSink &sink)
{
    if (fragment.isEmpty())
        return;
    if (m_thinkingIndex < 0)
        m_thinkingIndex = openThinking(sink);
    appendText(m_thinkingIndex, fragment, sink);
}

void OpenAiChatAssembler::keepReasoningDetails(JsonReader::Value details,
                                               const StreamEventSink &sink)
{
    // OpenRouter wants these blocks back as they came (some are signed or encrypted), so they
    // are kept verbatim, every fragment of every chunk in order, within a cap: a partial array
    // would be rejected, so past the cap none is kept (the server then only loses its earlier
    // reasoning, as with every other server).
    if (m_detailsDropped)
        return;
    for (const JsonReader::Value detail : details.elements()) {
        if (!detail.isObject())
            continue;
        const QJsonObject object = detail.toJsonObject();
        m_detailsBytes += QJsonDocument(object).toJson(QJsonDocument::Compact).size();
        if (m_detailsBytes > maxReasoningDetailsBytes) {
            m_detailsDropped = true;
            m_details = QJsonArray();
            return;
        }
        m_details.append(object);
    }
    if (m_thinkingIndex < 0 && !m_details.isEmpty())
        m_thinkingIndex = openThinking(sink);
}

void OpenAiChatAssembler::appendContent(const QString &fragment, const StreamEventSink &sink)
{
    if (fragment.isEmpty())
        return;
    if (m_textIndex < 0)
        m_textIndex = openText(sink);
    appendText(m_textIndex, fragment, sink);
}

void OpenAiChatAssembler::readUsage(JsonReader::Value usage, JsonReader::Value timings)
{
    // DeepSeek reports its cache hits as prompt_cache_hit_tokens (with prompt_cache_miss_tokens)
    // and no prompt_tokens_details; both count within prompt_tokens, as cached_tokens does.
    // Moonshot reports them as a top-level cached_tokens; llama.cpp only in the chunk's timings
    // (cache_n: the prompt tokens it reused, prompt_tokens counting them too).
    const JsonReader::Value details = usage.value("prompt_tokens_details");
    qint64 cached = 0;
    if (details.value("cached_tokens").isNumber())
        cached = intValue(details, "cached_tokens");
    else if (usage.value("prompt_cache_hit_tokens").isNumber())
        cached = intValue(usage, "prompt_cache_hit_tokens");
    else if (usage.value("cached_tokens").isNumber())
        cached = intValue(usage, "cached_tokens");
    else if (timings.isObject())
        cached = intValue(timings, "cache_n");
    cached = std::clamp<qint64>(cached, 0, std::max<qint64>(0, intValue(usage, "prompt_tokens")));
    Usage &target = message().usage;
    target.input = intValue(usage, "prompt_tokens") - cached;
    target.output = intValue(usage, "completion_tokens");
    target.cacheRead = cached;
    target.cacheWrite = 0;
}

void OpenAiChatAssembler::failWithErrorBody(JsonReader::Value error, QByteArrayView body)
{
    if (error.isString()) {
        failWithStreamedError(error.toString());
        return;
    }
    const QString text = error.value("message").toString();
    QString code = error.value("code").toString();
    if (code.isEmpty())
        code = error.value("type").toString();
    failWithStreamedError(text.isEmpty() ? compactJson(body) : text, code);
}

void OpenAiChatAssembler::finalizeMessage()
{
    Message &result = message();
    const StopReason stop = result.stopReason;
    if (!result.refusal.isEmpty()
        && (stop == StopReason::Stop || stop == StopReason::Length || stop == StopReason::ToolUse))
        result.stopReason = StopReason::Refusal;

    if (m_thinkingIndex >= 0 && !m_details.isEmpty()) {
        result.content[m_thinkingIndex].signature = QString::fromUtf8(
            QJsonDocument(m_details).toJson(QJsonDocument::Compact));
    }

    QList<ContentBlock> ordered;
    ordered.reserve(result.content.size());
    if (m_thinkingIndex >= 0)
        ordered.append(result.content.at(m_thinkingIndex));
    if (m_textIndex >= 0)
        ordered.append(result.content.at(m_textIndex));
    std::vector<ToolSlot> tools = m_tools;
    std::stable_sort(tools.begin(), tools.end(), [](const ToolSlot &a, const ToolSlot &b) {
        return a.wireIndex < b.wireIndex;
    });
    for (const ToolSlot &tool : tools)
        ordered.append(result.content.at(tool.contentIndex));
    result.content = std::move(ordered);
}

} // namespace AgentCore
