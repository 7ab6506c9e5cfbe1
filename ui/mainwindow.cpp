#include "mainwindow.h"

#include "welcomeview.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QKeySequence>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>

namespace Ui {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_welcome(new WelcomeView(this))
{
    setObjectName(QStringLiteral("MainWindow"));
    setCentralWidget(m_welcome);
    createMenus();
    setWindowTitle(QStringLiteral("AgentDesk"));
    resize(1100, 720);
}

MainWindow::~MainWindow() = default;

bool MainWindow::openRepository(const QString &path)
{
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
    m_welcome->setRepository(m_repository);
    const QString head = m_repository.headDescription();
    //: Window title: repository name, branch
    setWindowTitle(head.isEmpty() ? tr("%1 — AgentDesk").arg(m_repository.name())
                                  : tr("%1 (%2) — AgentDesk").arg(m_repository.name(), head));
    statusBar()->showMessage(QDir::toNativeSeparators(m_repository.root));
    m_recent.add(m_repository.root);
    rebuildRecentMenu();
    emit repositoryChanged(m_repository);
    return true;
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
