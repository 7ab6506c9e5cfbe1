#include "mainwindow.h"

#include "agentstatusbar.h"
#include "changedfilespanel.h"
#include "conversationpage.h"
#include "followuppanel.h"
#include "review/reviewqueue.h"

#include <core/agent.h>

#include <QAction>
#include <QApplication>
#include <QDesktopServices>
#include <QDir>
#include <QFileDialog>
#include <QKeySequence>
#include <QMenuBar>
#include <QMessageBox>
#include <QSplitter>
#include <QUrl>

namespace Ui {

MainWindow::MainWindow(AgentSetup setup, QWidget *parent)
    : QMainWindow(parent)
    , m_setup(std::move(setup))
    , m_page(new ConversationPage(this))
    , m_followUps(new FollowUpPanel(this))
    , m_changedFiles(new ChangedFilesPanel(this))
    , m_sidePanel(new QSplitter(Qt::Vertical, this))
    , m_statusBar(new AgentStatusBar(this))
{
    setObjectName(QStringLiteral("MainWindow"));

    m_sidePanel->setObjectName(QStringLiteral("sidePanel"));
    m_sidePanel->addWidget(m_followUps);
    m_sidePanel->addWidget(m_changedFiles);
    m_sidePanel->setChildrenCollapsible(false);

    // Room is left on the left of the conversation for the sessions list.
    auto centre = new QSplitter(Qt::Horizontal, this);
    centre->setObjectName(QStringLiteral("centreSplitter"));
    centre->addWidget(m_page);
    centre->addWidget(m_sidePanel);
    centre->setStretchFactor(0, 1);
    centre->setStretchFactor(1, 0);
    centre->setChildrenCollapsible(false);
    centre->setSizes({820, 280});
    centre->setContentsMargins(8, 8, 8, 0);
    setCentralWidget(centre);

    setStatusBar(m_statusBar);
    m_statusBar->setModel(m_setup.model);
    m_statusBar->setPermissionMode(
        m_setup.options.permissionMode.value_or(AgentCore::PermissionMode::Default));
    m_statusBar->setRunState(AgentSession::State::Idle);
    connect(m_statusBar, &AgentStatusBar::permissionModeChosen, this, [this](auto mode) {
        m_setup.options.permissionMode = mode; // also for the next conversation
        if (m_session)
            m_session->setPermissionMode(mode);
    });
    connect(m_page->reviews(),
            &ReviewQueue::countChanged,
            m_statusBar,
            &AgentStatusBar::setPendingReviews);
    connect(m_changedFiles, &ChangedFilesPanel::openRequested, this, [](const QString &path) {
        QDesktopServices::openUrl(QUrl::fromLocalFile(path));
    });

    createMenus();
    setWindowTitle(QStringLiteral("AgentDesk"));
    resize(1200, 780);
    m_page->setFocus();
}

MainWindow::~MainWindow()
{
    // The session (and its Agent) first: its reviews and panels point into it.
    m_page->setSession(nullptr);
    m_followUps->setAgent(nullptr);
    delete m_session;
}

bool MainWindow::openRepository(const QString &path)
{
    if (m_session && m_session->state() != AgentSession::State::Idle
        && m_session->state() != AgentSession::State::Preparing) {
        statusBar()->showMessage(tr("Stop the running task before opening another repository."));
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
    m_page->setRepository(m_repository);
    const QString head = m_repository.headDescription();
    //: Window title: repository name, branch
    setWindowTitle(head.isEmpty() ? tr("%1 — AgentDesk").arg(m_repository.name())
                                  : tr("%1 (%2) — AgentDesk").arg(m_repository.name(), head));
    statusBar()->showMessage(QDir::toNativeSeparators(m_repository.root), 5000);
    m_recent.add(m_repository.root);
    rebuildRecentMenu();
    startSession();
    emit repositoryChanged(m_repository);
    return true;
}

void MainWindow::startSession()
{
    m_page->setSession(nullptr);
    m_followUps->setAgent(nullptr);
    delete m_session;

    AgentCore::CodingAgentOptions options = m_setup.options;
    options.repositoryRoot = m_repository.root;
    m_session = new AgentSession(std::move(options), m_setup.model, this);
    m_page->setSession(m_session);
    m_changedFiles->setFiles({});
    m_statusBar->setRunState(m_session->state());
    m_statusBar->setPermissionMode(m_session->permissionMode());

    connect(m_session, &AgentSession::ready, this, [this] {
        m_followUps->setAgent(m_session->agent());
    });
    connect(m_session, &AgentSession::stateChanged, this, &MainWindow::onSessionState);
    connect(m_session,
            &AgentSession::permissionModeChanged,
            m_statusBar,
            &AgentStatusBar::setPermissionMode);
    connect(m_session, &AgentSession::changedFilesChanged, this, [this] {
        m_changedFiles->setFiles(m_session->changedFiles());
    });
    connect(m_session, &AgentSession::warning, this, [this](const QString &message) {
        statusBar()->showMessage(message, 15000);
    });
    onSessionState(m_session->state());
}

void MainWindow::onSessionState(AgentSession::State state)
{
    m_statusBar->setRunState(state);
    m_stopAction->setEnabled(state == AgentSession::State::Running);
    m_newConversationAction->setEnabled(state == AgentSession::State::Idle);
}

void MainWindow::newConversation()
{
    if (m_session && m_session->state() == AgentSession::State::Idle)
        startSession();
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open Repository…"), this, &MainWindow::chooseRepository);
    open->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *agent = menuBar()->addMenu(tr("&Agent"));
    m_newConversationAction = agent->addAction(tr("&New Conversation"),
                                               this,
                                               &MainWindow::newConversation);
    m_newConversationAction->setShortcut(QKeySequence::New);
    m_newConversationAction->setEnabled(false);
    m_stopAction = agent->addAction(tr("&Stop"), this, [this] {
        if (m_session)
            m_session->stop();
    });
    m_stopAction->setObjectName(QStringLiteral("stopAction"));
    // Esc in the composer and the conversation stops too; this one works from anywhere.
    m_stopAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
    m_stopAction->setEnabled(false);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *side = view->addAction(tr("&Side Panel"));
    side->setCheckable(true);
    side->setChecked(true);
    side->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B));
    connect(side, &QAction::toggled, m_sidePanel, &QWidget::setVisible);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About AgentDesk"), this, &MainWindow::showAbout);
    rebuildRecentMenu();
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
