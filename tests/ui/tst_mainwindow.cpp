#include <testmain.h>
#include <window/mainwindow.h>

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

namespace tst_mainwindow {

class tst_MainWindow : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString makeRepository(const QString &name, const QByteArray &head)
    {
        const QString root = m_dir.filePath(name);
        QDir().mkpath(root + QStringLiteral("/.git"));
        QFile file(root + QStringLiteral("/.git/HEAD"));
        if (file.open(QIODevice::WriteOnly))
            file.write(head);
        return QFileInfo(root).canonicalFilePath();
    }

    static QStringList recentEntries(const Ui::MainWindow &window)
    {
        QStringList texts;
        const auto menu = window.findChild<QMenu *>(QStringLiteral("recentMenu"));
        for (QAction *action : menu->actions()) {
            if (!action->isSeparator())
                texts << action->text();
        }
        return texts;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
    }

    void init() { QSettings().clear(); }

    void titleShowsRepositoryAndBranch()
    {
        Ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy changed(&window, &Ui::MainWindow::repositoryChanged);

        QVERIFY(window.openRepository(
            makeRepository(QStringLiteral("calculator"), "ref: refs/heads/fix-overflow\n")));
        QCOMPARE(window.windowTitle(), QStringLiteral("calculator (fix-overflow) — AgentDesk"));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(window.findChild<QLabel *>(QStringLiteral("repositoryName"))->text(),
                 QStringLiteral("calculator"));
        QCOMPARE(window.findChild<QLabel *>(QStringLiteral("repositoryHead"))->text(),
                 QStringLiteral("Branch: fix-overflow"));
    }

    void failedOpenKeepsTheRepository()
    {
        Ui::MainWindow window;
        const QString good = makeRepository(QStringLiteral("kept"), "ref: refs/heads/main\n");
        QVERIFY(window.openRepository(good));
        QSignalSpy changed(&window, &Ui::MainWindow::repositoryChanged);

        QVERIFY(!window.openRepository(m_dir.filePath(QStringLiteral("vanished"))));
        QCOMPARE(window.repository().root, good);
        QCOMPARE(window.windowTitle(), QStringLiteral("kept (main) — AgentDesk"));
        QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("does not exist")));
        QCOMPARE(changed.count(), 0);
    }

    void recentRepositoriesMostRecentFirst()
    {
        Ui::MainWindow window;
        const QString a = makeRepository(QStringLiteral("alpha"), "ref: refs/heads/main\n");
        const QString b = makeRepository(QStringLiteral("beta"), "ref: refs/heads/main\n");
        QVERIFY(window.openRepository(a));
        QVERIFY(window.openRepository(b));
        QVERIFY(window.openRepository(a));
        const QStringList entries = recentEntries(window);
        QCOMPARE(entries,
                 QStringList({QDir::toNativeSeparators(a),
                              QDir::toNativeSeparators(b),
                              QStringLiteral("Clear List")}));

        // A second window (the next start) sees the same list.
        Ui::MainWindow next;
        QCOMPARE(recentEntries(next), entries);
    }
};

AGENTDESK_TEST_MAIN(tst_MainWindow)

} // namespace tst_mainwindow

#include "tst_mainwindow.moc"
