#pragma once

#include <loop/agenttypes.h>
#include <loop/extension.h>
#include <loop/messagepages.h>
#include <loop/subagentevent.h>
#include <loop/toolslot.h>

#include <ai/picture.h>
#include <ai/providerconfig.h>
#include <checkpoint/checkpointrecorder.h>
#include <checkpoint/checkpointstore.h>
#include <context/contextmanager.h>
#include <hooks/hookrunner.h>
#include <lsp/lspserverconfig.h>
#include <permissions/permissionasker.h>
#include <permissions/permissionmode.h>
#include <permissions/permissionrule.h>
#include <tools/commandenvironment.h>
#include <tools/filechange.h>
#include <tools/sandboxpolicy.h>

#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace AgentCore {

/// What a front end is told of a coding agent while it runs: one listener, the same for every
/// front end. Each is called on the thread where it happened (a tool thread, the agent's
/// worker, a checkpoint's worker), never on the front end's: CodingSession hands them all to
/// its own thread through one inbox and emits the signal of the same name. Null: not told.
struct CodingAgentReports
{
    /// Called once when the audit log cannot be written (on a tool thread).
    std::function<void(const QString &message)> auditLogFailed;
    /// Told about every call denied because nobody could be asked (on a tool thread).
    std::function<void(const QString &message)> unattendedDenied;
    /// Told after every side-effecting call that changed a file (from the loop's afterEffect
    /// hook, whatever the tool is called; also a partly approved change), on a tool thread.
    std::function<void(const FileChange &change)> fileChanged;
    /// Told once, on a tool thread, when the sandbox is on but bwrap cannot run here, so
    /// commands run without it.
    std::function<void(const QString &message)> sandboxUnavailable;
    /// Told once when bubblewrap cannot make overlays for shell writes (PermissionGate).
    std::function<void(const QString &message)> shellWritesUnavailable;
    /// Told about every hook that ran (HookRunner), on the thread that ran it.
    std::function<void(const HookRun &run)> hookRan;
    /// Told about each checkpoint recorded and each one that could not be (from a worker or
    /// tool thread). Also settable later: CodingAgent::checkpoints->setEvents.
    CheckpointRecorder::Events checkpoints;
    /// Told about every event of every subagent, in its order, on the thread running its loop
    /// (a tool thread of its parent).
    std::function<void(const SubagentEvent &event)> subagentEvent;
    /// Told every deferred tool loaded so far each time the model loads some (ToolSearch, a
    /// call to one, Bash's first background command), on the thread that loaded them.
    std::function<void(const QStringList &loaded)> toolsLoaded;
};

/// Who decides what the agent may do, from which rules, and where what it did is recorded.
struct PermissionOptions
{
    /// nullopt: what the settings files say (their defaultMode), else Default. A value wins
    /// over the settings.
    std::optional<PermissionMode> mode;
    /// Allow rules from the command line (--allowed-tools), added after the settings' rules.
    QList<PermissionRule> allowRules;
    /// Bash commands that get the network in the sandbox (NetworkRules), from AgentDesk's own
    /// settings; the settings files' "network" lists come on top.
    QList<PermissionRule> networkRules;
    /// The source the policy gives networkRules (PermissionPolicy::setNetworkRules).
    static QString networkRulesSource();
    /// Who answers "ask" decisions; null: nobody, every ask is denied
    /// (CodingAgentReports::unattendedDenied).
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
};

/// Where the working tree's checkpoints are kept and what they cover.
struct CheckpointOptions
{
    /// The store (CheckpointStore::defaultStoreRoot()); empty: no checkpoints are taken.
    QString storeRoot;
    /// Once a day, when the agent is made, the checkpoints of sessions whose files are gone
    /// from the repository's sessions folder (SessionStore::defaultDirectory) and the oldest
    /// of each session are pruned on a worker thread (CheckpointPruner, its default limits).
    /// Off: the store is never pruned (tests with a store of their own).
    bool prune = false;
    /// Files larger than this are not covered by a checkpoint (listed as such).
    qint64 maxFileBytes = CheckpointStore::defaultMaxFileBytes;
};

/// The tools the model is offered, and what runs around their calls. Every tool passes
/// through the same middlewares (the audit log, the extensions, permissions).
struct ToolOptions
{
    /// The built-in coding tools offered (names as toolKindName gives them, e.g. Read, Grep,
    /// Edit, Bash); nullopt: all of them. The system prompt names only these (--tools).
    std::optional<QList<ToolKind>> builtIn;
    /// Tools beyond the coding tools (an extension's, a test's). A name already taken by a
    /// coding tool replaces that tool.
    QList<AgentToolPtr> extra;
    /// Tools that may change between turns (an MCP server's): offered with the others from
    /// the next turn after each ToolSlot::setTools, also while a run goes on. Unlike extra
    /// they never replace a tool: one whose name is taken is left out.
    std::shared_ptr<ToolSlot> live;
    /// Tools taken at the start of each run (AgentConfig::runTools): the window's MCP servers,
    /// which become ready after the agent was made.
    std::function<QList<AgentToolPtr>(const AbortToken &abort)> perRun;
    /// More extensions, run inside the audit log (so it records what they did).
    QList<ExtensionPtr> extensions;
    /// How Read prepares a picture file for the model (decoded, scaled, re-encoded to the
    /// provider's pictureLimits()): the front end's, since decoding needs QtGui. Null: a
    /// picture that fits goes as it is, a larger one is refused.
    PictureScaler pictures;
};

