#pragma once

#include "jsonreader.h"
#include "partialjson.h"
#include "providerconfig.h"
#include "sseparser.h"
#include "types.h"

#include <memory>
#include <vector>

namespace AgentCore {

/// Turns one provider's dispatched SSE events into normalized StreamEvents and the assembled
/// assistant message. One assembler per response; not thread-safe; never throws: malformed
/// payloads end the message with StopReason::Error and a readable errorMessage.
class StreamAssembler
{
public:
    enum class EndReason {
        StreamEnded,       ///< the body ended normally (EOF)
        ConnectionDropped, ///< network error mid-stream
        IdleTimeout,       ///< no bytes for ProviderConfig::idleTimeoutMs
        DeadlineExceeded,  ///< the request took longer than ProviderConfig::requestTimeoutMs
        Aborted,           ///< the abort token fired
    };

    virtual ~StreamAssembler() = default;

    /// Handles one event in stream order, emitting normalized events through \a sink.
    virtual void feed(const SseEvent &event, const StreamEventSink &sink) = 0;

    /// Ends the message and returns it. A stream that ended without the provider's final
    /// event keeps what arrived: with a known stop reason it finishes normally (as the SDKs'
    /// snapshots do), otherwise it becomes an Error. Dropped, idle and aborted streams keep
    /// their partial content with StopReason Error / Error / Aborted and \a detail as
    /// errorMessage. Emits the closing End events and Done or Error. Also flags fake tool
    /// calls in the text (protocolViolation).
    virtual Message finish(EndReason reason, const QString &detail, const StreamEventSink &sink) = 0;

    /// True once the provider ended the message itself ([DONE], message_stop, response.completed,
    /// an error event): the transport may stop reading.
    virtual bool isComplete() const = 0;

    /// True when a body that ends cleanly (no transport error, no event cut short) at this
    /// point holds the whole message: once isComplete(), and for Chat Completions also once
    /// choice 0 has its finish_reason, since some servers never send "data: [DONE]" (llama.cpp
    /// before 2024, ik_llama.cpp). A body that ends earlier was cut.
    virtual bool isCompleteAtCleanEnd() const = 0;

    /// The message as assembled so far.
    virtual const Message &partial() const = 0;
};

/// The assembler for \a config.api; the message carries config's api, provider and model.
std::unique_ptr<StreamAssembler> createStreamAssembler(const ProviderConfig &config);

/// The bookkeeping the three provider assemblers share: the partial message, open blocks and
/// their Start/Delta/End events, tool-argument parsing, and the end-of-stream rules of finish().
///
/// Events: Start comes before anything else (at the first fed event, or in finish()). Every
/// block gets Start, Deltas and End with a contentIndex into partial().content that never
/// changes while streaming; finish() closes blocks still open, then emits exactly one Done or
/// Error. ToolCallDelta carries the raw argument fragment and the arguments parsed so far.
/// After the provider completed the message (or an error), further events are ignored.
///
/// finish() rules, in order: an error the provider sent (or malformed JSON) stays an Error with
/// zero usage; an unfinished stream that was aborted is Aborted, one that dropped or idled is an
/// Error with the transport's detail (usage so far is kept: tokens were spent); a stream that
/// ended with a known stop reason finishes normally; otherwise it is an Error ("the stream ended
/// before the response was complete"). Cost comes from the price table, and the final text is
/// checked for fake tool calls.
class StreamAssemblerBase : public StreamAssembler
{
public:
    explicit StreamAssemblerBase(const ProviderConfig &config);
    ~StreamAssemblerBase() override;

    void feed(const SseEvent &event, const StreamEventSink &sink) final;
    Message finish(EndReason reason, const QString &detail, const StreamEventSink &sink) final;
    bool isComplete() const final { return m_complete; }
    bool isCompleteAtCleanEnd() const override { return m_complete; }
    const Message &partial() const final { return m_message; }

protected:
    /// Sees every event before its data is parsed as JSON; returns true when it consumed the
    /// event (a "[DONE]" sentinel, an error event whose body need not be JSON).
    virtual bool handleRawEvent(const SseEvent &event, const StreamEventSink &sink);
    /// Handles one event whose data is a JSON object; \a data views event.data.
    virtual void handleEvent(const SseEvent &event,
                             JsonReader::Value data,
                             const StreamEventSink &sink)
        = 0;
    /// Called by finish() once every block is closed and the stop reason is decided, before
    /// cost and the protocol check: the place to put content into its final order.
    virtual void finalizeMessage() {}

