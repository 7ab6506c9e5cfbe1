#pragma once

#include "codingagent.h"
#include "commandexpansion.h"
#include "sessionstate.h"

#include <context/rewind.h>
#include <loop/agenttypes.h>
#include <loop/subagentevent.h>
#include <session/sessionlog.h>
#include <session/sessionpages.h>
#include <session/sessionresumption.h>
#include <session/sessiontree.h>

#include <QFuture>
#include <QObject>

#include <functional>
#include <memory>
#include <optional>

namespace AgentCore {

class Agent;
class ModelClient;
class SessionRecorder;
class SubagentRelay;

/// Where a session keeps its conversation and what it goes on with.
struct CodingSessionFile
{
    QString path;       ///< empty: nothing is recorded
    QJsonObject header; ///< for a new file (SessionStore::newHeader)
    /// The session as it was loaded, when resuming one.
    std::optional<SessionLog::Contents> resumed;
    /// The resumed file, taken over (SessionResumption::takeOver): the recorder writes to it,
    /// its repair first. nullopt with resumed: the file is only read (readOnly, or a run
    /// that keeps nothing).
    std::optional<SessionResumption> resumption;
    /// Non-empty: another window or process has the session (or its worktree is unusable);
    /// it is shown as it was, nothing is sent or written, and its queues and unconfirmed rules
    /// stay the other's.
    QString readOnlyReason;

