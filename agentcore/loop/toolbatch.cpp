#include "toolbatch.h"
#include "translation.h"

#include "internal/loopwaiter.h"
#include "internal/toolrunner.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonObject>
#include <QMutex>

#include <utility>

namespace AgentCore {

namespace {

// A call the abort reached before it started, in either kind of batch. Flagged "aborted" like
// a call stopped while running: the user stopped both.
ToolResult notStartedToolResult()
{
    ToolResult result = ToolResult::makeError(
        LoopTr::tr("Skipped: the run was stopped before this tool call started."));
    result.details.aborted = true;
    return result;
}
} // namespace

// What the loop thread and the pool tasks of a run's batches share. A task never touches the
// batch itself: it posts here, and once its batch ended (closed, or another one opened) its
// posts are dropped.
struct ToolBatchChannel
{
    struct Notice
    {
        qsizetype index = 0;
        ToolResult result;
        bool done = false; ///< false: a partial result (tool_execution_update)
    };
    // Small buffers on both sides: a batch's few notices cost no allocation.
    using Notices = QVarLengthArray<Notice, 4>;

    explicit ToolBatchChannel(LoopWaiter *waiter)
        : waiter(waiter)
    {}

    /// Starts the next batch; returns its id.
    quint64 open()
    {
        QMutexLocker locker(&mutex);
        notices.clear();
        wakePending = false;
        return ++current;
    }

    void post(quint64 batch, Notice notice)
    {
        QMutexLocker locker(&mutex);
        if (batch != current)
            return;
        notices.append(std::move(notice));
        if (!wakePending) {
            wakePending = true;
            waiter->wake(); // alive: the batch closes the channel before the waiter dies
        }
    }

    void take(Notices &taken)
    {
        QMutexLocker locker(&mutex);
        wakePending = false;
        for (Notice &notice : notices)
            taken.append(std::move(notice));
        notices.clear();
    }

    void close(quint64 batch)
    {
        QMutexLocker locker(&mutex);
        if (batch == current)
            ++current; // a closed batch is no batch
        notices.clear();
    }

    QMutex mutex;
    LoopWaiter *waiter = nullptr;
    Notices notices;
    quint64 current = 0; // the open batch; posts of any other one are dropped
    bool wakePending = false;
};

std::shared_ptr<ToolBatchChannel> makeToolBatchChannel(LoopWaiter *waiter)
{
    return std::make_shared<ToolBatchChannel>(waiter);
}

// One tool call on its way through the runner: the job, and the result it posts when the
// thread is free again (the loop's next call then reuses the thread).
class ToolBatch::Task final : public ToolRunner::Job
{
public:
    // Built in place: a default context would make (and drop) an abort token of its own.
    Task(const PreparedToolCall &prepared,
         const Message &assistant,
         const ToolBatchSetup &setup,
         const std::shared_ptr<ToolBatchChannel> &channel,
         quint64 batch,
         qsizetype index)
        : job{prepared.tool,
              ToolCallContext{prepared.call.id,
                              prepared.call.name,
                              prepared.arguments,
                              assistant,
                              prepared.tool.get(),
                              setup.abort,
                              [channel, batch, index](const ToolResult &partial) {
                                  channel->post(batch, {index, partial, false});
                              },
                              {},
                              {},
                              {}},
              setup.middlewares,
              setup.effects,
              prepared.arguments}
        , m_channel(channel)
        , m_batch(batch)
        , m_index(index)
    {}

    ToolJob job;

