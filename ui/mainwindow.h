#pragma once

#include "agentsession.h"
#include "recentrepositories.h"

#include <core/repository.h>

#include <QMainWindow>

QT_BEGIN_NAMESPACE
class QAction;
class QMenu;
class QSplitter;
QT_END_NAMESPACE

namespace Ui {

class AgentStatusBar;
class ChangedFilesPanel;
class ConversationPage;
class FollowUpPanel;

/// How the window builds the agent of each repository it opens.
struct AgentSetup
{
    /// Everything but repositoryRoot (set per repository) and asker (the window's reviews).
    AgentCore::CodingAgentOptions options;
    ModelChoice model;
};

/// AgentDesk's window on one repository: the conversation in the centre with the reviews and
/// the composer below it, the follow-up queue and the files changed on the right, the run
/// state, model and permission mode in the status bar. One AgentSession per repository.
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
    /// Null until a repository is open.
    AgentSession *session() const { return m_session; }

    ConversationPage *conversationPage() const { return m_page; }
    FollowUpPanel *followUpPanel() const { return m_followUps; }
    ChangedFilesPanel *changedFilesPanel() const { return m_changedFiles; }
    AgentStatusBar *agentStatusBar() const { return m_statusBar; }

signals:
    void repositoryChanged(const AgentCore::Repository &repository);

private:
    void createMenus();
    void chooseRepository();
    void rebuildRecentMenu();
    void showAbout();
    void startSession();
    void newConversation();
    void onSessionState(AgentSession::State state);

    AgentSetup m_setup;
    AgentCore::Repository m_repository;
    RecentRepositories m_recent;
    AgentSession *m_session = nullptr;
    ConversationPage *m_page = nullptr;
    FollowUpPanel *m_followUps = nullptr;
    ChangedFilesPanel *m_changedFiles = nullptr;
    QSplitter *m_sidePanel = nullptr;
    AgentStatusBar *m_statusBar = nullptr;
    QMenu *m_recentMenu = nullptr;
    QAction *m_stopAction = nullptr;
    QAction *m_newConversationAction = nullptr;
};

} // namespace Ui
