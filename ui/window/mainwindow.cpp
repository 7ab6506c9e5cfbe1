#include "mainwindow.h"

#include "backgroundshellspanel.h"
#include "changedfilespanel.h"
#include "common/background.h"
#include "common/elidedlabel.h"
#include "common/shortcuts.h"
#include "common/tabchain.h"
#include "composer/composer.h"
#include "contextview/compactdialog.h"
#include "contextview/contextdialog.h"
#include "desktopnotifier.h"
#include "dialogsequence.h"
#include "followuppanel.h"
#include "interruptedsessionbar.h"
#include "keys/keystore.h"
#include "mcp/mcpcompletions.h"
#include "mcp/mcpservers.h"
#include "modelresolver.h"
#include "page/conversationpage.h"
#include "projecttrustdialog.h"
#include "review/filediffview.h"
#include "review/reviewqueue.h"
#include "review/shellwritesreviewview.h"
#include "rewind/rewindcontroller.h"
#include "sandboxnoticebar.h"
#include "sessionrulesdialog.h"
#include "sessions/approvalinboxdialog.h"
#include "sessions/opensessions.h"
#include "sessions/sessionlist.h"
#include "sessions/sessionpages.h"
#include "sessions/sessionshortcuts.h"
#include "sessions/sessionspanel.h"
#include "settings/modeldiscovery.h"
#include "settings/settingsdialog.h"
#include "settings/theme.h"
#include "shortcutsdialog.h"
#include "statusbar/agentstatusbar.h"
#include "userguidedialog.h"

#include <ai/modelcatalog.h>
#include <coding/sessionstatefile.h>
#include <context/contextview.h>
#include <loop/agent.h>
#include <permissions/shellwritesreview.h>
#include <session/sessionstore.h>
#include <worktree/sessionworktrees.h>

#include <QAction>
#include <QApplication>
#include <QDesktopServices>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QKeyEvent>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPromise>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <tuple>

