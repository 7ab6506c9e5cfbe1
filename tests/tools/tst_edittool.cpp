#include "toolstest.h"

#include <testmain.h>
#include <tools/edittool.h>
#include <tools/readtool.h>

#include <QJsonObject>
#include <QTest>

using namespace AgentCore;
namespace tst_edittool {

using ToolsTest::call;

namespace {
ToolResult readFile(const ToolsTest::Repo &repo, const QString &path)
{
    ReadTool read(repo.workspace());
    return call(read, {{"file_path", path}});
}
} // namespace

class tst_EditTool : public QObject
{
    Q_OBJECT

private slots:
    void replacesOnceWithDiff()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("src/a.cpp"), "int a = 1;\nint b = 2;\nint c = 3;\n"));
        QVERIFY(!readFile(repo, QStringLiteral("src/a.cpp")).isError);
        EditTool tool(repo.workspace());
        const ToolResult result = call(tool,
                                       {{"file_path", "src/a.cpp"},
                                        {"old_string", "int b = 2;"},
                                        {"new_string", "int b = 20;\nint b2 = 21;"}});
        QVERIFY2(!result.isError, qPrintable(result.text()));
        QCOMPARE(repo.read(QStringLiteral("src/a.cpp")),
                 QByteArray("int a = 1;\nint b = 20;\nint b2 = 21;\nint c = 3;\n"));
        QVERIFY(result.text().contains(QLatin1String("line 2")));
        QVERIFY(result.text().contains(QLatin1String("3\tint b2 = 21;")));
        const QJsonObject details = result.details.toJson();
        QCOMPARE(details.value(QLatin1String("diff")).toString(),
                 QStringLiteral("--- a/src/a.cpp\n+++ b/src/a.cpp\n@@ -1,3 +1,4 @@\n int a = 1;\n"
                                "-int b = 2;\n+int b = 20;\n+int b2 = 21;\n int c = 3;\n"));
        QCOMPARE(details.value(QLatin1String("additions")).toInt(), 2);
        QCOMPARE(details.value(QLatin1String("deletions")).toInt(), 1);
        QCOMPARE(details.value(QLatin1String("replacements")).toInt(), 1);

        // The tool knows what it wrote: a second edit needs no new Read.
        QVERIFY(!call(tool,
                      {{"file_path", "src/a.cpp"},
                       {"old_string", "int c = 3;"},
                       {"new_string", "int c = 30;"}})
                     .isError);
    }

    void ambiguousMatch()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("a.txt"), "x = 1\ny = 2\nx = 1\nz\nx = 1\n"));
        QVERIFY(!readFile(repo, QStringLiteral("a.txt")).isError);
        EditTool tool(repo.workspace());
        const ToolResult result = call(tool,
                                       {{"file_path", "a.txt"},
                                        {"old_string", "x = 1"},
                                        {"new_string", "x = 9"}});
        QVERIFY(result.isError);
        QVERIFY2(result.text().contains(QLatin1String("occurs 3 times")), qPrintable(result.text()));
        QVERIFY(result.text().contains(QLatin1String("lines 1, 3, 5")));
        QCOMPARE(repo.read(QStringLiteral("a.txt")), QByteArray("x = 1\ny = 2\nx = 1\nz\nx = 1\n"));

        const ToolResult all = call(tool,
                                    {{"file_path", "a.txt"},
                                     {"old_string", "x = 1"},
                                     {"new_string", "x = 9"},
                                     {"replace_all", true}});
        QVERIFY(!all.isError);
        QCOMPARE(all.details.toJson().value(QLatin1String("replacements")).toInt(), 3);
        QCOMPARE(repo.read(QStringLiteral("a.txt")), QByteArray("x = 9\ny = 2\nx = 9\nz\nx = 9\n"));
    }

    void notFoundShowsNearestRegion_data()
    {
        QTest::addColumn<QString>("oldString");
        QTest::addColumn<QString>("expected");
        QTest::newRow("indentation differs") << "if (ready) {\n  start();\n}"
                                             << "Lines 3-5 match it except for whitespace";
        QTest::newRow("similar text") << "    if (ready) {\n        begin();\n    }"
                                      << "most similar text is at lines 3-5";
        QTest::newRow("line number prefix") << "4\t        start();"
                                            << "line number";
        QTest::newRow("nothing similar") << "completely unrelated words here"
                                         << "No similar text";
    }

    void notFoundShowsNearestRegion()
    {
        QFETCH(QString, oldString);
        QFETCH(QString, expected);
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("a.cpp"),
                           "void run()\n{\n    if (ready) {\n        "
                           "start();\n    }\n}\n"));
        QVERIFY(!readFile(repo, QStringLiteral("a.cpp")).isError);
        EditTool tool(repo.workspace());
        const ToolResult result
            = call(tool, {{"file_path", "a.cpp"}, {"old_string", oldString}, {"new_string", "x"}});
        QVERIFY(result.isError);
        QVERIFY2(result.text().contains(expected), qPrintable(result.text()));
        if (expected.startsWith(QLatin1String("Lines")))
            QVERIFY(result.text().contains(QLatin1String("4\t        start();")));
    }

    void readFirst()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("a.txt"), "old\n"));
        EditTool tool(repo.workspace());
        const QJsonObject args{{"file_path", "a.txt"}, {"old_string", "old"}, {"new_string", "new"}};
        ToolResult result = call(tool, args);
        QVERIFY(result.isError);
        QVERIFY2(result.text().contains(QLatin1String("Read it with the Read tool first")),
                 qPrintable(result.text()));

        QVERIFY(!readFile(repo, QStringLiteral("a.txt")).isError);
        QVERIFY(repo.write(QStringLiteral("a.txt"), "old, changed behind our back\n"));
        result = call(tool, args);
        QVERIFY(result.isError);
        QVERIFY2(result.text().contains(QLatin1String("changed since you last read it")),
                 qPrintable(result.text()));
        QCOMPARE(repo.read(QStringLiteral("a.txt")), QByteArray("old, changed behind our back\n"));

        QVERIFY(!readFile(repo, QStringLiteral("a.txt")).isError);
        QVERIFY(!call(tool, args).isError);
    }

    void lineEndingsAndBom_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("oldString");
        QTest::addColumn<QString>("newString");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("crlf, LF strings") << QByteArray("a\r\nb\r\nc\r\n") << "a\nb"
                                          << "A\nB\nX" << QByteArray("A\r\nB\r\nX\r\nc\r\n");
        QTest::newRow("crlf, single line, new lines added")
            << QByteArray("a\r\nb\r\n") << "b"
            << "b\nb2" << QByteArray("a\r\nb\r\nb2\r\n");
        QTest::newRow("crlf, CRLF strings") << QByteArray("a\r\nb\r\n") << "a\r\nb"
                                            << "x\r\ny" << QByteArray("x\r\ny\r\n");
        QTest::newRow("bom kept") << QByteArray("\xEF\xBB\xBFhello\n") << "hello"
                                  << "bye"
                                  << QByteArray("\xEF\xBB\xBF"
                                                "bye\n");
        QTest::newRow("bom and crlf") << QByteArray("\xEF\xBB\xBFone\r\ntwo\r\n") << "one\ntwo"
                                      << "1\n2"
                                      << QByteArray("\xEF\xBB\xBF"
                                                    "1\r\n2\r\n");
        QTest::newRow("lf file stays lf") << QByteArray("a\nb\n") << "a\r\nb"
                                          << "x\r\ny" << QByteArray("x\ny\n");
        QTest::newRow("mixed file, lf region") << QByteArray("a\r\nb\nc\nd\r\n") << "b\nc"
                                               << "B\nC" << QByteArray("a\r\nB\nC\nd\r\n");
        QTest::newRow("invalid utf-8 elsewhere kept") << QByteArray("\xff\xfe x\nkeep\n") << "keep"
                                                      << "kept" << QByteArray("\xff\xfe x\nkept\n");
    }

    void lineEndingsAndBom()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, oldString);
        QFETCH(QString, newString);
        QFETCH(QByteArray, expected);
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("f.txt"), content));
        QVERIFY(!readFile(repo, QStringLiteral("f.txt")).isError);
        EditTool tool(repo.workspace());
        const ToolResult result = call(tool,
                                       {{"file_path", "f.txt"},
                                        {"old_string", oldString},
                                        {"new_string", newString}});
        QVERIFY2(!result.isError, qPrintable(result.text()));
        QCOMPARE(repo.read(QStringLiteral("f.txt")), expected);
        // The diff is shown without CRs.
        QVERIFY(!result.details.toJson()
                     .value(QLatin1String("diff"))
                     .toString()
                     .contains(QLatin1Char('\r')));
    }

    void pathEscapesRefused_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("dotdot") << "../outside.txt";
        QTest::newRow("absolute outside") << "/etc/passwd";
        QTest::newRow("symlink to etc") << "etc/passwd";
        QTest::newRow("git internals") << ".git/config";
    }

    void pathEscapesRefused()
    {
        QFETCH(QString, path);
        ToolsTest::Repo repo;
        QVERIFY(QFile::link(QStringLiteral("/etc"), repo.path(QStringLiteral("etc"))));
        // Even after the model read it, writing is refused. (Through a link out of the
        // repository it cannot read either.)
        QVERIFY(!readFile(repo, path).isError || path.startsWith(QLatin1String(".."))
                || path == QLatin1String("etc/passwd"));
        EditTool tool(repo.workspace());
        const ToolResult result
            = call(tool, {{"file_path", path}, {"old_string", "a"}, {"new_string", "b"}});
        QVERIFY(result.isError);
        QVERIFY2(result.text().contains(QLatin1String("outside the repository"))
                     || result.text().contains(QLatin1String(".git/")),
                 qPrintable(result.text()));
    }

    void otherErrors_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("oldString");
        QTest::addColumn<QString>("newString");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing file") << "nope.txt"
                                      << "a"
                                      << "b"
                                      << "To create a file, use Write";
        QTest::newRow("similar name") << "a.tx"
                                      << "a"
                                      << "b"
                                      << "a.txt";
        QTest::newRow("same strings") << "a.txt"
                                      << "one"
                                      << "one"
                                      << "nothing to change";
        QTest::newRow("empty old") << "a.txt"
                                   << ""
                                   << "x"
                                   << "old_string is empty";
        QTest::newRow("directory") << "dir"
                                   << "a"
                                   << "b"
                                   << "is a directory";
    }

    void otherErrors()
    {
        QFETCH(QString, path);
        QFETCH(QString, oldString);
        QFETCH(QString, newString);
        QFETCH(QString, message);
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("a.txt"), "one\n"));
        QVERIFY(repo.write(QStringLiteral("dir/b.txt"), "one\n"));
        QVERIFY(!readFile(repo, QStringLiteral("a.txt")).isError);
        EditTool tool(repo.workspace());
        const ToolResult result = call(tool,
                                       {{"file_path", path},
                                        {"old_string", oldString},
                                        {"new_string", newString}});
        QVERIFY(result.isError);
        QVERIFY2(result.text().contains(message), qPrintable(result.text()));
        QCOMPARE(repo.read(QStringLiteral("a.txt")), QByteArray("one\n"));
    }

    void keepsPermissions()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("run.sh"), "echo hi\n"));
        QFile::setPermissions(repo.path(QStringLiteral("run.sh")),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QVERIFY(!readFile(repo, QStringLiteral("run.sh")).isError);
        EditTool tool(repo.workspace());
        QVERIFY(!call(tool, {{"file_path", "run.sh"}, {"old_string", "hi"}, {"new_string", "ho"}})
                     .isError);
        QVERIFY(QFileInfo(repo.path(QStringLiteral("run.sh"))).isExecutable());
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_EditTool)

} // namespace tst_edittool

#include "tst_edittool.moc"
