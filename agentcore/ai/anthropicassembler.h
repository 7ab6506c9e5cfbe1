#pragma once

#include "streamassembler.h"

#include <vector>

namespace AgentCore {

/// Assembles an Anthropic Messages stream (message_start, content_block_start/delta/stop,
/// message_delta, message_stop, ping, error) following shared/fixtures/README.md: text,
/// thinking (signature from signature_delta), redacted_thinking (data kept as the signature,
/// redacted = true) and tool_use blocks (arguments from input_json_delta; "" means {}); other
/// block and event types are skipped. A value in message_delta.usage replaces the
/// message_start one. An error event ends the message with the whole JSON body as
/// errorMessage, as @anthropic-ai/sdk reports it. Not thread-safe.
class AnthropicAssembler final : public StreamAssemblerBase
{
public:
    explicit AnthropicAssembler(const ProviderConfig &config);

protected:
    bool handleRawEvent(const SseEvent &event, const StreamEventSink &sink) override;
    void handleEvent(const SseEvent &event,
                     JsonReader::Value data,
                     const StreamEventSink &sink) override;

private:
    void handleMessageStart(JsonReader::Value data);
    void handleBlockStart(JsonReader::Value data, const StreamEventSink &sink);
    void handleBlockDelta(JsonReader::Value data, const StreamEventSink &sink);
    void handleMessageDelta(JsonReader::Value data);
    void readUsage(JsonReader::Value usage);
    /// The content index of the event's wire "index", or -1 for a skipped block.
    int contentIndexOf(JsonReader::Value data) const;

    std::vector<int> m_contentIndexByWireIndex;
};

} // namespace AgentCore
