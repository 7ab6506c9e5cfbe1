#include "scriptedmodel.h"

#include <QDateTime>
#include <QEventLoop>
#include <QJsonDocument>
#include <QTimer>

namespace TestSupport {

using namespace AgentCore;

namespace {

// Returns after \a ms (negative: never) or as soon as the token fires.
void waitAbortable(const AbortToken &abort, int ms)
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
    if (!abort.isAborted())
        loop.exec();
    abort.disconnect(id);
}

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

// Streams one step; stops early when the token fires.
class Player
{
public:
    Player(const AbortToken &abort, const StreamEventSink &sink, int stallAfter, int *counter)
        : m_abort(abort)
        , m_sink(sink)
        , m_stallAfter(stallAfter)
        , m_counter(counter)
    {}

    // False once the run was aborted: the caller stops streaming.
    bool send(const StreamEvent &e)
    {
        if (m_sink)
            m_sink(e);
        ++*m_counter;
        if (++m_sent == m_stallAfter)
            waitAbortable(m_abort, -1);
        return !m_abort.isAborted();
    }

    bool streamBlock(const ContentBlock &block, int index, int chunkSize, Message &partial)
    {
        using T = StreamEvent::Type;
        if (block.isToolCall()) {
            partial.content.append(ContentBlock::makeToolCall(block.id, block.name, {}));
            StreamEvent start = StreamEvent::make(T::ToolCallStart, index);
            start.toolCallId = block.id;
            start.toolName = block.name;
            if (!send(start))
                return false;
            const QString json = QString::fromUtf8(
                QJsonDocument(block.arguments).toJson(QJsonDocument::Compact));
            for (const QString &piece : pieces(json, chunkSize)) {
                StreamEvent delta = start;
                delta.type = T::ToolCallDelta;
                delta.delta = piece;
                if (!send(delta))
                    return false;
            }
            partial.content.last().arguments = block.arguments;
            StreamEvent end = start;
            end.type = T::ToolCallEnd;
            end.arguments = block.arguments;
            return send(end);
        }
        const bool thinking = block.isThinking();
        ContentBlock growing = block;
        growing.text.clear();
        partial.content.append(growing);
        if (!send(StreamEvent::make(thinking ? T::ThinkingStart : T::TextStart, index)))
            return false;
        for (const QString &piece : pieces(block.text, chunkSize)) {
            partial.content.last().text += piece;
            if (!send(StreamEvent::make(thinking ? T::ThinkingDelta : T::TextDelta, index, piece)))
                return false;
        }
        return send(StreamEvent::make(thinking ? T::ThinkingEnd : T::TextEnd, index));
    }

    Message aborted(Message partial)
    {
        partial.stopReason = StopReason::Aborted;
        partial.errorMessage = QStringLiteral("Request aborted");
        partial.protocolViolation = false;
        StreamEvent e = StreamEvent::make(StreamEvent::Type::Error);
        e.stopReason = StopReason::Aborted;
        e.errorMessage = partial.errorMessage;
        if (m_sink)
            m_sink(e);
        ++*m_counter;
        return partial;
    }

private:
    AbortToken m_abort;
    const StreamEventSink &m_sink;
    int m_stallAfter = -1;
    int m_sent = 0;
    int *m_counter = nullptr;
};

Message normalized(Message message)
{
    message.role = Message::Role::Assistant;
    if (message.timestamp == 0)
        message.timestamp = QDateTime::currentMSecsSinceEpoch();
    if (message.api.isEmpty())
        message.api = QStringLiteral("scripted");
    if (message.provider.isEmpty())
        message.provider = QStringLiteral("scripted");
    if (message.model.isEmpty())
        message.model = QStringLiteral("scripted-model");
    return message;
}

} // namespace

ModelStep ModelStep::text(const QString &text)
{
    ModelStep step;
    step.message.role = Message::Role::Assistant;
    step.message.content.append(ContentBlock::makeText(text));
    step.message.stopReason = StopReason::Stop;
    return step;
}

ModelStep ModelStep::toolCalls(const QList<ContentBlock> &calls, const QString &text)
{
    ModelStep step;
    step.message.role = Message::Role::Assistant;
    if (!text.isEmpty())
        step.message.content.append(ContentBlock::makeText(text));
    step.message.content.append(calls);
    step.message.stopReason = StopReason::ToolUse;
    return step;
}

