#include "../tools/toolstest.h"

#include <permissions/pathcapability.h>
#include <testmain.h>
#include <tools/readtool.h>
#include <tools/writetool.h>

#include <QTemporaryDir>
#include <QTest>

#include <thread>

using namespace AgentCore;

namespace tst_pathcapability {

class tst_PathCapability : public QObject
{
    Q_OBJECT

private slots:
    void writes_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("allowed");
        QTest::addColumn<QString>("error");

        QTest::newRow("inside") << "src/new.txt" << true << "";
        QTest::newRow("dot dot") << "../escaped.txt" << false << "outside the repository";
        QTest::newRow("dot dot inside") << "src/../ok.txt" << true << "";
        QTest::newRow("absolute outside")
            << "@outside/abs.txt" << false << "outside the repository";
        QTest::newRow("absolute inside") << "@root/abs.txt" << true << "";
        QTest::newRow("symlink to outside dir") << "out/x.txt" << false << "outside the repository";
        QTest::newRow("symlink to /etc") << "etc/hostname" << false << "outside the repository";
        QTest::newRow(".git") << ".git/config" << false << ".git";
        QTest::newRow(".git itself") << ".git" << false << ".git";
        QTest::newRow("nested .git") << "vendor/lib/.git/HEAD" << false << ".git";
        QTest::newRow(".gitignore is fine") << ".gitignore" << true << "";
        QTest::newRow("additional root") << "@extra/notes.txt" << true << "";
        QTest::newRow("additional root .git") << "@extra/.git/x" << false << ".git";
    }

    void writes()
    {
        QFETCH(QString, path);
        QFETCH(bool, allowed);
        QFETCH(QString, error);
        ToolsTest::Repo repo;
        QVERIFY(repo.isValid());
        QTemporaryDir outside;
        QTemporaryDir extra;
        const QString outsideRoot = QFileInfo(outside.path()).canonicalFilePath();
        const QString extraRoot = QFileInfo(extra.path()).canonicalFilePath();
        QVERIFY(QFile::link(outsideRoot, repo.path(QStringLiteral("out"))));
        QVERIFY(QFile::link(QStringLiteral("/etc"), repo.path(QStringLiteral("etc"))));
        PathCapability::install(*repo.workspace(), {repo.root(), extraRoot});

        path.replace(QLatin1String("@outside"), outsideRoot)
            .replace(QLatin1String("@root"), repo.root())
            .replace(QLatin1String("@extra"), extraRoot);
        const ResolvedPath resolved = repo.workspace()->resolve(path, PathAccess::Write);
        QCOMPARE(resolved.ok(), allowed);
        QVERIFY2(resolved.error.contains(error), qPrintable(resolved.error));

        // Through the real tool: nothing lands outside.
        WriteTool write(repo.workspace());
        const ToolResult result = ToolsTest::call(write, {{"file_path", path}, {"content", "x\n"}});
        QCOMPARE(result.isError, !allowed);
        if (!allowed) {
            QVERIFY(!QFile::exists(outsideRoot + QStringLiteral("/x.txt")));
            QVERIFY(!QFile::exists(outsideRoot + QStringLiteral("/abs.txt")));
            QVERIFY(!QFile::exists(QFileInfo(repo.root()).path() + QStringLiteral("/escaped.txt")));
        }
    }

    void readsOutsideNeedAScope()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.isValid());
        QVERIFY(repo.write(QStringLiteral("inside.txt"), "in\n"));
        QTemporaryDir outside;
        const QString outsideRoot = QFileInfo(outside.path()).canonicalFilePath();
        const QString secret = outsideRoot + QStringLiteral("/secret.txt");
        QFile file(secret);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write("s3cret\n") == 7);
        file.close();
        PathCapability::install(*repo.workspace(), {repo.root()});
        ReadTool read(repo.workspace());

        QVERIFY(!ToolsTest::call(read, {{"file_path", "inside.txt"}}).isError);
        QVERIFY(!ToolsTest::call(read, {{"file_path", ".git/HEAD"}}).isError); // reads are fine
        ToolResult refused = ToolsTest::call(read, {{"file_path", secret}});
        QVERIFY(refused.isError);
        QVERIFY2(refused.text().contains(QLatin1String("approval")), qPrintable(refused.text()));
        QVERIFY(!refused.text().contains(QLatin1String("s3cret")));

        {
            const PathCapability::Scope scope({outsideRoot});
            const ToolResult granted = ToolsTest::call(read, {{"file_path", secret}});
            QVERIFY2(!granted.isError, qPrintable(granted.text()));
            QVERIFY(granted.text().contains(QLatin1String("s3cret")));

            // Another thread (a parallel tool call) does not share the grant.
            bool otherThreadRefused = false;
            std::thread other([&] {
                otherThreadRefused = repo.workspace()
                                         ->resolve(secret, PathAccess::Read)
                                         .error.contains(QLatin1String("approval"));
            });
            other.join();
            QVERIFY(otherThreadRefused);

            // Nested scopes add and restore.
            {
                const PathCapability::Scope inner({QStringLiteral("/etc/hostname")});
                QVERIFY(repo.workspace()
                            ->resolve(QStringLiteral("/etc/hostname"), PathAccess::Read)
                            .ok());
                QVERIFY(repo.workspace()->resolve(secret, PathAccess::Read).ok());
            }
            QVERIFY(
                !repo.workspace()->resolve(QStringLiteral("/etc/hostname"), PathAccess::Read).ok());
            QVERIFY(repo.workspace()->resolve(secret, PathAccess::Read).ok());

            // A read grant is not a write grant.
            QVERIFY(!repo.workspace()->resolve(secret, PathAccess::Write).ok());
        }
        // Revoked when the scope ends.
        QVERIFY(ToolsTest::call(read, {{"file_path", secret}}).isError);
        // A granted file does not grant its neighbours (prefix of the name, not the folder).
        const PathCapability::Scope file2({secret});
        QVERIFY(repo.workspace()->resolve(secret, PathAccess::Read).ok());
        QVERIFY(!repo.workspace()->resolve(secret + QStringLiteral(".bak"), PathAccess::Read).ok());
    }

    void liveRoots()
    {
        ToolsTest::Repo repo;
        QTemporaryDir extra;
        const QString extraRoot = QFileInfo(extra.path()).canonicalFilePath();
        QStringList roots{repo.root()};
        PathCapability::install(*repo.workspace(), [&roots] { return roots; });
        QVERIFY(
            !repo.workspace()->resolve(extraRoot + QStringLiteral("/a"), PathAccess::Write).ok());
        roots.append(extraRoot);
        QVERIFY(repo.workspace()->resolve(extraRoot + QStringLiteral("/a"), PathAccess::Write).ok());
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_PathCapability)

} // namespace tst_pathcapability

#include "tst_pathcapability.moc"
