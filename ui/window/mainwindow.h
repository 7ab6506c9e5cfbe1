#pragma once

#include "agentsession/agentsession.h"
#include "common/usagesummary.h"
#include "recentrepositories.h"
#include "settings/appsettings.h"

#include <coding/repository.h>
#include <worktree/worktreechanges.h>

#include <QFuture>
#include <QHash>
#include <QMainWindow>
#include <QPointer>
#include <QProcessEnvironment>

#include <atomic>
#include <memory>

QT_BEGIN_NAMESPACE
class QAction;
class QKeyEvent;
class QLabel;
class QMenu;
class QSplitter;
QT_END_NAMESPACE

namespace Ui {

class AgentStatusBar;
class ApprovalInboxDialog;
class BackgroundShellsPanel;
class ChangedFilesPanel;
class ContextDialog;
class ElidedLabel;
class ConversationPage;
class InterruptedSessionBar;
class DialogSequence;
class SandboxNoticeBar;
class DesktopNotifier;
class FollowUpPanel;
class KeyStore;
class ModelDiscovery;
class ModelResolver;
class McpServers;
class OpenSessions;
class SessionList;
class SessionPages;
class SessionShortcuts;
class SessionsPanel;
class UserGuideDialog;

/// How the window builds the agent of each repository it opens.
struct AgentSetup
{
    /// Everything but repositoryRoot (set per repository) and permissions.asker (the window's
    /// reviews).
    AgentCore::CodingAgentOptions options;
    /// The model of the command line (or of a test). Ignored when modelFromSettings.
    ModelChoice model;
    /// The model comes from the settings (QSettings), or is the offline demo when none is
    /// configured; its key from the key store or the provider's environment variable.
    bool modelFromSettings = false;
    /// model was given on the command line (--provider, --model, --base-url): it wins over
    /// the settings' model in this window, the settings dialog says so, and a resumed session
    /// made with it keeps it (with the command line's key) until the user switches.
    bool commandLineModel = false;
    /// Where API keys are kept; null: KeyStore::createDefault (the keyring, or a file).
    KeyStore *keyStore = nullptr;
    /// Where a missing key is looked up (ANTHROPIC_API_KEY, ...).
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    /// Where the sessions of a repository are kept; empty: SessionStore::defaultDirectory
    /// of the repository (tests give a folder of their own).
    QString sessionsDirectory;
    /// --sandbox: wins over the settings' sandbox mode; --sandbox-network adds the network.
    std::optional<AgentCore::SandboxMode> sandboxMode;
    bool sandboxNetwork = false;
    /// The ports of 127.0.0.1 where the welcome page looks for model servers while the demo
    /// answers; nullopt: AgentCore::LocalModelFinder::defaultPorts() (tests give a free one).
    std::optional<QList<quint16>> localModelPorts;
    /// Where sessions' git worktrees are made; empty: SessionWorktrees::defaultRoot() (tests
    /// give a folder of their own).
    QString worktreesDirectory;
};

/// AgentDesk's window on one repository: the repository's sessions on the left, the
/// conversation in the centre with the reviews and the composer below it, the follow-up queue
/// and the files changed on the right, the run state, model and permission mode in the status
/// bar. Several sessions (AgentSession: one conversation each, recorded in its session file)
/// may be open and run at once (OpenSessions); one is shown, with a page of its own
/// (SessionPages), and the side panels and status bar follow it. Ctrl+1...9 and Ctrl+Tab
/// switch between them; closing the window while some run asks first and stops them.
/// Esc pressed anywhere in the window and used by no widget goes to ConversationPage::escape()
/// (a waiting review, else Stop); Ctrl+. stops from anywhere.
class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)
public:
    explicit MainWindow(AgentSetup setup = {}, QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Switches the window to the repository containing \a path, with a new conversation.
    /// On failure (no such directory, or a task is running) the window keeps its repository,
    /// says why in the status bar and returns false.
    bool openRepository(const QString &path);
    const AgentCore::Repository &repository() const { return m_repository; }
    /// The session shown; null until a repository is open.
    AgentSession *session() const { return m_session; }
    /// The sessions open in the window, the shown one among them.
    OpenSessions *openSessions() const { return m_open; }
    /// Shows the session in \a path: at once when it is open already, otherwise its file is
    /// read (and its worktree checked) on a worker thread and it is opened beside the others
    /// with its conversation, follow-up queue, permission choices and model. The future ends
    /// on the UI thread once it is shown (true), or refused (false, said in the status bar)
    /// when the file cannot be read or another repository was opened meanwhile; the current
    /// conversation then stays. A session another window or process has open is shown
    /// read-only (resuming it again retries).
    QFuture<bool> resumeSession(const QString &path);
    /// Continues the read-only session in a copy of its own (SessionStore::fork, on a worker
    /// thread), then resumes the copy; the future as resumeSession()'s.
    QFuture<bool> forkSession();
    /// The folder of this repository's sessions (empty until a repository is open).
    QString sessionsDirectory() const;

    /// The shown session's page (never null).
    ConversationPage *conversationPage() const;
    FollowUpPanel *followUpPanel() const { return m_followUps; }
    ChangedFilesPanel *changedFilesPanel() const { return m_changedFiles; }
    BackgroundShellsPanel *backgroundShellsPanel() const { return m_shellsPanel; }
    SessionsPanel *sessionsPanel() const { return m_sessions; }
    /// What the sessions panel lists (read on a worker thread).
    SessionList *sessionList() const { return m_sessionList; }
    const AppSettings &settings() const { return m_settings; }
    KeyStore *keyStore() const { return m_keys; }
    /// The MCP servers of the open repository (null before one is open).
    McpServers *mcpServers() const { return m_mcp; }
    /// Notifications (approvals, finished tasks) while the window is not active.
    DesktopNotifier *notifier() const { return m_notifier; }
    /// Every review waiting in any open session (Agent > Approvals…, Ctrl+Shift+A).
    ApprovalInboxDialog *approvalInbox() const { return m_inbox; }

    /// Switches the model of this conversation (and of the next ones) to \a selection
    /// (nullopt: the offline demo), remembered in the settings. The key is read first; the
    /// next model request waits for it.
    void chooseModel(const std::optional<ModelSelection> &selection);
    /// Opens the settings dialog (window-modal; returns at once).
    void showSettings();
    /// Opens (or raises) the context view: what fills the model's context window. Non-modal;
    /// kept current while the agent works.
    void showContextView();
    /// Null unless the context view is open.
    ContextDialog *contextDialog() const;
    AgentStatusBar *agentStatusBar() const { return m_statusBar; }
    /// Above the content: that bubblewrap cannot run here and what to do (hidden until then).
    SandboxNoticeBar *sandboxNotice() const { return m_sandboxNotice; }
    /// Opens "Compact now" (CompactDialog, window-modal; returns at once) on this session's
    /// conversation: Agent > Compact Conversation…, Ctrl+Shift+K.
    void showCompactDialog();
    /// "New Session in a Worktree…": makes a git worktree on a new branch (off the UI thread)
    /// and starts a session whose agent works there, beside the others; a failure is said in
    /// the status bar.
    void newWorktreeSession();
    /// "Bring Back Changes…" of a worktree session: its changes against its base in the writes
    /// review (window-modal; returns at once), conflicts unchecked; the accepted ones are
    /// written into the main checkout, the result said in the status bar.
    void bringBackChanges();
    /// "Keep as Branch": commits what the worktree has not committed on its branch (on a
    /// worker thread; the result said in the status bar).
    void keepAsBranch();
    /// A worktree action (reading the changes, bringing them back, keeping them as a branch)
    /// runs on a worker thread; the worktree actions are disabled meanwhile.
    bool isWorktreeBusy() const { return m_worktreeBusy; }

signals:
    void repositoryChanged(const AgentCore::Repository &repository);
    /// The user asked to compact the conversation now, keeping \a instructions in mind (may be
    /// empty); the session does it (AgentSession::compactNow).
    void compactRequested(const QString &instructions);

protected:
    void keyPressEvent(QKeyEvent *event) override;
    /// With sessions running: asks, then stops them and closes once each recorded agent_end.
    void closeEvent(QCloseEvent *event) override;

private:
    /// The window's size, the splitters and the side panel's visibility as the user left
    /// them (QSettings "window/..."); a first start gets the default layout.
    void restoreLayout();
    void saveLayout() const;
    void createMenus();
    void chooseRepository();
    void rebuildRecentMenu();
    /// Help > User Guide (F1): the guide compiled into the app, in a dialog of its own.
    void showUserGuide();
    /// Help > Keyboard Shortcuts: every key of the shortcut table (common/shortcuts.h).
    void showKeyboardShortcuts();
    void showAbout();
    /// Opens a new session (or \a resumed, from \a path) and shows it; \a worktree: the
    /// worktree the session works in (a resumed one's from its state), unusable when
    /// \a worktreeProblem says why (SessionWorktrees::check, run off the UI thread). The
    /// session shown before keeps running, unless it is an empty new one (it is closed).
    /// A new session recorded at \a recording's path (a new file when it is empty), or the
    /// resumed one it carries, taken over already.
    void startSession(AgentCore::CodingSessionFile recording = {},
                      std::optional<AgentCore::SessionWorktree> worktree = std::nullopt,
                      const QString &worktreeProblem = {});
    /// The side panels, status bar and actions follow \a session (null: none shown yet).
    void showSession(AgentSession *session);
    /// The shown session is ready and its file's bypass waits for the user
    /// (AgentSession::bypassUnconfirmed): the status bar asks as when bypass is chosen.
    void confirmResumedBypass();
    /// Closes \a session if it is a new one that never recorded anything.
    void closeIfUnused(AgentSession *session);
    /// Removes \a worktree and its branch on a worker thread (nothing ran in it).
    static void removeUnusedWorktree(const AgentCore::SessionWorktree &worktree);
    /// The writes review of a worktree's changes, read off the UI thread.
    void showBringBackReview(const AgentCore::SessionWorktree &worktree,
                             const AgentCore::WorktreeChanges &changes);
    void setWorktreeBusy(bool busy);
    void worktreeCreated(const QString &repositoryRoot,
                         const QString &path,
                         const std::optional<AgentCore::SessionWorktree> &worktree,
                         const QString &error);
    /// The worktree label and the worktree actions follow the session.
    void updateWorktreeControls();
    void newConversation();
    /// Opens the diff of a changed file (\a path, absolute) in a window of its own.
    void showFileChanges(const QString &path);
    void renameSession(const QString &path, const QString &title);
    void deleteSession(const QString &path);
    /// deleteSession() once its worktree's uncommitted changes were kept or not there.
    void deleteSessionFile(const QString &path);
    /// The sessions list's badges follow the open sessions.
    void updateSessionBadges();
    void applyModel(const ModelChoice &choice);
    void resolveModel(const std::optional<ModelSelection> &selection);
    void restoreSessionModel(const QJsonObject &state);
    /// Applies the command line's model with \a selection's thinking level when \a selection
    /// names it; false otherwise.
    bool applyCommandLineModel(const ModelSelection &selection);
    void resetUsage();
    /// The status bar's context figure and the context view from the session's meter.
    void updateContext();
    /// The session's context manager gets the model's window and the auto-compaction setting.
    void applyContextSettings(AgentSession *session);
    /// The window of \a choice's model: the catalog's, else the user's setting.
    std::optional<qint64> contextWindow(const ModelChoice &choice) const;
    void applySettings(const AppSettings &settings, bool modelChanged);
    void saveSettings();
    void onSessionState(AgentSession::State state);
    void showCompactionProgress(const QString &text);
    /// "Revert this file" of the changed-files panel or a file's diff: \a path (absolute) back
    /// to before the agent's first change to it, through a files-only rewind.
    bool revertFile(const QString &path);
    /// Starts the MCP servers of the repository just opened (asking to trust its .mcp.json).
    void startMcpServers();

    AgentSetup m_setup;
    AppSettings m_settings;
    /// AppSettings::reviewShellWrites for the sessions' tool threads.
    std::shared_ptr<std::atomic_bool> m_reviewShellWrites = std::make_shared<std::atomic_bool>(true);
    KeyStore *m_keys = nullptr;
    ModelResolver *m_resolver = nullptr;
    /// What the welcome page offers while the demo answers; looks once per window.
    ModelDiscovery *m_discovery = nullptr;
    quint64 m_modelRequest = 0;                    // only the latest resolve applies
    std::optional<ModelChoice> m_commandLineModel; ///< as the command line gave it
    bool m_commandLineModelInUse = false;          ///< until the user switches
    UsageSummary m_usage;
    AgentCore::Repository m_repository;
    RecentRepositories m_recent;
    OpenSessions *m_open = nullptr;
    McpServers *m_mcp = nullptr;       ///< the repository's, shared by its sessions
    AgentSession *m_session = nullptr; ///< m_open's current
    /// The context of the connections to the shown session: deleted when another is shown.
    QObject *m_shown = nullptr;
    SessionPages *m_pages = nullptr;
    SessionShortcuts *m_shortcuts = nullptr;
    ApprovalInboxDialog *m_inbox = nullptr;
    bool m_closeWhenStopped = false; ///< the user chose to stop the running sessions and close
    FollowUpPanel *m_followUps = nullptr;
    ChangedFilesPanel *m_changedFiles = nullptr;
    BackgroundShellsPanel *m_shellsPanel = nullptr;
    SessionsPanel *m_sessions = nullptr;
    SessionList *m_sessionList = nullptr; ///< what m_sessions lists
    QSplitter *m_sidePanel = nullptr;
    QSplitter *m_centre = nullptr;
    SandboxNoticeBar *m_sandboxNotice = nullptr;
    InterruptedSessionBar *m_interruptedSession = nullptr;
    DialogSequence *m_dialogs = nullptr; // trust, session rules, resumed bypass: in turn
    QAction *m_sidePanelAction = nullptr;
    AgentStatusBar *m_statusBar = nullptr;
    DesktopNotifier *m_notifier = nullptr;
    QMenu *m_recentMenu = nullptr;
    QAction *m_stopAction = nullptr;
    QAction *m_newConversationAction = nullptr;
    QAction *m_bringBackAction = nullptr;
    QAction *m_keepAsBranchAction = nullptr;
    ElidedLabel *m_worktreeLabel = nullptr; ///< the branch of a worktree session, in the status bar
    QString m_compactionProgress; ///< the status bar's "Summarising…" while a run waits for it
    bool m_makingWorktree = false;
    bool m_worktreeBusy = false; ///< a worktree action runs on a worker thread
    /// The sessions being read to be resumed: asked again, the same read answers.
    QHash<QString, QFuture<bool>> m_resuming;
    QPointer<ContextDialog> m_contextDialog;
    QPointer<UserGuideDialog> m_userGuide;
};

} // namespace Ui
