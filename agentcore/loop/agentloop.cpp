#include "agentloop.h"
#include "translation.h"

#include "toolprotocol.h"

#include "internal/agentloopboxing.h"
#include "internal/agentrun.h"
#include "internal/toolrunner.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSet>

#include <algorithm>
#include <exception>
#include <utility>

namespace AgentCore {

namespace {

qint64 now()
{
    return QDateTime::currentMSecsSinceEpoch();
}

// What the loop took from a queue, marked with the queue it came from (the UI shows it).
QList<Message> takenFrom(QList<Message> messages, MessageOrigin origin)
{
    for (Message &message : messages) {
        if (origin != MessageOrigin::FollowUp || message.origin != MessageOrigin::Steering)
            message.origin = origin;
    }
    return messages;
}

bool sameList(const QList<Message> &a, const QList<Message> &b)
{
    // Implicit sharing: a callback that did not touch the list hands back the same data.
    return a.size() == b.size() && a.constData() == b.constData();
}

// error / aborted / contextOverflow, as in the seed: the message's tool calls may be truncated
// or unwanted, so they never run and the run ends here (a context overflow waits for the
// caller to compact the history).
bool stopsRun(StopReason reason)
{
    return reason == StopReason::Error || reason == StopReason::Aborted
           || reason == StopReason::ContextOverflow;
}

QString skipReason(const Message &assistant)
{
    switch (assistant.stopReason) {
    case StopReason::ContextOverflow:
        return LoopTr::tr("Skipped: the request did not fit the model's context window; this tool "
                          "call was not run.");
    case StopReason::Aborted:
        return LoopTr::tr("Skipped: the response was aborted before this tool call could run.");
    default:
        return LoopTr::tr("Skipped: the response failed (%1); this tool call was not run.")
            .arg(assistant.errorMessage);
    }
}

bool hasToolCalls(const Message &message)
{
    return std::any_of(message.content.cbegin(),
                       message.content.cend(),
                       [](const ContentBlock &block) { return block.isToolCall(); });
}

Message errorMessage(StopReason reason, const QString &text, qint64 timestamp)
{
    Message message;
    message.role = Message::Role::Assistant;
    message.stopReason = reason;
    message.errorMessage = text;
    message.timestamp = timestamp;
    return message;
}

} // namespace

AgentRun::AgentRun(const AgentContext &context,
                   const AgentLoopConfig &config,
                   const AbortToken &abort,
                   const AgentEventConsumer &consume)
    : m_config(config)
    , m_abort(abort)
    , m_emit(consume)
    , m_systemPrompt(context.systemPrompt)
    , m_conversation(context.messages)
    , m_history(projectToolCallProtocol(context.messages))
    , m_callIds(context.messages)
    , m_waiter(abort)
{
    // Room for a typical run's messages up front: every growth moves all of them.
    constexpr qsizetype expectedNewMessages = 32;
    m_newMessages.reserve(expectedNewMessages);
    m_conversation.reserve(m_conversation.size() + expectedNewMessages);
    m_history.reserve(m_history.size() + expectedNewMessages);
    useTools(context.tools);
    m_batchSetup.middlewares = config.middlewares;
    m_batchSetup.effects = config.effects;
    m_batchSetup.forceSequential = config.toolExecution == ExecutionMode::Sequential;
    m_batchSetup.toolNotOffered = config.toolNotOffered;
    m_batchSetup.waiter = &m_waiter;
    m_batchSetup.abort = abort;
    m_batchSetup.emitEvent = [this](std::unique_ptr<AgentEvent> event) {
        emitEvent(std::move(event));
    };
    m_batchSetup.publish = [this](const Message &result) { publish(result); };
}

AgentRun::~AgentRun() = default;

void AgentRun::useTools(const QList<AgentToolPtr> &tools)
{
    m_tools = tools;
    offerTools(true);
}

void AgentRun::offerTools(bool always)
{
    QList<AgentToolPtr> offered = m_config.offeredTools ? m_config.offeredTools(m_tools) : m_tools;
    if (!always && offered == m_offered)
        return;
    m_offered = std::move(offered);
    m_toolDefinitions.clear();
    m_batchSetup.tools.clear();
    for (const AgentToolPtr &tool : std::as_const(m_offered)) {
        if (!tool)
            continue;
        const ToolDefinition definition = tool->definition();
        m_toolDefinitions.append(definition);
        m_batchSetup.tools.insert(definition.name, RunTool{tool, tool->compiledSchema()});
    }
}

QList<Message> AgentRun::run(const QList<Message> &prompts)
{
    try {
        drive(prompts);
    } catch (const std::exception &error) {
        stopOnInternalError(QString::fromUtf8(error.what()));
    } catch (...) {
        stopOnInternalError({});
    }
    std::unique_ptr<AgentEvent> end = std::make_unique<AgentEvent>();
    end->type = AgentEvent::Type::AgentEnd;
    end->newMessages = m_newMessages;
    try {
        emitEvent(std::move(end));
    } catch (...) {
        // The sink failed; the caller still gets the messages as the return value.
    }
    return m_newMessages;
}

void AgentRun::drive(QList<Message> pending)
{
    auto start = std::make_unique<AgentEvent>(AgentEvent::Type::AgentStart, Message());
    start->tools = m_toolDefinitions;
    emitEvent(std::move(start));
    if (m_config.getSteeringMessages)
        pending.append(takenFrom(m_config.getSteeringMessages(), MessageOrigin::Steering));
    for (;;) {
        bool hasMoreToolCalls = true;
        while (hasMoreToolCalls || !pending.isEmpty()) {
            if (m_config.maxTurns > 0 && m_turnCount >= m_config.maxTurns) {
                endAtTurnLimit(pending);
                return;
            }
            // An abort already here (Stop before the run began) still runs the turn, as the
            // seed does: what the user wrote stays in the conversation, inside a turn, and the
            // turn ends with the "aborted" reply made without calling the model.
            const TurnOutcome turn = runTurn(pending);
            ++m_turnCount;
            pending.clear();
            if (turn.stopped || m_abort.isAborted())
                return;
            hasMoreToolCalls = turn.hasMoreToolCalls;
            if (m_config.getSteeringMessages)
                pending = takenFrom(m_config.getSteeringMessages(), MessageOrigin::Steering);
        }
        if (m_config.getFollowUpMessages)
            pending = takenFrom(m_config.getFollowUpMessages(), MessageOrigin::FollowUp);
        if (pending.isEmpty() && m_config.onTaskEnd && !m_abort.isAborted())
            pending = takenFrom(m_config.onTaskEnd(m_abort), MessageOrigin::FollowUp);
        if (pending.isEmpty())
            return;
    }
}

AgentRun::TurnOutcome AgentRun::runTurn(const QList<Message> &pending)
{
    // Between turns no batch runs: tools that came or went since (an MCP server's
    // list_changed) are offered from this request on. The same objects: nothing to rebuild.
    if (m_config.currentTools) {
        const QList<AgentToolPtr> tools = m_config.currentTools();
        if (tools != m_tools)
            useTools(tools);
        else if (m_config.offeredTools)
            offerTools(false);
    } else if (m_config.offeredTools) {
        offerTools(false); // a tool loaded during the last turn is offered from this one
    }
    startTurn();
    for (const Message &message : pending)
        publishExternal(message);

    const Message assistant = streamAssistantResponse();
    const bool truncatedBefore = std::exchange(m_lastReplyTruncated,
                                               assistant.stopReason == StopReason::Length);
    TurnOutcome outcome;
    QList<Message> results;
    if (stopsRun(assistant.stopReason)) {
        results = publishSkipped(assistant.toolCalls(), skipReason(assistant));
        outcome.stopped = true;
    } else if (assistant.stopReason == StopReason::Length) {
        // Cut off at the output limit. Unlike the seed's three stops this is not a failure of
        // the run: a text answer simply ends the task (the window notes the cut), and queued
        // steering and follow-ups go on as after any answer. The reply's tool calls never run:
        // the last one is surely incomplete and an earlier one may depend on it. Their error
        // results tell the model why, and, as Claude Code does, it gets one more turn to redo
        // the work in smaller pieces; a second cut reply in a row ends the task, so a model
        // that keeps overrunning cannot loop. A text answer is not continued: that would need a
        // "continue" message the user never wrote. The output limit is not raised for the
        // retry: the loop does not know how far a model allows it, and a guess the provider
        // rejects fails the whole request.
        results = publishSkipped(assistant.toolCalls(),
                                 LoopTr::tr("Skipped: your reply was cut off at the output token "
                                            "limit, so this tool call may be incomplete and was "
                                            "not run. If it is still needed, make it again with "
                                            "less in it (for example, write a large file in "
                                            "several smaller steps)."));
        outcome.hasMoreToolCalls = !results.isEmpty() && !truncatedBefore;
    } else if (assistant.protocolViolation) {
        // The retry wrote fake tool calls again: the message stays, flagged, and the task ends.
        results = publishSkipped(assistant.toolCalls(),
                                 LoopTr::tr("Skipped: this response also wrote tool calls as text, "
                                            "so none of its tool calls were run."));
    } else if (hasToolCalls(assistant)) {
        results = executeToolCalls(assistant);
        outcome.hasMoreToolCalls = true;
    }

    endTurn(assistant, std::move(results), outcome.hasMoreToolCalls);
    return outcome;
}

void AgentRun::startTurn()
{
    m_turnOpen = true;
    if (m_config.pageOut) {
        // The three lists share their messages: each must let go of a paged output. Paging
        // keeps every message where it is, so the projected history stays projected.
        m_conversation = m_config.pageOut(m_conversation);
        m_newMessages = m_config.pageOut(m_newMessages);
        if (!m_historyNeedsProjection)
            m_history = m_config.pageOut(m_history);
    }
    auto start = std::make_unique<AgentEvent>(AgentEvent::Type::TurnStart, Message());
    start->tools = m_toolDefinitions; // shared, not copied
    emitEvent(std::move(start));
}

void AgentRun::endTurn(const Message &assistant, QList<Message> results, bool hasMoreToolCalls)
{
    m_turnOpen = false;
    std::unique_ptr<AgentEvent> end = std::make_unique<AgentEvent>(AgentEvent::Type::TurnEnd,
                                                                   assistant);
    end->toolResults = std::move(results);
    end->hasMoreToolCalls = hasMoreToolCalls;
    emitEvent(std::move(end));
}

void AgentRun::endAtTurnLimit(const QList<Message> &pending)
{
    // A turn without a model call: every message event belongs to a turn, so the pending
    // messages (which stay in the conversation) and the limit's note get one.
    startTurn();
    for (const Message &message : pending)
        publishExternal(message);
    const Message limit = turnLimitMessage();
    publish(limit);
    endTurn(limit, {}, false);
}

Message AgentRun::streamAssistantResponse()
{
    Attempt attempt = requestAssistantMessage();
    if (!attempt.started) {
        Message draft = attempt.message;
        draft.content.clear();
        emitEvent(AgentEvent::Type::MessageStart, draft);
    }
    m_callIds.assign(attempt.message);
    // The request context is gone by now, so appending does not copy the shared history.
    record(attempt.message);
    emitEvent(AgentEvent::Type::MessageEnd, attempt.message);
    return std::move(attempt.message);
}

AgentRun::Attempt AgentRun::requestAssistantMessage()
{
    if (m_config.beforeRequest && !m_abort.isAborted())
        appendBeforeRequest();
    const Context request = requestContext();
    Attempt attempt = attemptModelCall(request);

    const Message &first = attempt.message;
    if (first.protocolViolation && !m_abort.isAborted()
        && (first.stopReason == StopReason::Stop || first.stopReason == StopReason::ToolUse)) {
        if (attempt.started)
            emitEvent(AgentEvent::Type::MessageDiscard, first);
        Context retry = request;
        if (m_config.onModelError) {
            if (std::optional<Context> replaced = m_config.onModelError(first, request)) {
                retry = *std::move(replaced);
                if (!sameList(retry.messages, request.messages))
                    retry.messages = projectToolCallProtocol(retry.messages);
            }
        }
        // The directive lives in this attempt's context only, never in the history.
        retry.messages.append(protocolRepairDirective(first));
        // Billed although withdrawn: the message that replaces it carries its usage.
        const Usage discarded = first.usage;
        attempt = attemptModelCall(retry);
        attempt.message.discardedUsage += discarded;
    }
    if (attempt.message.stopReason == StopReason::ContextOverflow && m_config.onContextOverflow
        && !m_abort.isAborted())
        retryAfterOverflow(attempt);
    return attempt;
}

void AgentRun::appendBeforeRequest()
{
    const QList<Message> added = m_config.beforeRequest(conversation(), m_abort);
    for (const Message &message : added)
        publishExternal(message);
}

void AgentRun::retryAfterOverflow(Attempt &attempt)
{
    std::optional<Message> compaction = m_config.onContextOverflow(attempt.message,
                                                                   conversation(),
                                                                   m_abort);
    if (!compaction || m_abort.isAborted())
        return;
    if (attempt.started)
        emitEvent(AgentEvent::Type::MessageDiscard, attempt.message);
    publishExternal(*std::move(compaction));
    // Billed although withdrawn, like a protocol violation's attempt.
    Usage discarded = attempt.message.usage;
    discarded += attempt.message.discardedUsage;
    attempt = attemptModelCall(requestContext());
    attempt.message.discardedUsage += discarded;
}

Context AgentRun::conversation() const
{
    return Context{m_systemPrompt, m_conversation, m_toolDefinitions};
}

AgentRun::Attempt AgentRun::attemptModelCall(const Context &context)
{
    m_callIds.startMessage();
    Attempt attempt;
    Message draft;
    draft.role = Message::Role::Assistant;
    draft.timestamp = now();
    if (m_abort.isAborted()) {
        attempt.message = errorMessage(StopReason::Aborted,
                                       LoopTr::tr("Aborted before the request was sent."),
                                       draft.timestamp);
        return attempt;
    }
    if (!m_config.model) {
        attempt.message = errorMessage(StopReason::Error,
                                       LoopTr::tr("No model is configured."),
                                       draft.timestamp);
        return attempt;
    }

    // Captured by one reference, which std::function keeps without allocating.
    struct Streaming
    {
        AgentRun *run;
        Attempt *attempt;
        const Message *draft;
    } streaming{this, &attempt, &draft};
    const StreamEventSink sink = [&streaming](const StreamEvent &event) {
        streaming.run->onStreamEvent(event, *streaming.attempt, *streaming.draft);
    };
    try {
        attempt.message = m_config.model->complete(context, m_abort, sink);
    } catch (const std::exception &error) {
        attempt.message = errorMessage(StopReason::Error,
                                       LoopTr::tr("The model client failed: %1")
                                           .arg(QString::fromUtf8(error.what())),
                                       draft.timestamp);
    } catch (...) {
        attempt.message = errorMessage(StopReason::Error,
                                       LoopTr::tr("The model client failed."),
                                       draft.timestamp);
    }
    attempt.message.role = Message::Role::Assistant;
    if (attempt.message.timestamp == 0)
        attempt.message.timestamp = draft.timestamp;
    return attempt;
}

void AgentRun::onStreamEvent(const StreamEvent &event, Attempt &attempt, const Message &draft)
{
    if (!attempt.started) {
        attempt.started = true;
        emitEvent(AgentEvent::Type::MessageStart, draft);
    }
    // As in the seed: start is message_start, and done / error are message_end, which
    // carries the final message; only the deltas in between are message_update.
    if (event.type == StreamEvent::Type::Start || event.type == StreamEvent::Type::Done
        || event.type == StreamEvent::Type::Error)
        return;
    if (!event.toolCallId.isEmpty()) {
        // The draft shows the call under the id its finished message will have.
        QString id = m_callIds.streamed(event.contentIndex, event.toolCallId);
        if (id != event.toolCallId) {
            std::unique_ptr<AgentEvent> renamed
                = std::make_unique<AgentEvent>(AgentEvent::Type::MessageUpdate, event);
            renamed->streamEvent.toolCallId = std::move(id);
            emitEvent(std::move(renamed));
            return;
        }
    }
    emitEvent(std::make_unique<AgentEvent>(AgentEvent::Type::MessageUpdate, event));
}

Context AgentRun::requestContext()
{
    Context context{m_systemPrompt, {}, m_toolDefinitions};
    if (m_config.contextView) {
        // The view can change what came before (a compaction), so it is built whole each time.
        context.messages = projectToolCallProtocol(m_config.contextView(m_conversation));
    } else {
        if (m_historyNeedsProjection) {
            m_history = projectToolCallProtocol(m_conversation);
            m_historyNeedsProjection = false;
        }
        context.messages = m_history;
    }
    if (!m_config.prepareContext)
        return context;
    Context prepared = m_config.prepareContext(context);
    if (!sameList(prepared.messages, context.messages))
        prepared.messages = projectToolCallProtocol(prepared.messages);
    return prepared;
}

QList<Message> AgentRun::executeToolCalls(const Message &assistant)
{
    m_batchSetup.runner = toolRunner();
    if (!m_batchSetup.channel)
        m_batchSetup.channel = makeToolBatchChannel(&m_waiter);
    ToolBatch batch(m_batchSetup);
    return batch.run(assistant);
}

QList<Message> AgentRun::publishSkipped(const QList<ContentBlock> &calls, const QString &reason)
{
    const QList<Message> results = skippedToolResults(calls, reason);
    for (const Message &result : results)
        publish(result);
    return results;
}

Message AgentRun::turnLimitMessage() const
{
    Message message;
    message.role = Message::Role::Assistant;
    message.stopReason = StopReason::TurnLimit;
    message.timestamp = now();
    message.content.append(ContentBlock::makeText(
        LoopTr::tr("Stopped after %n turn(s): the turn limit of this run was reached.",
                   nullptr,
                   m_config.maxTurns)));
    return message;
}

void AgentRun::stopOnInternalError(const QString &detail)
{
    const QString skipped = detail.isEmpty()
                                ? LoopTr::tr("Skipped: the run stopped on an internal error.")
                                : LoopTr::tr("Skipped: the run stopped on an internal error (%1).")
                                      .arg(detail);
    try {
        // The user learns why the run stopped, in a turn like every other message: the one
        // that was open, or one of its own when the error came between turns.
        if (!m_turnOpen)
            startTurn();
        const QList<Message> results = publishSkipped(openToolCalls(), skipped);
        const Message failure
            = errorMessage(StopReason::Error,
                           detail.isEmpty()
                               ? LoopTr::tr("The run stopped on an internal error.")
                               : LoopTr::tr("The run stopped on an internal error: %1").arg(detail),
                           now());
        publish(failure);
        endTurn(failure, results, false);
    } catch (...) {
        // The event sink itself fails: the messages still pair every call with a result.
        for (const Message &result : skippedToolResults(openToolCalls(), skipped))
            record(result);
    }
}

QList<ContentBlock> AgentRun::openToolCalls() const
{
    QSet<QString> answered;
    for (const Message &message : std::as_const(m_newMessages)) {
        if (message.isToolResult())
            answered.insert(message.toolCallId);
    }
    QList<ContentBlock> open;
    for (const Message &message : std::as_const(m_newMessages)) {
        for (const ContentBlock &call : message.toolCalls()) {
            if (!answered.contains(call.id))
                open.append(call);
        }
    }
    return open;
}

void AgentRun::publishExternal(Message message)
{
    if (message.timestamp == 0)
        message.timestamp = now();
    // Prompts are user or custom messages; anything else may need pairing with the history.
    if (message.isAssistant() || message.isToolResult())
        m_historyNeedsProjection = true;
    m_callIds.reserve(message); // its results, if any, come with the ids it has
    publish(message);
}

void AgentRun::publish(const Message &message)
{
    emitEvent(AgentEvent::Type::MessageStart, message);
    record(message);
    emitEvent(AgentEvent::Type::MessageEnd, message);
}

void AgentRun::record(const Message &message)
{
    m_newMessages.append(message);
    m_conversation.append(message);
    if (!m_historyNeedsProjection && !isEmptyAssistantMessage(message))
        m_history.append(message);
}

void AgentRun::emitEvent(AgentEvent::Type type, const Message &message)
{
    emitEvent(std::make_unique<AgentEvent>(type, message));
}

void AgentRun::emitEvent(std::unique_ptr<AgentEvent> event) const
{
    if (m_emit)
        m_emit(std::move(event));
}

ToolRunner *AgentRun::toolRunner()
{
    if (m_config.toolRunner)
        return m_config.toolRunner;
    if (!m_ownRunner)
        m_ownRunner = std::make_unique<ToolRunner>();
    return m_ownRunner.get();
}

QList<Message> agentLoop(const QList<Message> &prompts,
                         const AgentContext &context,
                         const AgentLoopConfig &config,
                         const AbortToken &abort,
                         const AgentEventSink &sink)
{
    const AgentEventConsumer consume = [&sink](std::unique_ptr<AgentEvent> event) {
        if (sink)
            sink(*event);
    };
    return agentLoopBoxingEvents(prompts, context, config, abort, consume);
}

QList<Message> agentLoopBoxingEvents(const QList<Message> &prompts,
                                     const AgentContext &context,
                                     const AgentLoopConfig &config,
                                     const AbortToken &abort,
                                     const AgentEventConsumer &consume)
{
    AgentRun run(context, config, abort, consume);
    return run.run(prompts);
}

Message protocolRepairDirective(const Message &violating)
{
    const QString found = violating.protocolViolationDetail.isEmpty()
                              ? LoopTr::tr("tool-call markup")
                              : violating.protocolViolationDetail;
    return Message::makeUser(
        LoopTr::tr(
            "Your previous reply wrote a tool call as text (%1) instead of calling the tool, "
            "so nothing was run. Call tools only through the native tool-calling interface, "
            "and do not write tool-call markup such as <invoke>, <function_calls> or "
            "<tool_call> in your reply.")
            .arg(found));
}

} // namespace AgentCore
