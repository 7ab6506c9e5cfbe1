#pragma once

#include "auditlog.h"
#include "systemprompt.h"
#include <loop/agent.h>
#include <loop/extension.h>
#include <loop/toolslot.h>

#include <ai/providerconfig.h>
#include <checkpoint/checkpointrecorder.h>
#include <checkpoint/checkpointstore.h>
#include <context/contextmanager.h>
#include <permissions/permissionasker.h>
#include <permissions/permissionmode.h>
#include <permissions/permissionpolicy.h>
#include <permissions/permissionrule.h>
#include <tools/commandenvironment.h>
#include <tools/filechange.h>
#include <tools/sandboxpolicy.h>
#include <tools/toolworkspace.h>

#include <QFuture>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace AgentCore {

/// What a coding agent is made from: the headless mode fills it from the command line, the
/// window from its settings.
struct CodingAgentOptions
{
    ProviderConfig provider;
    QString repositoryRoot; ///< canonical top level of the working tree (Repository::root)
    /// nullopt: what the settings files say (their defaultMode), else Default. A value wins
    /// over the settings.
    std::optional<PermissionMode> permissionMode;
    /// Allow rules from the command line (--allowed-tools), added after the settings' rules.
    QList<PermissionRule> allowRules;
    /// The built-in tools the model is offered (names as toolKindName gives them, e.g. Read,
    /// Grep, Edit, Bash); nullopt: all of them. The system prompt names only these (--tools).
    std::optional<QList<ToolKind>> tools;
    /// Bash commands that get the network in the sandbox (NetworkRules), from AgentDesk's own
    /// settings; the settings files' "network" lists come on top.
    QList<PermissionRule> networkRules;
    /// The source the policy gives networkRules (PermissionPolicy::setNetworkRules).
    static QString networkRulesSource();
    int maxTurns = 0; ///< 0: unlimited
    /// Who answers "ask" decisions; null: nobody, every ask is denied (onUnattendedDeny).
    std::shared_ptr<PermissionAsker> asker;
    /// The user's settings file (PermissionSettings::userSettingsPath()); empty: none. The
    /// project's settings files are always read.
    QString userSettingsPath;
    /// Where the grants of project settings files the user accepted are kept
    /// (ProjectTrust::defaultStorePath()); empty: none are, project grants do not apply.
    QString projectTrustPath;
    /// Apply every grant of the project's settings files without asking
    /// (--trust-project-settings).
    bool trustProjectSettings = false;
    /// AgentDesk's own files beyond the user's settings folder (which is always protected):
    /// the app's settings file, the sessions' and audit logs' folders. No tool changes them
    /// without the person's approval of that one call (PermissionPolicy::setProtectedPaths).
    QStringList protectedPaths;
    QString auditLogPath; ///< empty: no audit log
    /// Called once when the audit log cannot be written (on a tool thread).
    std::function<void(const QString &message)> onAuditError;
    /// Told about every call denied because nobody could be asked (on a tool thread).
    std::function<void(const QString &message)> onUnattendedDeny;
    /// Told after every side-effecting call that changed a file (from the loop's afterEffect
    /// hook, whatever the tool is called; also a partly approved change), on a tool thread.
    std::function<void(const FileChange &change)> onFileChanged;
    /// More extensions, run inside the audit log (so it records what they did).
    QList<ExtensionPtr> extensions;
    QString systemPrompt; ///< empty: buildSystemPrompt(repositoryRoot)
    /// What Bash commands get of AgentDesk's environment. The provider's key is added to its
    /// secret values, so no variable holding it reaches a command; add the name of the variable
    /// the key came from (--api-key-env) to its secret names.
    CommandEnvironment commandEnvironment;
    /// Whether Bash commands run in the sandbox, with network or not, and the secrets it hides
    /// (the caller gives SandboxPolicy::defaultHiddenPaths() and the key file; AgentDesk's own
    /// files of protectedPaths, the user's settings folder and the trust store are added).
    SandboxPolicy sandbox;
    /// Told once, on a tool thread, when the sandbox is on but bwrap cannot run here, so
    /// commands run without it.
    std::function<void(const QString &message)> onSandboxUnavailable;
    /// How the context is kept within the window. A windowTokens of 0 takes the model's window
    /// from the catalog (contextWindowTokens); give one for a model it does not know (a local
    /// server), else nothing is compacted before the provider says the request did not fit.
    ContextSettings context;
    /// Where the working tree's checkpoints are kept (CheckpointStore::defaultStoreRoot());
    /// empty: no checkpoints are taken.
    QString checkpointStoreRoot;
    /// Once a day, when the agent is made, the checkpoints of sessions whose files are gone
    /// from the repository's sessions folder (SessionStore::defaultDirectory) and the oldest
    /// of each session are pruned on a worker thread (CheckpointPruner, its default limits).
    /// Off: the store is never pruned (tests with a store of their own).
    bool pruneCheckpoints = false;
    /// Files larger than this are not covered by a checkpoint (listed as such).
    qint64 checkpointMaxFileBytes = CheckpointStore::defaultMaxFileBytes;
    /// Told about each checkpoint recorded and each one that could not be (from a worker or
    /// tool thread). Also settable later: CodingAgent::checkpoints->setEvents.
    CheckpointRecorder::Events checkpointEvents;
    /// Tools beyond the coding tools (an extension's, a test's); they pass through the same
    /// middlewares. A name already taken by a coding tool replaces that tool.
    QList<AgentToolPtr> extraTools;
    /// Tools that may change between turns (an MCP server's): offered with the others from
    /// the next turn after each ToolSlot::setTools, also while a run goes on. Unlike
    /// extraTools they never replace a tool: one whose name is taken is left out.
    std::shared_ptr<ToolSlot> liveTools;
    /// Tools taken at the start of each run (AgentConfig::runTools): the window's MCP servers,
    /// which become ready after the agent was made. Through the same middlewares.
    std::function<QList<AgentToolPtr>(const AbortToken &abort)> runTools;
    /// "Review shell writes" (PermissionGate::reviewShellWrites), asked before each Bash
    /// call; null: off. Without an asker (headless) an allowed command writes directly and
    /// onShellWritesUnavailable is told once.
    std::function<bool()> reviewShellWrites;
    /// The overlays' scratch layers and the apply journals (replayed when the agent is
    /// made); empty: a folder in /tmp, nothing replayed.
    QString shellWritesFolder;
    /// Told once when bubblewrap cannot make overlays (PermissionGate).
    std::function<void(const QString &message)> onShellWritesUnavailable;
};

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
    /// Keeps the context within the window; its hooks are installed in config.loop. Its
    /// summaries go through an HttpModelClient of the options' provider: whoever replaces
    /// config.loop.model sets a factory that follows it (ContextManager::setModelFactory),
    /// and the follow-up queue it lists (setFollowUpSource).
    std::shared_ptr<ContextManager> context;
    /// Takes a checkpoint at every user message and before the first side effect of each turn
    /// (Edit, Write, a Bash command that is not read-only); its store() diffs and restores.
    /// Null when CodingAgentOptions::checkpointStoreRoot is empty. Set its session id before
    /// the first turn.
    std::shared_ptr<CheckpointRecorder> checkpoints;
    /// The background prune of the checkpoint store, when one runs (on the global thread
    /// pool, which QCoreApplication waits for when it ends).
    QFuture<void> checkpointPruning;
    QStringList warnings; ///< problems with the settings files (skipped rules, unreadable files)
    /// What the project's settings files ask for that was not applied because the user has
    /// not accepted it (ProjectTrust): the window asks, headless runs warn.
    QStringList untrustedGrants;
    /// The project instruction files the system prompt holds (empty when
    /// CodingAgentOptions::systemPrompt was given): the context view shows them apart.
    QList<InstructionFile> instructions;

    /// Builds everything from \a options. Reads the settings files and gathers the system
    /// prompt's environment (runs git briefly): call it before the run starts, on any thread.
    /// Never throws; problems are warnings.
    static CodingAgent assemble(const CodingAgentOptions &options);
};

} // namespace AgentCore
