#include "mainwindow.h"

#include "agentstatusbar.h"
#include "changedfilespanel.h"
#include "compactdialog.h"
#include "composer.h"
#include "contextview/contextdialog.h"
#include "conversationpage.h"
#include "desktopnotifier.h"
#include "followuppanel.h"
#include "modelresolver.h"
#include "projecttrustdialog.h"
#include "review/filediffview.h"
#include "review/reviewqueue.h"
#include "sandboxnoticebar.h"
#include "sessions/sessionspanel.h"
#include "settings/keystore.h"
#include "settings/settingsdialog.h"
#include "settings/theme.h"
#include "tabchain.h"

#include <ai/modelcatalog.h>
#include <coding/codingsession.h>
#include <context/contextview.h>
#include <loop/agent.h>
#include <session/sessionstore.h>

#include <QAction>
#include <QApplication>
#include <QDesktopServices>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QKeyEvent>
#include <QKeySequence>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
#include <QUrl>
#include <QVBoxLayout>

namespace Ui {

MainWindow::MainWindow(AgentSetup setup, QWidget *parent)
    : QMainWindow(parent)
    , m_setup(std::move(setup))
    , m_settings(AppSettings::load(QSettings()))
    , m_keys(m_setup.keyStore ? m_setup.keyStore : KeyStore::createDefault(this))
    , m_resolver(new ModelResolver(m_keys, m_setup.environment, this))
    , m_page(new ConversationPage(this))
    , m_followUps(new FollowUpPanel(this))
    , m_changedFiles(new ChangedFilesPanel(this))
    , m_sessions(new SessionsPanel(this))
    , m_sidePanel(new QSplitter(Qt::Vertical, this))
    , m_statusBar(new AgentStatusBar(this))
    , m_notifier(new DesktopNotifier(this))
{
    setObjectName(QStringLiteral("MainWindow"));

    m_sidePanel->setObjectName(QStringLiteral("sidePanel"));
    m_sidePanel->addWidget(m_followUps);
    m_sidePanel->addWidget(m_changedFiles);
    m_sidePanel->setChildrenCollapsible(false);

    auto centre = m_centre = new QSplitter(Qt::Horizontal, this);
    centre->setObjectName(QStringLiteral("centreSplitter"));
    centre->addWidget(m_sessions);
    centre->addWidget(m_page);
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
    auto columnLayout = new QVBoxLayout(column);
    columnLayout->setContentsMargins(0, 0, 0, 0);
    columnLayout->setSpacing(0);
    columnLayout->addWidget(m_sandboxNotice);
    columnLayout->addWidget(centre, 1);
    setCentralWidget(column);
    connect(m_sandboxNotice, &SandboxNoticeBar::settingsRequested, this, &MainWindow::showSettings);

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
    connect(m_changedFiles, &ChangedFilesPanel::openRequested, this, &MainWindow::showFileChanges);
    connect(m_sessions, &SessionsPanel::newRequested, this, &MainWindow::newConversation);
    connect(m_sessions, &SessionsPanel::textTyped, this, [this](const QString &text) {
        m_page->composer()->setFocus(Qt::OtherFocusReason);
        m_page->composer()->insertPlainText(text);
    });
    connect(m_sessions, &SessionsPanel::resumeRequested, this, &MainWindow::resumeSession);
    connect(m_sessions, &SessionsPanel::renameRequested, this, &MainWindow::renameSession);
    connect(m_sessions, &SessionsPanel::deleteRequested, this, &MainWindow::deleteSession);
    connect(m_page, &ConversationPage::forkRequested, this, &MainWindow::forkSession);
    m_notifier->setEnabled(DesktopNotifier::Kind::Approval, m_settings.notifyApprovals);
    m_notifier->setEnabled(DesktopNotifier::Kind::Finished, m_settings.notifyFinished);
    // A click on a notification: the window is up; the session comes as from the sessions list.
    connect(m_notifier, &DesktopNotifier::activated, this, [this](const QString &path) {
        if (!path.isEmpty() && (!m_session || path != m_session->sessionPath()))
            resumeSession(path);
    });

    createMenus();
    // Tab follows the layout: sessions, conversation, reviews, message box, side panel,
    // status bar (the widgets were made in another order).
    chainTabOrder(tabReachable(m_sessions) + tabReachable(m_page) + tabReachable(m_sidePanel)
                  + tabReachable(m_statusBar));
    setWindowTitle(QStringLiteral("AgentDesk"));
    resize(1200, 780);
    restoreLayout();
    m_page->composer()->setFocus();
}

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
    saveLayout();
    QMainWindow::closeEvent(event);
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

QString MainWindow::sessionsDirectory() const
{
    if (m_repository.root.isEmpty())
        return {};
    return m_setup.sessionsDirectory.isEmpty()
               ? AgentCore::SessionStore::defaultDirectory(m_repository.root)
               : m_setup.sessionsDirectory;
}

bool MainWindow::isTaskRunning() const
{
    return m_session && m_session->state() != AgentSession::State::Idle
           && m_session->state() != AgentSession::State::Preparing;
}

bool MainWindow::resumeSession(const QString &path)
{
    if (m_session && path == m_session->sessionPath() && !m_session->isReadOnly())
        return true;
    if (isTaskRunning()) {
        statusBar()->showMessage(tr("Stop the running task before resuming another session."), 8000);
        return false;
    }
    QString error;
    std::optional<AgentCore::SessionLog::Contents> contents = AgentCore::SessionLog::load(path,
                                                                                          &error);
    if (!contents) {
        statusBar()->showMessage(error, 15000);
        refreshSessions();
        return false;
    }
    startSession(path, std::move(contents));
    return true;
}

bool MainWindow::forkSession()
{
    if (!m_session || !m_session->isReadOnly())
        return false;
    QString error;
    const QString copy = AgentCore::SessionStore::fork(m_session->sessionPath(), &error);
    if (copy.isEmpty()) {
        statusBar()->showMessage(error, 15000);
        return false;
    }
    return resumeSession(copy);
}

void MainWindow::startSession(const QString &path,
                              std::optional<AgentCore::SessionLog::Contents> resumed)
{
    m_page->setSession(nullptr);
    m_followUps->setAgent(nullptr);
    delete m_session;

    AgentCore::CodingAgentOptions options = m_setup.options;
    options.repositoryRoot = m_repository.root;
    options.context.windowTokens = contextWindow(m_setup.model).value_or(0);
    options.context.autoCompact = m_settings.autoCompact;
    options.sandbox.mode = m_setup.sandboxMode.value_or(m_settings.sandboxMode);
    options.sandbox.allowNetwork = m_setup.sandboxNetwork || m_settings.sandboxNetwork;
    options.networkRules += AppSettings::parseNetworkRules(m_settings.sandboxNetworkRules);
    // Read before each command, so a change in the settings applies at once.
    options.reviewShellWrites = [review = m_reviewShellWrites] { return review->load(); };
    m_reviewShellWrites->store(m_settings.reviewShellWrites);
    SessionFile file;
    file.path = path.isEmpty() ? AgentCore::SessionStore(sessionsDirectory()).newSessionPath()
                               : path;
    file.header = AgentCore::SessionStore::newHeader(m_repository.root);
    file.resumed = std::move(resumed);
    const QJsonObject resumedState = file.resumed ? file.resumed->state : QJsonObject();
    m_session = new AgentSession(std::move(options), m_setup.model, std::move(file), this);
    m_page->setSession(m_session);
    m_notifier->watch(m_session);
    restoreSessionModel(resumedState);
    resetUsage();
    connect(m_session, &AgentSession::eventEmitted, this, [this](const AgentCore::AgentEvent &event) {
        // A compaction's summary request is billed like a reply.
        if (event.type == AgentCore::AgentEvent::Type::MessageEnd
            && (event.message.isAssistant() || AgentCore::isCompactionMessage(event.message)))
            m_usage.add(event.message); // the status bar follows with contextChanged
    });
    connect(m_session, &AgentSession::contextChanged, this, &MainWindow::updateContext);
    m_changedFiles->setFiles(m_session->changedFiles()); // a resumed session's changes
    m_statusBar->setRunState(m_session->state());
    m_statusBar->resetBypassConfirmation(); // asked once per session
    m_statusBar->setPermissionMode(m_session->permissionMode());

    connect(m_session, &AgentSession::ready, this, [this] {
        applyContextSettings(); // the model may have changed while it was assembled
        // Read-only, the queue belongs to the window that has the session open.
        m_followUps->setAgent(m_session->isReadOnly() ? nullptr : m_session->agent());
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
    connect(m_session,
            &AgentSession::sandboxUnavailable,
            m_sandboxNotice,
            &SandboxNoticeBar::showNotice);
    connect(m_session, &AgentSession::recorded, this, &MainWindow::refreshSessions);
    connect(m_session, &AgentSession::compactionStarted, this, [this](bool waiting) {
        if (waiting)
            statusBar()->showMessage(tr("Summarising the older part of the conversation so "
                                        "that the next request fits…"));
    });
    connect(m_session, &AgentSession::compacted, this, [this] {
        statusBar()->showMessage(tr("The conversation was compacted."), 8000);
    });
    connect(m_session, &AgentSession::compactionFailed, this, [this](const QString &problem) {
        statusBar()->showMessage(problem, 15000);
    });
    connect(m_session, &AgentSession::projectTrustNeeded, this, [this](const QStringList &grants) {
        AgentSession *session = m_session;
        auto dialog = new ProjectTrustDialog(session->repositoryRoot(), grants, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QDialog::accepted, session, &AgentSession::trustProjectSettings);
        connect(session, &QObject::destroyed, dialog, &QDialog::reject);
        dialog->open();
    });
    onSessionState(m_session->state());
    refreshSessions();
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
    connect(view, &FileDiffView::openInEditorRequested, this, [this](const QString &file) {
        if (!QDesktopServices::openUrl(QUrl::fromLocalFile(file)))
            statusBar()->showMessage(tr("No application could open %1.")
                                         .arg(QDir::toNativeSeparators(file)),
                                     8000);
    });
    dialog->resize(900, 640);
    dialog->show();
}

void MainWindow::onSessionState(AgentSession::State state)
{
    m_statusBar->setRunState(state);
    m_stopAction->setEnabled(state == AgentSession::State::Running);
    m_newConversationAction->setEnabled(state == AgentSession::State::Idle);
    m_sessions->setTaskRunning(isTaskRunning());
}

void MainWindow::newConversation()
{
    if (m_session && m_session->state() == AgentSession::State::Idle) {
        startSession();
        // From the New button or the sessions list: what the user types next is the task.
        m_page->composer()->setFocus(Qt::OtherFocusReason);
    }
}

void MainWindow::keyPressEvent(QKeyEvent *event)
{
    // Esc that the focused widget (a list, a panel, the status bar) did not use.
    if (event->key() == Qt::Key_Escape
        && (event->modifiers() & ~Qt::KeypadModifier) == Qt::NoModifier && m_page->escape()) {
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
    m_setup.model = choice; // also for the next conversation
    if (m_session)
        m_session->setModel(choice);
    m_statusBar->setModel(choice);
    m_statusBar->setModelSelection(choice.selection, m_settings.recentModels);
    m_usage.contextWindow = contextWindow(choice);
    updateContext();
    applyContextSettings();
}

void MainWindow::applyContextSettings()
{
    AgentCore::ContextManager *manager = m_session ? m_session->contextManager() : nullptr;
    if (!manager)
        return;
    AgentCore::ContextSettings settings = manager->settings();
    settings.windowTokens = contextWindow(m_setup.model).value_or(0);
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
    m_usage = summarizeUsage(m_session ? m_session->history() : QList<AgentCore::Message>(),
                             contextWindow(m_setup.model));
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
                                                         m_usage.contextWindow));
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
    m_settings = settings;
    if (m_session) {
        m_session->setSandbox(m_setup.sandboxMode.value_or(settings.sandboxMode),
                              m_setup.sandboxNetwork || settings.sandboxNetwork);
        m_session->setNetworkRules(m_setup.options.networkRules
                                   + AppSettings::parseNetworkRules(settings.sandboxNetworkRules));
    }
    m_reviewShellWrites->store(settings.reviewShellWrites);
    m_notifier->setEnabled(DesktopNotifier::Kind::Approval, settings.notifyApprovals);
    m_notifier->setEnabled(DesktopNotifier::Kind::Finished, settings.notifyFinished);
    // The window the user gave for this model may be new.
    m_usage.contextWindow = contextWindow(m_setup.model);
    updateContext();
    applyContextSettings();
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

void MainWindow::refreshSessions()
{
    const QString directory = sessionsDirectory();
    m_sessions->setSessions(directory.isEmpty() ? QList<AgentCore::SessionInfo>()
                                                : AgentCore::SessionStore(directory).list(),
                            m_session ? m_session->sessionPath() : QString());
}

void MainWindow::renameSession(const QString &path, const QString &title)
{
    QString error;
    if (m_session && path == m_session->sessionPath() && !m_session->isReadOnly())
        m_session->setTitle(title); // its recorder owns the file
    else if (!AgentCore::SessionStore::rename(path, title, &error))
        statusBar()->showMessage(error, 15000);
    refreshSessions();
}

void MainWindow::deleteSession(const QString &path)
{
    if (isTaskRunning()) {
        statusBar()->showMessage(tr("Stop the running task before deleting a session."), 8000);
        return;
    }
    // The conversation in the window goes first, so its recorder does not write the file
    // again as it closes.
    if (m_session && path == m_session->sessionPath())
        startSession();
    QString error;
    QString warning; // the session's worktree, if it had one, could not be removed
    if (QFile::exists(path) && !AgentCore::CodingSession::remove(path, &error, &warning))
        statusBar()->showMessage(error, 15000);
    else if (!warning.isEmpty())
        statusBar()->showMessage(warning, 15000);
    refreshSessions();
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
    // Esc stops too, unless the focused widget or a waiting review uses it (keyPressEvent);
    // this one works from anywhere, always.
    m_stopAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
    m_stopAction->setEnabled(false);
    QAction *compact = agent->addAction(tr("&Compact Conversation…"),
                                        this,
                                        &MainWindow::showCompactDialog);
    compact->setObjectName(QStringLiteral("compactAction"));
    compact->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K));
    agent->addSeparator();
    QAction *settings = agent->addAction(tr("S&ettings…"), this, &MainWindow::showSettings);
    settings->setObjectName(QStringLiteral("settingsAction"));
    settings->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));
    settings->setMenuRole(QAction::PreferencesRole);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *side = m_sidePanelAction = view->addAction(tr("&Side Panel"));
    side->setObjectName(QStringLiteral("sidePanelAction"));
    side->setCheckable(true);
    side->setChecked(true);
    side->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B));
    connect(side, &QAction::toggled, m_sidePanel, &QWidget::setVisible);
    QAction *context = view->addAction(tr("&Context Window\u2026"),
                                       this,
                                       &MainWindow::showContextView);
    context->setObjectName(QStringLiteral("contextViewAction"));
    context->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
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
