#include "toolstest.h"

#include <testmain.h>
#include <tools/readtool.h>
#include <tools/writetool.h>

#include <QJsonObject>
#include <QTest>

using namespace AgentCore;
namespace tst_writetool {

using ToolsTest::call;

class tst_WriteTool : public QObject
{
    Q_OBJECT

private slots:
    void createsWithoutRead()
    {
        ToolsTest::Repo repo;
        WriteTool tool(repo.workspace());
        const ToolResult result = call(tool,
                                       {{"file_path", "new/dir/hello.txt"},
                                        {"content", "hello\nworld\n"}});
        QVERIFY2(!result.isError, qPrintable(result.text()));
        QCOMPARE(repo.read(QStringLiteral("new/dir/hello.txt")), QByteArray("hello\nworld\n"));
        QVERIFY(result.text().contains(QLatin1String("Created new/dir/hello.txt (2 lines)")));
        const QJsonObject details = result.details.toJson();
        QVERIFY(details.value(QLatin1String("created")).toBool());
        QCOMPARE(details.value(QLatin1String("diff")).toString(),
                 QStringLiteral(
                     "--- /dev/null\n+++ b/new/dir/hello.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n"));
        // What it wrote counts as read.
        QVERIFY(!call(tool, {{"file_path", "new/dir/hello.txt"}, {"content", "again\n"}}).isError);
    }

    void overwriteNeedsRead()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("a.txt"), "old\n"));
        WriteTool tool(repo.workspace());
        const QJsonObject args{{"file_path", "a.txt"}, {"content", "new\n"}};
        ToolResult result = call(tool, args);
        QVERIFY(result.isError);
        QVERIFY(result.text().contains(QLatin1String("Read it with the Read tool first")));
        QCOMPARE(repo.read(QStringLiteral("a.txt")), QByteArray("old\n"));

        ReadTool read(repo.workspace());
        QVERIFY(!call(read, {{"file_path", "a.txt"}}).isError);
        QVERIFY(repo.write(QStringLiteral("a.txt"), "changed\n"));
        result = call(tool, args);
        QVERIFY(result.isError);
        QVERIFY(result.text().contains(QLatin1String("changed since you last read it")));

        QVERIFY(!call(read, {{"file_path", "a.txt"}}).isError);
        result = call(tool, args);
        QVERIFY2(!result.isError, qPrintable(result.text()));
        QCOMPARE(repo.read(QStringLiteral("a.txt")), QByteArray("new\n"));
        const QJsonObject details = result.details.toJson();
        QVERIFY(!details.value(QLatin1String("created")).toBool());
        QCOMPARE(details.value(QLatin1String("diff")).toString(),
                 QStringLiteral("--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-changed\n+new\n"));
    }

    void keepsConventions_data()
    {
        QTest::addColumn<QByteArray>("before");
        QTest::addColumn<QString>("content");
        QTest::addColumn<QByteArray>("after");
        QTest::newRow("crlf") << QByteArray("a\r\nb\r\n") << "x\ny\n" << QByteArray("x\r\ny\r\n");
        QTest::newRow("bom") << QByteArray("\xEF\xBB\xBF"
                                           "a\n")
                             << "b\n"
                             << QByteArray("\xEF\xBB\xBF"
                                           "b\n");
        QTest::newRow("lf") << QByteArray("a\n") << "b\r\n" << QByteArray("b\r\n");
    }

    void keepsConventions()
    {
        QFETCH(QByteArray, before);
        QFETCH(QString, content);
        QFETCH(QByteArray, after);
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("f.txt"), before));
        ReadTool read(repo.workspace());
        QVERIFY(!call(read, {{"file_path", "f.txt"}}).isError);
        WriteTool tool(repo.workspace());
        QVERIFY(!call(tool, {{"file_path", "f.txt"}, {"content", content}}).isError);
        QCOMPARE(repo.read(QStringLiteral("f.txt")), after);
    }

    void pathEscapesRefused_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("dotdot") << "../escaped.txt";
        QTest::newRow("dotdot inside a path") << "src/../../escaped.txt";
        QTest::newRow("absolute outside") << "/tmp/agentdesk-escaped.txt";
        QTest::newRow("symlink to etc") << "etc/agentdesk-escaped.txt";
        QTest::newRow("symlinked file") << "passwd";
        QTest::newRow("git internals") << ".git/hooks/pre-commit";
    }

    void pathEscapesRefused()
    {
        QFETCH(QString, path);
        ToolsTest::Repo repo;
        QVERIFY(QFile::link(QStringLiteral("/etc"), repo.path(QStringLiteral("etc"))));
        QVERIFY(QFile::link(QStringLiteral("/etc/passwd"), repo.path(QStringLiteral("passwd"))));
        const QByteArray passwd = [] {
            QFile f(QStringLiteral("/etc/passwd"));
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();
        WriteTool tool(repo.workspace());
        const ToolResult result = call(tool, {{"file_path", path}, {"content", "pwned\n"}});
        QVERIFY(result.isError);
        QVERIFY2(result.text().contains(QLatin1String("outside the repository"))
                     || result.text().contains(QLatin1String(".git/")),
                 qPrintable(result.text()));
        QVERIFY(!QFile::exists(QStringLiteral("/tmp/agentdesk-escaped.txt")));
        QVERIFY(!QFile::exists(QFileInfo(repo.root()).path() + QStringLiteral("/escaped.txt")));
        QVERIFY(!QFile::exists(QStringLiteral("/etc/agentdesk-escaped.txt")));
        QFile after(QStringLiteral("/etc/passwd"));
        QVERIFY(after.open(QIODevice::ReadOnly));
        QCOMPARE(after.readAll(), passwd);
    }

    void directoryRefused()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("dir/x"), ""));
        WriteTool tool(repo.workspace());
        const ToolResult result = call(tool, {{"file_path", "dir"}, {"content", "x"}});
        QVERIFY(result.isError);
        QVERIFY(result.text().contains(QLatin1String("directory")));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_WriteTool)

} // namespace tst_writetool

#include "tst_writetool.moc"