namespace Ui {

MainWindow::MainWindow(AgentSetup setup, QWidget *parent)
    : QMainWindow(parent)
    , m_setup(std::move(setup))
    , m_settings(AppSettings::load(QSettings()))
    , m_keys(m_setup.keyStore ? m_setup.keyStore : KeyStore::createDefault(this))
    , m_resolver(new ModelResolver(m_keys, m_setup.environment, this))
    , m_open(new OpenSessions(this))
    , m_pages(new SessionPages(m_open, this))
    , m_followUps(new FollowUpPanel(this))
    , m_changedFiles(new ChangedFilesPanel(this))
    , m_shellsPanel(new BackgroundShellsPanel(this))
    , m_sessions(new SessionsPanel(this))
    , m_sessionList(new SessionList(m_sessions, {}, this))
    , m_sidePanel(new QSplitter(Qt::Vertical, this))
    , m_statusBar(new AgentStatusBar(this))
    , m_notifier(new DesktopNotifier(this))
{
    setObjectName(QStringLiteral("MainWindow"));

    m_sidePanel->setObjectName(QStringLiteral("sidePanel"));
    m_sidePanel->addWidget(m_followUps);
    m_sidePanel->addWidget(m_changedFiles);
    m_sidePanel->addWidget(m_shellsPanel); // shown once the session runs a background command
    m_sidePanel->setChildrenCollapsible(false);

    auto centre = m_centre = new QSplitter(Qt::Horizontal, this);
    centre->setObjectName(QStringLiteral("centreSplitter"));
    centre->addWidget(m_sessions);
    centre->addWidget(m_pages);
    centre->addWidget(m_sidePanel);
    centre->setStretchFactor(0, 0);
    centre->setStretchFactor(1, 1);
    centre->setStretchFactor(2, 0);
    centre->setChildrenCollapsible(false);
    centre->setSizes({190, 770, 240}); // at 1000 pixels the conversation keeps over half
    centre->setContentsMargins(8, 8, 8, 0);
    // A column of the sandbox's notice (hidden until bwrap is found not to work) and the rest.
    auto column = new QWidget(this);
    column->setObjectName(QStringLiteral("sandboxNoticeColumn"));
    m_sandboxNotice = new SandboxNoticeBar(column);
    m_interruptedSession = new InterruptedSessionBar(column);
    m_dialogs = new DialogSequence(this);
    auto columnLayout = new QVBoxLayout(column);
    columnLayout->setContentsMargins(0, 0, 0, 0);
    columnLayout->setSpacing(0);
    columnLayout->addWidget(m_interruptedSession);
    columnLayout->addWidget(m_sandboxNotice);
    columnLayout->addWidget(centre, 1);
    setCentralWidget(column);
    connect(m_sandboxNotice, &SandboxNoticeBar::settingsRequested, this, &MainWindow::showSettings);
    // After a crash the window starts a new conversation: the one AgentDesk ended in the
    // middle of is pointed at, once the folder has been read.
    connect(m_sessionList, &SessionList::scanned, this, [this] {
        QStringList open;
        for (const AgentSession *session : m_open->sessions())
            open.append(session->sessionPath());
        m_interruptedSession->showNewest(m_sessionList->sessions(), open);
    });
    connect(m_interruptedSession,
            &InterruptedSessionBar::openRequested,
            this,
            [this](const QString &path) { resumeSession(path); });

    setStatusBar(m_statusBar);
    if (m_setup.modelFromSettings) {
        if (m_setup.options.maxTurns == 0)
            m_setup.options.maxTurns = m_settings.maxTurns;
        m_setup.model = m_settings.model ? ModelResolver::pending(*m_settings.model)
                                         : ModelResolver::demo();
        resolveModel(m_settings.model);
    } else if (m_setup.commandLineModel) {
        m_commandLineModel = m_setup.model;
        m_commandLineModelInUse = true;
    }
    m_statusBar->setModel(m_setup.model);
    m_statusBar->setModelSelection(m_setup.model.selection, m_settings.recentModels);
    connect(m_statusBar, &AgentStatusBar::modelSelectionChosen, this, &MainWindow::chooseModel);
    connect(m_statusBar, &AgentStatusBar::thinkingLevelChosen, this, [this](ThinkingLevel level) {
        if (!m_setup.model.selection)
            return;
        ModelSelection selection = *m_setup.model.selection;
        selection.thinking = level;
        chooseModel(selection);
    });
    connect(m_statusBar, &AgentStatusBar::settingsRequested, this, &MainWindow::showSettings);
    connect(m_statusBar, &AgentStatusBar::contextViewRequested, this, &MainWindow::showContextView);
    connect(m_keys, &KeyStore::warning, this, [this](const QString &message) {
        statusBar()->showMessage(message, 30000);
    });
    m_statusBar->setPermissionMode(
        m_setup.options.permissions.mode.value_or(AgentCore::PermissionMode::Default));
    m_statusBar->setRunState(AgentSession::State::Idle);
    connect(m_statusBar, &AgentStatusBar::permissionModeChosen, this, [this](auto mode) {
        m_setup.options.permissions.mode = mode; // also for the next conversation
        if (m_session)
            m_session->setPermissionMode(mode);
    });
    connect(m_statusBar, &AgentStatusBar::bypassDeclined, this, [this] {
        if (m_session)
            m_session->dropBypass(); // a resumed session's bypass: asked once
    });
    // The page of each session is made when it opens; the window follows the one shown.
    connect(m_open, &OpenSessions::currentChanged, this, &MainWindow::showSession);
    connect(m_open, &OpenSessions::added, this, &MainWindow::updateSessionBadges);
    connect(m_open, &OpenSessions::activityChanged, this, [this] {
        updateSessionBadges();
        // Closing waits for the last running session's agent_end (recorded by then).
        if (m_closeWhenStopped && m_open->runningCount() == 0) {
            m_closeWhenStopped = false;
            QTimer::singleShot(0, this, &QWidget::close);
        }
    });
    connect(m_open, &OpenSessions::removed, this, [this] {
        QMetaObject::invokeMethod(this, &MainWindow::updateSessionBadges, Qt::QueuedConnection);
    });
    const auto pageAdded = [this](ConversationPage *page) {
        connect(page, &ConversationPage::forkRequested, this, &MainWindow::forkSession);
        connect(page, &ConversationPage::modelChosen, this, &MainWindow::chooseModel);
    };
    pageAdded(m_pages->currentPage());
    connect(m_pages, &SessionPages::pageAdded, this, pageAdded);
    connect(m_changedFiles, &ChangedFilesPanel::openRequested, this, &MainWindow::showFileChanges);
    connect(m_changedFiles, &ChangedFilesPanel::revertRequested, this, &MainWindow::revertFile);
    connect(m_sessions, &SessionsPanel::newRequested, this, &MainWindow::newConversation);
    connect(m_sessions,
            &SessionsPanel::newInWorktreeRequested,
            this,
            &MainWindow::newWorktreeSession);
    // A worktree session says so at all times: its edits are not in the main checkout.
    m_worktreeLabel = new ElidedLabel(this); // a long branch name must not widen the window
    m_worktreeLabel->setObjectName(QStringLiteral("worktreeLabel"));
    m_worktreeLabel->hide();
    m_statusBar->addPermanentWidget(m_worktreeLabel);
    connect(m_sessions, &SessionsPanel::textTyped, this, [this](const QString &text) {
        conversationPage()->composer()->setFocus(Qt::OtherFocusReason);
        conversationPage()->composer()->insertPlainText(text);
    });
    connect(m_sessions, &SessionsPanel::resumeRequested, this, &MainWindow::resumeSession);
    connect(m_sessions, &SessionsPanel::renameRequested, this, &MainWindow::renameSession);
    connect(m_sessionList,
            &SessionList::renameFailed,
            this,
            [this](const QString &, const QString &error) {
                statusBar()->showMessage(error, 15000);
            });
    connect(m_sessions, &SessionsPanel::deleteRequested, this, &MainWindow::deleteSession);
    m_notifier->setEnabled(DesktopNotifier::Kind::Approval, m_settings.notifyApprovals);
    m_notifier->setEnabled(DesktopNotifier::Kind::Finished, m_settings.notifyFinished);
    // A click on a notification: the window is up; the session comes as from the sessions list
    // (shown at once when it is open, as every running one is).
    connect(m_notifier, &DesktopNotifier::activated, this, [this](const QString &path) {
        if (!path.isEmpty() && (!m_session || path != m_session->sessionPath()))
            resumeSession(path);
    });

    createMenus();
    // Tab follows the layout: sessions, conversation, reviews, message box, side panel,
    // status bar (the widgets were made in another order).
    chainTabOrder(tabReachable(m_sessions) + tabReachable(conversationPage())
                  + tabReachable(m_sidePanel) + tabReachable(m_statusBar));
    setWindowTitle(QStringLiteral("AgentDesk"));
    resize(1200, 780);
    restoreLayout();
    conversationPage()->composer()->setFocus();
}

ConversationPage *MainWindow::conversationPage() const
{
    return m_pages->currentPage();
}

namespace {
// The session's background commands for the side panel; null before it is ready.
std::shared_ptr<AgentCore::BackgroundShells> backgroundShellsOf(const AgentSession *session)
{
    const AgentCore::CodingSession *coding = session ? session->codingSession() : nullptr;
    return coding ? coding->parts().shells : nullptr;
}
} // namespace

namespace {
const QLatin1String geometryKey("window/geometry");
const QLatin1String centreKey("window/centreSplitter");
const QLatin1String sidePanelKey("window/sidePanelSplitter");
const QLatin1String sidePanelVisibleKey("window/sidePanelVisible");
} // namespace

void MainWindow::restoreLayout()
{
    const QSettings settings;
    restoreGeometry(settings.value(geometryKey).toByteArray());
    m_centre->restoreState(settings.value(centreKey).toByteArray());
    m_sidePanel->restoreState(settings.value(sidePanelKey).toByteArray());
    m_sidePanelAction->setChecked(settings.value(sidePanelVisibleKey, true).toBool());
}

void MainWindow::saveLayout() const
{
    QSettings settings;
    settings.setValue(geometryKey, saveGeometry());
    // A hidden side panel has no width to remember: its last one is kept for when it comes back.
    if (m_sidePanelAction->isChecked())
        settings.setValue(centreKey, m_centre->saveState());
    settings.setValue(sidePanelKey, m_sidePanel->saveState());
    settings.setValue(sidePanelVisibleKey, m_sidePanelAction->isChecked());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (const int running = m_open->runningCount(); running > 0) {
        event->ignore(); // closed again once they all stopped
        if (m_closeWhenStopped)
            return;
        QMessageBox box(QMessageBox::Question,
                        tr("Close AgentDesk"),
                        tr("%n session(s) still running.", nullptr, running),
                        QMessageBox::Cancel,
                        this);
        box.setObjectName(QStringLiteral("closeRunningBox"));
        box.setInformativeText(tr("Closing stops them. What they did so far stays in their "
                                  "sessions, which you can resume later."));
        QPushButton *stop = box.addButton(tr("Stop and Close"), QMessageBox::AcceptRole);
        box.setDefaultButton(QMessageBox::Cancel);
        box.exec();
        if (box.clickedButton() != stop || m_open->runningCount() == 0) {
            if (box.clickedButton() == stop)
                QTimer::singleShot(0, this, &QWidget::close); // they ended meanwhile
            return;
        }
        m_closeWhenStopped = true;
        statusBar()->showMessage(tr("Stopping %n session(s)…", nullptr, running));
        m_open->stopAll();
        return;
    }
    saveLayout();
    QMainWindow::closeEvent(event);
}

MainWindow::~MainWindow()
{
    // The sessions (and their Agents) first: the reviews and panels point into them.
    disconnect(m_open, nullptr, this, nullptr);
    delete m_shown;
    m_shown = nullptr;
    m_pages->detachAll();
    m_followUps->setAgent(nullptr);
    m_session = nullptr;
    delete m_open;
    // Their servers stop in the background; the program waits for them as it ends.
    delete std::exchange(m_mcp, nullptr);
    McpServers::waitForStoppedServers();
}

bool MainWindow::openRepository(const QString &path)
{
    if (m_open->runningCount() > 0) {
        statusBar()->showMessage(tr("Stop the running tasks before opening another repository."));
        return false;
    }
    QString error;
    const std::optional<AgentCore::Repository> repo = AgentCore::Repository::open(path, &error);
    if (!repo) {
        statusBar()->showMessage(
            tr("Cannot open %1: %2").arg(QDir::toNativeSeparators(path), error));
        m_recent.remove(path);
        rebuildRecentMenu();
        return false;
    }
    m_repository = *repo;
    closeIfUnused(m_session); // its worktree, if it made one, goes too
    m_open->closeAll();
    startMcpServers();
    m_pages->setRepository(m_repository);
    const QString head = m_repository.headDescription();
    //: Window title: repository name, branch
    setWindowTitle(head.isEmpty() ? tr("%1 — AgentDesk").arg(m_repository.name())
                                  : tr("%1 (%2) — AgentDesk").arg(m_repository.name(), head));
    statusBar()->showMessage(QDir::toNativeSeparators(m_repository.root), 5000);
    m_recent.add(m_repository.root);
    rebuildRecentMenu();
    // git says whether the repository can have worktrees; meanwhile the entry is offered (a
    // worktree made too early fails with git's own words).
    m_sessions->setWorktreeUnavailableReason({});
    runInBackground(
        this,
        [root = m_repository.root] {
            return AgentCore::SessionWorktrees::unavailableReason(root); // off the UI thread
        },
        [this, root = m_repository.root](const QString &reason) {
            if (root == m_repository.root)
                m_sessions->setWorktreeUnavailableReason(reason);
        });
    m_sessionList->setDirectory(sessionsDirectory());
    startSession();
    emit repositoryChanged(m_repository);
    return true;
}

QString MainWindow::sessionsDirectory() const
{
    if (m_repository.root.isEmpty())
        return {};
    return m_setup.sessionsDirectory.isEmpty()
               ? AgentCore::SessionStore::defaultDirectory(m_repository.root)
               : m_setup.sessionsDirectory;
}

void MainWindow::updateSessionBadges()
{
    QStringList open;
    const QList<AgentSession *> sessions = m_open->sessions();
    for (const AgentSession *session : sessions)
        open.append(session->sessionPath());
    m_sessions->setOpenSessions(open, m_open->activities());
}

namespace {
/// A session file read to be resumed, with its worktree checked: on a worker thread.
struct ResumedFile
{
    /// Taken over (locked and read again) unless its worktree cannot be used; its resumed
    /// contents are missing when the file could not be read.
    AgentCore::CodingSessionFile recording;
    QString error; ///< why the contents are missing
    std::optional<AgentCore::SessionWorktree> worktree;
    QString worktreeProblem; ///< SessionWorktrees::check
};

ResumedFile readResumedFile(const QString &path)
{
    ResumedFile file;
    const auto paged = AgentCore::SessionLog::Paging::Paged; // long outputs stay in the file
    std::optional<AgentCore::SessionLog::Contents> contents
        = AgentCore::SessionLog::load(path, &file.error, paged); // off the UI thread
    if (!contents)
        return file;
    file.worktree = AgentCore::SessionWorktree::fromState(contents->state);
    // A resumed session's worktree may have been deleted or moved meanwhile.
    if (file.worktree) // git, off the UI thread
        file.worktreeProblem = AgentCore::SessionWorktrees::check(*file.worktree);
    if (!file.worktreeProblem.isEmpty()) {
        file.recording.path = path; // shown as it was, never taken over
        file.recording.resumed = std::move(contents);
    } else { // off the UI thread
        file.recording = AgentCore::CodingSessionFile::takeOver(path, std::move(*contents));
    }
    return file;
}

/// A future that is finished already with \a value.
QFuture<bool> finished(bool value)
{
    QPromise<bool> promise;
    promise.start();
    promise.addResult(value);
    promise.finish();
    return promise.future();
}
} // namespace

QFuture<bool> MainWindow::resumeSession(const QString &path)
{
    if (AgentSession *open = m_open->find(path)) {
        if (!open->isReadOnly()) {
            m_open->setCurrent(open);
            return finished(true);
        }
        // Read-only: another window had it; resuming again tries to take it over.
    }
    if (const auto reading = m_resuming.constFind(path); reading != m_resuming.cend())
        return *reading; // asked twice (a double click): one read, one session
    // Ends as the session is shown, or with false; cancelled when the window goes first.
    auto promise = std::make_shared<QPromise<bool>>();
    promise->start();
    QFuture<bool> shown = promise->future();
    m_resuming.insert(path, shown);
    const QString root = m_repository.root;
    runInBackground(
        this,
        [path] { return readResumedFile(path); },
        [this, path, root, promise](ResumedFile file) {
            m_resuming.remove(path);
            bool ok = false;
            if (root != m_repository.root) {
                // Another repository was opened meanwhile: its window does not show this one.
            } else if (!file.recording.resumed) {
                statusBar()->showMessage(file.error, 15000);
                m_sessionList->rescan();
            } else {
                if (AgentSession *readOnly = m_open->find(path))
                    m_open->close(readOnly);
                startSession(std::move(file.recording),
                             std::move(file.worktree),
                             file.worktreeProblem);
                ok = true;
            }
            promise->addResult(ok);
            promise->finish();
        });
    return shown;
}

QFuture<bool> MainWindow::forkSession()
{
    if (!m_session || !m_session->isReadOnly())
        return finished(false);
    auto promise = std::make_shared<QPromise<bool>>();
    promise->start();
    const QPointer<AgentSession> readOnly = m_session;
    runInBackground(
        this,
        [path = m_session->sessionPath()] {
            QString error;
            QString copy = AgentCore::SessionStore::fork(path, &error); // off the UI thread
            // Its row as the next scan would read it ("… (copy)", not an unsaved conversation),
            // read here, off the UI thread.
            AgentCore::SessionInfo info;
            if (!copy.isEmpty())
                info = AgentCore::SessionStore::describe(copy); // off the UI thread
            return std::tuple(copy, error, info);
        },
        [this, promise, readOnly](
            const std::tuple<QString, QString, AgentCore::SessionInfo> &forked) {
            const auto &[copy, error, info] = forked;
            if (copy.isEmpty()) {
                statusBar()->showMessage(error, 15000);
                promise->addResult(false);
                promise->finish();
                return;
            }
            m_sessionList->update(info);
            const QFuture<bool> resumed = resumeSession(copy);
            whenFinished(this, resumed, [this, promise, readOnly](bool ok) {
                // The copy takes the read-only one's place: that one is the other window's
                // to go on with.
                if (ok && readOnly)
                    m_open->close(readOnly);
                promise->addResult(ok);
                promise->finish();
            });
        });
    return promise->future();
}

namespace {
/// Beyond this many open sessions, the oldest idle ones are closed (reopened from the list).
constexpr int maxOpenSessions = 9;

/// Set on the window once it has painted: servers of a repository opened later start at once.
constexpr char firstPaintProperty[] = "agentdeskFirstPaintDone";

/// Runs \a run once after the first paint of \a window (after that paint round), or after
/// fallbackMs when the window is not painted by then (never shown). Owned by \a owner: gone
/// with it, unrun.
class AfterFirstPaint final : public QObject
{
public:
    static constexpr int fallbackMs = 1000;