    /// A session to go on with, as loaded (\a contents from \a path), taken over now so that
    /// the front end knows before anything is typed whether it may add to it: busy elsewhere,
    /// it is read-only (readOnlyReason says who has it); a file that cannot be taken over for
    /// another reason is only read, and its warnings say why (the session tells them once
    /// ready). Locks and reads the file again: call it off a UI thread.
    static CodingSessionFile takeOver(const QString &path, SessionLog::Contents contents);
};

/// One coding session's life, the application layer under both front ends (the window's
/// AgentSession page, the headless `agentdesk --print`): it assembles the coding agent off the
/// calling thread, resumes the session's conversation and state, records it, and reports what
/// happens as signals on its own thread. Everything a front end is told from the agent's
/// worker, tool or summary threads (a changed file, a checkpoint, a compaction, a sandbox
/// that cannot run, an audit log that cannot be written, a call denied unattended) is handed
/// to this object's thread here, once, and told in order with the agent's events: what a
/// worker reported before an event is emitted before it.
///
/// The front end passes what differs between it and the others: the asker (permissions.asker;
/// null: nobody answers, every ask is denied), the model client (null: options.provider's), whether a
/// person is there (interactive). The rest of a session's defaults are defaultOptions(),
/// the same for every front end.
///
/// Lives on one thread (the UI thread, the headless run's main thread); never blocks on the
/// agent, except that the destructor waits for an assembly still going on (it reads a few files
/// and runs git) and an unattended session waits for a checkpoint still being written at
/// each run's end, so agent_end follows it.
class CodingSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CodingSession)
public:
    /// A session's defaults, whoever opens it: AgentDesk's own files protected (the app's
    /// settings, sessions and audit logs) and hidden from Bash with the secrets of the home
    /// folder, an audit log, npm/pip/cargo caches private to the sandbox, shell writes staged
    /// in AgentDesk's data folder (their journals replayed), checkpoints in the default store,
    /// pruned daily, the user's settings and the project trust store. The front end adds the
    /// provider, the repository, the command line's or the settings' choices.
    static CodingAgentOptions defaultOptions();

    /// \a options.reports are replaced by this session's signals (each report is emitted here
    /// as the signal of the same name, checkpoints as checkpointRecorded/Failed/Repaired).
    /// \a interactive: a person is there: a resumed session's permission mode applies and its
    /// follow-up queue runs. Unattended, the options' mode stays (nothing unasked because a
    /// window once switched to bypass) and the follow-ups wait, paused, for a window.
    CodingSession(CodingAgentOptions options,
                  CodingSessionFile file,
                  bool interactive,
                  QObject *parent = nullptr);
    ~CodingSession() override;

    /// Non-null: every request and summary goes to \a model instead of an HttpModelClient of
    /// options.provider (the window's switchable client, a test's script); \a summaries: what
    /// each summary calls (default: \a model). Before open().
    void setModelClient(std::shared_ptr<ModelClient> model,
                        std::function<std::shared_ptr<ModelClient>()> summaries = {});

    /// Assembles the agent on a worker thread and comes back here (queued): resumes the
    /// session, starts recording, emits the warnings, projectTrustNeeded and
    /// sessionRulesNeedConfirmation when there is reason, then ready(), then performs what was
    /// sent meanwhile. Once.
    void open();
    bool isReady() const { return m_agent != nullptr; }

    /// Starts a task when idle; steers the running one otherwise. Before ready(): waits.
    /// Text that starts with `/NAME` of one of customCommands() is that command's prompt,
    /// expanded first on a worker thread (expandCustomCommand: its arguments, `@path`
    /// references, `!` lines run through the permission policy as Bash calls, which may ask);
    /// what is sent meanwhile waits for it. commandExpanded() or commandFailed() (nothing sent)
    /// tell how it went; steer() and followUp() take commands too.
    /// \a pictures (image blocks, PreparedPicture) go in the user's message before its text;
    /// to a model that takes none, each goes as a note that says so (buildRequest).
    void send(const QString &text, const QList<ContentBlock> &pictures = {});
    /// Steers the running task; starts one when idle (steering an idle agent would leave the
    /// text waiting for a run nobody starts).
    void steer(const QString &text, const QList<ContentBlock> &pictures = {});
    /// Queued after the running task; started at once when idle.
    void followUp(const QString &text, const QList<ContentBlock> &pictures = {});
    /// Aborts the run and a summary being written; drops what waits for ready() or for a
    /// rewind's files (rewindWithFiles). Every subagent stops with the run.
    void stop();
    /// Aborts the subagent at \a path (SubagentEvent::path) and its children: its Task call
    /// ends with an error result saying the user stopped it, and the parent goes on. Does
    /// nothing when no such subagent runs.
    void stopSubagent(const QStringList &path);
    /// "Compact now": a summary of the conversation, keeping \a instructions in mind; appended
    /// (recorded, emitted as an event, compacted()) when it is ready, if the agent is still
    /// idle then. false (compactionFailed says why, unless nothing can be compacted) while a
    /// run goes on, a summary is already being written, a hook runs, before ready() or
    /// read-only. PreCompact hooks (trigger "manual") run first, off this thread: one that
    /// blocks keeps the conversation (compactionFailed with its reason).
    bool compactNow(const QString &instructions);
    /// Why the conversation cannot be rewound now; empty when it can.
    QString rewindRefusal() const;
    /// Appends \a rewind to the conversation (recorded, emitted as an event, applied to what
    /// the next request carries). The files part is the caller's. false and \a error when
    /// rewindRefusal() says why, or the target is out of range.
    bool rewind(const Rewind &rewind, QString *error = nullptr);
    /// What the files part of a rewind did (rewindWithFiles).
    struct RewindFilesResult
    {
        bool restored = false; ///< something was restored: the rewind is recorded
        QString problem;       ///< for people: why nothing, or not everything, was restored
    };
    /// Restores the files: on a worker thread, filling in the rewind's checkpoints and files.
    using RestoreFiles = std::function<RewindFilesResult(Rewind &rewind)>;
    /// \a recorded: the rewind was appended; \a problem (may be set either way) is for people.
    using RewindDone
        = std::function<void(bool recorded, const Rewind &rewind, const QString &problem)>;
    /// A rewind with its files: \a restoreFiles runs on a worker thread (git, thousands of
    /// files), then the rewind is appended as rewind() does unless nothing was restored, and
    /// \a done is called on this thread (also at once when rewindRefusal() refuses). Until then
    /// no run starts: what is sent, steered or queued waits, and goes on the rewound
    /// conversation; rewindRefusal() and compactNow() refuse. A session destroyed meanwhile
    /// waits for the files and records nothing (the store's undo checkpoint still has them).
    void rewindWithFiles(Rewind rewind, RestoreFiles restoreFiles, RewindDone done);
    bool isRewinding() const { return m_rewinding; }
    /// Appends a message the loop did not make (a compaction, a rewind) while idle: recorded,
    /// emitted as a MessageEnd event. false when the agent started working.
    bool appendMarker(const Message &marker);

    /// Why the conversation cannot go to another branch now (a run goes on, a rewind restores
    /// files, nothing is recorded, read-only); empty when it can. A switch never stops a run:
    /// what it is doing belongs to the branch it runs on.
    QString branchRefusal() const;
    /// Every branch of the conversation (SessionRecorder::tree); empty when nothing is
    /// recorded (or before the first message).
    SessionTree branches() const;
    /// The ids of the active branch's messages, oldest first: those of agent()->messages().
    /// Empty when the branches are not known.
    QStringList activeBranch() const;
    /// Goes on with the branch that ends at \a leaf (an id of branches(); "" : an empty one):
    /// the agent's history becomes that branch's messages, the file records the switch, and
    /// the next request carries only them. Emits branchSwitched(). false and \a error when
    /// branchRefusal() says why or \a leaf is unknown.
    bool switchBranch(const QString &leaf, QString *error = nullptr);
    /// "Fork from here": a new branch that ends at message \a index of the active branch (-1:
    /// before the first): the next message sent follows it, the branch it leaves stays.
    bool forkAt(qsizetype index, QString *error = nullptr);
    /// "Edit and resend": \a text (and \a pictures) in place of the active branch's user
    /// message \a index, on a new branch from right before it (forkAt(index - 1), then send()).
    bool editAndResend(qsizetype index,
                       const QString &text,
                       const QList<ContentBlock> &pictures = {},
                       QString *error = nullptr);

    /// Null before ready(). Owned by the session.
    Agent *agent() const { return m_agent.get(); }
    /// The assembled parts (policy, workspace, audit log, context manager, checkpoints,
    /// warnings, untrusted grants, instructions); their config has gone into agent(). Empty
    /// handles before ready().
    const CodingAgent &parts() const { return m_parts; }
    const CodingAgentOptions &options() const { return m_options; }
    const CodingSessionFile &file() const { return m_file; }
    bool isReadOnly() const { return !m_file.readOnlyReason.isEmpty(); }
    /// The session file's id, or a fresh one when nothing is recorded: the checkpoints'
    /// session id and OpenAI's prompt_cache_key, the same for every request of the session.
    QString id() const { return m_id; }
    /// Null before ready(), when nothing is recorded, or read-only.
    SessionRecorder *recorder() const { return m_recorder.get(); }
    /// Where the session file's paged tool outputs are (SessionPages): null without a session
    /// file; the same object for the session's life.
    std::shared_ptr<const SessionPages> pages() const { return m_pages; }

    /// The state this layer owns (title, draft, model, context edits, worktree), as resumed
    /// and changed since.
    const SessionState &state() const { return m_state; }
    void setTitle(const QString &title);
    void setDraft(const QString &draft);
    /// The front end's model choice, kept as it gives it; undefined: none.
    void setModelState(const QJsonValue &model);
    void setWorktree(const std::optional<SessionWorktree> &worktree);
    /// Applies \a edits from the next request on and keeps them in the session file. false
    /// before ready() or read-only.
    bool setContextEdits(const ContextEdits &edits);

    /// The custom commands `/NAME` expands (empty before ready()), sorted by name.
    QList<CustomCommand> customCommands() const { return m_parts.commands.commands; }
    /// The skills the system prompt lists (empty before ready()), sorted by name.
    QList<Skill> skills() const { return m_parts.skills.skills; }
    /// A custom command is being expanded (its `!` lines may wait for an answer).
    bool isExpandingCommand() const { return m_expanding; }

    /// The system prompt and the tools' definitions the agent was assembled with (empty
    /// before ready()): what every request carries before the conversation.
    QString systemPrompt() const { return m_systemPrompt; }
    QList<ToolDefinition> toolDefinitions() const { return m_toolDefinitions; }

    /// The policy's mode; before ready(), the options' (Default when they have none).
    PermissionMode permissionMode() const;
    /// From the next tool call and model request on; kept with the session (its state). Ends
    /// the wait of bypassUnconfirmed().
    void setPermissionMode(PermissionMode mode);
    /// The resumed file's mode is bypass, not applied until the person confirms it as they
    /// confirm choosing it (anyone or any tool may have written the file, a headless run in
    /// bypass among them): the session has the mode it would have had without the file (the
    /// options', else Default) until setPermissionMode(PermissionMode::Bypass) or
    /// dropBypass(). Interactive sessions only (a headless resume keeps the command line's
    /// mode); false before ready(), when the options give bypass already, or read-only.
    bool bypassUnconfirmed() const { return m_bypassUnconfirmed; }
    /// The person declined bypassUnconfirmed(): the session keeps the mode it has.
    void dropBypass() { m_bypassUnconfirmed = false; }
    /// The sandbox's mode and network for the next Bash command (before ready(): for the
    /// assembly).
    void setSandbox(SandboxMode mode, bool allowNetwork);
    /// The Bash commands that get the network in the sandbox, from the app's settings
    /// (NetworkRules); the settings files' rules stay.
    void setNetworkRules(const QList<PermissionRule> &rules);
    /// The user accepted parts().untrustedGrants: remembered for this repository and applied
    /// now (the settings files read again; a mode the options give still wins). Problems are
    /// warning()s. Returns the grants still untrusted. Does nothing before ready().
    QStringList trustProjectSettings();
    /// Adds \a rule as a review's "Always allow" does (AgentCore::alwaysAllow): to this
    /// session at once and to the project's local settings. false with \a error when the file
    /// could not be written (or before ready()).
    bool alwaysAllow(const PermissionRule &rule, QString *error);

    /// The resumed file's allow rules, not applied until the user keeps them (anyone or any
    /// tool may have written the file), written back as they were meanwhile.
    QList<PermissionRule> unconfirmedRules() const { return *m_unconfirmed; }
    void keepSessionRules();
    void dropSessionRules();

