// The diff of a file the session changed, as the changed-files panel opens it: against the last
// commit on a real git repository, and a clear message when the file cannot be shown.
#include "../tools/toolstest.h"

#include <slowgit.h>
#include <testmain.h>

#include <process/gitprocess.h>
#include <review/filediffview.h>

#include <QElapsedTimer>
#include <QLabel>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QThread>
#include <QTimer>

#include <unistd.h>

namespace tst_filediffview {

using Ui::FileDiffView;

class tst_FileDiffView : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        // The view's git runs on a worker thread: one on the UI thread fails the test.
        QTest::failOnWarning(QRegularExpression(QStringLiteral("runs on the UI thread")));
        m_repo = std::make_unique<ToolsTest::Repo>();
        QVERIFY(m_repo->isValid());
        QVERIFY(m_repo->write(QStringLiteral("src/main.txt"), "one\ntwo\nthree\n"));
        m_repo->git({QStringLiteral("add"), QStringLiteral(".")});
        m_repo->git({QStringLiteral("-c"),
                     QStringLiteral("user.name=T"),
                     QStringLiteral("-c"),
                     QStringLiteral("user.email=t@example.org"),
                     QStringLiteral("commit"),
                     QStringLiteral("-qm"),
                     QStringLiteral("start")});
        QCOMPARE(m_repo->git({QStringLiteral("ls-files")}), QByteArray("src/main.txt\n"));
    }

    void showsTheChangeAgainstHead()
    {
        QVERIFY(m_repo->write(QStringLiteral("src/main.txt"), "one\n2\nzwei\nthree\n"));
        FileDiffView view;
        view.resize(700, 400);
        view.show();
        QVERIFY(show(view, m_repo->path(QStringLiteral("src/main.txt"))));
        QCOMPARE(view.errorText(), QString());
        QCOMPARE(view.title(), QStringLiteral("Changes to src/main.txt"));
        QVERIFY2(view.baselineNote().contains(QLatin1String("last commit (HEAD)")),
                 qPrintable(view.baselineNote()));
        QCOMPARE(view.additions(), 2);
        QCOMPARE(view.deletions(), 1);
        const QString diff = view.diffText();
        QVERIFY2(diff.contains(QLatin1String("two")) && diff.contains(QLatin1String("zwei"))
                     && diff.contains(QLatin1String("three")),
                 qPrintable(diff));
        // Read-only, as the review's diff display.
        auto text = view.findChild<QPlainTextEdit *>(QStringLiteral("fileDiffText"));
        QVERIFY(text);
        QVERIFY(text->isReadOnly());
        QVERIFY(text->isVisible());
    }

    void aNewFileIsAllAdded()
    {
        QVERIFY(m_repo->write(QStringLiteral("notes.txt"), "a\nb\n"));
        FileDiffView view;
        QVERIFY(show(view, m_repo->path(QStringLiteral("notes.txt"))));
        QCOMPARE(view.errorText(), QString());
        QVERIFY2(view.baselineNote().contains(QLatin1String("new file")),
                 qPrintable(view.baselineNote()));
        QCOMPARE(view.additions(), 2);
        QCOMPARE(view.deletions(), 0);
    }

    void failuresSaySo_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("content"); // empty: the file is gone
        QTest::addColumn<QString>("message");
        QTest::newRow("gone") << QStringLiteral("gone.txt") << QByteArray()
                              << QStringLiteral("gone.txt no longer exists: it was deleted or "
                                                "moved after the session changed it.");
        QTest::newRow("binary") << QStringLiteral("logo.png")
                                << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16)
                                << QStringLiteral("logo.png is a binary file: its changes cannot "
                                                  "be shown as text.");
        QTest::newRow("unreadable") << QStringLiteral("secret.txt") << QByteArray("locked\n")
                                    << QStringLiteral("Cannot read secret.txt: ");
        QTest::newRow("now a folder") << QStringLiteral("build") << QByteArray("<folder>")
                                      << QStringLiteral("build is no longer a file.");
        QTest::newRow("no change left")
            << QStringLiteral("src/main.txt") << QByteArray("one\ntwo\nthree\n")
            << QStringLiteral("src/main.txt is the same as in the last commit: the session's "
                              "changes to it were undone or committed.");
    }

    void failuresSaySo()
    {
        QFETCH(QString, file);
        QFETCH(QByteArray, content);
        QFETCH(QString, message);
        const QString path = m_repo->path(file);
        if (content == "<folder>")
            QVERIFY(QDir().mkpath(path));
        else if (!content.isEmpty())
            QVERIFY(m_repo->write(file, content));
        if (file == QLatin1String("secret.txt")) {
            if (::geteuid() == 0)
                QSKIP("root reads a file whatever its mode");
            QVERIFY(QFile::setPermissions(path, {}));
        }
        FileDiffView view;
        view.resize(700, 400);
        view.show();
        show(view, path); // false, or true with nothing to show (no change left)
        QVERIFY2(view.errorText().startsWith(message), qPrintable(view.errorText()));
        QCOMPARE(view.diffText(), QString());
        auto label = view.findChild<QLabel *>(QStringLiteral("fileDiffError"));
        QVERIFY(label);
        QVERIFY(label->isVisible()); // the user sees it, not an empty pane
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    }

    // The file and git are read on a worker thread: with a git that takes a second, the window
    // goes on painting and handling events meanwhile, and the view says it is reading.
    void readsOffTheUiThread()
    {
        QVERIFY(m_repo->write(QStringLiteral("src/main.txt"), "one\n2\nthree\n"));
        const TestSupport::SlowGit slowGit(1000);
        QVERIFY(slowGit.isValid());

        FileDiffView view;
        view.resize(700, 400);
        view.show();
        QSignalSpy shown(&view, &FileDiffView::fileShown);
        int ticks = 0;
        QTimer ticker;
        connect(&ticker, &QTimer::timeout, this, [&ticks] { ++ticks; });
        ticker.start(20);
        QElapsedTimer clock;
        clock.start();
        view.showFile(m_repo->root(), m_repo->path(QStringLiteral("src/main.txt")));
        QVERIFY2(clock.elapsed() < 500, "showFile waited for git");
        QVERIFY(view.isLoading());
        QCOMPARE(view.title(), QStringLiteral("Changes to src/main.txt")); // at once
        QVERIFY2(view.baselineNote().startsWith(QLatin1String("Reading")),
                 qPrintable(view.baselineNote()));
        QCOMPARE(view.diffText(), QString());
        QVERIFY(shown.wait(10'000));
        QVERIFY2(clock.elapsed() >= 1000, "the slow git was not run");
        QVERIFY2(ticks >= 10, qPrintable(QString::number(ticks))); // the event loop went on
        QCOMPARE(shown.first().first().toBool(), true);
        QVERIFY(!view.isLoading());
        QVERIFY2(view.baselineNote().contains(QLatin1String("last commit (HEAD)")),
                 qPrintable(view.baselineNote()));
        QCOMPARE(view.additions(), 1);
    }

    // A view closed, or asked for another file, before the result arrives: the result is
    // dropped, never shown in the wrong place.
    void aLateResultIsDropped()
    {
        QVERIFY(m_repo->write(QStringLiteral("notes.txt"), "a\nb\n"));
        {
            auto gone = new FileDiffView;
            gone->showFile(m_repo->root(), m_repo->path(QStringLiteral("src/main.txt")));
            delete gone;
        }
        FileDiffView view;
        QSignalSpy shown(&view, &FileDiffView::fileShown);
        view.showFile(m_repo->root(), m_repo->path(QStringLiteral("src/main.txt")));
        view.showFile(m_repo->root(), m_repo->path(QStringLiteral("notes.txt")));
        QVERIFY(shown.wait(10'000));
        QTest::qWait(200); // the first one's result, had it not been dropped
        QCOMPARE(shown.count(), 1);
        QCOMPARE(view.title(), QStringLiteral("Changes to notes.txt"));
        QCOMPARE(view.additions(), 2);
    }

    // What keeps it so at run time: git run on a window's UI thread is reported (and fails the
    // window's tests, init()), git on a worker thread is not.
    void aGitRunOnTheUiThreadIsReported()
    {
        static QStringList said;
        said.clear();
        const QtMessageHandler previous = qInstallMessageHandler(
            [](QtMsgType, const QMessageLogContext &context, const QString &message) {
                if (qstrcmp(context.category, "agentdesk.uithread") == 0)
                    said.append(message);
            });
        const QString root = m_repo->root();
        // A thread of its own: waiting for a QtConcurrent future may run its work right here.
        const std::unique_ptr<QThread> worker(QThread::create([root] {
            AgentCore::GitProcess::run({QStringLiteral("rev-parse"), QStringLiteral("HEAD")}, root);
        }));
        worker->start();
        QVERIFY(worker->wait(30'000));
        const int onAWorker = int(said.size());
        AgentCore::GitProcess::run({QStringLiteral("rev-parse"), QStringLiteral("HEAD")}, root);
        qInstallMessageHandler(previous);
        QCOMPARE(onAWorker, 0);
        QCOMPARE(said.size(), 1);
        QVERIFY2(said.first().startsWith(QLatin1String("git rev-parse runs on the UI thread")),
                 qPrintable(said.first()));
    }

private:
    // showFile() and its result, which comes through the event loop.
    bool show(FileDiffView &view, const QString &path)
    {
        QSignalSpy shown(&view, &FileDiffView::fileShown);
        view.showFile(m_repo->root(), path);
        if (!view.isLoading() || !shown.wait(10'000))
            return false;
        return shown.first().first().toBool();
    }

    std::unique_ptr<ToolsTest::Repo> m_repo;
};

AGENTDESK_TEST_MAIN(tst_FileDiffView)

} // namespace tst_filediffview

#include "tst_filediffview.moc"
