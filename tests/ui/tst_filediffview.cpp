// The diff of a file the session changed, as the changed-files panel opens it: against the last
// commit on a real git repository, and a clear message when the file cannot be shown.
#include "../tools/toolstest.h"

#include <review/filediffview.h>

#include <QLabel>
#include <QPlainTextEdit>
#include <QStandardPaths>
#include <QTest>

#include <unistd.h>

using Ui::FileDiffView;

class tst_FileDiffView : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
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
        QVERIFY(view.showFile(m_repo->root(), m_repo->path(QStringLiteral("src/main.txt"))));
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
        QVERIFY(view.showFile(m_repo->root(), m_repo->path(QStringLiteral("notes.txt"))));
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
        view.showFile(m_repo->root(), path);
        QVERIFY2(view.errorText().startsWith(message), qPrintable(view.errorText()));
        QCOMPARE(view.diffText(), QString());
        auto label = view.findChild<QLabel *>(QStringLiteral("fileDiffError"));
        QVERIFY(label);
        QVERIFY(label->isVisible()); // the user sees it, not an empty pane
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    }

private:
    std::unique_ptr<ToolsTest::Repo> m_repo;
};

QTEST_MAIN(tst_FileDiffView)
#include "tst_filediffview.moc"