signals:
    /// The agent is assembled and the session resumed: agent() and parts() are set.
    void ready();
    /// Every event of every run, in order (the Agent's, then the markers appended here).
    void eventEmitted(const AgentCore::AgentEvent &event);
    /// Every event of every subagent, in order with eventEmitted: a child's events come after
    /// the parent's tool_execution_start of its Task call and before that call's
    /// tool_execution_end (a child's child's likewise within its parent's).
    void subagentEvent(const AgentCore::SubagentEvent &event);
    /// Something the user should know that is not part of the conversation: settings files with
    /// problems, an audit log that cannot be written, a session file that cannot be.
    void warning(const QString &message);
    /// The audit log cannot be written (said once).
    void auditLogFailed(const QString &message);
    /// A call was denied because nobody could be asked (no asker).
    void unattendedDenied(const QString &message);
    /// A side-effecting call changed a file (also a partly approved change).
    void fileChanged(const AgentCore::FileChange &change);
    /// The sandbox is on but bwrap cannot run here (probed while assembling, so before any
    /// command ran): what happens to commands, why, what to do.
    void sandboxUnavailable(const QString &message);
    /// Shell writes cannot be reviewed (no overlays, or nobody to review them); once.
    void shellWritesUnavailable(const QString &message);
    /// The repository's settings files ask for grants the user has not accepted.
    void projectTrustNeeded(const QStringList &grants);
    /// The resumed file allows \a rules for the session; not applied (unconfirmedRules()).
    void sessionRulesNeedConfirmation(const QList<AgentCore::PermissionRule> &rules);
    /// A summary started: \a waiting when the next request waits for it.
    void compactionStarted(bool waiting);
    /// A summary failed or could not be applied; \a problem is for people.
    void compactionFailed(const QString &problem);
    /// A compaction was appended (it came as an event first): by the loop, or \a manual
    /// (compactNow).
    void compacted(const AgentCore::Message &compaction, bool manual);
    void checkpointRecorded(const AgentCore::Checkpoint &checkpoint);
    /// A checkpoint could not be recorded: the tool ran without one.
    void checkpointFailed(const QString &problem);
    /// The checkpoint store was repaired on the way (a stale lock removed).
    void checkpointRepaired(const QString &message);
    /// A rewind was appended (it came as an event first).
    void rewound(const AgentCore::Rewind &rewind);
    /// The conversation went to another branch (switchBranch, forkAt): agent()->messages() is
    /// that branch's now.
    void branchSwitched();
    /// `/NAME` was expanded; its prompt goes now.
    void commandExpanded(const QString &name, const AgentCore::CommandExpansion &expansion);
    /// `/NAME` could not be expanded, or stop() came first (\a message says why, for
    /// people): nothing was sent.
    void commandFailed(const QString &message);
    /// A hook ran (docs/extending.md, "Hooks"): told in order with the events, a tool's
    /// hooks before its tool_execution_end.
    void hookRan(const AgentCore::HookRun &run);
    /// A UserPromptSubmit hook refused \a text (exit 2 or `decision: "block"`, or
    /// `continue: false`); \a reason is for the user. Nothing was sent.
    void promptRefused(const QString &text, const QString &reason);