    Message &message() { return m_message; }
    /// The reader feed() parses payloads with; free to reuse inside handleRawEvent().
    JsonReader &jsonReader() { return m_reader; }

    /// Appends an empty block and emits its Start event; returns its content index.
    int openText(const StreamEventSink &sink);
    int openThinking(const StreamEventSink &sink);
    int openToolCall(const QString &id,
                     const QString &name,
                     const QJsonObject &initialArguments,
                     const StreamEventSink &sink);
    /// Appends to a text or thinking block and emits its Delta (nothing for an empty delta).
    void appendText(int index, const QString &delta, const StreamEventSink &sink);
    /// Feeds a raw argument fragment to the block's tolerant parser and emits ToolCallDelta.
    /// Arguments growing past ProviderConfig::maxToolArgumentsBytes fail the message instead.
    void appendToolArguments(int index, const QString &fragment, const StreamEventSink &sink);
    /// Replaces id and name when the fragment carries them (empty values are ignored).
    void setToolCallIdentity(int index, const QString &id, const QString &name);
    /// Sets the final arguments from their complete JSON text (replacing the streamed parse);
    /// ignored once the block is closed.
    void setToolArgumentsJson(int index, const QString &json);
    /// Makes a text or thinking block hold \a finalText: the missing tail is emitted as a Delta
    /// while the block is open, anything else is replaced silently.
    void syncText(int index, const QString &finalText, const StreamEventSink &sink);
    /// Emits the End event of an open block (idempotent).
    void closeBlock(int index, const StreamEventSink &sink);
    bool isValidBlock(int index) const { return index >= 0 && index < qsizetype(m_blocks.size()); }

    /// Records the provider's stop reason: the message may finish normally from now on.
    void setStop(StopReason reason, const QString &providerStopReason);
    bool hasStop() const { return m_hasStop; }
    /// The provider reported an error: the message ends as Error with \a errorMessage and zero
    /// usage, and later events are ignored.
    void failWithProviderError(const QString &errorMessage);
    /// failWithProviderError() for an error the provider streamed in place of the reply
    /// (\a code: its code or type, if read): ContextOverflow rather than Error when it says
    /// the request did not fit the window (isContextOverflowError()), so the layer above can
    /// make the history smaller, as for the same error sent as an HTTP status.
    void failWithStreamedError(const QString &errorMessage, const QString &code = {});
    /// The provider ended the message; later events are ignored.
    void markComplete() { m_complete = true; }

    static void emitEvent(const StreamEventSink &sink, const StreamEvent &event);
    /// \a json without whitespace outside strings, as JSON.stringify(JSON.parse(json)) writes it
    /// for the usual payloads (key order kept, unlike QJsonDocument).
    static QString compactJson(QByteArrayView json);
    /// Integer member \a key of \a object, or \a fallback when absent or not a number.
    static qint64 intValue(JsonReader::Value object, QByteArrayView key, qint64 fallback = 0);

private:
    struct BlockState
    {
        bool open = true;
        qsizetype argumentBytes = 0; ///< streamed so far, in UTF-8
        std::unique_ptr<PartialJsonParser> parser;
    };

    void emitStartOnce(const StreamEventSink &sink);
    static void applyParsedArguments(ContentBlock &block, const PartialJsonParser &parser);
    bool parsePayload(const SseEvent &event);
    void failMalformed(const SseEvent &event, const QString &reason);
    void decideEnd(EndReason reason, const QString &detail);
    int appendBlock(ContentBlock block, StreamEvent::Type startType, const StreamEventSink &sink);

    Message m_message;
    JsonReader m_reader;
    QByteArray m_requoted; ///< a payload as QJsonDocument rewrote it (see parsePayload())
    std::vector<BlockState> m_blocks;
    qsizetype m_maxToolArgumentsBytes = 0;
    bool m_started = false;
    bool m_complete = false;
    bool m_finished = false;
    bool m_hasStop = false;
    bool m_providerError = false;
};

} // namespace AgentCore
