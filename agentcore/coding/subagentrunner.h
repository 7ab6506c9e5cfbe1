#pragma once

#include "codingagentoptions.h"
#include "subagenttypes.h"

#include <ai/modelclient.h>
#include <hooks/hookrunner.h>
#include <loop/agentloop.h>
#include <loop/subagentevent.h>

#include <QHash>
#include <QMutex>

#include <functional>
#include <memory>

namespace AgentCore {

/// Runs the subagents the Task tool starts: each a child agentLoop with a fresh context (its
/// type's system prompt and the repository's instructions, the Task call's prompt as its first
/// message), the tools its type allows of its parent's, and everything around the parent's
/// tool calls: the same middlewares (audit log, hooks, permission policy and mode: never
/// wider), the same effect boundary (checkpoints cover a child's writes), the parent's plan
/// mode, the parent's model unless its type names another. A child has its own turn limit and
/// abort token (stop()), linked to its Task call's: the parent's Stop stops it, and its
/// children. Its events go to the report in order, with its path; its answer goes back as the
/// Task call's result, capped, with a short account of what it did. Thread-safe: children run
/// on tool threads, several at once.
class SubagentRunner final
{
    Q_DISABLE_COPY_MOVE(SubagentRunner)
public:
    /// The main agent is depth 0; its children 1, theirs 2, which start none.
    static constexpr int maxDepth = 2;

    /// What children take from the main agent, known once it is assembled.
    struct Parent
    {
        /// A client for one child's run, made and released on its thread (an HttpModelClient
        /// belongs to the thread that calls it): the parent's model.
        std::function<std::shared_ptr<ModelClient>()> makeModel;
        /// A client for a type's `model` (a model name of the session's provider); null: the
        /// parent's model is used.
        std::function<std::shared_ptr<ModelClient>(const QString &model)> namedModel;
        /// The parent's tools as offered now (its Task tool among them, left out here).
        std::function<QList<AgentToolPtr>()> tools;
        QList<ToolMiddleware> middlewares;
        EffectBoundary effects;
        std::function<Context(Context)> prepareContext; ///< plan mode
        std::shared_ptr<const HookRunner> hooks;        ///< SubagentStop; null: none
        QString environment; ///< after a type's prompt: the working folder, the instructions
    };

    SubagentRunner(SubagentTypes types,
                   SubagentOptions options,
                   std::function<void(const SubagentEvent &event)> report);

    const SubagentTypes &types() const { return m_types; }
    /// Before the first child runs (CodingAgent::assemble).
    void setParent(Parent parent);
    /// The model children inherit from now on (the session's own client, as its summaries
    /// get it).
    void setModelFactory(std::function<std::shared_ptr<ModelClient>()> makeModel);

    /// Runs the child \a call asks for (a Task call of the agent at \a parentPath: empty for
    /// the main agent) to its end. Blocking; on the tool's thread.
    ToolResult run(const ToolCallContext &call, const QStringList &parentPath);
    /// Aborts the child at \a path and its children; false when none runs there.
    bool stop(const QStringList &path);
    /// Whether a child runs at \a path now.
    bool isRunning(const QStringList &path) const;

private:
    SubagentTypes m_types;
    SubagentOptions m_options;
    std::function<void(const SubagentEvent &event)> m_report;
    mutable QMutex m_mutex;
    Parent m_parent;                      // under m_mutex
    QHash<QString, AbortToken> m_running; // under m_mutex; by SubagentEvent::key()
    std::weak_ptr<SubagentRunner> m_self; // for the children's own Task tools
    friend std::shared_ptr<SubagentRunner> makeSubagentRunner(
        SubagentTypes, SubagentOptions, std::function<void(const SubagentEvent &)>);
};

/// A SubagentRunner that can hand itself to its children's Task tools.
std::shared_ptr<SubagentRunner> makeSubagentRunner(
    SubagentTypes types,
    SubagentOptions options,
    std::function<void(const SubagentEvent &event)> report);

/// The Task tool (named and shaped as Claude Code's: description, prompt, subagent_type): starts
/// a subagent through \a runner. \a path: the agent that has the tool (empty: the main agent).
/// A call whose type is read-only runs in parallel with the other calls of its batch; any other
/// under the sequential rule. It has no side effect of its own: its child's calls have theirs.
class TaskTool final : public AgentTool
{
public:
    TaskTool(std::shared_ptr<SubagentRunner> runner, QStringList path);

    ToolDefinition definition() const override;
    ExecutionMode executionMode() const override { return ExecutionMode::Sequential; }
    ExecutionMode executionModeOf(const QJsonObject &arguments) const override;
    bool hasSideEffects() const override { return false; }
    ToolResult execute(const ToolCallContext &context) override;

    static QString toolName() { return QStringLiteral("Task"); }

private:
    std::shared_ptr<SubagentRunner> m_runner;
    QStringList m_path;
};

} // namespace AgentCore
