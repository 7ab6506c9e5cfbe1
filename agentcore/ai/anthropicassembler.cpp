#include "anthropicassembler.h"
#include "translation.h"

#include <QCoreApplication>

namespace AgentCore {

namespace {

// Block indexes are small and dense; anything larger is a corrupt stream, not a block.
constexpr int maxWireIndex = 4096;

StopReason mapStopReason(JsonReader::Value reason)
{
    if (reason.equals("max_tokens"))
        return StopReason::Length;
    // The reply ran into the end of the context window, not into the output limit the request
    // set: the seed's contextOverflow, which the history must be made smaller for. (The SDK
    // and pi-ai call it "length".)
    if (reason.equals("model_context_window_exceeded"))
        return StopReason::ContextOverflow;
    if (reason.equals("tool_use"))
        return StopReason::ToolUse;
    if (reason.equals("refusal"))
        return StopReason::Refusal;
    // end_turn, stop_sequence, pause_turn, and reasons newer than this code
    return StopReason::Stop;
}
} // namespace

AnthropicAssembler::AnthropicAssembler(const ProviderConfig &config)
    : StreamAssemblerBase(config)
{}

bool AnthropicAssembler::handleRawEvent(const SseEvent &event, const StreamEventSink &)
{
    if (event.type != "error")
        return false;
    // The SDK's APIError message is the whole body, which need not even be JSON.
    const QString body = compactJson(event.data);
    failWithStreamedError(body.isEmpty() ? AiTr::tr("Anthropic reported an error") : body);
    return true;
}

void AnthropicAssembler::handleEvent(const SseEvent &event,
                                     JsonReader::Value data,
                                     const StreamEventSink &sink)
{
    const JsonReader::Value type = data.value("type");
    if (type.equals("content_block_delta")) {
        handleBlockDelta(data, sink);
    } else if (type.equals("content_block_start")) {
        handleBlockStart(data, sink);
    } else if (type.equals("content_block_stop")) {
        const int index = contentIndexOf(data);
        if (index >= 0)
            closeBlock(index, sink);
    } else if (type.equals("message_start")) {
        handleMessageStart(data);
    } else if (type.equals("message_delta")) {
        handleMessageDelta(data);
    } else if (type.equals("message_stop")) {
        if (!hasStop()) // the provider ended the message without saying why: a normal end
            setStop(StopReason::Stop, {});
        markComplete();
    } else if (type.equals("error")) {
        failWithStreamedError(compactJson(event.data));
    }
    // ping and event types newer than this code carry nothing for the message.
}

void AnthropicAssembler::handleMessageStart(JsonReader::Value data)
{
    const JsonReader::Value start = data.value("message");
    const QString id = start.value("id").toString();
    if (!id.isEmpty())
        message().responseId = id;
    const QString model = start.value("model").toString();
    if (!model.isEmpty())
        message().model = model;
    readUsage(start.value("usage"));
}

void AnthropicAssembler::handleBlockStart(JsonReader::Value data, const StreamEventSink &sink)
{
    const int wireIndex = data.value("index").toInt(-1);
    if (wireIndex < 0 || wireIndex > maxWireIndex)
        return;
    const JsonReader::Value block = data.value("content_block");
    const JsonReader::Value type = block.value("type");
    int index = -1;
    if (type.equals("text")) {
        index = openText(sink);
        appendText(index, block.value("text").toString(), sink);
    } else if (type.equals("thinking")) {
        index = openThinking(sink);
        appendText(index, block.value("thinking").toString(), sink);
        message().content[index].signature = block.value("signature").toString();
    } else if (type.equals("redacted_thinking")) {
        index = openThinking(sink);
        ContentBlock &thinking = message().content[index];
        thinking.redacted = true;
        thinking.signature = block.value("data").toString();
    } else if (type.equals("tool_use")) {
        index = openToolCall(block.value("id").toString(),
                             block.value("name").toString(),
                             block.value("input").toJsonObject(),
                             sink);
    } else {
        return; // server_tool_use, web_search_tool_result, ...: not client content
    }
    if (qsizetype(m_contentIndexByWireIndex.size()) <= wireIndex)
        m_contentIndexByWireIndex.resize(wireIndex + 1, -1);
    m_contentIndexByWireIndex[wireIndex] = index;
}

void AnthropicAssembler::handleBlockDelta(JsonReader::Value data, const StreamEventSink &sink)
{
    const int index = contentIndexOf(data);
    if (index < 0)
        return;
    const JsonReader::Value delta = data.value("delta");
    const JsonReader::Value type = delta.value("type");
    const ContentBlock::Type blockType = message().content.at(index).type;
    if (type.equals("text_delta") && blockType == ContentBlock::Type::Text) {
        appendText(index, delta.value("text").toString(), sink);
    } else if (type.equals("input_json_delta") && blockType == ContentBlock::Type::ToolCall) {
        appendToolArguments(index, delta.value("partial_json").toString(), sink);
    } else if (type.equals("thinking_delta") && blockType == ContentBlock::Type::Thinking) {
        appendText(index, delta.value("thinking").toString(), sink);
    } else if (type.equals("signature_delta") && blockType == ContentBlock::Type::Thinking) {
        message().content[index].signature += delta.value("signature").toString();
    }
    // citations_delta and newer delta types do not change the normalized content.
}

void AnthropicAssembler::handleMessageDelta(JsonReader::Value data)
{
    const JsonReader::Value reason = data.value("delta").value("stop_reason");
    if (reason.isString()) {
        const StopReason stop = mapStopReason(reason);
        setStop(stop, reason.toString());
        if (stop == StopReason::ContextOverflow && message().stopReason == stop) {
            message().errorMessage = AiTr::tr(
                "The reply filled the model's context window and was cut off there.");
        }
    }
    readUsage(data.value("usage"));
}

void AnthropicAssembler::readUsage(JsonReader::Value usage)
{
    Usage &target = message().usage;
    target.input = intValue(usage, "input_tokens", target.input);
    target.output = intValue(usage, "output_tokens", target.output);
    target.cacheRead = intValue(usage, "cache_read_input_tokens", target.cacheRead);
    target.cacheWrite = intValue(usage, "cache_creation_input_tokens", target.cacheWrite);
}

int AnthropicAssembler::contentIndexOf(JsonReader::Value data) const
{
    const int wireIndex = data.value("index").toInt(-1);
    if (wireIndex < 0 || wireIndex >= qsizetype(m_contentIndexByWireIndex.size()))
        return -1;
    return m_contentIndexByWireIndex[wireIndex];
}

} // namespace AgentCore