    AfterFirstPaint(QWidget *window, QObject *owner, std::function<void()> run)
        : QObject(owner)
        , m_window(window)
        , m_run(std::move(run))
    {
        // Paint events go to the window's children: the application's filter sees them all.
        QCoreApplication::instance()->installEventFilter(this);
        QTimer::singleShot(fallbackMs, this, [this] { fire(); });
    }
    ~AfterFirstPaint() override { QCoreApplication::instance()->removeEventFilter(this); }

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint) {
            const auto widget = qobject_cast<QWidget *>(watched);
            if (widget && widget->window() == m_window) {
                QCoreApplication::instance()->removeEventFilter(this);
                QTimer::singleShot(0, this, [this] { fire(); });
            }
        }
        return false;
    }

private:
    void fire()
    {
        if (std::exchange(m_fired, true))
            return;
        QCoreApplication::instance()->removeEventFilter(this);
        m_run();
        deleteLater();
    }

    QWidget *m_window;
    std::function<void()> m_run;
    bool m_fired = false;
};
} // namespace

void MainWindow::startSession(AgentCore::CodingSessionFile recording,
                              std::optional<AgentCore::SessionWorktree> worktree,
                              const QString &worktreeProblem)
{
    AgentSession *previous = m_session;
    AgentCore::CodingAgentOptions options = m_setup.options;
    options.repositoryRoot = m_repository.root;
    options.context.windowTokens = contextWindow(m_setup.model).value_or(0);
    options.context.autoCompact = m_settings.autoCompact;
    options.sandbox.mode = m_setup.sandboxMode.value_or(m_settings.sandboxMode);
    options.sandbox.allowNetwork = m_setup.sandboxNetwork || m_settings.sandboxNetwork;
    options.permissions.networkRules += AppSettings::parseNetworkRules(
        m_settings.sandboxNetworkRules);
    options.sandbox.readablePaths += m_settings.expandedReadablePaths();
    // Read before each command, so a change in the settings applies at once.
    options.shellWrites.review = [review = m_reviewShellWrites] { return review->load(); };
    m_reviewShellWrites->store(m_settings.reviewShellWrites);
    m_settings.applyLanguageServers(options.languageServers);
    if (m_mcp)
        options.tools.perRun = m_mcp->toolSource();
    SessionFile file;
    file.recording = std::move(recording);
    if (file.recording.path.isEmpty())
        file.recording.path = AgentCore::SessionStore(sessionsDirectory()).newSessionPath();
    file.recording.header = AgentCore::SessionStore::newHeader(m_repository.root);
    const QJsonObject resumedState = file.recording.resumed ? file.recording.resumed->state
                                                            : QJsonObject();
    if (worktree) {
        // A resumed session's worktree may have been deleted or moved meanwhile: the session
        // is then read-only, never run in the main checkout instead.
        const QString &problem = worktreeProblem;
        if (problem.isEmpty()) {
            options.repositoryRoot = worktree->path;
        } else {
            file.worktreeProblem = tr("This session works in the git worktree of branch %1, "
                                      "which cannot be used: %2 It does not run in your main "
                                      "checkout instead.")
                                       .arg(worktree->branch, problem);
            statusBar()->showMessage(file.worktreeProblem, 30000);
        }
        file.worktree = worktree;
    }
    auto session = new AgentSession(std::move(options), m_setup.model, std::move(file), this);
    // What every open session does, shown or not.
    m_notifier->watch(session);
    connect(session, &AgentSession::recorded, m_sessionList, [this, session] {
        m_sessionList->sessionRecorded(session);
    });
    connect(session, &AgentSession::ready, this, [this, session] {
        applyContextSettings(session); // the model may have changed while it was assembled
        // Read-only, the queue belongs to the window that has the session open.
        if (session == m_session) {
            m_followUps->setAgent(session->isReadOnly() ? nullptr : session->agent());
            m_shellsPanel->setShells(backgroundShellsOf(session));
            confirmResumedBypass();
        }
    });
    connect(session, &AgentSession::warning, this, [this](const QString &message) {
        statusBar()->showMessage(message, 15000);
    });
    connect(session,
            &AgentSession::sandboxUnavailable,
            m_sandboxNotice,
            &SandboxNoticeBar::showNotice);
    connect(session,
            &AgentSession::projectTrustNeeded,
            this,
            [this, session](const QStringList &grants) {
                auto dialog = new ProjectTrustDialog(session->repositoryRoot(), grants, this);
                dialog->setAttribute(Qt::WA_DeleteOnClose);
                connect(dialog, &QDialog::accepted, session, &AgentSession::trustProjectSettings);
                connect(session, &QObject::destroyed, dialog, &QDialog::reject);
                m_dialogs->open(dialog); // one question at a time
            });
    connect(session,
            &AgentSession::sessionRulesNeedConfirmation,
            this,
            [this, session](const QStringList &rules) {
                auto dialog = new SessionRulesDialog(session->title(), rules, this);
                dialog->setAttribute(Qt::WA_DeleteOnClose);
                connect(dialog, &QDialog::accepted, session, &AgentSession::keepSessionRules);
                connect(dialog, &QDialog::rejected, session, &AgentSession::dropSessionRules);
                // Closed with its session: unanswered, the rules stay in the file, unapplied.
                connect(session, &QObject::destroyed, dialog, &QObject::deleteLater);
                m_dialogs->open(dialog); // one question at a time
            });
    m_open->add(session);
    m_open->setCurrent(session);
    m_statusBar->resetBypassConfirmation(); // asked once per session
    restoreSessionModel(resumedState);
    closeIfUnused(previous);
    m_open->closeIdleBeyond(maxOpenSessions);
}

