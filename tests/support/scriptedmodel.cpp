#include "scriptedmodel.h"

#include <ai/scriptedstream.h>

#include <QDateTime>

namespace TestSupport {

using namespace AgentCore;

namespace {

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

Message withPerResponseIds(Message message)
{
    int next = 0;
    for (ContentBlock &block : message.content) {
        if (block.isToolCall())
            block.id = QStringLiteral("call_") + QString::number(next++);
    }
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

ModelStep &ModelStep::withChunkPause(int ms)
{
    chunkPauseMs = ms;
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

void ScriptedModel::setRouter(Router router)
{
    QMutexLocker locker(&m_mutex);
    m_router = std::move(router);
}

void ScriptedModel::setPerResponseToolCallIds(bool on)
{
    QMutexLocker locker(&m_mutex);
    m_perResponseIds = on;
}

Message ScriptedModel::complete(const Context &context,
                                const AbortToken &abort,
                                const StreamEventSink &sink)
{
    ModelStep step;
    bool haveStep = false;
    bool perResponseIds = false;
    Router router;
    {
        QMutexLocker locker(&m_mutex);
        router = m_router;
    }
    std::optional<ModelStep> routed = router ? router(context) : std::nullopt;
    {
        QMutexLocker locker(&m_mutex);
        ++m_calls;
        if (m_recordContexts)
            m_contexts.append(context);
        if (routed) {
            step = *std::move(routed);
            haveStep = true;
        } else if (!m_steps.isEmpty()) {
            step = m_steps.takeFirst();
            haveStep = true;
        }
        perResponseIds = m_perResponseIds;
    }
    if (!haveStep) {
        qWarning("ScriptedModel: no scripted step left");
        return normalized(
            ModelStep::failure(StopReason::Error, QStringLiteral("no scripted step left")).message);
    }
    if (perResponseIds)
        step.message = withPerResponseIds(step.message);
    const Message target = normalized(step.message);
    Message partial = target;
    partial.content.clear();

    ScriptedStream stream(abort, sink);
    stream.setChunkSize(step.chunkSize);
    stream.setChunkPauseMs(step.chunkPauseMs);
    stream.setStallAfterEvents(step.stallAfterEvents);
    stream.setAbortMessage(QStringLiteral("Request aborted"));
    const auto finish = [&](const Message &message) {
        QMutexLocker locker(&m_mutex);
        m_emittedEvents += stream.emittedEvents();
        return message;
    };
    if (abort.isAborted())
        return finish(stream.aborted(partial));
    stream.wait(step.delayMs);
    if (abort.isAborted())
        return finish(stream.aborted(partial));
    if (step.silent)
        return finish(target);
    return finish(stream.play(target));
}

} // namespace TestSupport