/// "Review shell writes": a Bash command that is not read-only runs over an overlay, and the
/// person reviews what it wrote before it reaches the tree (PermissionGate).
struct ShellWritesOptions
{
    /// Asked before each Bash call (PermissionGate::reviewShellWrites); null: off. Without an
    /// asker (headless) an allowed command writes directly and
    /// CodingAgentReports::shellWritesUnavailable is told once.
    std::function<bool()> review;
    /// The overlays' scratch layers and the apply journals (replayed when the agent is
    /// made); empty: a folder in /tmp, nothing replayed.
    QString folder;
};

/// The user's hooks (docs/extending.md, "Hooks"): read from the user's settings file
/// (PermissionOptions::userSettingsPath) and the repository's (.agentdesk/, .claude/) when the
/// agent is made; the repository's run once trusted as its other grants are.
struct HookOptions
{
    bool enabled = true;    ///< false: no hook is read or run
    QString sessionId;      ///< the session_id hooks are given
    QString transcriptPath; ///< the transcript_path hooks are given (the session file)
};

/// The Task tool and its subagents (docs/extending.md, "Subagents").
struct SubagentOptions
{
    bool enabled = true; ///< false: no Task tool
    /// The user's agent types (`~/.config/agentdesk/agents`, SubagentTypes::userFolder() in
    /// CodingSession::defaultOptions()); empty: only the built-in ones and the repository's.
    QString userFolder;
    int maxTurns = 30; ///< a subagent's turns, unless its type says fewer; at most maxTurnsCap
    static constexpr int maxTurnsCap = 100;
    /// A subagent's answer reaches its parent cut at this many bytes (UTF-8), with a note.
    qsizetype maxOutputBytes = 32 * 1024;
};

/// The language servers (lsp/): found on PATH when the agent is made and started at the first
/// file of their language; the problems an Edit or Write introduced come back in its result,
/// and the Diagnostics tool asks for a file's.
struct LanguageServerOptions
{
    bool enabled = true;
    /// Those to look for; empty: LspServerConfig::defaults().
    QList<LspServerConfig> servers;
    int editWaitMs = 3000; ///< the most an Edit or Write waits for a server's diagnostics
};

/// What a coding agent is made from: CodingSession::defaultOptions() for every front end, then
/// the headless mode fills in the command line, the window its settings. Grouped so that a
/// front end sets one concern at a time; CodingSession replaces the reports with its own.
struct CodingAgentOptions
{
    ProviderConfig provider;
    QString repositoryRoot; ///< canonical top level of the working tree (Repository::root)
    int maxTurns = 0;       ///< 0: unlimited
    QString systemPrompt;   ///< empty: buildSystemPrompt(repositoryRoot)
    /// The user's custom commands and skills (CustomCommands::userFolder(),
    /// Skills::userFolder() in CodingSession::defaultOptions()); empty: only the repository's.
    QString userCommandsFolder;
    QString userSkillsFolder;
    /// What Bash commands get of AgentDesk's environment. The provider's key is added to its
    /// secret values, so no variable holding it reaches a command; add the name of the variable
    /// the key came from (--api-key-env) to its secret names.
    CommandEnvironment commandEnvironment;
    /// Whether Bash commands run in the sandbox, with network or not, and the secrets it hides
    /// (the caller gives SandboxPolicy::defaultHiddenPaths() and the key file; AgentDesk's own
    /// files of permissions.protectedPaths, the user's settings folder and the trust store are
    /// added).
    SandboxPolicy sandbox;
    /// How the context is kept within the window. A windowTokens of 0 takes the model's window
    /// from the catalog (contextWindowTokens); give one for a model it does not know (a local
    /// server), else nothing is compacted before the provider says the request did not fit.
    ContextSettings context;
    /// Where the stubs of the history are read back whole (the session's SessionPages):
    /// every request, and every summary, carries the whole messages. Null: the history holds
    /// no stub (no session file).
    std::shared_ptr<const MessagePages> pages;

    PermissionOptions permissions;
    CheckpointOptions checkpoints;
    ToolOptions tools;
    ShellWritesOptions shellWrites;
    HookOptions hooks;
    SubagentOptions subagents;
    LanguageServerOptions languageServers;
    /// The one listener of what happens on the agent's threads.
    CodingAgentReports reports;
};

} // namespace AgentCore