void MainWindow::startMcpServers()
{
    // The sessions of the previous repository are closed: nothing calls its servers now.
    delete m_mcp;
    McpServers::Options options;
    options.repositoryRoot = m_repository.root;
    options.userServers = m_settings.mcpServers.toUtf8();
    options.disabled = m_settings.disabledMcpServers;
    options.trustStorePath = m_setup.options.permissions.projectTrustPath;
    options.environment = m_setup.environment;
    options.filter = m_setup.options.commandEnvironment;
    m_mcp = new McpServers(options, m_keys, this);
    connect(m_mcp, &McpServers::serverFailed, this, [this](const QString &name, const QString &why) {
        statusBar()->showMessage(tr("MCP server %1: %2").arg(name, why), 15000);
    });
    connect(m_mcp, &McpServers::disabledChanged, this, [this](const QStringList &disabled) {
        m_settings.disabledMcpServers = disabled;
        saveSettings();
    });
    connect(m_mcp, &McpServers::trustNeeded, this, [this, mcp = m_mcp](const QStringList &servers) {
        auto dialog = new ProjectTrustDialog(ProjectTrustDialog::Subject::McpServers,
                                             mcp->repositoryRoot(),
                                             servers,
                                             this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QDialog::accepted, mcp, &McpServers::trust);
        connect(mcp, &QObject::destroyed, dialog, &QDialog::reject);
        m_dialogs->open(dialog); // one question at a time
    });
    // The composers offer the servers' resources and prompts once they are listed.
    m_pages->setMcpCompletions(McpCompletions::of(m_mcp));
    // Five node servers starting beside the window on two cores delayed its first paint by
    // 0.4 s (docs/benchmarks.md, MCP): their processes start once the window has painted.
    if (!property(firstPaintProperty).toBool()) {
        m_mcp->holdStarts();
        new AfterFirstPaint(this, m_mcp, [this, mcp = m_mcp] {
            setProperty(firstPaintProperty, true);
            mcp->releaseStarts();
        });
    }
    m_mcp->start();
}

void MainWindow::closeIfUnused(AgentSession *session)
{
    if (!session || m_open->indexOf(session) < 0 || QFile::exists(session->sessionPath())
        || (session->state() != AgentSession::State::Idle
            && session->state() != AgentSession::State::Preparing)) {
        return;
    }
    // A worktree session that never recorded anything left no file to find its worktree by
    // (deleting the session removes the worktree): nothing ran in it, so it goes now.
    const std::optional<AgentCore::SessionWorktree> worktree = session->worktree();
    const bool usable = session->worktreeProblem().isEmpty();
    m_open->close(session);
    if (worktree && usable)
        removeUnusedWorktree(*worktree);
}

void MainWindow::removeUnusedWorktree(const AgentCore::SessionWorktree &worktree)
{
    // git removes a checked-out tree: not on the UI thread. Nothing waits for it; the global
    // pool finishes it before the program ends.
    const QFuture<QString> removed = QtConcurrent::run([worktree] {
        return AgentCore::SessionWorktrees::remove(worktree, true); // off the UI thread
    });
    Q_UNUSED(removed)
}

void MainWindow::showSession(AgentSession *session)
{
    delete m_shown;
    m_shown = nullptr;
    m_session = session;
    m_followUps->setAgent(nullptr);
    m_shellsPanel->setShells(backgroundShellsOf(session));
    if (!session) {
        m_changedFiles->setFiles({});
        return;
    }
    // Connections to the shown session and its page only, gone when another is shown.
    QObject *shown = m_shown = new QObject(this);
    ConversationPage *page = conversationPage();
    connect(page->reviews(), &ReviewQueue::countChanged, shown, [this](int count) {
        m_statusBar->setPendingReviews(count);
    });
    m_statusBar->setPendingReviews(page->reviews()->count());
    connect(session, &AgentSession::eventEmitted, shown, [this](const AgentCore::AgentEvent &event) {
        // A compaction's summary request is billed like a reply.
        if (event.type == AgentCore::AgentEvent::Type::MessageEnd
            && (event.message.isAssistant() || AgentCore::isCompactionMessage(event.message)))
            m_usage.add(event.message); // the status bar follows with contextChanged
    });
    // A subagent's replies are billed too; they are no part of the conversation's context.
    connect(session,
            &AgentSession::subagentEvent,
            shown,
            [this](const AgentCore::SubagentEvent &event) {
                if (event.event.type == AgentCore::AgentEvent::Type::MessageEnd
                    && event.event.message.isAssistant()) {
                    m_usage.add(event.event.message, /*ofConversation=*/false);
                    updateContext();
                }
            });
    connect(session, &AgentSession::contextChanged, shown, [this] { updateContext(); });
    connect(session, &AgentSession::stateChanged, shown, [this](AgentSession::State state) {
        onSessionState(state);
    });
    connect(session,
            &AgentSession::permissionModeChanged,
            shown,
            [this](AgentCore::PermissionMode mode) { m_statusBar->setPermissionMode(mode); });
    connect(session, &AgentSession::changedFilesChanged, shown, [this] {
        m_changedFiles->setFiles(m_session->changedFiles());
    });
    connect(session, &AgentSession::modelChanged, shown, [this](const ModelChoice &model) {
        m_statusBar->setModel(model);
    });
    connect(session, &AgentSession::compactionStarted, shown, [this](bool waiting) {
        if (waiting)
            showCompactionProgress(tr("Summarising the older part of the conversation so "
                                      "that the next request fits…"));
    });
    connect(session, &AgentSession::compacted, shown, [this] {
        statusBar()->showMessage(tr("The conversation was compacted."), 8000);
    });
    connect(session, &AgentSession::compactionFailed, shown, [this](const QString &problem) {
        statusBar()->showMessage(problem, 15000);
    });
    if (session->agent() && !session->isReadOnly())
        m_followUps->setAgent(session->agent());
    m_changedFiles->setFiles(session->changedFiles());
    m_statusBar->setModel(session->model());
    m_statusBar->setModelSelection(session->model().selection, m_settings.recentModels);
    m_statusBar->setPermissionMode(session->permissionMode());
    if (session->agent())
        confirmResumedBypass();
    resetUsage();
    onSessionState(session->state());
    m_sessionList->setCurrent(session->sessionPath()); // reads no file
    // Tab goes through the page shown, in the layout's order.
    chainTabOrder(tabReachable(m_sessions) + tabReachable(page) + tabReachable(m_sidePanel)
                  + tabReachable(m_statusBar));
}

