#pragma once

#include "aborttoken.h"
#include "types.h"

namespace AgentCore {

/// Streams a finished assistant message as the StreamEvents a provider would send, for models
/// that are scripted rather than called (the offline demo, tests).
///
/// play() emits Start, then each content block in order (text and thinking in pieces of
/// chunkSize characters; a tool call as ToolCallStart, its compact JSON arguments in pieces,
/// ToolCallEnd with the arguments), then Done, or Error when the message's stop reason is
/// Error, Aborted or ContextOverflow. Events go to the sink on the calling thread.
///
/// Honours the abort token: a pause (chunkPauseMs after each piece, a stall, wait()) ends at
/// once when it fires, waiting in a local event loop, never spinning; streaming then stops
/// after the current event, and play() returns the content streamed so far with
/// StopReason::Aborted (see aborted()). One object streams one message on one thread; it is
/// not thread-safe. Never throws.
class ScriptedStream final
{
public:
    ScriptedStream(AbortToken abort, StreamEventSink sink);

    /// Characters per text, thinking or argument piece (default 8; at least 1).
    void setChunkSize(int characters);
    /// Pause after each text, thinking or argument piece, in ms (default 0: none).
    void setChunkPauseMs(int ms);
    /// >= 0: after that many events, block until the abort fires (default -1: never).
    void setStallAfterEvents(int events);
    /// The errorMessage of an aborted message (default: "The request was aborted", translated).
    void setAbortMessage(const QString &message);

    /// Streams \a message and returns it unchanged, or, when the token fires first (also
    /// before the start), the partial message as aborted() makes it.
    Message play(const Message &message);
    /// \a partial with StopReason::Aborted and the abort message, protocolViolation cleared;
    /// emits the matching Error event.
    Message aborted(Message partial);
    /// Returns after \a ms (negative: only on abort) or as soon as the token fires.
    void wait(int ms) const;

    /// Events sent to the sink so far.
    int emittedEvents() const { return m_sent; }

    /// Returns after \a ms (negative: only on abort) or as soon as \a abort fires. Waits in a
    /// local event loop on the calling thread.
    static void waitAbortable(const AbortToken &abort, int ms);

private:
    bool send(const StreamEvent &event);
    bool sendPiece(const StreamEvent &event);
    bool streamToolCall(const ContentBlock &block, int index, Message &partial);
    bool streamText(const ContentBlock &block, int index, Message &partial);

    AbortToken m_abort;
    StreamEventSink m_sink;
    QString m_abortMessage;
    int m_chunkSize = 8;
    int m_chunkPauseMs = 0;
    int m_stallAfter = -1;
    int m_sent = 0;
};

} // namespace AgentCore
