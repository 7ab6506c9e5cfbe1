// Opening a repository in the window runs nothing of it: the window's own git (the system
// prompt's status when the session's agent is made, the uncommitted-changes check, the diff
// view's baseline) on a repository whose configuration names a command for every key by which
// git runs one (tests/support/hostilerepository.h). Offscreen, with the real MainWindow.

#include <agentsession/agentsession.h>
#include <hostilerepository.h>
#include <review/filediffview.h>
#include <scriptedmodel.h>
#include <testmain.h>
#include <window/mainwindow.h>

#include <checkpoint/checkpointstore.h>
#include <worktree/sessionworktrees.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace tst_hostilerepositorywindow {

using TestSupport::HostileRepository;
using TestSupport::ModelStep;
using TestSupport::ScriptedModel;

class tst_HostileRepositoryWindow : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_hostilerepositorywindow"));
        QSettings().clear();
        QVERIFY(m_dir.isValid());
    }

    void openingRunsNothing()
    {
        HostileRepository repository(m_dir.filePath(QStringLiteral("open")));
        QVERIFY2(repository.isValid(), qPrintable(repository.error()));
        Ui::AgentSetup setup;
        setup.model.client = std::make_shared<ScriptedModel>(
            QList<ModelStep>{ModelStep::text(QStringLiteral("Nothing to do."))});
        setup.model.label = QStringLiteral("scripted");
        // No system prompt of the test's: the window gathers the repository's (git status).
        setup.sessionsDirectory = m_dir.filePath(QStringLiteral("sessions"));
        setup.worktreesDirectory = m_dir.filePath(QStringLiteral("worktrees"));
        Ui::MainWindow window(setup);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openRepository(repository.root()));
        QTRY_VERIFY_WITH_TIMEOUT(window.session() && window.session()->agent(), 30'000);
        QCOMPARE(repository.ran(), QStringList());
    }

    void uncommittedChangesCheckRunsNothing()
    {
        HostileRepository repository(m_dir.filePath(QStringLiteral("check")));
        QVERIFY2(repository.isValid(), qPrintable(repository.error()));
        QVERIFY(AgentCore::SessionWorktrees::hasUncommittedChanges(repository.root())); // it says so
        QCOMPARE(repository.ran(), QStringList());
    }

    // A lock a killed AgentDesk's git left in the checkpoint store: the window's first
    // checkpoint removes it, and the status bar says so.
    void staleCheckpointLockIsSaid()
    {
        const QString root = QFileInfo(m_dir.filePath(QStringLiteral("locked"))).absoluteFilePath();
        QVERIFY(QDir().mkpath(root));
        QFile file(root + QStringLiteral("/notes.txt"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("apple pie\n");
        file.close();
        const QString canonical = QFileInfo(root).canonicalFilePath();
        const QString storeRoot = m_dir.filePath(QStringLiteral("checkpoints"));
        const QString gitDir = AgentCore::CheckpointStore(canonical, storeRoot).gitDir();
        QVERIFY(QDir().mkpath(gitDir));
        QFile lock(gitDir + QStringLiteral("/index.lock"));
        QVERIFY(lock.open(QIODevice::WriteOnly));
        lock.write("half an index");
        lock.close();

        Ui::AgentSetup setup;
        setup.model.client = std::make_shared<ScriptedModel>(
            QList<ModelStep>{ModelStep::text(QStringLiteral("Nothing to do."))});
        setup.model.label = QStringLiteral("scripted");
        setup.options.systemPrompt = QStringLiteral("You are tested.");
        setup.options.checkpoints.storeRoot = storeRoot;
        setup.sessionsDirectory = m_dir.filePath(QStringLiteral("sessions-locked"));
        Ui::MainWindow window(setup);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openRepository(canonical));
        QTRY_VERIFY_WITH_TIMEOUT(window.session() && window.session()->agent(), 30'000);
        window.session()->send(QStringLiteral("Look at the notes."));
        QTRY_VERIFY2_WITH_TIMEOUT(window.statusBar()->currentMessage().contains(
                                      QStringLiteral("index.lock")),
                                  qPrintable(window.statusBar()->currentMessage()),
                                  30'000);
        QVERIFY(!QFileInfo::exists(gitDir + QStringLiteral("/index.lock")));
    }

    void diffViewBaselineRunsNothing()
    {
        HostileRepository repository(m_dir.filePath(QStringLiteral("diff")));
        QVERIFY2(repository.isValid(), qPrintable(repository.error()));
        Ui::FileDiffView view;
        QSignalSpy shown(&view, &Ui::FileDiffView::fileShown);
        view.showFile(repository.root(), repository.root() + QStringLiteral("/filtered.txt"));
        QVERIFY(shown.wait(30'000));
        QVERIFY2(shown.first().first().toBool(), qPrintable(view.errorText()));
        // The baseline is the committed bytes, not a filter's or a textconv's.
        QVERIFY2(view.diffText().contains(QStringLiteral("aaaa")), qPrintable(view.diffText()));
        QCOMPARE(repository.ran(), QStringList());
    }
};

AGENTDESK_TEST_MAIN(tst_HostileRepositoryWindow)

} // namespace tst_hostilerepositorywindow

#include "tst_hostilerepositorywindow.moc"