void MainWindow::confirmResumedBypass()
{
    // The file's bypass (a headless run's, any tool's) is asked about like choosing it; the
    // session runs in the mode it would have had without it until the answer.
    if (m_session && m_session->bypassUnconfirmed()) {
        if (QMessageBox *question = m_statusBar->makeBypassQuestion())
            m_dialogs->open(question); // after a trust question that came first
    }
}

void MainWindow::newWorktreeSession()
{
    if (m_repository.root.isEmpty() || m_makingWorktree)
        return;
    const QString path = AgentCore::SessionStore(sessionsDirectory()).newSessionPath();
    const QString id = AgentCore::SessionStore::idOf(path);
    const QString root = m_repository.root;
    const QString dataRoot = m_setup.worktreesDirectory.isEmpty()
                                 ? AgentCore::SessionWorktrees::defaultRoot()
                                 : m_setup.worktreesDirectory;
    m_makingWorktree = true;
    statusBar()->showMessage(tr("Making a git worktree for the new session…"));
    // git checks out the whole tree: not on the UI thread.
    runInBackground(
        this,
        [root, dataRoot, id] {
            return AgentCore::SessionWorktrees::create(root, // off the UI thread
                                                       dataRoot,
                                                       QStringLiteral("session"),
                                                       id);
        },
        [this, root, path](const AgentCore::SessionWorktrees::Created &created) {
            worktreeCreated(root, path, created.worktree, created.error);
        });
}

void MainWindow::worktreeCreated(const QString &repositoryRoot,
                                 const QString &path,
                                 const std::optional<AgentCore::SessionWorktree> &worktree,
                                 const QString &error)
{
    m_makingWorktree = false;
    if (!worktree) {
        statusBar()->showMessage(tr("No worktree was made: %1").arg(error), 15000);
        return;
    }
    // The user opened another repository meanwhile: the worktree is not used, so it does not
    // stay behind.
    if (repositoryRoot != m_repository.root) {
        removeUnusedWorktree(*worktree);
        statusBar()->showMessage(tr("The worktree session was not started: another repository "
                                    "is open."),
                                 8000);
        return;
    }
    AgentCore::CodingSessionFile recording;
    recording.path = path;
    startSession(std::move(recording), worktree);
    statusBar()->showMessage(tr("This session works on branch %1 in %2; your checkout is not "
                                "touched until you bring its changes back.")
                                 .arg(worktree->branch, QDir::toNativeSeparators(worktree->path)),
                             15000);
    conversationPage()->composer()->setFocus(Qt::OtherFocusReason);
}

void MainWindow::updateWorktreeControls()
{
    const std::optional<AgentCore::SessionWorktree> worktree = m_session ? m_session->worktree()
                                                                         : std::nullopt;
    const bool usable = worktree && m_session->worktreeProblem().isEmpty();
    if (worktree) {
        //: Status bar: the session edits a git worktree on this branch, not the main checkout
        m_worktreeLabel->setText(usable ? tr("Worktree: %1").arg(worktree->branch)
                                        : tr("Worktree unusable: %1").arg(worktree->branch));
        m_worktreeLabel->setToolTip(usable ? QDir::toNativeSeparators(worktree->path)
                                           : m_session->worktreeProblem());
    }
    m_worktreeLabel->setVisible(worktree.has_value());
    const bool idle = usable && !m_worktreeBusy && m_session->state() == AgentSession::State::Idle;
    m_bringBackAction->setEnabled(idle);
    m_keepAsBranchAction->setEnabled(idle);
}

void MainWindow::setWorktreeBusy(bool busy)
{
    m_worktreeBusy = busy;
    updateWorktreeControls();
}

void MainWindow::bringBackChanges()
{
    if (!m_bringBackAction->isEnabled() || !m_session || !m_session->worktree())
        return;
    const AgentCore::SessionWorktree worktree = *m_session->worktree();
    setWorktreeBusy(true);
    statusBar()->showMessage(tr("Reading the changes of branch %1…").arg(worktree.branch));
    runInBackground(
        this,
        [worktree] { return AgentCore::SessionWorktrees::changes(worktree); }, // off the UI thread
        [this, worktree](const AgentCore::WorktreeChanges &changes) {
            setWorktreeBusy(false);
            statusBar()->clearMessage();
            showBringBackReview(worktree, changes);
        });
}

void MainWindow::showBringBackReview(const AgentCore::SessionWorktree &worktree,
                                     const AgentCore::WorktreeChanges &changes)
{
    if (!changes.error.isEmpty()) {
        statusBar()->showMessage(changes.error, 15000);
        return;
    }
    if (changes.changes.isEmpty()) {
        statusBar()->showMessage(tr("Branch %1 has no changes to bring back.").arg(worktree.branch),
                                 8000);
        return;
    }
    AgentCore::PermissionRequest request = AgentCore::SessionWorktrees::reviewRequest(worktree,
                                                                                      changes);
    request.id = 1;
    auto dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("bringBackDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Bring Back Changes of %1").arg(worktree.branch));
    auto view = new ShellWritesReviewView(dialog);
    auto layout = new QVBoxLayout(dialog);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view);
    view->setRequest(request);
    // A conflict is never written: it starts unchecked, so what is checked is what comes back.
    for (auto it = changes.conflicts.cbegin(); it != changes.conflicts.cend(); ++it)
        view->setChangeAccepted(it.key(), false);
    // The Bash writes' journals: replayed when the next agent is made, after a crash.
    const QString journal = m_setup.options.shellWrites.folder.isEmpty()
                                ? QString(QDir::tempPath()
                                          + QStringLiteral("/agentdesk-worktree-journal"))
                                : QString(m_setup.options.shellWrites.folder
                                          + QStringLiteral("/journal"));
    connect(view,
            &ShellWritesReviewView::answered,
            dialog,
            [this,
             dialog,
             worktree,
             changes,
             request,
             journal](quint64, const AgentCore::PermissionAnswer &answer) {
                dialog->accept();
                if (answer.choice == AgentCore::PermissionAnswer::Choice::Deny) {
                    statusBar()->showMessage(tr("Nothing was brought back."), 8000);
                    return;
                }
                const QHash<int, AgentCore::ShellWriteApplier::Choice> choices
                    = AgentCore::ShellWritesReview::choices(request, answer);
                setWorktreeBusy(true);
                statusBar()->showMessage(
                    tr("Bringing back the changes of branch %1…").arg(worktree.branch));
                runInBackground(
                    this,
                    [worktree, changes, choices, journal] {
                        return AgentCore::SessionWorktrees::bringBack(worktree, // off the UI thread
                                                                      changes,
                                                                      choices,
                                                                      journal);
                    },
                    [this, worktree, changes](const AgentCore::ShellWriteApplier::Outcome &outcome) {
                        setWorktreeBusy(false);
                        if (!outcome.error.isEmpty()) {
                            statusBar()
                                ->showMessage(tr("Nothing was brought back: %1").arg(outcome.error),
                                              15000);
                            return;
                        }
                        QStringList failed;
                        for (auto it = outcome.failed.cbegin(); it != outcome.failed.cend(); ++it)
                            failed.append(
                                tr("%1: %2").arg(changes.changes.value(it.key()).path, it.value()));
                        failed.sort();
                        QString message = tr("Brought back %n file(s) from %1.",
                                             nullptr,
                                             int(outcome.applied.size()))
                                              .arg(worktree.branch);
                        if (!failed.isEmpty())
                            message += QLatin1Char(' ')
                                       + tr("Not brought back: %1")
                                             .arg(failed.join(QStringLiteral("; ")));
                        statusBar()->showMessage(message, 30000);
                    });
            });
    dialog->resize(980, 680);
    dialog->open();
}

