#pragma once

#include "changedfiles.h"
#include "sessionconversation.h"
#include "sessiondraft.h"
#include "sessionmodel.h"

#include <coding/codingagent.h>
#include <coding/codingsession.h>
#include <context/rewind.h>
#include <permissions/approvalhabits.h>
#include <session/sessionlog.h>
#include <session/sessionresumption.h>
#include <worktree/sessionworktree.h>

#include <QObject>
#include <QTimer>

#include <memory>

namespace AgentCore {
class Agent;
class ModelClient;
class PermissionBroker;
class SessionRecorder;
} // namespace AgentCore

namespace Ui {

/// Where a session keeps its conversation, and what it resumes from.
struct SessionFile
{
    /// The recorded file: its path (empty: the conversation is not recorded), the header of a
    /// new one, and a resumed session as loaded and taken over (CodingSessionFile::takeOver,
    /// which locks and reads the file: the window does that on a worker thread).
    AgentCore::CodingSessionFile recording;
    /// The session works in this git worktree of its own (its agent's repositoryRoot is the
    /// worktree's folder): kept in the session state (SessionWorktree::stateKey).
    std::optional<AgentCore::SessionWorktree> worktree;
    /// Non-empty: the session's worktree cannot be used (SessionWorktrees::check); the
    /// session is shown read-only with this, nothing runs (not in the main checkout either).
    QString worktreeProblem;
};

/// The agent of one window on one repository: the window's front end of a CodingSession (which
/// assembles the coding agent off the UI thread, resumes and records the session), with the
/// PermissionBroker its reviews go through, the model the window chose, and what the window
/// shows: what state the run is in, which files changed, how full the context is.
/// Tasks sent before the agent is assembled wait for it. UI thread; never blocks on the agent
/// (the destructor waits for an assembly still going on, which reads a few files and runs git).
class AgentSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AgentSession)
public:
    enum class State {
        Preparing, ///< the agent is being assembled
        Idle,
        Running,
        Stopping, ///< abort() was called; agent_end follows promptly
    };
    Q_ENUM(State)

    /// \a options.permissions.asker is replaced by the session's broker.
    AgentSession(AgentCore::CodingAgentOptions options,
                 ModelChoice model,
                 SessionFile file = {},
                 QObject *parent = nullptr);
    ~AgentSession() override;

    /// Null while Preparing. Owned by the session.
    AgentCore::Agent *agent() const { return m_session->agent(); }
    AgentCore::PermissionBroker *broker() const { return m_broker; }
    State state() const { return m_state; }
    const ModelChoice &model() const { return m_model.choice(); }
    /// Takes effect at the next model request (a request in flight finishes on its model);
    /// kept with the session.
    void setModel(ModelChoice model);
    QString repositoryRoot() const { return m_session->options().repositoryRoot; }

    QString sessionPath() const { return m_session->file().path; }
    /// The session underneath: its assembly, resumption, recording and signals.
    AgentCore::CodingSession *codingSession() const { return m_session.get(); }
    /// Another window or process has this session open (SessionLog's lock): it is shown as it
    /// was, nothing is sent or written; readOnlyReason() says who has it.
    bool isReadOnly() const { return m_session->isReadOnly(); }
    QString readOnlyReason() const { return m_session->file().readOnlyReason; }
    /// The git worktree the session works in (SessionFile::worktree); nullopt for a session
    /// in the main checkout.
    const std::optional<AgentCore::SessionWorktree> &worktree() const { return m_file.worktree; }
    /// Why the session's worktree cannot be used (it is read-only then); empty otherwise.
    QString worktreeProblem() const { return m_file.worktreeProblem; }
    /// The message box's text kept with the session (restored on resume).
    QString draft() const { return m_draft.text(); }
    /// Keeps \a text as the draft: written a second after the last change (at once when it
    /// was cleared, so a sent task does not come back as a draft).
    void setDraft(const QString &text) { m_draft.set(text); }
    /// The conversation the session was resumed with (empty for a new one).
    QList<AgentCore::Message> history() const
    {
        const auto &resumed = m_session->file().resumed;
        return resumed ? resumed->messages : QList<AgentCore::Message>();
    }
    /// The subagents' transcripts the session was resumed with, by path joined with "/"
    /// (SessionLog::Contents::subagents); empty for a new session.
    QHash<QString, QList<AgentCore::Message>> subagentHistory() const
    {
        const auto &resumed = m_session->file().resumed;
        return resumed ? resumed->subagents : QHash<QString, QList<AgentCore::Message>>();
    }
    /// Every reply of every subagent so far, resumed and live: what they were billed (the
    /// session's totals count them).
    const QList<AgentCore::Message> &subagentReplies() const { return m_subagentReplies; }
    /// The session's saved state, when resumed (the model, the title, ...).
    QJsonObject resumedState() const
    {
        const auto &resumed = m_session->file().resumed;
        return resumed ? resumed->state : QJsonObject();
    }
    QString title() const { return m_session->state().title; }
    /// Names the session in the sessions list; kept with it.
    void setTitle(const QString &title);
    /// The first task the user gave: the conversation's first user message, or, while the
    /// agent's events are still on their way to this thread, the text sent (a review the run
    /// asks for can arrive before its prompt's message does). Empty before anything was sent.
    QString firstTask() const;

    /// Starts a task when idle; steers the running one otherwise (see Agent::steer).
    /// \a pictures go with the text (CodingSession::send).
    void send(const QString &text, const QList<AgentCore::ContentBlock> &pictures = {});
    void steer(const QString &text, const QList<AgentCore::ContentBlock> &pictures = {})
    {
        m_session->steer(text, pictures);
    }
    void followUp(const QString &text, const QList<AgentCore::ContentBlock> &pictures = {})
    {
        m_session->followUp(text, pictures);
    }
    /// Where requests go now: the model choice's provider, else the session's.
    AgentCore::ProviderConfig currentProvider() const;
    /// Why a message with pictures is held: the model takes none (the model catalog says so).
    /// Empty when it may go: a model that reads pictures, one the catalog does not know, a
    /// test's or the demo's client.
    QString pictureRefusal() const;
    /// Aborts the run, if any. The session is Idle again as soon as agent_end arrived.
    void stop();

    AgentCore::PermissionMode permissionMode() const { return m_session->permissionMode(); }
    /// Takes effect at the next tool call and the next model request (plan mode's tool list).
    void setPermissionMode(AgentCore::PermissionMode mode);

    /// What the repository's settings files ask for beyond the user's own settings and was
    /// not applied, because the user has not accepted it (AgentCore::ProjectTrust); empty
    /// while Preparing.
    QStringList untrustedGrants() const { return m_session->parts().untrustedGrants; }
    /// The user accepted untrustedGrants(): remembers them for this repository and applies
    /// them to this session now (the settings files are read again; a mode given on the
    /// command line still wins). Does nothing while Preparing.
    void trustProjectSettings();

    /// The allow rules of the resumed session's file ("Always allow in this session" when it
    /// was written), as "allow Bash": not applied until the user keeps them
    /// (keepSessionRules), since anyone or any tool may have written the file; empty when
    /// there are none, or they were answered.
    QStringList unconfirmedSessionRules() const;
    /// The user confirmed unconfirmedSessionRules(): they apply to this session from the next
    /// tool call on, and stay in its file.
    void keepSessionRules() { m_session->keepSessionRules(); }
    /// The user did not: they are left out of this session and of its file.
    void dropSessionRules() { m_session->dropSessionRules(); }

    /// The resumed session's file is in bypass, not applied until the user confirms it as
    /// they confirm choosing bypass (AgentCore::CodingSession::bypassUnconfirmed): the window
    /// asks when the session is ready and shown, then calls setPermissionMode(Bypass) or
    /// dropBypass(). The session has the mode it would have had without the file meanwhile.
    bool bypassUnconfirmed() const { return m_session->bypassUnconfirmed(); }
    /// The user declined bypassUnconfirmed(): the session keeps its mode, and is not asked
    /// about again.
    void dropBypass() { m_session->dropBypass(); }

    /// The calls the user approved one at a time in this session, counted for the offer of a
    /// rule (the page records the answers and shows the offer).
    AgentCore::ApprovalHabits &approvalHabits() { return m_habits; }
    /// Adds \a rule exactly as a review's "Always allow" does (AgentCore::alwaysAllow): to
    /// this session at once and to the project's local settings, where Settings lists it.
    /// false with \a error when the file could not be written (or while Preparing).
    bool alwaysAllow(const AgentCore::PermissionRule &rule, QString *error)
    {
        return m_session->alwaysAllow(rule, error);
    }

    /// In the order they were first changed; a resumed session starts with the changes its
    /// history records, as they were listed live.
    QList<ChangedFile> changedFiles() const { return m_changed.files(); }
    /// The raw index of the first result in the conversation that changed \a path (absolute):
    /// the files as they were right before it hold the file as it was before the session
    /// touched it ("Revert this file" goes back there). -1 when none did.
    qsizetype firstChangeOf(const QString &path) const;

    /// Keeps the conversation within the model's window; null while Preparing.
    AgentCore::ContextManager *contextManager() const { return m_session->parts().context.get(); }
    /// The sandbox's mode and network for the next Bash command (the settings changed).
    void setSandbox(AgentCore::SandboxMode mode, bool allowNetwork)
    {
        m_session->setSandbox(mode, allowNetwork);
    }
    /// The Bash commands that get the network in the sandbox, from the app's settings
    /// (AgentCore::NetworkRules); the settings files' rules stay.
    void setNetworkRules(const QList<AgentCore::PermissionRule> &rules)
    {
        m_session->setNetworkRules(rules);
    }
    /// The session's checkpoints (their store diffs and restores); null before ready() or
    /// when checkpoints are off.
    std::shared_ptr<AgentCore::CheckpointRecorder> checkpoints() const
    {
        return m_session->parts().checkpoints;
    }
    /// "Compact now": starts a summary of the conversation, keeping \a instructions in mind;
    /// the compaction is appended (and recorded, and shown) when it is ready, if the agent is
    /// still idle then. false (compactionFailed says why) while a run goes on, a summary is
    /// already being written, or nothing can be compacted.
    bool compactNow(const QString &instructions);
    QStringList warnings() const { return m_warnings; } ///< from the settings files

    /// How full the conversation's context window is: the system prompt and tools once the
    /// agent is assembled, and every message, counted as they come (contextChanged()).
    /// Counts what the next request carries: the conversation as the context manager shows it
    /// to the model (a compaction's summary in place of what it covers, dropped outputs as
    /// stubs), so its messages are those of contextView(), not the history.
    const AgentCore::ContextMeter &contextMeter() const { return m_conversation.meter(); }
    /// Tool outputs dropped from the requests and messages pinned (raw conversation indexes);
    /// kept in the session file.
    AgentCore::ContextEdits contextEdits() const { return m_session->state().contextEdits; }
    /// The edits as the context view shows them: pins by contextMeter() message index.
    ContextEdits shownContextEdits() const;
    /// Leaves tool call \a toolCallId's output out of the requests from the next one on;
    /// false while Preparing or read-only.
    bool dropToolOutput(const QString &toolCallId);
    /// Pins (or unpins) contextMeter()'s message \a meterIndex; false for a summary, out of
    /// range, while Preparing or read-only.
    bool pinMessage(qsizetype meterIndex, bool pinned);
    /// Why the conversation cannot be rewound now (a task runs, the agent is starting, the
    /// session is read-only); empty when it can.
    QString rewindRefusal() const;
    /// The conversation as its messages came: raw indexes (ConversationItem::sourceIndex) are
    /// into this list.
    const QList<AgentCore::Message> &conversation() const { return m_conversation.messages(); }
    /// Appends \a rewind (AgentCore::Rewind, context/rewind.h) to the conversation: recorded
    /// in the session file, shown, and, when it rewinds the conversation, applied to what the
    /// next request carries (the messages from rewind.toIndex on stay in the history and the
    /// file, marked as rewound). The follow-up queue is left as it is. The files part is the
    /// caller's (it restores them first and says so in \a rewind). false and \a error when
    /// rewindRefusal() says why, or the target is out of range.
    bool rewind(const AgentCore::Rewind &rewind, QString *error = nullptr);
    /// The same with the files: restored on a worker thread by \a restoreFiles first, what is
    /// sent meanwhile waiting for the rewind (CodingSession::rewindWithFiles).
    void rewindWithFiles(const AgentCore::Rewind &rewind,
                         AgentCore::CodingSession::RestoreFiles restoreFiles,
                         AgentCore::CodingSession::RewindDone done);
    /// Why the conversation cannot go to another branch now (CodingSession::branchRefusal).
    QString branchRefusal() const { return m_session->branchRefusal(); }
    /// The session's branches and the ids of the active one's messages (the conversation's):
    /// CodingSession::branches, activeBranch.
    AgentCore::SessionTree branches() const { return m_session->branches(); }
    QStringList activeBranch() const { return m_session->activeBranch(); }
    /// Goes on with the branch ending at \a leaf; forkAt, editAndResend: a new branch
    /// (AgentCore::CodingSession). The conversation, changed files and context meter become
    /// the branch's; branchSwitched() follows. false and \a error when refused.
    bool switchBranch(const QString &leaf, QString *error = nullptr)
    {
        return m_session->switchBranch(leaf, error);
    }
    bool forkAt(qsizetype index, QString *error = nullptr)
    {
        return m_session->forkAt(index, error);
    }
    bool editAndResend(qsizetype index,
                       const QString &text,
                       const QList<AgentCore::ContentBlock> &pictures = {},
                       QString *error = nullptr);

    /// The project instruction files inside the system prompt (empty while Preparing).
    QList<AgentCore::InstructionFile> instructions() const
    {
        return m_session->parts().instructions;
    }
    /// The skills' part of the system prompt (empty without skills or while Preparing).
    QString skillsSection() const { return m_session->parts().skills.promptSection(); }
    /// Every tool of the last request's offer: whole or deferred, loaded, its bytes (empty
    /// while Preparing).
    QList<AgentCore::ToolOfferEntry> toolOffer() const
    {
        const auto &deferral = m_session->parts().deferral;
        return deferral ? deferral->entries() : QList<AgentCore::ToolOfferEntry>();
    }

