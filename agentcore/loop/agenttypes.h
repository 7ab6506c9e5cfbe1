#pragma once

#include "toolkind.h"

#include <ai/aborttoken.h>
#include <ai/schemavalidator.h>
#include <ai/types.h>

#include <QJsonObject>
#include <QList>
#include <QMetaType>

#include <any>
#include <functional>
#include <memory>
#include <mutex>

namespace AgentCore {

class AgentTool;

/// How the tool calls of one assistant message run.
enum class ExecutionMode {
    Parallel,   ///< read-only: may run concurrently with the other calls of the batch
    Sequential, ///< side effects: one sequential call makes the whole batch sequential
};

/// What a tool returns: model-facing content, UI-only details, and whether it failed.
struct ToolResult
{
    QList<ContentBlock> content; ///< text (and image) blocks sent to the model
    ToolDetails details;         ///< for the UI (diffs, log paths); never sent to the model
    bool isError = false;

    static ToolResult makeText(const QString &text, const ToolDetails &details = {});
    static ToolResult makeError(const QString &message);
    QString text() const;
    friend bool operator==(const ToolResult &, const ToolResult &) = default;
};

/// Partial results while a tool runs (e.g. Bash output so far). Thread-safe to call.
using ToolUpdateCallback = std::function<void(const ToolResult &partial)>;

/// How one call runs beyond its arguments: set by a middleware for the tool, never by the model.
/// The options are a struct of the layer that defines the tool (BashTool's are BashOptions, in
/// tools/); this slot carries one such value without knowing its type. Why a typed slot and not
/// fields here: the loop sits below the tools (ai <- loop <- tools <- permissions), so fields
/// for Bash's overlay or network rule would make the loop know one tool, and a string-keyed map
/// let a typo pass the compiler. The layer that defines the struct reads and writes it by its
/// type; the layers in between only copy the slot. One value per call: a call runs one tool.
class ToolCallOptions
{
public:
    bool isEmpty() const { return !m_value.has_value(); }
    /// The options of type T, or nullptr when none (or options of another type) were set.
    template<typename T>
    const T *find() const
    {
        return std::any_cast<T>(&m_value);
    }
    /// The options of type T; T's defaults when none were set.
    template<typename T>
    T value() const
    {
        const T *options = find<T>();
        return options ? *options : T{};
    }
    /// The options of type T to change, made with T's defaults when none were set yet.
    template<typename T>
    T &edit()
    {
        if (T *options = std::any_cast<T>(&m_value))
            return *options;
        Q_ASSERT_X(isEmpty(), "ToolCallOptions::edit", "a call carries options of one type");
        return m_value.emplace<T>();
    }

private:
    std::any m_value;
};

/// One tool call on its way through the middleware onion to execute().
/// Middlewares may rewrite arguments; the loop validates them again before execute().
struct ToolCallContext
{
    QString toolCallId;
    QString toolName;
    QJsonObject arguments;    ///< the model's arguments with schema defaults, then rewritten ones
    Message assistantMessage; ///< the message that asked for the call
    const AgentTool *tool = nullptr;
    AbortToken abort;
    ToolUpdateCallback onUpdate;
    /// Set by the permission middleware for the outer layers (audit): "allow: ...", "ask:
    /// allowed once", "deny: ..." (PermissionRecord::text); empty when no permission layer ran.
    QString permissionDecision;
    /// Set by a middleware for the tool, never by the model: how the call runs beyond its
    /// arguments (Bash: BashOptions, its network rule and overlay). Empty by default.
    ToolCallOptions toolOptions;
    /// Who makes the call, for whoever asks a person about it: empty for the main agent, else
    /// the subagent's "TYPE: DESCRIPTION" (set by the subagent's outermost middleware).
    QString caller;
};

/// The kind of the tool a call runs: the tool says what it is (AgentTool::kind()); a call that
/// has only a name (no tool found) goes by its name.
ToolKind toolKindOf(const ToolCallContext &context);

/// A tool the agent can call. Implementations are thread-safe: parallel batches call execute()
/// from pool threads at the same time.
class AgentTool
{
public:
    virtual ~AgentTool() = default;

