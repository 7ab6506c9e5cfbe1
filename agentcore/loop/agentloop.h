#pragma once

#include "agenttypes.h"

#include <ai/modelclient.h>

#include <optional>

namespace AgentCore {

class ToolRunner; // core/internal/toolrunner.h

/// How one run of the loop behaves. Callbacks are called on the thread running the loop,
/// except middlewares and effect hooks: they run with the tool call on a pool thread
/// (concurrently within a parallel batch).
struct AgentLoopConfig
{
    std::shared_ptr<ModelClient> model;
    /// Model turns per run; 0 = unlimited (--max-turns, the "Max turns" setting). Reaching it
    /// appends an assistant message with StopReason::TurnLimit and stops.
    int maxTurns = 0;
    ExecutionMode toolExecution = ExecutionMode::Parallel; ///< Sequential forces every batch
    /// Gets a fresh copy of the request context (history already projected, see
    /// projectToolCallProtocol) before every model request; what it removes or rewrites
    /// affects that request only (plan mode, compaction). Its result is projected again.
    std::function<Context(Context)> prepareContext;
    /// Pulled once before the first turn and after every turn; the messages go in before the
    /// next model call. The loop marks them MessageOrigin::Steering.
    std::function<QList<Message>()> getSteeringMessages;
    /// Pulled when the task ends naturally; non-empty starts the task again with them. The
    /// loop marks them MessageOrigin::FollowUp, except those already marked Steering (steering
    /// that came after the last turn, handed over here: what the user sent stays steering).
    std::function<QList<Message>()> getFollowUpMessages;
    /// On a protocol violation: may return the context for the single retry (the loop then
    /// appends its repair directive to it). Never changes history.
    std::function<std::optional<Context>(const Message &violating, const Context &attempt)>
        onModelError;
    QList<ToolMiddleware> middlewares; ///< outermost first; run on the tool's pool thread
    EffectBoundary effects;            ///< run on the tool's pool thread
    /// Where tool calls run (not owned). Give one that lives across runs (the Agent does): its
    /// threads are warm. Null: the run makes its own. Either way agentLoop never waits for a
    /// tool abandoned on abort.
    ToolRunner *toolRunner = nullptr;
};

/// Runs one agent run (the seed's agentLoop / driveAgentLoop) on the calling thread, blocking
/// until agent_end, and returns the new messages (also carried by the agent_end event).
/// Works on copies: \a context is never modified, whatever happens (stop, error, abort, a
/// tool that throws). Emits every lifecycle event through \a sink, in order, on this thread;
/// \a sink may call abort(). While tools run the thread waits in a local event loop (so it
/// needs no running event loop of its own, but queued events to its objects are delivered).
/// Every tool call of an assistant message gets exactly one result in newMessages. Never throws.
QList<Message> agentLoop(const QList<Message> &prompts,
                         const AgentContext &context,
                         const AgentLoopConfig &config,
                         const AbortToken &abort,
                         const AgentEventSink &sink);

/// The user message the loop adds to a retry's context (never to history) after \a violating
/// wrote tool calls as text.
Message protocolRepairDirective(const Message &violating);

} // namespace AgentCore