    void run() override { m_result = executeToolCall(std::move(job)); }
    void finished() override { m_channel->post(m_batch, {m_index, std::move(m_result), true}); }

private:
    std::shared_ptr<ToolBatchChannel> m_channel;
    quint64 m_batch;
    qsizetype m_index;
    ToolResult m_result;
};

Message makeToolResultMessage(const ContentBlock &call, ToolResult &&result)
{
    Message message;
    message.role = Message::Role::ToolResult;
    message.toolCallId = call.id;
    message.toolName = call.name;
    message.content = std::move(result.content);
    message.details = std::move(result.details);
    message.isError = result.isError;
    message.timestamp = QDateTime::currentMSecsSinceEpoch();
    return message;
}

Message makeToolResultMessage(const ContentBlock &call, const ToolResult &result)
{
    return makeToolResultMessage(call, ToolResult(result));
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
    , m_channel(setup.channel)
    , m_id(m_channel->open())
{}

ToolBatch::~ToolBatch()
{
    m_channel->close(m_id);
}

QList<Message> ToolBatch::run(const Message &assistant)
{
    Calls calls;
    for (const ContentBlock &block : assistant.content) {
        if (block.isToolCall())
            calls.append(&block);
    }
    m_calls.resize(calls.size());
    QList<Message> results;
    results.reserve(calls.size());
    const auto publish = [&](const Message &result) {
        results.append(result);
        m_setup.publish(result);
    };

    if (!isSequential(calls)) {
        for (qsizetype i = 0; i < calls.size(); ++i)
            start(i, *calls.at(i));
        for (qsizetype i = 0; i < calls.size(); ++i)
            dispatch(i, assistant);
        raceAbort(0, calls.size());
        for (qsizetype i = 0; i < calls.size(); ++i)
            publish(makeToolResultMessage(*calls.at(i), std::move(m_calls[i].result)));
        return results;
    }

    // After an abort the remaining calls still start and end at once (dispatch), so both
    // kinds of batch look the same to the user.
    for (qsizetype i = 0; i < calls.size(); ++i) {
        start(i, *calls.at(i));
        dispatch(i, assistant);
        raceAbort(i, i + 1);
        publish(makeToolResultMessage(*calls.at(i), std::move(m_calls[i].result)));
    }
    return results;
}

bool ToolBatch::isSequential(const Calls &calls) const
{
    if (m_setup.forceSequential)
        return true;
    for (const ContentBlock *call : calls) {
        const auto found = m_setup.tools.constFind(call->name);
        if (found != m_setup.tools.constEnd()
            && found->tool->executionModeOf(call->arguments) == ExecutionMode::Sequential)
            return true;
    }
    return false;
}

void ToolBatch::start(qsizetype index, const ContentBlock &call)
{
    Call &state = m_calls[index];
    state.prepared = prepareToolCall(call, m_setup.tools);
    if (!state.prepared.tool && m_setup.toolNotOffered) {
        if (std::optional<ToolResult> refused = m_setup.toolNotOffered(call.name))
            state.prepared.failed = std::move(refused);
    }
    emitToolEvent(AgentEvent::Type::ToolExecutionStart, state, {});
    if (state.prepared.failed)
        finish(state, *state.prepared.failed);
}

void ToolBatch::dispatch(qsizetype index, const Message &assistant)
{
    Call &state = m_calls[index];
    if (state.done)
        return;
    // Nothing new starts once the user pressed Stop.
    if (m_setup.abort.isAborted()) {
        finish(state, notStartedToolResult());
        return;
    }
    auto task = std::make_unique<Task>(state.prepared, assistant, m_setup, m_channel, m_id, index);
    m_setup.runner->start(std::move(task));
}

void ToolBatch::raceAbort(qsizetype first, qsizetype last)
{
    const auto allDone = [&] {
        for (qsizetype i = first; i < last; ++i) {
            if (!m_calls.at(i).done)
                return false;
        }
        return true;
    };
    ToolBatchChannel::Notices received;
    for (;;) {
        received.clear();
        m_channel->take(received);
        for (ToolBatchChannel::Notice &notice : received) {
            Call &call = m_calls[notice.index];
            if (call.done)
                continue;
            if (notice.done) {
                finish(call, std::move(notice.result));
            } else {
                emitToolEvent(AgentEvent::Type::ToolExecutionUpdate, call, notice.result);
                call.partial = std::move(notice.result);
            }
        }
        if (allDone())
            return;
        if (m_setup.abort.isAborted()) {
            // raceAbort: stop waiting now; the abandoned calls may finish whenever they like.
            for (qsizetype i = first; i < last; ++i) {
                if (!m_calls.at(i).done)
                    finish(m_calls[i], stoppedToolResult(m_calls.at(i).partial));
            }
            return;
        }
        m_setup.waiter->wait();
    }
}

void ToolBatch::finish(Call &call, ToolResult result)
{
    call.done = true;
    call.result = std::move(result);
    emitToolEvent(AgentEvent::Type::ToolExecutionEnd, call, call.result);
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
