#include "toolbatch.h"

#include "loopwaiter.h"

#include "toolrunner.h"
#include <QCoreApplication>
#include <QDateTime>
#include <QMutex>

#include <utility>

namespace AgentCore {

namespace {
struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(AgentCore::ToolBatch)
};
} // namespace

// What the loop thread and the pool tasks of one batch share. A task never touches the batch
// itself: it posts here, and once the batch closed the channel its posts are dropped.
struct ToolBatch::Channel
{
    struct Notice
    {
        qsizetype index = 0;
        ToolResult result;
        bool done = false; ///< false: a partial result (tool_execution_update)
    };

    explicit Channel(LoopWaiter *waiter)
        : waiter(waiter)
    {}

    void post(Notice notice)
    {
        QMutexLocker locker(&mutex);
        if (closed)
            return;
        notices.append(std::move(notice));
        if (!wakePending) {
            wakePending = true;
            waiter->wake(); // alive: the batch closes the channel before the waiter dies
        }
    }

    QList<Notice> take()
    {
        QMutexLocker locker(&mutex);
        wakePending = false;
        return std::exchange(notices, {});
    }

    void close()
    {
        QMutexLocker locker(&mutex);
        closed = true;
        notices.clear();
    }

    QMutex mutex;
    LoopWaiter *waiter = nullptr;
    QList<Notice> notices;
    bool wakePending = false;
    bool closed = false;
};

Message makeToolResultMessage(const ContentBlock &call, const ToolResult &result)
{
    Message message;
    message.role = Message::Role::ToolResult;
    message.toolCallId = call.id;
    message.toolName = call.name;
    message.content = result.content;
    message.details = result.details;
    message.isError = result.isError;
    message.timestamp = QDateTime::currentMSecsSinceEpoch();
    return message;
}

QList<Message> skippedToolResults(const QList<ContentBlock> &calls, const QString &reason)
{
    QList<Message> results;
    results.reserve(calls.size());
    for (const ContentBlock &call : calls)
        results.append(makeToolResultMessage(call, ToolResult::makeError(reason)));
    return results;
}

ToolBatch::ToolBatch(const ToolBatchSetup &setup)
    : m_setup(setup)
    , m_channel(std::make_shared<Channel>(setup.waiter))
{}

ToolBatch::~ToolBatch()
{
    m_channel->close();
}

QList<Message> ToolBatch::run(const Message &assistant)
{
    const QList<ContentBlock> calls = assistant.toolCalls();
    m_calls.resize(calls.size());
    QList<Message> results;
    results.reserve(calls.size());
    const auto publish = [&](const Message &result) {
        results.append(result);
        m_setup.publish(result);
    };

    if (!isSequential(calls)) {
        for (qsizetype i = 0; i < calls.size(); ++i)
            start(i, calls.at(i));
        for (qsizetype i = 0; i < calls.size(); ++i)
            dispatch(i, assistant);
        waitFor(0, calls.size());
        for (qsizetype i = 0; i < calls.size(); ++i)
            publish(makeToolResultMessage(calls.at(i), m_calls.at(i).result));
        return results;
    }

    for (qsizetype i = 0; i < calls.size(); ++i) {
        if (m_setup.abort.isAborted()) {
            const QString reason = Tr::tr(
                "Skipped: the run was aborted before this tool call started.");
            for (const Message &skipped : skippedToolResults(calls.mid(i), reason))
                publish(skipped);
            break;
        }
        start(i, calls.at(i));
        dispatch(i, assistant);
        waitFor(i, i + 1);
        publish(makeToolResultMessage(calls.at(i), m_calls.at(i).result));
    }
    return results;
}

bool ToolBatch::isSequential(const QList<ContentBlock> &calls) const
{
    if (m_setup.forceSequential)
        return true;
    for (const ContentBlock &call : calls) {
        const auto found = m_setup.tools.constFind(call.name);
        if (found != m_setup.tools.constEnd()
            && found->tool->executionMode() == ExecutionMode::Sequential)
            return true;
    }
    return false;
}

void ToolBatch::start(qsizetype index, const ContentBlock &call)
{
    Call &state = m_calls[index];
    state.prepared = prepareToolCall(call, m_setup.tools);
    emitToolEvent(AgentEvent::Type::ToolExecutionStart, state, {});
    if (state.prepared.failed)
        finish(state, *state.prepared.failed);
}

void ToolBatch::dispatch(qsizetype index, const Message &assistant)
{
    const Call &state = m_calls.at(index);
    // An abort before dispatch is settled by waitFor (an "aborted" result), so nothing new
    // starts once the user pressed Stop.
    if (state.done || m_setup.abort.isAborted())
        return;
    ToolJob job;
    job.tool = state.prepared.tool;
    job.middlewares = m_setup.middlewares;
    job.effects = m_setup.effects;
    job.validatedArguments = state.prepared.arguments;
    ToolCallContext &context = job.context;
    context.toolCallId = state.prepared.call.id;
    context.toolName = state.prepared.call.name;
    context.arguments = state.prepared.arguments;
    context.assistantMessage = assistant;
    context.tool = job.tool.get();
    context.abort = m_setup.abort;
    context.onUpdate = [channel = m_channel, index](const ToolResult &partial) {
        channel->post({index, partial, false});
    };
    // The result is posted from `finished`, when the thread is free again: the loop's next
    // call then reuses it.
    auto result = std::make_shared<ToolResult>();
    m_setup.runner->start([result,
                           job = std::move(
                               job)]() mutable { *result = executeToolCall(std::move(job)); },
                          [channel = m_channel, index, result] {
                              channel->post({index, std::move(*result), true});
                          });
}

void ToolBatch::waitFor(qsizetype first, qsizetype last)
{
    const auto allDone = [&] {
        for (qsizetype i = first; i < last; ++i) {
            if (!m_calls.at(i).done)
                return false;
        }
        return true;
    };
    for (;;) {
        for (Channel::Notice &notice : m_channel->take()) {
            Call &call = m_calls[notice.index];
            if (call.done)
                continue;
            if (notice.done)
                finish(call, notice.result);
            else
                emitToolEvent(AgentEvent::Type::ToolExecutionUpdate, call, notice.result);
        }
        if (allDone())
            return;
        if (m_setup.abort.isAborted()) {
            // raceAbort: stop waiting now; the abandoned calls may finish whenever they like.
            for (qsizetype i = first; i < last; ++i) {
                if (!m_calls.at(i).done)
                    finish(m_calls[i], abortedToolResult());
            }
            return;
        }
        m_setup.waiter->wait();
    }
}

void ToolBatch::finish(Call &call, const ToolResult &result)
{
    call.done = true;
    call.result = result;
    emitToolEvent(AgentEvent::Type::ToolExecutionEnd, call, result);
}

void ToolBatch::emitToolEvent(AgentEvent::Type type, const Call &call, const ToolResult &result)
{
    auto event = std::make_unique<AgentEvent>();
    event->type = type;
    event->toolCallId = call.prepared.call.id;
    event->toolName = call.prepared.call.name;
    event->arguments = call.prepared.call.arguments;
    event->result = result;
    event->isError = result.isError;
    m_setup.emitEvent(std::move(event));
}

} // namespace AgentCore
