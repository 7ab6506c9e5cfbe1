#include "toolstest.h"

#include <permissions/pathcapability.h>
#include <testmain.h>
#include <tools/lstool.h>

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

using namespace AgentCore;
namespace tst_lstool {

using ToolsTest::call;

class tst_LsTool : public QObject
{
    Q_OBJECT

private slots:
    void tree_data()
    {
        QTest::addColumn<QJsonObject>("args");
        QTest::addColumn<QString>("expected");
        QTest::newRow("root") << QJsonObject{}
                              << "./\n  .gitignore\n  README.md\n  src/\n(2 entries left out by "
                                 ".gitignore or ignore patterns)";
        QTest::newRow("depth 2") << QJsonObject{{"depth", 2}}
                                 << "./\n  .gitignore\n  README.md\n  src/\n    a/\n    main.cpp\n"
                                    "(2 entries left out by .gitignore or ignore patterns)";
        QTest::newRow("subdirectory, deep")
            << QJsonObject{{"path", "src"}, {"depth", 5}} << "src/\n  a/\n    b.txt\n  main.cpp";
        QTest::newRow("ignore patterns")
            << QJsonObject{{"path", "src"}, {"depth", 5}, {"ignore", QJsonArray{"*.cpp"}}}
            << "src/\n  a/\n    b.txt\n(1 entry left out by "
               ".gitignore or ignore patterns)";
    }

    void tree()
    {
        QFETCH(QJsonObject, args);
        QFETCH(QString, expected);
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral(".gitignore"), "build/\n*.log\n"));
        QVERIFY(repo.write(QStringLiteral("README.md"), ""));
        QVERIFY(repo.write(QStringLiteral("src/main.cpp"), ""));
        QVERIFY(repo.write(QStringLiteral("src/a/b.txt"), ""));
        QVERIFY(repo.write(QStringLiteral("build/x.o"), ""));
        QVERIFY(repo.write(QStringLiteral("run.log"), ""));
        LsTool tool(repo.workspace());
        const ToolResult result = call(tool, args);
        QVERIFY(!result.isError);
        QCOMPARE(result.text(), expected);
    }

    void errors()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("a.txt"), ""));
        LsTool tool(repo.workspace());
        QVERIFY(call(tool, {{"path", "a.txt"}}).text().contains(QLatin1String("use Read")));
        QVERIFY(call(tool, {{"path", "missing"}}).isError);
    }

    // Links are not listed nor entered; naming a link out of the repository as path is a read
    // outside it, which the permission layer's guard refuses without an approval.
    void symlinksOutOfTheRepository()
    {
        ToolsTest::Repo repo;
        ToolsTest::OutsideLinks links(repo);
        QVERIFY(links.isValid());
        PathCapability::install(*repo.workspace(), QStringList{repo.root()});
        LsTool tool(repo.workspace());
        QCOMPARE(call(tool, {{"depth", 5}}).text(), QStringLiteral("./\n  src/\n    inside.txt"));
        for (const char *path : {"link_dir", "link_dir/deep"}) {
            const ToolResult result = call(tool, {{"path", path}});
            QVERIFY2(result.isError, qPrintable(result.text()));
            QVERIFY(result.text().contains(QLatin1String("outside the repository")));
        }
        QCOMPARE(call(tool, {{"path", "inside_link"}}).text(), QStringLiteral("src/\n  inside.txt"));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_LsTool)

} // namespace tst_lstool

#include "tst_lstool.moc"
