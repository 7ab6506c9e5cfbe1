#pragma once

#include "agenttypes.h"
#include "toolexecution.h"

#include <QHash>
#include <QVarLengthArray>

namespace AgentCore {

class LoopWaiter;
class ToolRunner;
struct ToolBatchChannel;

/// What the batches of a run and their tool threads share: made once per run, since a run
/// hands tools over turn after turn. Wakes \a waiter (which outlives every batch).
std::shared_ptr<ToolBatchChannel> makeToolBatchChannel(LoopWaiter *waiter);

/// What a ToolBatch needs from the run. Pointers are not owned and outlive the batch.
struct ToolBatchSetup
{
    RunTools tools;
    QList<ToolMiddleware> middlewares;
    EffectBoundary effects;
    bool forceSequential = false; ///< AgentLoopConfig::toolExecution == Sequential
    /// AgentLoopConfig::toolNotOffered: the result of a call to a tool \a tools lacks.
    std::function<std::optional<ToolResult>(const QString &toolName)> toolNotOffered;
    ToolRunner *runner = nullptr;
    LoopWaiter *waiter = nullptr;
    std::shared_ptr<ToolBatchChannel> channel; ///< see makeToolBatchChannel(); for one batch at a time
    AbortToken abort;
    /// Emits a tool_execution_* event on the loop thread.
    std::function<void(std::unique_ptr<AgentEvent> event)> emitEvent;
    /// Adds a tool result message to the run (history, message_start/end) on the loop thread.
    std::function<void(const Message &result)> publish;
};

/// Runs the tool calls of one assistant message (the seed's executeToolCallBatch).
/// All-parallel calls run concurrently on the runner's threads; one Sequential call
/// (AgentTool::executionModeOf its arguments, or forceSequential)
/// makes the batch run one call at a time, and an abort stops it between calls. Every call
/// runs on a runner thread while the loop thread waits, racing the abort token (raceAbort): on
/// abort the loop stops waiting at once, and calls still running get a "stopped" result made
/// of their last partial result (the output the user saw so far, see stoppedToolResult());
/// whatever they send or return later is discarded.
///
/// Events: every call of the batch gets exactly one tool_execution_start and one
/// tool_execution_end, with tool_execution_update for partial results in between; ends come
/// in completion order. Results are published in the order the model requested the calls (a
/// parallel batch publishes after all calls ended). An abort looks the same in both kinds of
/// batch: a call it reached before the call started gets start and end at once with the
/// error result "Skipped: the run was stopped before this tool call started.", a running one
/// its stopped result; both carry details {"aborted": true}. Loop thread only.
class ToolBatch final
{
    Q_DISABLE_COPY_MOVE(ToolBatch)
public:
    explicit ToolBatch(const ToolBatchSetup &setup);
    ~ToolBatch(); ///< abandons calls still running: their results are discarded

    /// Runs the calls of \a assistant; returns the published results, in call order.
    QList<Message> run(const Message &assistant);

private:
    class Task;
    struct Call
    {
        PreparedToolCall prepared;
        bool done = false;
        ToolResult result;
        /// The last partial result: on abort it becomes the call's result (what the user saw).
        std::optional<ToolResult> partial;
    };

    // Into the assistant message, which outlives the batch: copies would cost more than the
    // rest of the batch's bookkeeping.
    using Calls = QVarLengthArray<const ContentBlock *, 4>;

    bool isSequential(const Calls &calls) const;
    void start(qsizetype index, const ContentBlock &call);
    void dispatch(qsizetype index, const Message &assistant);
    /// The seed's raceAbort: waits until calls [first, last) are done, or the run is aborted;
    /// then it settles the calls still running with what they had so far and returns at once,
    /// never waiting for a tool that ignores the abort (it may finish whenever it likes).
    void raceAbort(qsizetype first, qsizetype last);
    void finish(Call &call, ToolResult result);
    void emitToolEvent(AgentEvent::Type type, const Call &call, const ToolResult &result);

    const ToolBatchSetup &m_setup;
    const std::shared_ptr<ToolBatchChannel> &m_channel;
    quint64 m_id = 0;                 // this batch, for the shared channel
    QVarLengthArray<Call, 2> m_calls; // a batch is usually one or two calls
};

/// The tool result message for \a result of \a call (timestamp: now).
Message makeToolResultMessage(const ContentBlock &call, const ToolResult &result);
/// The same, taking \a result's content and details instead of sharing them.
Message makeToolResultMessage(const ContentBlock &call, ToolResult &&result);

/// "Skipped: ..." error results for the calls of \a assistant that never ran, with \a reason.
QList<Message> skippedToolResults(const QList<ContentBlock> &calls, const QString &reason);

} // namespace AgentCore
