#pragma once

#include "recentrepositories.h"

#include <core/repository.h>

#include <QMainWindow>

QT_BEGIN_NAMESPACE
class QMenu;
QT_END_NAMESPACE

namespace Ui {

class WelcomeView;

/// AgentDesk's window on one repository.
class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Switches the window to the repository containing \a path. On failure the window keeps
    /// its repository, says why in the status bar and returns false.
    bool openRepository(const QString &path);
    const AgentCore::Repository &repository() const { return m_repository; }

signals:
    void repositoryChanged(const AgentCore::Repository &repository);

private:
    void createMenus();
    void chooseRepository();
    void rebuildRecentMenu();
    void showAbout();

    AgentCore::Repository m_repository;
    RecentRepositories m_recent;
    WelcomeView *m_welcome = nullptr;
    QMenu *m_recentMenu = nullptr;
};

} // namespace Ui
