#pragma once

#include "agentloop.h"

#include <QFlags>

#include <memory>
#include <vector>

namespace AgentCore {

/// One step of what a composition root adds around the loop's model requests and side
/// effects (the context view, compaction, a checkpoint at each turn, ...). A stage does one
/// job: it names the loop's seams it takes part in (hooks()) and overrides only those.
/// Whatever state its job needs across a request or a call is its own member, never a
/// global: the stage lives as long as the hooks the pipeline installed.
/// Called on the threads AgentLoopConfig names for each seam: the request hooks on the loop's
/// thread, the effect hooks on tool threads (concurrently within a parallel batch).
class RequestStage
{
public:
    enum class Hook {
        View = 0x01,            ///< AgentLoopConfig::contextView
        BeforeRequest = 0x02,   ///< AgentLoopConfig::beforeRequest
        ContextOverflow = 0x04, ///< AgentLoopConfig::onContextOverflow
        Prepare = 0x08,         ///< AgentLoopConfig::prepareContext
        BeforeEffect = 0x10,    ///< EffectBoundary::beforeEffect
        AfterEffect = 0x20,     ///< EffectBoundary::afterEffect
    };
    Q_DECLARE_FLAGS(Hooks, Hook)

    virtual ~RequestStage() = default;

    /// What the stage is for, in a word or two ("context view", "compaction"): for tests and
    /// debugging.
    virtual QLatin1String name() const = 0;
    virtual Hooks hooks() const = 0;

    /// View: the messages a request carries, from what the stages before made of the
    /// conversation (the first stage gets the conversation itself). Pure and deterministic.
    virtual QList<Message> view(const QList<Message> &messages) const;
    /// BeforeRequest: messages to append before the request (see AgentLoopConfig).
    virtual QList<Message> beforeRequest(const Context &conversation, const AbortToken &abort);
    /// ContextOverflow: a message that lets the loop send the turn again (see AgentLoopConfig).
    virtual std::optional<Message> onContextOverflow(const Message &overflow,
                                                     const Context &conversation,
                                                     const AbortToken &abort);
    /// Prepare: the request's context for this request only (see AgentLoopConfig).
    virtual Context prepare(Context context) const;
    /// BeforeEffect / AfterEffect: around a side-effecting tool's execute(). Both hooks of one
    /// call get the same ToolCallContext object.
    virtual void beforeEffect(const ToolCallContext &context);
    virtual void afterEffect(const ToolCallContext &context, const ToolResult &result);
};

Q_DECLARE_OPERATORS_FOR_FLAGS(RequestStage::Hooks)

using RequestStagePtr = std::shared_ptr<RequestStage>;

/// The ordered list of stages around a loop's requests, built in one place and installed once
/// into an AgentLoopConfig. At every seam the stages that take part run in list order:
/// - view: each maps the previous stage's result (unset when no stage takes part, so the loop
///   keeps the history as it is);
/// - beforeRequest: each gets the conversation as the loop gave it; the messages they return
///   are appended in stage order;
/// - onContextOverflow: the first stage that returns a message wins;
/// - prepareContext: each gets the previous stage's context;
/// - beforeEffect and afterEffect: each in order.
class RequestPipeline final
{
public:
    RequestPipeline() = default;
    explicit RequestPipeline(std::vector<RequestStagePtr> stages);

    /// Appends \a stage (null: nothing); returns *this to build the list in one expression.
    RequestPipeline &add(RequestStagePtr stage);
    const std::vector<RequestStagePtr> &stages() const;
    /// The stages' names in order, for tests.
    QStringList names() const;

    /// Sets each seam of \a loop some stage takes part in; the others stay as they were. The
    /// installed hooks share the stages (they live as long as the config's copies).
    void installInto(AgentLoopConfig &loop) const;

private:
    std::vector<RequestStagePtr> m_stages;
};

} // namespace AgentCore