signals:
    void ready();
    void stateChanged(Ui::AgentSession::State state);
    /// Every event of every run, in order (the Agent's eventEmitted).
    void eventEmitted(const AgentCore::AgentEvent &event);
    /// Every event of every subagent, in order with eventEmitted (CodingSession's).
    void subagentEvent(const AgentCore::SubagentEvent &event);
    /// A hook ran (CodingSession::hookRan).
    void hookRan(const AgentCore::HookRun &run);
    void changedFilesChanged();
    void permissionModeChanged(AgentCore::PermissionMode mode);
    void modelChanged(const Ui::ModelChoice &model);
    /// The session file was written (created, a message, a state change): the list may show
    /// it differently now.
    void recorded();
    /// Something the user should know that is not part of the conversation (settings files
    /// with problems, an audit log that cannot be written).
    void warning(const QString &message);
    /// A custom command `/NAME` that was sent could not be expanded: nothing went
    /// (CodingSession::commandFailed).
    void commandFailed(const QString &message);
    /// The sandbox is on or required but bwrap cannot run here (AgentCore::SandboxNotice: what
    /// happens to commands, why, what to do). Emitted once, when the session is assembled
    /// (the probe runs there, off the UI thread), before any command ran.
    void sandboxUnavailable(const QString &message);
    /// The repository's settings files ask for grants the user has not accepted (emitted
    /// once, after ready()): the window shows them and may call trustProjectSettings().
    void projectTrustNeeded(const QStringList &grants);
    /// The resumed session's file allows \a rules for the session, not applied (emitted once,
    /// after ready()): the window asks, then calls keepSessionRules() or dropSessionRules().
    void sessionRulesNeedConfirmation(const QStringList &rules);
    /// contextMeter() changed: a message came, a run ended.
    void contextChanged();
    /// A summary of the conversation started (ContextManager::Events::started): \a waiting
    /// when the next request waits for it.
    void compactionStarted(bool waiting);
    /// A compaction was appended to the conversation, by "compact now" or by the loop (that
    /// one also came as an eventEmitted).
    void compacted();
    /// A summary failed or could not be applied; \a problem is for people.
    void compactionFailed(const QString &problem);
    /// A rewind was appended to the conversation (it also came as an eventEmitted).
    void rewound(const AgentCore::Rewind &rewind);
    /// The conversation is another branch's now: conversation() was replaced.
    void branchSwitched();

private:
    /// The session is assembled and resumed: the window hears of it in the order it always
    /// did (warnings, mode, ready, context, then what needs the user's answer).
    void onReady();
    void onEvent(const AgentCore::AgentEvent &event);
    /// The conversation, its changed files and the meter from \a messages (a resumed
    /// session's, a branch's).
    void takeHistory(const QList<AgentCore::Message> &messages);
    /// A rewind that restored files: ChangedFiles::forgetRestored.
    void forgetRestored(const AgentCore::Rewind &rewind);
    void setState(State state);

    SessionModel m_model;
    SessionFile m_file;  // without its recording: the CodingSession keeps it
    QString m_sentFirst; // what send() was first given, until the conversation has it
    AgentCore::PermissionBroker *m_broker = nullptr;
    SessionDraft m_draft; // writes through m_session: flushed before it goes
    ChangedFiles m_changed;
    QStringList m_warnings;
    AgentCore::ApprovalHabits m_habits;
    State m_state = State::Preparing;
    SessionConversation m_conversation;
    QList<AgentCore::Message> m_subagentReplies;
    /// Destroyed before the broker (a child): the agent's tool calls may still ask it.
    std::unique_ptr<AgentCore::CodingSession> m_session;
};

} // namespace Ui
