#pragma once

#include <ai/modelclient.h>

#include <QList>
#include <QMutex>

#include <functional>
#include <optional>

namespace TestSupport {

/// What one complete() call of a ScriptedModel does.
///
/// The step's message is streamed block by block between Start and Done (or Error, for the
/// stop reasons Error, Aborted and ContextOverflow): text and thinking in pieces of chunkSize
/// characters, a tool call as ToolCallStart, its compact JSON arguments in pieces, then
/// ToolCallEnd with the arguments. complete() then returns the message.
struct ModelStep
{
    AgentCore::Message message; ///< role is forced to Assistant; timestamp, api, provider and
                                ///< model are filled when empty
    int delayMs = 0;            ///< pause before the first event; ends early on abort
    int stallAfterEvents = -1;  ///< >= 0: after that many events, block until the abort fires
    bool silent = false;        ///< no stream event at all (failed before the first byte)
    int chunkSize = 8;
    int chunkPauseMs = 0; ///< pause between two pieces of text (an answer that streams slowly)

    /// A natural end (StopReason::Stop) with \a text.
    static ModelStep text(const QString &text);
    /// StopReason::ToolUse with the given tool calls, after an optional \a text block.
    static ModelStep toolCalls(const QList<AgentCore::ContentBlock> &calls,
                               const QString &text = {});
    static ModelStep toolCall(const QString &id, const QString &name, const QJsonObject &arguments);
    /// A message that ends with \a reason (Error, Aborted, ContextOverflow, Length, ...) and
    /// \a errorMessage, keeping \a content (e.g. a truncated tool call).
    static ModelStep failure(AgentCore::StopReason reason,
                             const QString &errorMessage,
                             const QList<AgentCore::ContentBlock> &content = {});
    /// A fake tool call written as text: the message is flagged as a protocol violation.
    static ModelStep fakeToolCall(
        const QString &text = QStringLiteral("<invoke name=\"Read\">loop.ts</invoke>"));
    /// Streams Start, then blocks until the abort token fires; returns Aborted.
    static ModelStep waitForAbort();

    ModelStep &withDelay(int ms);
    ModelStep &withStopReason(AgentCore::StopReason reason);
    ModelStep &silently();
    ModelStep &stallingAfter(int events);
    ModelStep &withChunkPause(int ms);
};

/// A ModelClient that plays scripted steps, one per complete() call, in order, and records
/// every Context it was called with. Honors the abort token: an already aborted token returns
/// Aborted at once without events; an abort during streaming (e.g. from the event sink) stops
/// after the current event with the partial content and StopReason::Aborted.
/// With no step left it returns StopReason::Error ("no scripted step left").
/// Thread-safe: steps may be added and contexts read from any thread while it runs.
class ScriptedModel final : public AgentCore::ModelClient
{
public:
    explicit ScriptedModel(const QList<ModelStep> &steps = {});

    void enqueue(const ModelStep &step);
    /// Every context complete() received, in call order (unless recording is off).
    QList<AgentCore::Context> contexts() const;
    /// Off for long runs (benchmarks): a kept context pins a copy of every history.
    void setRecordContexts(bool record);
    int callCount() const; ///< complete() calls so far
    int pendingSteps() const;
    /// Stream events emitted so far by all calls.
    int emittedEvents() const;
    /// Numbers the tool calls of every reply call_0, call_1, ... whatever ids the steps give,
    /// as OpenAI-compatible servers do that number ids per response (some llama.cpp, vLLM and
    /// proxy setups): ids then repeat from one reply to the next.
    void setPerResponseToolCallIds(bool on);
    /// Picks the step for a call by its context before the queue is asked: what it returns
    /// is played, nullopt takes the next queued step. For callers whose order is not fixed
    /// (subagents running at the same time). Called on the calling thread, outside the lock.
    using Router = std::function<std::optional<ModelStep>(const AgentCore::Context &context)>;
    void setRouter(Router router);

    AgentCore::Message complete(const AgentCore::Context &context,
                                const AgentCore::AbortToken &abort,
                                const AgentCore::StreamEventSink &sink) override;

private:
    mutable QMutex m_mutex;
    QList<ModelStep> m_steps;
    QList<AgentCore::Context> m_contexts;
    int m_calls = 0;
    int m_emittedEvents = 0;
    bool m_recordContexts = true;
    bool m_perResponseIds = false;
    Router m_router;
};

} // namespace TestSupport