    /// Name, description for the model, JSON Schema of the arguments.
    virtual ToolDefinition definition() const = 0;
    virtual ExecutionMode executionMode() const { return ExecutionMode::Parallel; }
    /// How one call with \a arguments runs: executionMode() unless the tool's mode depends on
    /// the call (the Task tool: a read-only subagent type runs in parallel, a writing one not).
    virtual ExecutionMode executionModeOf(const QJsonObject &arguments) const
    {
        Q_UNUSED(arguments);
        return executionMode();
    }
    /// Which built-in tool this is; Other for every tool that is none of them.
    virtual ToolKind kind() const { return ToolKind::Other; }
    /// Side-effecting tools run between EffectBoundary::beforeEffect and afterEffect.
    virtual bool hasSideEffects() const { return executionMode() == ExecutionMode::Sequential; }

    /// Blocking; runs on a pool thread or the worker thread. Should return promptly once
    /// context.abort fires, but the loop does not rely on it (raceAbort). Failures are results
    /// with isError; an exception that escapes is caught by the loop and becomes one.
    virtual ToolResult execute(const ToolCallContext &context) = 0;

    /// definition().parameters prepared for validation, made on first use and kept: a tool's
    /// parameter schema must not change over its life. Thread-safe.
    CompiledSchema compiledSchema() const;

private:
    mutable std::once_flag m_schemaOnce;
    mutable CompiledSchema m_schema;
};

using AgentToolPtr = std::shared_ptr<AgentTool>;

/// The continuation a middleware calls to run the inner layers and finally the tool.
using ToolNext = std::function<ToolResult(ToolCallContext &context)>;
/// Onion middleware: `(ctx, next) -> result`. Return without calling next to short-circuit
/// (block); code after next() always runs, on success and on failure (failures are results).
using ToolMiddleware = std::function<ToolResult(ToolCallContext &context, const ToolNext &next)>;

/// The seed's EffectBoundary: hooks around each side-effecting tool's execute() (called on the
/// thread running the tool), so whoever keeps a journal (the changed-files panel today, the
/// checkpoints next) knows an effect began and how it ended. beforeEffect throwing keeps the
/// tool from running; afterEffect throwing never turns the effect's result into a failure.
/// Both hooks of one call get the same ToolCallContext object (state kept between them can be
/// keyed by its address).
struct EffectBoundary
{
    std::function<void(const ToolCallContext &context)> beforeEffect;
    std::function<void(const ToolCallContext &context, const ToolResult &result)> afterEffect;
};

/// The conversation one run works on. agentLoop copies it; the caller's copy is never changed.
struct AgentContext
{
    QString systemPrompt;
    QList<Message> messages;
    QList<AgentToolPtr> tools;
};

/// One lifecycle event of a run (DESIGN.md section 1). A value type; crosses threads.
struct AgentEvent
{
    enum class Type {
        AgentStart,
        AgentEnd, ///< newMessages: everything this run added, in order
        TurnStart,
        TurnEnd,        ///< message: the assistant message; toolResults; hasMoreToolCalls
        MessageStart,   ///< message: the (empty, for assistant) message
        MessageUpdate,  ///< streamEvent only: the delta; consumers accumulate
        MessageEnd,     ///< message: the final message
        MessageDiscard, ///< the assistant draft since the last MessageStart is withdrawn
        ToolExecutionStart,
        ToolExecutionUpdate, ///< result: the partial result
        ToolExecutionEnd,    ///< result, isError
    };

    // Out of line like Message's (agenttypes.cpp), for the same reason.
    AgentEvent();
    AgentEvent(const AgentEvent &other);
    AgentEvent &operator=(const AgentEvent &other);
    ~AgentEvent();
    /// An event of \a type with its message or stream event: copy-constructed in place, which
    /// costs less than assigning them to a default event.
    AgentEvent(Type type, const Message &message);
    AgentEvent(Type type, const StreamEvent &streamEvent);

    Type type = Type::AgentStart;
    Message message;
    StreamEvent streamEvent;
    QList<Message> toolResults;
    bool hasMoreToolCalls = false;
    QList<Message> newMessages;
    QString toolCallId;
    QString toolName;
    QJsonObject arguments;
    ToolResult result;
    bool isError = false;
    /// AgentStart, TurnStart: the tools this turn offers the model (built-in, MCP), so what
    /// shows the context's size counts them.
    QList<ToolDefinition> tools;
};

/// "agent_start", "turn_end", "message_update", "tool_execution_end", ...
QString agentEventTypeName(AgentEvent::Type type);

using AgentEventSink = std::function<void(const AgentEvent &event)>;
/// Receives every event in a box of its own, which it may keep (a queue to another thread):
/// the event is never copied or moved on its way, only the pointer. Never null.
using AgentEventConsumer = std::function<void(std::unique_ptr<AgentEvent> event)>;

} // namespace AgentCore

Q_DECLARE_METATYPE(AgentCore::AgentEvent)
