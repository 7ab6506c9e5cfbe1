#pragma once

#include "agenttypes.h"

#include <ai/modelclient.h>

#include <optional>

namespace AgentCore {

class ToolRunner; // loop/internal/toolrunner.h

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
    /// Maps the whole conversation (the run's initial messages and its new ones, raw: before
    /// projectToolCallProtocol) to the messages a request carries: what a compaction replaced
    /// and what the user dropped from the context are left out there (context/contextview.h),
    /// while the history keeps everything. Called before every model request on the loop's
    /// thread; must be pure and deterministic (the provider's cache prefix depends on it). Its
    /// result is projected, then handed to prepareContext. Unset: the history as it is, without
    /// a copy (today's path).
    std::function<QList<Message>(const QList<Message> &conversation)> contextView;
    /// Called before every model request of the run (not when it is already aborted), with the
    /// system prompt, the tool definitions and the whole raw conversation. The messages it
    /// returns are appended to the conversation before the request is built: published like
    /// any other message (message_start / message_end, in the open turn) and part of the run's
    /// new messages, so the Agent, the session file and the window get them (a compaction whose
    /// summary is ready). It may block (waiting for a summary the request can not do without;
    /// it says so itself, the loop emits nothing for the wait), but must return promptly once
    /// \a abort fires. Runs on the loop's thread.
    std::function<QList<Message>(const Context &conversation, const AbortToken &abort)> beforeRequest;
    /// Called when a reply stops with StopReason::ContextOverflow (not when aborted), on the
    /// loop's thread, with the raw conversation as for beforeRequest (without the overflow reply). A message it returns (a
    /// compaction, made synchronously; it must return promptly once \a abort fires) makes the
    /// loop withdraw the overflow reply (message_discard when it was shown; its usage goes into
    /// the next reply's discardedUsage), append the message as beforeRequest's are, and send
    /// the same turn again, once: a second overflow ends the run as any overflow does. nullopt:
    /// the overflow reply stays and ends the run. The user's message is never withdrawn.
    std::function<std::optional<Message>(const Message &overflow,
                                         const Context &conversation,
                                         const AbortToken &abort)>
        onContextOverflow;
    /// Pulled once before the first turn and after every turn; the messages go in before the
    /// next model call. The loop marks them MessageOrigin::Steering.
    std::function<QList<Message>()> getSteeringMessages;
    /// Pulled when the task ends naturally; non-empty starts the task again with them. The
    /// loop marks them MessageOrigin::FollowUp, except those already marked Steering (steering
    /// that came after the last turn, handed over here: what the user sent stays steering).
    std::function<QList<Message>()> getFollowUpMessages;
    /// Called when the task ends naturally and no follow-up waits (not when aborted), on the
    /// loop's thread: messages it returns go on with the task as follow-ups do (a Stop hook
    /// that makes the agent continue). It may block (it runs the user's command) but must
    /// return promptly once \a abort fires. Unset: the task ends.
    std::function<QList<Message>(const AbortToken &abort)> onTaskEnd;
    /// On a protocol violation: may return the context for the single retry (the loop then
    /// appends its repair directive to it). Never changes history.
    std::function<std::optional<Context>(const Message &violating, const Context &attempt)>
        onModelError;
    /// The tools from the next turn on, when they may change while a run goes on (an MCP
    /// server's list_changed): called at the start of every turn, on the loop's thread, never
    /// while a batch runs; replaces the context's tools when the list differs from the last
    /// (other objects). Return the same objects while nothing changed. Unset: the context's.
    std::function<QList<AgentToolPtr>()> currentTools;
    /// The tools a turn offers the model, from all the run's tools (the context's, or
    /// currentTools'): their definitions are what its requests and its agent_start /
    /// turn_start events carry, and only they run. Called at the start of every turn, on the
    /// loop's thread; it may add tools of its own (a ToolSearch that makes others offered from
    /// the next turn on: CodingAgent's deferred tools). Return the same objects while nothing
    /// changed: the loop rebuilds the definitions only when the list differs. Unset: all.
    std::function<QList<AgentToolPtr>(const QList<AgentToolPtr> &tools)> offeredTools;
    /// A call to a tool the turn does not offer (offeredTools left it out, or it does not
    /// exist): its result, instead of the loop's "not found" (a deferred tool: how to load
    /// it). Called on the loop's thread before any middleware: nothing runs, nobody is asked.
    /// nullopt or unset: "not found".
    std::function<std::optional<ToolResult>(const QString &toolName)> toolNotOffered;
    QList<ToolMiddleware> middlewares; ///< outermost first; run on the tool's pool thread
    EffectBoundary effects;            ///< run on the tool's pool thread
    /// Where tool calls run (not owned). Give one that lives across runs (the Agent does): its
    /// threads are warm. Null: the run makes its own. Either way agentLoop never waits for a
    /// tool abandoned on abort.
    ToolRunner *toolRunner = nullptr;
    /// Called on the loop's thread as each turn starts, with the run's conversation: returns
    /// it with the messages kept elsewhere made small (the stubs of tool results already in
    /// the session file, SessionPages::pagedOut; same length, same order), so that a run of a
    /// thousand turns holds a bounded part of its outputs. The run's new messages (agent_end's
    /// newMessages) hold those stubs too; message_end, turn_end and tool events stay whole.
    /// Requests read them back (contextView). Unset: every message is kept as it is.
    std::function<QList<Message>(const QList<Message> &conversation)> pageOut;
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
