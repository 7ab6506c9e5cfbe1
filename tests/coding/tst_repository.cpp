#include <coding/repository.h>
#include <testmain.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

namespace tst_repository {

using AgentCore::Repository;

class tst_Repository : public QObject
{
    Q_OBJECT

private:
    static void write(const QString &path, const QByteArray &content)
    {
        QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content);
    }

private slots:
    void head_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<QString>("branch");
        QTest::addColumn<QString>("description");
        QTest::newRow("branch") << QByteArray("ref: refs/heads/main\n") << "main"
                                << "main";
        QTest::newRow("branch with slash")
            << QByteArray("ref: refs/heads/feature/review-hunks\n") << "feature/review-hunks"
            << "feature/review-hunks";
        QTest::newRow("detached") << QByteArray("9fceb02d0ae598e95dc970b74767f19372d61af8\n")
                                  << QString() << "detached at 9fceb02";
    }

    void head()
    {
        QFETCH(QByteArray, head);
        QFETCH(QString, branch);
        QFETCH(QString, description);
        QTemporaryDir dir;
        write(dir.filePath(QStringLiteral("project/.git/HEAD")), head);
        write(dir.filePath(QStringLiteral("project/src/main.cpp")), "int main() {}\n");

        // Opened from a file deep inside, the repository is still its top level.
        QString error;
        const auto repo = Repository::open(dir.filePath(QStringLiteral("project/src/main.cpp")),
                                           &error);
        QVERIFY2(repo, qPrintable(error));
        QCOMPARE(repo->root, QFileInfo(dir.filePath(QStringLiteral("project"))).canonicalFilePath());
        QVERIFY(repo->isGit());
        QCOMPARE(repo->branch, branch);
        QCOMPARE(repo->headDescription(), description);
        QCOMPARE(repo->name(), QStringLiteral("project"));
    }

    void worktreeGitFile()
    {
        QTemporaryDir dir;
        write(dir.filePath(QStringLiteral("main/.git/worktrees/wt/HEAD")),
              "ref: refs/heads/topic\n");
        write(dir.filePath(QStringLiteral("wt/.git")), "gitdir: ../main/.git/worktrees/wt\n");
        const auto repo = Repository::open(dir.filePath(QStringLiteral("wt")));
        QVERIFY(repo);
        QCOMPARE(repo->branch, QStringLiteral("topic"));
        QCOMPARE(repo->gitDir,
                 QFileInfo(dir.filePath(QStringLiteral("main/.git/worktrees/wt")))
                     .canonicalFilePath());
    }

    void plainDirectory()
    {
        QTemporaryDir dir;
        const auto repo = Repository::open(dir.path());
        QVERIFY(repo);
        QVERIFY(!repo->isGit());
        QCOMPARE(repo->root, QFileInfo(dir.path()).canonicalFilePath());
        QVERIFY(repo->headDescription().isEmpty());
    }

    void missingPathIsAnError()
    {
        QTemporaryDir dir;
        const QString missing = dir.filePath(QStringLiteral("no-such-project"));
        QString error;
        QVERIFY(!Repository::open(missing, &error));
        QCOMPARE(error, missing + QStringLiteral(" does not exist"));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_Repository)

} // namespace tst_repository

#include "tst_repository.moc"