void MainWindow::keepAsBranch()
{
    if (!m_keepAsBranchAction->isEnabled() || !m_session || !m_session->worktree())
        return;
    const AgentCore::SessionWorktree worktree = *m_session->worktree();
    const QString title = m_session->title();
    const QString message = title.isEmpty() ? tr("AgentDesk session")
                                            : tr("AgentDesk session: %1").arg(title);
    setWorktreeBusy(true);
    statusBar()->showMessage(tr("Committing the session's work on branch %1…").arg(worktree.branch));
    runInBackground(
        this,
        [worktree, message] {
            return AgentCore::SessionWorktrees::keepAsBranch(worktree, message); // off the UI thread
        },
        [this, worktree](const QString &error) {
            setWorktreeBusy(false);
            statusBar()->showMessage(
                error.isEmpty()
                    ? tr("The session's work is kept on branch %1.").arg(worktree.branch)
                    : tr("Branch %1 could not keep the work: %2").arg(worktree.branch, error),
                15000);
        });
}

void MainWindow::showFileChanges(const QString &path)
{
    // Non-modal: the user may keep it open next to the conversation while the agent works.
    auto dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("fileDiffDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    auto view = new FileDiffView(dialog);
    auto layout = new QVBoxLayout(dialog);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view);
    view->showFile(m_repository.root, path);
    dialog->setWindowTitle(view->title());
    // The session's files can go back to how they were; the dialog shows the result (the
    // file against HEAD again) once the rewind is recorded.
    const QList<ChangedFile> files = m_session ? m_session->changedFiles() : QList<ChangedFile>();
    const bool changed = std::any_of(files.cbegin(), files.cend(), [&path](const ChangedFile &file) {
        return file.path == path;
    });
    view->setRevertable(changed);
    connect(view, &FileDiffView::revertRequested, this, [this, view](const QString &file) {
        if (!revertFile(file))
            return;
        view->setRevertable(false);
        connect(conversationPage()->rewindController(),
                &RewindController::rewound,
                view,
                [this, view, file] { view->showFile(m_repository.root, file); });
    });
    connect(view, &FileDiffView::openInEditorRequested, this, [this](const QString &file) {
        if (!QDesktopServices::openUrl(QUrl::fromLocalFile(file)))
            statusBar()->showMessage(tr("No application could open %1.")
                                         .arg(QDir::toNativeSeparators(file)),
                                     8000);
    });
    dialog->resize(900, 640);
    dialog->show();
}

bool MainWindow::revertFile(const QString &path)
{
    if (!m_session)
        return false;
    const QList<ChangedFile> files = m_session->changedFiles();
    const auto file = std::find_if(files.cbegin(), files.cend(), [&path](const ChangedFile &f) {
        return f.path == path;
    });
    if (file == files.cend())
        return false;
    // The checkpoints name the repository's files relative to its top, '/'-separated.
    const QString relative = QDir(m_session->repositoryRoot()).relativeFilePath(file->path);
    const qsizetype first = m_session->firstChangeOf(file->path);
    return conversationPage()->rewindController()->revertFile(relative, qMax<qsizetype>(0, first));
}

// A summary the run waits for: shown until it is done, fails, or the run ends without it
// (stopped while it was written); never longer.
void MainWindow::showCompactionProgress(const QString &text)
{
    m_compactionProgress = text;
    statusBar()->showMessage(text);
}

void MainWindow::onSessionState(AgentSession::State state)
{
    // A run that ended (or another session shown) takes the progress of the summary it
    // waited for with it.
    if (state != AgentSession::State::Running && !m_compactionProgress.isEmpty()) {
        if (statusBar()->currentMessage() == m_compactionProgress)
            statusBar()->clearMessage();
        m_compactionProgress.clear();
    }
    m_statusBar->setRunState(state);
    m_stopAction->setEnabled(state == AgentSession::State::Running);
    // A new session starts beside a running one, which goes on.
    m_newConversationAction->setEnabled(!m_repository.root.isEmpty());
    updateWorktreeControls();
}

void MainWindow::newConversation()
{
    if (!m_repository.root.isEmpty()) {
        startSession();
        // From the New button or the sessions list: what the user types next is the task.
        conversationPage()->composer()->setFocus(Qt::OtherFocusReason);
    }
}

void MainWindow::keyPressEvent(QKeyEvent *event)
{
    // Esc that the focused widget (a list, a panel, the status bar) did not use.
    if (event->key() == Qt::Key_Escape
        && (event->modifiers() & ~Qt::KeypadModifier) == Qt::NoModifier
        && conversationPage()->escape()) {
        event->accept();
        return;
    }
    QMainWindow::keyPressEvent(event);
}

void MainWindow::chooseModel(const std::optional<ModelSelection> &selection)
{
    m_commandLineModelInUse = false; // the user switched
    if (selection)
        m_settings.rememberModel(*selection);
    m_settings.model = selection;
    saveSettings();
    // Another thinking level for the command line's model keeps the command line's key.
    if (selection && applyCommandLineModel(*selection))
        return;
    applyModel(selection ? ModelResolver::pending(*selection) : ModelResolver::demo());
    resolveModel(selection);
}

void MainWindow::resolveModel(const std::optional<ModelSelection> &selection)
{
    const quint64 request = ++m_modelRequest;
    m_resolver->resolve(selection, this, [this, request](const ModelChoice &choice) {
        if (request == m_modelRequest) // the user chose again meanwhile
            applyModel(choice);
    });
}

void MainWindow::applyModel(const ModelChoice &choice)
{
    // The demo answers: the welcome page offers what this computer already has. Looked for
    // once, and only then: a configured model needs no offer.
    if (choice.isDemo && !m_discovery) {
        m_discovery = new ModelDiscovery(m_keys, m_setup.environment, this);
        if (m_setup.localModelPorts)
            m_discovery->setLocalPorts(*m_setup.localModelPorts);
        connect(m_discovery, &ModelDiscovery::finished, m_pages, &SessionPages::setModelOffers);
        m_discovery->discover();
    }
    m_setup.model = choice; // also for the next conversation
    if (m_session)
        m_session->setModel(choice);
    m_statusBar->setModel(choice);
    m_statusBar->setModelSelection(choice.selection, m_settings.recentModels);
    m_usage.contextWindow = contextWindow(choice);
    updateContext();
    applyContextSettings(m_session);
}

void MainWindow::applyContextSettings(AgentSession *session)
{
    AgentCore::ContextManager *manager = session ? session->contextManager() : nullptr;
    if (!manager)
        return;
    AgentCore::ContextSettings settings = manager->settings();
    settings.windowTokens = contextWindow(session->model()).value_or(0);
    settings.autoCompact = m_settings.autoCompact;
    manager->setSettings(settings);
}

void MainWindow::restoreSessionModel(const QJsonObject &state)
{
    const QJsonObject model = state.value(u"model").toObject();
    if (model.value(u"demo").toBool()) {
        ++m_modelRequest; // a key still being read for the previous model no longer applies
        applyModel(ModelResolver::demo());
    } else if (const std::optional<ModelSelection> selection = ModelSelection::fromJson(model)) {
        // Made with the command line's model: it goes on with it, key and all, rather than
        // with whatever the key store has for that endpoint.
        if (applyCommandLineModel(*selection))
            return;
        m_commandLineModelInUse = false;
        applyModel(ModelResolver::pending(*selection));
        resolveModel(selection);
    }
}

