#pragma once

#include "streamassembler.h"

#include <vector>

namespace AgentCore {

/// Assembles an OpenAI Responses stream following shared/fixtures/README.md. Output items are
/// matched by output_index only (proxies such as GitHub Copilot rotate item ids on every event):
/// a reasoning item becomes one thinking block (summary parts joined with a blank line), a
/// message item one text block (output_text parts concatenated; refusal parts go to
/// Message::refusal), a function_call item one tool call (id = call_id). Each
/// output_item.done, and finally the response in response.completed / incomplete / failed,
/// is authoritative: it corrects the streamed text and sets the thinking signature to the
/// item's encrypted_content (null when the final item has none). An "error" event ends the
/// message with error.message. Not thread-safe.
class OpenAiResponsesAssembler final : public StreamAssemblerBase
{
public:
    explicit OpenAiResponsesAssembler(const ProviderConfig &config);

protected:
    void handleEvent(const SseEvent &event,
                     JsonReader::Value data,
                     const StreamEventSink &sink) override;

private:
    enum class ItemKind { Unknown, Reasoning, Message, FunctionCall, Other };
    struct Item
    {
        ItemKind kind = ItemKind::Unknown;
        int contentIndex = -1;
        int summaryIndex = -1; ///< the last reasoning summary part seen
    };

    /// The item at the event's output_index, or nullptr for an invalid index.
    Item *itemAt(JsonReader::Value data);
    Item *itemAt(int outputIndex);
    /// The item's block, opened (as \a kind) when it has none yet.
    int ensureBlock(Item &item,
                    ItemKind kind,
                    JsonReader::Value source,
                    const StreamEventSink &sink);
    void beginSummaryPart(Item &item, int summaryIndex, const StreamEventSink &sink);
    void openItem(Item &item, JsonReader::Value source, const StreamEventSink &sink);
    void applyItem(Item &item, JsonReader::Value source, const StreamEventSink &sink);
    void applyMessageItem(Item &item, JsonReader::Value source, const StreamEventSink &sink);
    void applyResponseHeader(JsonReader::Value response);
    void finishResponse(JsonReader::Value response,
                        const QByteArray &eventType,
                        const StreamEventSink &sink);
    void readUsage(JsonReader::Value usage);

    std::vector<Item> m_items; ///< by output_index
};

} // namespace AgentCore
