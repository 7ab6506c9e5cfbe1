#pragma once

#include <loop/agentloop.h>
#include <loop/internal/loopwaiter.h>
#include <loop/toolbatch.h>
#include <loop/toolcallids.h>

#include <QHash>

#include <memory>

namespace AgentCore {

/// The state of one agentLoop() call (the seed's AgentLoopRuntime) and the straight-line code
/// that drives it: the double loop, turns, the model call with its protocol-violation retry,
/// and tool batches; its code is loop/agentloop.cpp, next to agentLoop(), which reads like the
/// seed's driveAgentLoop. Lives and runs on the calling thread only; see agentLoop() for the
/// contract. Internal to agentLoop().
class AgentRun final
{
    Q_DISABLE_COPY_MOVE(AgentRun)
public:
    AgentRun(const AgentContext &context,
             const AgentLoopConfig &config,
             const AbortToken &abort,
             const AgentEventConsumer &consume);
    ~AgentRun(); ///< never waits for a tool abandoned on abort (see ToolRunner)

    /// Emits agent_start .. agent_end and returns the new messages.
    QList<Message> run(const QList<Message> &prompts);

private:
    struct TurnOutcome
    {
        bool stopped = false;
        bool hasMoreToolCalls = false;
    };
    struct Attempt
    {
        Message message;
        bool started = false; ///< message_start was emitted for this attempt's draft
    };

    void drive(QList<Message> pending);
    TurnOutcome runTurn(const QList<Message> &pending);
    void startTurn();
    void endTurn(const Message &assistant, QList<Message> results, bool hasMoreToolCalls);
    /// The last turn: the pending messages and the iteration-limit note, without a model call.
    void endAtTurnLimit(const QList<Message> &pending);
    Message streamAssistantResponse();
    /// The model call with its single protocol-violation retry.
    Attempt requestAssistantMessage();
    Attempt attemptModelCall(const Context &context);
    void onStreamEvent(const StreamEvent &event, Attempt &attempt, const Message &draft);
    Context requestContext();
    /// The whole raw conversation: the initial messages and the new ones.
    Context conversation() const;
    /// AgentLoopConfig::beforeRequest's messages, published.
    void appendBeforeRequest();
    /// After a context overflow: AgentLoopConfig::onContextOverflow's compaction and one retry.
    void retryAfterOverflow(Attempt &attempt);
    QList<Message> executeToolCalls(const Message &assistant);
    QList<Message> publishSkipped(const QList<ContentBlock> &calls, const QString &reason);
    Message turnLimitMessage() const;
    /// An exception escaped the loop: close the open tool calls and the turn, and say why.
    void stopOnInternalError(const QString &detail);
    QList<ContentBlock> openToolCalls() const; ///< the new messages' calls without a result

    /// A message from outside the loop (prompt, steering, follow-up): stamped and published.
    void publishExternal(Message message);
    /// message_start + message_end, and into the run's history.
    void publish(const Message &message);
    void record(const Message &message);
    void emitEvent(AgentEvent::Type type, const Message &message = {});
    void emitEvent(std::unique_ptr<AgentEvent> event) const;

    ToolRunner *toolRunner();
    /// The run's tools from now on; offerTools() picks what the requests offer of them.
    void useTools(const QList<AgentToolPtr> &tools);
    /// The tools the requests offer and the batches run from now on: m_tools through
    /// AgentLoopConfig::offeredTools. Rebuilds the definitions when the offer changed (or
    /// \a always).
    void offerTools(bool always);

    AgentLoopConfig m_config;
    AbortToken m_abort;
    const AgentEventConsumer &m_emit;
    QString m_systemPrompt;
    /// The whole conversation: the caller's messages, then m_newMessages. Kept by appending:
    /// joining the two lists before every request (the context manager's hooks) copied the
    /// whole history each turn, 3 ms per turn at 20,000 messages (bench_loop long-context).
    QList<Message> m_conversation;
    QList<AgentToolPtr> m_tools;
    QList<AgentToolPtr> m_offered; // of m_tools what the requests offer (offerTools)
    QList<ToolDefinition> m_toolDefinitions;
    /// What the next request is built from: projectToolCallProtocol(initial + new), kept up
    /// to date by appending, because the loop only appends valid sequences.
    QList<Message> m_history;
    bool m_historyNeedsProjection = false;
    ToolCallIds m_callIds; // every call of the conversation gets an id no other call has
    QList<Message> m_newMessages;
    int m_turnCount = 0;
    bool m_turnOpen = false;           // turn_start was emitted, turn_end not yet
    bool m_lastReplyTruncated = false; // the previous reply stopped at the output limit
    LoopWaiter m_waiter;
    std::unique_ptr<ToolRunner> m_ownRunner;
    ToolBatchSetup m_batchSetup;
};

} // namespace AgentCore