bool MainWindow::applyCommandLineModel(const ModelSelection &selection)
{
    if (!m_commandLineModel || !m_commandLineModel->selection
        || !selection.sameModelAs(*m_commandLineModel->selection)) {
        return false;
    }
    ++m_modelRequest; // a key still being read for another model no longer applies
    ModelChoice choice = *m_commandLineModel;
    choice.selection->thinking = selection.thinking;
    if (choice.provider)
        choice.provider->thinkingBudget = thinkingBudget(selection.thinking);
    m_commandLineModelInUse = true;
    applyModel(choice);
    return true;
}

std::optional<qint64> MainWindow::contextWindow(const ModelChoice &choice) const
{
    // A model chosen in the settings: the catalog's window, else the one the user gave.
    if (choice.selection)
        return m_settings.contextWindow(*choice.selection);
    if (choice.provider)
        return AgentCore::contextWindowTokens(choice.provider->provider, choice.provider->model);
    return std::nullopt;
}

void MainWindow::resetUsage()
{
    m_usage = summarizeUsage(m_session ? m_session->conversation() : QList<AgentCore::Message>(),
                             contextWindow(m_session ? m_session->model() : m_setup.model));
    if (m_session) {
        for (const AgentCore::Message &reply : m_session->subagentReplies())
            m_usage.add(reply, /*ofConversation=*/false);
    }
    updateContext();
}

void MainWindow::updateContext()
{
    if (m_session)
        m_usage.contextTokens = m_session->contextMeter().tokens().total;
    m_statusBar->setUsage(m_usage);
    if (m_contextDialog && m_session) {
        m_contextDialog->setSnapshot(ContextSnapshot::of(m_session->contextMeter(),
                                                         m_session->instructions(),
                                                         m_usage.contextWindow,
                                                         m_session->skillsSection(),
                                                         m_session->toolOffer()));
        m_contextDialog->setPages(m_session->codingSession()->pages());
        m_contextDialog->setEdits(m_session->shownContextEdits());
        m_contextDialog->setEditsAvailable(m_session->contextManager() && !m_session->isReadOnly());
    }
}

ContextDialog *MainWindow::contextDialog() const
{
    return m_contextDialog;
}

void MainWindow::showContextView()
{
    if (!m_session)
        return;
    if (!m_contextDialog) {
        m_contextDialog = new ContextDialog(this);
        m_contextDialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(m_contextDialog, &ContextDialog::dropRequested, this, [this](const QString &id) {
            if (m_session)
                m_session->dropToolOutput(id);
        });
        connect(m_contextDialog,
                &ContextDialog::pinRequested,
                this,
                [this](qsizetype index, bool pinned) {
                    if (m_session)
                        m_session->pinMessage(index, pinned);
                });
    }
    updateContext();
    m_contextDialog->show();
    m_contextDialog->raise();
    m_contextDialog->activateWindow();
}

void MainWindow::showSettings()
{
    auto dialog = new SettingsDialog(m_settings, m_keys, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setMcpServers(m_mcp);
    if (m_session && m_session->codingSession()->parts().hooks) {
        const std::shared_ptr<AgentCore::HookRunner> &hooks
            = m_session->codingSession()->parts().hooks;
        dialog->setHooks(hooks->config().hooks, hooks->untrustedGrants());
    }
    // The fields show the model this window talks to, which is not the saved default when the
    // command line (or a resumed session) chose another.
    if (m_setup.model.isDemo || m_setup.model.selection) {
        QString reason;
        if (m_commandLineModelInUse) {
            const QString saved = m_settings.model ? m_settings.model->label()
                                                   : tr("the offline demo");
            reason = tr("This window uses the model given on the command line (--provider, "
                        "--model, --base-url) instead of the saved default, %1. Change the model "
                        "here to make it the default and use it.")
                         .arg(saved);
        }
        dialog->setModelInUse(m_setup.model.isDemo ? std::nullopt : m_setup.model.selection, reason);
    }
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        applySettings(dialog->settings(), dialog->modelChanged());
    });
    dialog->open();
}

void MainWindow::applySettings(const AppSettings &settings, bool modelChanged)
{
    if (settings.theme != m_settings.theme)
        applyTheme(settings.theme);
    if (settings.maxTurns != m_settings.maxTurns)
        m_setup.options.maxTurns = settings.maxTurns; // from the next conversation on
    const bool mcpChanged = settings.mcpServers != m_settings.mcpServers;
    const QStringList disabledMcp = m_settings.disabledMcpServers; // switched in the dialog, live
    m_settings = settings;
    m_settings.disabledMcpServers = disabledMcp;
    if (m_mcp && mcpChanged)
        m_mcp->setUserServers(settings.mcpServers.toUtf8());
    for (AgentSession *session : m_open->sessions()) {
        session->setSandbox(m_setup.sandboxMode.value_or(settings.sandboxMode),
                            m_setup.sandboxNetwork || settings.sandboxNetwork);
        session->setNetworkRules(m_setup.options.permissions.networkRules
                                 + AppSettings::parseNetworkRules(settings.sandboxNetworkRules));
    }
    m_reviewShellWrites->store(settings.reviewShellWrites);
    m_notifier->setEnabled(DesktopNotifier::Kind::Approval, settings.notifyApprovals);
    m_notifier->setEnabled(DesktopNotifier::Kind::Finished, settings.notifyFinished);
    // The window the user gave for this model may be new.
    m_usage.contextWindow = contextWindow(m_setup.model);
    updateContext();
    // The same auto-compaction for every open session; the window only for the shown one's
    // model (the others keep theirs).
    for (AgentSession *session : m_open->sessions())
        applyContextSettings(session);
    if (modelChanged) {
        chooseModel(settings.model);
        return;
    }
    saveSettings();
    // The same model: its key may be new, unless the command line gave the key.
    if (m_commandLineModelInUse && m_setup.model.problem.isEmpty())
        return;
    if (m_setup.model.isDemo || m_setup.model.selection)
        resolveModel(m_setup.model.isDemo ? std::nullopt : m_setup.model.selection);
}

void MainWindow::saveSettings()
{
    QSettings settings;
    m_settings.save(settings);
}

void MainWindow::renameSession(const QString &path, const QString &title)
{
    AgentSession *open = m_open->find(path);
    if (open && !open->isReadOnly())
        open->setTitle(title); // its recorder owns the file; its row follows recorded()
    else
        m_sessionList->rename(path, title); // a failure is said through renameFailed
}

namespace {
/// What deleting a session would lose: read on a worker thread.
struct SessionWorktreeState
{
    std::optional<AgentCore::SessionWorktree> worktree;
    QString title;
    bool uncommitted = false; ///< the worktree has changes not committed on its branch
};
} // namespace

void MainWindow::deleteSession(const QString &path)
{
    // remove() forces the worktree away with what it has not committed: the user may keep
    // that on the session's branch first.
    runInBackground(
        this,
        [path] {
            SessionWorktreeState found;
            QString unreadable; // the removal says it
            const std::optional<AgentCore::SessionLog::Contents> contents
                = AgentCore::SessionLog::load(path, &unreadable); // off the UI thread
            if (!contents)
                return found;
            found.worktree = AgentCore::SessionWorktree::fromState(contents->state);
            found.title = contents->state.value(u"title").toString();
            if (found.worktree) // git status, off the UI thread
                found.uncommitted = AgentCore::SessionWorktrees::hasUncommittedChanges(
                    found.worktree->path);
            return found;
        },
        [this, path](const SessionWorktreeState &found) {
            if (!found.uncommitted) {
                deleteSessionFile(path);
                return;
            }
            QMessageBox box(QMessageBox::Warning,
                            tr("Delete Session"),
                            tr("The session's worktree has changes that are not committed on its "
                               "branch %1.")
                                .arg(found.worktree->branch),
                            QMessageBox::Cancel,
                            this);
            box.setObjectName(QStringLiteral("deleteWorktreeBox"));
            box.setInformativeText(tr("Deleting the session removes its worktree with them. Keep "
                                      "them as a commit on the branch first?"));
            QPushButton *keep = box.addButton(tr("Keep as Branch and Delete"),
                                              QMessageBox::AcceptRole);
            QPushButton *discard = box.addButton(tr("Delete Changes"), QMessageBox::DestructiveRole);
            box.setDefaultButton(keep);
            box.exec();
            if (box.clickedButton() == discard) {
                deleteSessionFile(path);
                return;
            }
            if (box.clickedButton() != keep)
                return;
            statusBar()->showMessage(
                tr("Committing the session's work on branch %1…").arg(found.worktree->branch));
            runInBackground(
                this,
                [worktree = *found.worktree,
                 message = tr("AgentDesk session: %1").arg(found.title)] {
                    return AgentCore::SessionWorktrees::keepAsBranch(worktree, // off the UI thread
                                                                     message);
                },
                [this, path](const QString &problem) {
                    if (!problem.isEmpty()) {
                        statusBar()->showMessage(tr("The session was not deleted: %1").arg(problem),
                                                 15000);
                        return;
                    }
                    deleteSessionFile(path);
                });
        });
}

