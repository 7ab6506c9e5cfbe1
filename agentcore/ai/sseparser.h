#pragma once

#include <QByteArray>
#include <QByteArrayView>

#include <functional>
#include <optional>

namespace AgentCore {

/// One dispatched server-sent event. Fields stay UTF-8 bytes: JSON payloads go to the JSON
/// parser without a detour through QString. Decode with QString::fromUtf8 where text is needed.
struct SseEvent
{
    QByteArray type; ///< the `event` field; empty means the default type "message"
    QByteArray data; ///< `data` lines joined with LF
    QByteArray id;   ///< the `id` field given inside this event's block, empty if none
};

/// An incremental, byte-level parser of text/event-stream following the WHATWG rules
/// (HTML Standard, "Server-sent events"). Feed it bytes in chunks of any size.
/// Optional limits bound what it buffers: a line or an event growing past its limit sets
/// overflow() and the parser ignores all further input (the caller ends the stream).
/// Not thread-safe; one parser per stream. Never throws.
/// The sink gets a reference to the parser's reusable event: copy what it needs to keep, and
/// never call feed(), finish() or reset() from inside it.
class SseParser final
{
public:
    using Sink = std::function<void(const SseEvent &)>;

    enum class Overflow {
        None,
        Line,  ///< a line (line break excluded) grew longer than maxLineBytes
        Event, ///< an event's data grew larger than maxEventBytes
    };

    /// Limits in bytes; 0 (the default) means none. Take effect at the next feed().
    void setLimits(qsizetype maxLineBytes, qsizetype maxEventBytes);
    /// Which limit the input exceeded, if any; cleared by finish() and reset().
    Overflow overflow() const { return m_overflow; }

    /// Parses \a bytes, calling \a sink for every event completed by them.
    void feed(QByteArrayView bytes, const Sink &sink);

    /// The input ended: an unterminated last event is discarded, as the standard says.
    /// A later feed() starts a new stream (a reconnection): lastEventId() and retryMs() are
    /// kept, everything else starts afresh, including the byte order mark check.
    void finish();
    /// The input ended cleanly (an HTTP body that finished without a transport error): the
    /// last line counts even without its line break, the event no blank line closed yet is
    /// handed to \a sink (if it has data), then finish(). Whether that event arrived whole is
    /// the caller's to judge from its data. Not for a body the transport cut: there the
    /// pending event is a fragment, and finish() discards it.
    void finishAtCleanEnd(const Sink &sink);
    /// Forgets everything, including lastEventId and retry.
    void reset();

    QByteArray lastEventId() const { return m_lastEventId; }
    std::optional<int> retryMs() const { return m_retryMs; }

private:
    qsizetype skipByteOrderMark(QByteArrayView bytes);
    void processLine(QByteArrayView line, const Sink &sink);
    void processField(QByteArrayView name, QByteArrayView value);
    void dispatchEvent(const Sink &sink);
    void clearEvent();

    bool exceeds(qsizetype size, qsizetype limit, Overflow what);

    QByteArray m_lastEventId;
    std::optional<int> m_retryMs;

    SseEvent m_event;         // the event being built; its buffers are reused
    QByteArray m_partialLine; // the incomplete line at the end of the previous chunk
    int m_bomBytesSeen = 0;   // 0..2 while checking the stream start; -1 once past it
    bool m_hasData = false;   // a data field arrived (its value may be empty)
    bool m_idChanged = false; // a valid id field arrived since the last empty line
    bool m_skipLf = false;    // the previous chunk ended with CR: a leading LF belongs to it
    qsizetype m_maxLineBytes = 0;
    qsizetype m_maxEventBytes = 0;
    Overflow m_overflow = Overflow::None;
};

} // namespace AgentCore