ModelStep ModelStep::toolCall(const QString &id, const QString &name, const QJsonObject &arguments)
{
    return toolCalls({ContentBlock::makeToolCall(id, name, arguments)});
}

ModelStep ModelStep::failure(StopReason reason,
                             const QString &errorMessage,
                             const QList<ContentBlock> &content)
{
    ModelStep step;
    step.message.role = Message::Role::Assistant;
    step.message.content = content;
    step.message.stopReason = reason;
    step.message.errorMessage = errorMessage;
    return step;
}

ModelStep ModelStep::fakeToolCall(const QString &text)
{
    ModelStep step = ModelStep::text(text);
    step.message.protocolViolation = true;
    step.message.protocolViolationDetail = QStringLiteral("fake tool call in text");
    return step;
}

ModelStep ModelStep::waitForAbort()
{
    ModelStep step;
    step.message.role = Message::Role::Assistant;
    step.stallAfterEvents = 1;
    return step;
}

ModelStep &ModelStep::withDelay(int ms)
{
    delayMs = ms;
    return *this;
}

ModelStep &ModelStep::withStopReason(StopReason reason)
{
    message.stopReason = reason;
    return *this;
}

ModelStep &ModelStep::silently()
{
    silent = true;
    return *this;
}

ModelStep &ModelStep::stallingAfter(int events)
{
    stallAfterEvents = events;
    return *this;
}

ScriptedModel::ScriptedModel(const QList<ModelStep> &steps)
    : m_steps(steps)
{}

void ScriptedModel::enqueue(const ModelStep &step)
{
    QMutexLocker locker(&m_mutex);
    m_steps.append(step);
}

QList<Context> ScriptedModel::contexts() const
{
    QMutexLocker locker(&m_mutex);
    return m_contexts;
}

void ScriptedModel::setRecordContexts(bool record)
{
    QMutexLocker locker(&m_mutex);
    m_recordContexts = record;
}

int ScriptedModel::callCount() const
{
    QMutexLocker locker(&m_mutex);
    return m_calls;
}

int ScriptedModel::pendingSteps() const
{
    QMutexLocker locker(&m_mutex);
    return int(m_steps.size());
}

int ScriptedModel::emittedEvents() const
{
    QMutexLocker locker(&m_mutex);
    return m_emittedEvents;
}

Message ScriptedModel::complete(const Context &context,
                                const AbortToken &abort,
                                const StreamEventSink &sink)
{
    ModelStep step;
    bool haveStep = false;
    {
        QMutexLocker locker(&m_mutex);
        ++m_calls;
        if (m_recordContexts)
            m_contexts.append(context);
        if (!m_steps.isEmpty()) {
            step = m_steps.takeFirst();
            haveStep = true;
        }
    }
    if (!haveStep) {
        qWarning("ScriptedModel: no scripted step left");
        return normalized(
            ModelStep::failure(StopReason::Error, QStringLiteral("no scripted step left")).message);
    }
    const Message target = normalized(step.message);
    Message partial = target;
    partial.content.clear();

    int counter = 0;
    Player player(abort, sink, step.stallAfterEvents, &counter);
    const auto finish = [&](const Message &message) {
        QMutexLocker locker(&m_mutex);
        m_emittedEvents += counter;
        return message;
    };
    if (abort.isAborted())
        return finish(player.aborted(partial));
    waitAbortable(abort, step.delayMs);
    if (abort.isAborted())
        return finish(player.aborted(partial));
    if (step.silent)
        return finish(target);

    if (!player.send(StreamEvent::make(StreamEvent::Type::Start)))
        return finish(player.aborted(partial));
    for (int i = 0; i < target.content.size(); ++i) {
        if (!player.streamBlock(target.content.at(i), i, step.chunkSize, partial))
            return finish(player.aborted(partial));
    }
    StreamEvent end = StreamEvent::make(endsWithError(target.stopReason) ? StreamEvent::Type::Error
                                                                         : StreamEvent::Type::Done);
    end.stopReason = target.stopReason;
    end.errorMessage = target.errorMessage;
    player.send(end);
    return finish(target);
}

} // namespace TestSupport
