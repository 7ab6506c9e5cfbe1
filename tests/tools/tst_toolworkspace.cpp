#include "toolstest.h"

#include <testmain.h>
#include <tools/toolworkspace.h>

#include <QTest>

using namespace AgentCore;

namespace tst_toolworkspace {

class tst_ToolWorkspace : public QObject
{
    Q_OBJECT

private slots:
    void resolve_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<bool>("write");
        QTest::addColumn<bool>("allowed");
        QTest::addColumn<QString>("relative"); // expected when allowed and inside

        QTest::newRow("relative file") << "src/main.cpp" << true << true << "src/main.cpp";
        QTest::newRow("new file in new dir")
            << "new/dir/file.txt" << true << true << "new/dir/file.txt";
        QTest::newRow("dot segments inside")
            << "src/../src/./main.cpp" << true << true << "src/main.cpp";
        QTest::newRow("dotdot escape write") << "../outside.txt" << true << false << "";
        QTest::newRow("dotdot escape deep") << "src/../../../etc/passwd" << true << false << "";
        QTest::newRow("absolute outside write") << "/etc/hostname" << true << false << "";
        QTest::newRow("absolute outside read") << "/etc/hostname" << false << true << "";
        QTest::newRow("symlink to etc") << "etc-link/passwd" << true << false << "";
        // A link out of the repository is not followed, also for a read (any mode).
        QTest::newRow("symlink to etc read") << "etc-link/passwd" << false << false << "";
        QTest::newRow("symlinked file to outside read") << "passwd-link" << false << false << "";
        QTest::newRow("symlinked file to outside") << "passwd-link" << true << false << "";
        QTest::newRow("symlink inside") << "src-link/main.cpp" << true << true << "src/main.cpp";
        QTest::newRow("dangling symlink") << "dangling" << true << false << "";
        QTest::newRow("git dir") << ".git/config" << true << false << "";
        QTest::newRow("git dir read") << ".git/config" << false << true << ".git/config";
        QTest::newRow("empty") << "" << false << false << "";
    }

    void resolve()
    {
        QFETCH(QString, input);
        QFETCH(bool, write);
        QFETCH(bool, allowed);
        QFETCH(QString, relative);
        ToolsTest::Repo repo;
        QVERIFY(repo.isValid());
        QVERIFY(repo.write(QStringLiteral("src/main.cpp"), "int main() {}\n"));
        QVERIFY(QFile::link(QStringLiteral("/etc"), repo.path(QStringLiteral("etc-link"))));
        QVERIFY(
            QFile::link(QStringLiteral("/etc/passwd"), repo.path(QStringLiteral("passwd-link"))));
        QVERIFY(
            QFile::link(repo.path(QStringLiteral("src")), repo.path(QStringLiteral("src-link"))));
        QVERIFY(QFile::link(repo.path(QStringLiteral("nowhere/x")),
                            repo.path(QStringLiteral("dangling"))));

        const ResolvedPath path = repo.workspace()->resolve(input,
                                                            write ? PathAccess::Write
                                                                  : PathAccess::Read);
        QCOMPARE(path.ok(), allowed);
        if (!allowed) {
            QVERIFY(!path.error.isEmpty());
            return;
        }
        if (!relative.isEmpty()) {
            QVERIFY(path.insideRoot);
            QCOMPARE(path.relative, relative);
            QCOMPARE(path.path, repo.path(relative));
        } else {
            QVERIFY(!path.insideRoot);
        }
    }

    void guardReplacesTheDefault()
    {
        ToolsTest::Repo repo;
        repo.workspace()->setPathGuard([](const ResolvedPath &path, PathAccess access) {
            return access == PathAccess::Read && path.relative.startsWith(QLatin1String("secret"))
                       ? QStringLiteral("no")
                       : QString();
        });
        QCOMPARE(repo.workspace()->resolve(QStringLiteral("secret.txt"), PathAccess::Read).error,
                 QStringLiteral("no"));
        QVERIFY(repo.workspace()->resolve(QStringLiteral("/tmp/x"), PathAccess::Write).ok());
    }

    void freshness()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("a.txt"), "one\n"));
        const ResolvedPath path = repo.workspace()->resolve(QStringLiteral("a.txt"),
                                                            PathAccess::Write);
        QVERIFY(repo.workspace()->checkFreshness(path, "one\n").contains(QLatin1String("Read")));
        repo.workspace()->recordRead(path.path, *ToolWorkspace::snapshot(path.path));
        QVERIFY(repo.workspace()->checkFreshness(path, "one\n").isEmpty());
        QVERIFY(repo.workspace()->checkFreshness(path, "two\n").contains(QLatin1String("changed")));
        const ResolvedPath missing = repo.workspace()->resolve(QStringLiteral("new.txt"),
                                                               PathAccess::Write);
        QVERIFY(repo.workspace()->checkFreshness(missing, {}).isEmpty());
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_ToolWorkspace)

} // namespace tst_toolworkspace

#include "tst_toolworkspace.moc"