void MainWindow::deleteSessionFile(const QString &path)
{
    // The open session goes first (a running one is aborted: the sessions list asked), so its
    // recorder does not write the file again as it closes.
    if (AgentSession *open = m_open->find(path)) {
        const bool shown = open == m_session;
        m_open->close(open);
        if (shown)
            startSession();
    }
    struct Removal
    {
        QString error;
        QString warning; ///< the session's worktree, if it had one, could not be removed
    };
    runInBackground(
        this,
        [path] {
            Removal removal;
            if (QFile::exists(path))
                AgentCore::SessionStateFile::remove(path, // off the UI thread
                                                    &removal.error,
                                                    &removal.warning);
            return removal;
        },
        [this, path](const Removal &removal) {
            if (!removal.error.isEmpty())
                statusBar()->showMessage(removal.error, 15000);
            else if (!removal.warning.isEmpty())
                statusBar()->showMessage(removal.warning, 15000);
            m_sessionList->remove(path);
        });
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open Repository…"), this, &MainWindow::chooseRepository);
    Shortcuts::apply(open, Shortcut::OpenRepository);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    Shortcuts::apply(quit, Shortcut::Quit);

    QMenu *agent = menuBar()->addMenu(tr("&Agent"));
    m_newConversationAction = agent->addAction(tr("&New Conversation"),
                                               this,
                                               &MainWindow::newConversation);
    Shortcuts::apply(m_newConversationAction, Shortcut::NewConversation);
    m_newConversationAction->setEnabled(false);
    m_shortcuts = new SessionShortcuts(m_open, this, agent);
    m_inbox = new ApprovalInboxDialog(m_open, this, agent);
    connect(m_shortcuts, &SessionShortcuts::switched, this, [this] {
        conversationPage()->composer()->setFocus(Qt::ShortcutFocusReason);
    });
    agent->addSeparator();
    m_stopAction = agent->addAction(tr("&Stop"), this, [this] {
        if (m_session)
            m_session->stop();
    });
    // Esc stops too, unless the focused widget or a waiting review uses it (keyPressEvent);
    // this one works from anywhere, always.
    Shortcuts::apply(m_stopAction, Shortcut::Stop);
    m_stopAction->setEnabled(false);
    QAction *compact = agent->addAction(tr("&Compact Conversation…"),
                                        this,
                                        &MainWindow::showCompactDialog);
    Shortcuts::apply(compact, Shortcut::CompactConversation);
    agent->addSeparator();
    m_bringBackAction = agent->addAction(tr("&Bring Back Changes…"),
                                         this,
                                         &MainWindow::bringBackChanges);
    m_bringBackAction->setObjectName(QStringLiteral("bringBackAction"));
    m_bringBackAction->setEnabled(false); // a worktree session's, while idle
    m_keepAsBranchAction = agent->addAction(tr("&Keep as Branch"), this, &MainWindow::keepAsBranch);
    m_keepAsBranchAction->setObjectName(QStringLiteral("keepAsBranchAction"));
    m_keepAsBranchAction->setEnabled(false);
    m_sessions->setCurrentSessionActions({m_bringBackAction, m_keepAsBranchAction});
    agent->addSeparator();
    QAction *settings = agent->addAction(tr("S&ettings…"), this, &MainWindow::showSettings);
    Shortcuts::apply(settings, Shortcut::Settings);
    settings->setMenuRole(QAction::PreferencesRole);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *side = m_sidePanelAction = view->addAction(tr("&Side Panel"));
    side->setCheckable(true);
    side->setChecked(true);
    Shortcuts::apply(side, Shortcut::SidePanel);
    connect(side, &QAction::toggled, m_sidePanel, &QWidget::setVisible);
    QAction *context = view->addAction(tr("&Context Window\u2026"),
                                       this,
                                       &MainWindow::showContextView);
    Shortcuts::apply(context, Shortcut::ContextWindow);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *guide = help->addAction(tr("&User Guide"), this, &MainWindow::showUserGuide);
    Shortcuts::apply(guide, Shortcut::UserGuide);
    QAction *keys = help->addAction(tr("&Keyboard Shortcuts"),
                                    this,
                                    &MainWindow::showKeyboardShortcuts);
    keys->setObjectName(QStringLiteral("keyboardShortcutsAction"));
    help->addSeparator();
    help->addAction(tr("&About AgentDesk"), this, &MainWindow::showAbout);
    rebuildRecentMenu();
}

void MainWindow::showCompactDialog()
{
    auto dialog = new CompactDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // The preview follows the session: a run that ends while the dialog is open adds messages
    // and lets Compact go ahead.
    auto refresh = [this, dialog] {
        const AgentCore::Agent *agent = m_session ? m_session->agent() : nullptr;
        const AgentCore::ContextManager *context = m_session ? m_session->contextManager()
                                                             : nullptr;
        if (agent && context)
            dialog->setPlan(context->preview(agent->messages()));
        else
            dialog->setPlan(std::nullopt);
        const bool idle = !m_session || m_session->state() == AgentSession::State::Idle;
        dialog->setBlockedReason(!idle ? tr("The agent is working: compact once it has "
                                            "finished, or stop it first.")
                                 : context && context->isCompacting()
                                     ? tr("A summary is being written already.")
                                     : QString());
    };
    refresh();
    if (m_session)
        connect(m_session, &AgentSession::stateChanged, dialog, refresh);
    connect(dialog, &CompactDialog::compactRequested, this, [this](const QString &instructions) {
        emit compactRequested(instructions);
        if (m_session && m_session->compactNow(instructions))
            statusBar()->showMessage(tr("Summarising the older part of the conversation…"));
    });
    dialog->open();
}

void MainWindow::chooseRepository()
{
    const QString dir = QFileDialog::getExistingDirectory(this,
                                                          tr("Open Repository"),
                                                          m_repository.root);
    if (!dir.isEmpty())
        openRepository(dir);
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList paths = m_recent.paths();
    for (const QString &path : paths) {
        m_recentMenu->addAction(QDir::toNativeSeparators(path), this, [this, path] {
            openRepository(path);
        });
    }
    if (!paths.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear List"), this, [this] {
            m_recent.clear();
            rebuildRecentMenu();
        });
    }
    m_recentMenu->setEnabled(!paths.isEmpty());
}

void MainWindow::showUserGuide()
{
    // One guide per window, raised when asked again.
    if (!m_userGuide)
        m_userGuide = new UserGuideDialog(this);
    m_userGuide->show();
    m_userGuide->raise();
    m_userGuide->activateWindow();
}

void MainWindow::showKeyboardShortcuts()
{
    auto dialog = new ShortcutsDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void MainWindow::showAbout()
{
    QMessageBox::about(this,
                       tr("About AgentDesk"),
                       tr("<h3>AgentDesk %1</h3>"
                          "<p>A native desktop coding agent: every edit is reviewed as a diff "
                          "before it is applied, every command is shown before it runs.</p>"
                          "<p>Built with Qt %2.</p>")
                           .arg(QStringLiteral(AGENTDESK_VERSION), QString::fromLatin1(qVersion())));
}

} // namespace Ui

#include "moc_mainwindow.cpp"