private:
    enum class Action { Send, Steer, FollowUp };
    class Inbox;
    void assembled(CodingAgent parts);
    void resume();
    void startRecording();
    void perform(Action action, const QString &text, const QList<ContentBlock> &pictures = {});
    void performNow(Action action, const QString &text, const QList<ContentBlock> &pictures = {});
    bool expandCommand(Action action, const QString &text, const QList<ContentBlock> &pictures);
    /// \a text, a command already expanded, to the prompt hooks and then to the agent.
    void submit(Action action, const QString &text, const QList<ContentBlock> &pictures = {});
    void runPromptHooks(Action action, const QString &text, const QList<ContentBlock> &pictures);
    void runSessionStartHooks();
    void runPreCompactHooks(const QString &instructions);
    void performWaiting();
    void onEvent(const AgentEvent &event);
    void onSubagentEvent(const SubagentEvent &event);
    void appendCompaction(const Message &compaction);
    void writeState(QLatin1StringView key);

    CodingAgentOptions m_options;
    CodingSessionFile m_file;
    bool m_interactive = true;
    QString m_id;
    SessionState m_state;
    std::shared_ptr<ModelClient> m_model;
    std::function<std::shared_ptr<ModelClient>()> m_summaries;
    /// Where the other threads' reports wait for this thread (shared with their callbacks,
    /// which may outlive the session: the loop's hooks keep the context manager).
    std::shared_ptr<Inbox> m_inbox;
    QFuture<std::shared_ptr<CodingAgent>> m_assembly;
    QFuture<std::pair<Rewind, RewindFilesResult>> m_rewindFiles; // rewindWithFiles
    QFuture<CommandExpansion> m_expansion;                       // a custom command's
    AbortToken m_expansionAbort;
    bool m_expanding = false;
    /// What `!` lines run through: the Bash tool and the loop's middlewares, kept from the
    /// assembly (the config goes into the agent). Null bash: the session has no Bash.
    AgentToolPtr m_bash;
    QList<ToolMiddleware> m_middlewares;
    bool m_rewinding = false;
    /// A UserPromptSubmit or SessionStart hook runs: what is sent waits (m_waiting), in order.
    bool m_hooksRunning = false;
    AbortToken m_hookAbort;       // stops the hooks of a prompt (stop())
    QStringList m_sessionContext; // SessionStart's additionalContext, for the first prompt
    bool m_opened = false;
    bool m_bypassUnconfirmed = false;
    // sent before ready(), while rewinding or while a command is expanded
    QList<std::pair<Action, QString>> m_waiting;
    QList<QList<ContentBlock>> m_waitingPictures; // m_waiting's pictures, index by index
    std::shared_ptr<QList<PermissionRule>> m_unconfirmed = std::make_shared<QList<PermissionRule>>();
    CodingAgent m_parts;
    QString m_systemPrompt;
    QList<ToolDefinition> m_toolDefinitions;
    std::unique_ptr<Agent> m_agent;
    std::unique_ptr<SubagentRelay> m_subagents; // the children's events, in order
    /// Destroyed before the agent (it reads the agent's queues for the last state it writes).
    std::unique_ptr<SessionRecorder> m_recorder;
    std::shared_ptr<SessionPages> m_pages;
};

} // namespace AgentCore
