#pragma once

#include "streamassembler.h"

#include <QJsonArray>

#include <vector>

namespace AgentCore {

/// Assembles an OpenAI Chat Completions stream, and those of compatible servers, following
/// shared/fixtures/README.md: only choice 0; vendor reasoning (delta.reasoning_content,
/// delta.reasoning, Mistral "thinking" parts) as one thinking block; delta.content strings and
/// Mistral "text" parts as one text block; OpenRouter's delta.reasoning_details blocks kept
/// verbatim, capped, as a JSON array in the thinking block's signature; one tool call per tool_calls[].index; refusal text
/// into Message::refusal (stopReason Refusal); a top-level "error" object ends the message
/// with an Error; "data: [DONE]" completes it ([DONE] without a finish_reason counts as stop,
/// or toolUse when there are tool calls), and so does a clean end of the body after choice 0's
/// finish_reason (isCompleteAtCleanEnd()).
///
/// Content indices: each block gets the next index when its first non-empty fragment arrives,
/// and keeps it for the whole stream. Since the wire may interleave kinds (reasoning after
/// text, text after a tool call), all blocks stay open until the stream ends: a late fragment
/// still lands in its one block, so Start/Delta/End of a block never interleave with a second
/// block of the same kind. The final message returned by finish() orders the blocks as the
/// README does (thinking, text, tool calls by wire index); only an interleaving server makes
/// that order differ from the streaming indices. Not thread-safe.
class OpenAiChatAssembler final : public StreamAssemblerBase
{
public:
    explicit OpenAiChatAssembler(const ProviderConfig &config);

    /// The most of OpenRouter's reasoning_details one message keeps (compact JSON bytes).
    static constexpr qsizetype maxReasoningDetailsBytes = 1024 * 1024;

    bool isCompleteAtCleanEnd() const override { return isComplete() || hasStop(); }

protected:
    bool handleRawEvent(const SseEvent &event, const StreamEventSink &sink) override;
    void handleEvent(const SseEvent &event,
                     JsonReader::Value data,
                     const StreamEventSink &sink) override;
    void finalizeMessage() override;

private:
    struct ToolSlot
    {
        int wireIndex = 0;
        int contentIndex = -1;
    };

    void handleChoice(JsonReader::Value choice, const StreamEventSink &sink);
    void handleDelta(JsonReader::Value delta, const StreamEventSink &sink);
    void handleContentParts(JsonReader::Value parts, const StreamEventSink &sink);
    void handleToolCallFragment(JsonReader::Value fragment,
                                int position,
                                const StreamEventSink &sink);
    void handleFinishReason(JsonReader::Value reason);
    void appendReasoning(const QString &fragment, const StreamEventSink &sink);
    void appendContent(const QString &fragment, const StreamEventSink &sink);
    void keepReasoningDetails(JsonReader::Value details, const StreamEventSink &sink);
    void readUsage(JsonReader::Value usage, JsonReader::Value timings);
    void failWithErrorBody(JsonReader::Value error, QByteArrayView body);

    int m_thinkingIndex = -1;
    int m_textIndex = -1;
    bool m_identityKnown = false;  ///< model and id came with a chunk
    std::vector<ToolSlot> m_tools; ///< in order of appearance
    QJsonArray m_details;          ///< OpenRouter's reasoning_details, as received
    qsizetype m_detailsBytes = 0;
    bool m_detailsDropped = false; ///< they exceeded maxReasoningDetailsBytes
};

} // namespace AgentCore
