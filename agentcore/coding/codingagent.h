#pragma once

#include "auditlog.h"
#include "codingagentoptions.h"
#include "customcommand.h"
#include "skills.h"
#include "subagentrunner.h"
#include "systemprompt.h"
#include "tooldeferral.h"
#include <loop/agent.h>

#include <checkpoint/checkpointrecorder.h>
#include <context/contextmanager.h>
#include <lsp/lsphost.h>
#include <permissions/permissionpolicy.h>
#include <tools/backgroundshells.h>
#include <tools/toolworkspace.h>

#include <QFuture>
#include <QStringList>

#include <memory>

namespace AgentCore {

/// A coding agent's parts, assembled: the AgentConfig for an Agent, and the handles the user
/// interface keeps to change the mode, add rules or show the audit log while it runs.
///
/// The config holds an HttpModelClient (its network access is created on the thread that first
/// calls it: the Agent's worker), the coding tools over one ToolWorkspace guarded by
/// PathCapability, and the middlewares [extensions with the audit log outermost, permissions].
/// In plan mode prepareContext removes the side-effecting tools but Bash from each request.
struct CodingAgent
{
    AgentConfig config;
    std::shared_ptr<PermissionPolicy> policy; ///< thread-safe; shared with the middleware
    std::shared_ptr<ToolWorkspace> workspace; ///< thread-safe; shared with the tools
    std::shared_ptr<AuditLog> auditLog;       ///< null when there is none
    /// The commands Bash runs in the background (run_in_background), read by BashOutput,
    /// stopped by KillShell and the window's side panel; thread-safe. Whoever ends the session
    /// calls stopAll() (CodingSession does), or the last owner's destructor does.
    std::shared_ptr<BackgroundShells> shells;
    /// Keeps the context within the window; its hooks are installed in config.loop. Its
    /// summaries go through an HttpModelClient of the options' provider: whoever replaces
    /// config.loop.model sets a factory that follows it (ContextManager::setModelFactory),
    /// and the follow-up queue it lists (setFollowUpSource).
    std::shared_ptr<ContextManager> context;
    /// Takes a checkpoint at every user message and before the first side effect of each turn
    /// (Edit, Write, a Bash command that is not read-only); its store() diffs and restores.
    /// Null when CodingAgentOptions::checkpoints.storeRoot is empty. Set its session id before
    /// the first turn.
    std::shared_ptr<CheckpointRecorder> checkpoints;
    /// The background prune of the checkpoint store, when one runs (on the global thread
    /// pool, which QCoreApplication waits for when it ends).
    QFuture<void> checkpointPruning;
    /// Runs the user's hooks (thread-safe; shared with the hook middleware and the loop's Stop
    /// seam). Null when CodingAgentOptions::hooks is disabled.
    std::shared_ptr<HookRunner> hooks;
    QStringList warnings; ///< problems with the settings files (skipped rules, unreadable files)
    /// What the project's settings files ask for that was not applied because the user has
    /// not accepted it (ProjectTrust), their hooks among it: the window asks, headless runs
    /// warn.
    QStringList untrustedGrants;
    /// The project instruction files the system prompt holds (empty when
    /// CodingAgentOptions::systemPrompt was given): the context view shows them apart.
    QList<InstructionFile> instructions;
    /// The custom commands `/NAME ARGS` expands (CodingSession), from the repository and the
    /// user's folder; their problems are in warnings.
    CustomCommands commands;
    /// The skills whose names and descriptions the system prompt lists (skills.promptSection(),
    /// which the context view shows apart) and the Skill tool loads; their problems are in
    /// warnings.
    Skills skills;
    /// Which tools the requests carry whole and which only by name until the model loads them
    /// (installed in config.loop's offeredTools and toolNotOffered). Thread-safe; a resumed
    /// session restores what it loaded (ToolDeferral::restore) before its first turn.
    std::shared_ptr<ToolDeferral> deferral;
    /// The language servers found (LanguageServerOptions); null when none was, or they are off.
    /// Their servers end with the last owner (the agent's tools and middleware hold it too).
    std::shared_ptr<LspHost> languageServers;
    /// Runs the subagents of the Task tool (which it offers unless CodingAgentOptions::subagents
    /// is disabled: then null). Its types' problems are in warnings.
    std::shared_ptr<SubagentRunner> subagents;

    /// Builds everything from \a options. Reads the settings files and gathers the system
    /// prompt's environment (runs git briefly): call it before the run starts, on any thread.
    /// Never throws; problems are warnings.
    static CodingAgent assemble(const CodingAgentOptions &options);
};

} // namespace AgentCore
