#include "scriptedstream.h"
#include "translation.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QJsonDocument>
#include <QTimer>

namespace AgentCore {

namespace {

QList<QString> pieces(const QString &text, int size)
{
    QList<QString> result;
    size = qMax(1, size);
    for (qsizetype at = 0; at < text.size(); at += size)
        result.append(text.mid(at, size));
    return result;
}

bool endsWithError(StopReason reason)
{
    return reason == StopReason::Error || reason == StopReason::Aborted
           || reason == StopReason::ContextOverflow;
}

} // namespace

ScriptedStream::ScriptedStream(AbortToken abort, StreamEventSink sink)
    : m_abort(std::move(abort))
    , m_sink(std::move(sink))
    , m_abortMessage(AiTr::tr("The request was aborted"))
{}

void ScriptedStream::setChunkSize(int characters)
{
    m_chunkSize = qMax(1, characters);
}

void ScriptedStream::setChunkPauseMs(int ms)
{
    m_chunkPauseMs = qMax(0, ms);
}

void ScriptedStream::setStallAfterEvents(int events)
{
    m_stallAfter = events;
}

void ScriptedStream::setAbortMessage(const QString &message)
{
    m_abortMessage = message;
}

void ScriptedStream::waitAbortable(const AbortToken &abort, int ms)
{
    if (ms == 0 || abort.isAborted())
        return;
    QObject context;
    QEventLoop loop;
    QTimer timer;
    const int id = abort.onAbort(&context, [&loop] { loop.quit(); });
    if (ms > 0) {
        timer.setSingleShot(true);
        QObject::connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
        timer.start(ms);
    }
    // The callback may have run before the loop started: it is queued to this thread then,
    // but check anyway so a token that fired in between never costs a full pause.
    if (!abort.isAborted())
        loop.exec();
    abort.disconnect(id);
}

void ScriptedStream::wait(int ms) const
{
    waitAbortable(m_abort, ms);
}

bool ScriptedStream::send(const StreamEvent &event)
{
    if (m_sink)
        m_sink(event);
    if (++m_sent == m_stallAfter)
        wait(-1);
    return !m_abort.isAborted();
}

bool ScriptedStream::sendPiece(const StreamEvent &event)
{
    if (!send(event))
        return false;
    wait(m_chunkPauseMs);
    return !m_abort.isAborted();
}

bool ScriptedStream::streamToolCall(const ContentBlock &block, int index, Message &partial)
{
    using T = StreamEvent::Type;
    partial.content.append(ContentBlock::makeToolCall(block.id, block.name, {}));
    StreamEvent start = StreamEvent::make(T::ToolCallStart, index);
    start.toolCallId = block.id;
    start.toolName = block.name;
    if (!send(start))
        return false;
    const QString json = QString::fromUtf8(
        QJsonDocument(block.arguments).toJson(QJsonDocument::Compact));
    for (const QString &piece : pieces(json, m_chunkSize)) {
        StreamEvent delta = start;
        delta.type = T::ToolCallDelta;
        delta.delta = piece;
        if (!sendPiece(delta))
            return false;
    }
    partial.content.last().arguments = block.arguments;
    StreamEvent end = start;
    end.type = T::ToolCallEnd;
    end.arguments = block.arguments;
    return send(end);
}

bool ScriptedStream::streamText(const ContentBlock &block, int index, Message &partial)
{
    using T = StreamEvent::Type;
    const bool thinking = block.isThinking();
    ContentBlock growing = block;
    growing.text.clear();
    partial.content.append(growing);
    if (!send(StreamEvent::make(thinking ? T::ThinkingStart : T::TextStart, index)))
        return false;
    for (const QString &piece : pieces(block.text, m_chunkSize)) {
        partial.content.last().text += piece;
        if (!sendPiece(StreamEvent::make(thinking ? T::ThinkingDelta : T::TextDelta, index, piece)))
            return false;
    }
    return send(StreamEvent::make(thinking ? T::ThinkingEnd : T::TextEnd, index));
}

Message ScriptedStream::play(const Message &message)
{
    Message partial = message;
    partial.content.clear();
    if (m_abort.isAborted() || !send(StreamEvent::make(StreamEvent::Type::Start)))
        return aborted(partial);
    for (int i = 0; i < message.content.size(); ++i) {
        const ContentBlock &block = message.content.at(i);
        const bool streamed = block.isToolCall() ? streamToolCall(block, i, partial)
                                                 : streamText(block, i, partial);
        if (!streamed)
            return aborted(partial);
    }
    StreamEvent end = StreamEvent::make(
        endsWithError(message.stopReason) ? StreamEvent::Type::Error : StreamEvent::Type::Done);
    end.stopReason = message.stopReason;
    end.errorMessage = message.errorMessage;
    send(end);
    return message;
}

Message ScriptedStream::aborted(Message partial)
{
    partial.stopReason = StopReason::Aborted;
    partial.errorMessage = m_abortMessage;
    partial.protocolViolation = false;
    StreamEvent event = StreamEvent::make(StreamEvent::Type::Error);
    event.stopReason = StopReason::Aborted;
    event.errorMessage = partial.errorMessage;
    if (m_sink)
        m_sink(event);
    ++m_sent;
    return partial;
}

} // namespace AgentCore
