#include "toolstest.h"

#include <permissions/pathcapability.h>
#include <testmain.h>
#include <tools/builtinsearcher.h>
#include <tools/greptool.h>
#include <tools/ripgrepsearcher.h>

#include <QJsonObject>
#include <QTest>

using namespace AgentCore;
namespace tst_greptool {

using ToolsTest::call;

namespace {

void makeTree(const ToolsTest::Repo &repo)
{
    QVERIFY(repo.write(QStringLiteral(".gitignore"), "*.log\nbuild/\n"));
    QVERIFY(repo.write(
        QStringLiteral("src/main.cpp"),
        "#include \"tool.h\"\nint main()\n{\n    Tool tool;\n    return tool.run();\n}\n"));
    QVERIFY(repo.write(QStringLiteral("src/tool.h"),
                       "class Tool\n{\npublic:\n    int run();\n    int stop();\n};\n"));
    QVERIFY(repo.write(QStringLiteral("src/tool.cpp"),
                       "#include \"tool.h\"\n\nint Tool::run()\n{\n    return 0;\n}\n\nint "
                       "Tool::stop()\n{\n    return 1;\n}\n"));
    QVERIFY(repo.write(QStringLiteral("src/a-b.txt"), "tool\r\nTOOL\r\n"));
    QVERIFY(repo.write(QStringLiteral("src/a/nested.txt"), "\xEF\xBB\xBFtool at start\n"));
    QVERIFY(repo.write(QStringLiteral("docs/readme.md"), "Run the tool.\nNo newline at end: tool"));
    QVERIFY(repo.write(QStringLiteral(".github/ci.yml"), "run: tool --check\n"));
    QVERIFY(repo.write(QStringLiteral("debug.log"), "tool in a log\n"));
    QVERIFY(repo.write(QStringLiteral("build/out.txt"), "tool in build\n"));
    QVERIFY(repo.write(QStringLiteral("image.bin"), QByteArray("tool\0\x01\x02", 7)));
    QVERIFY(repo.write(QStringLiteral("unicode.txt"), "Grüße, tool\nnaïve café\n"));
}

} // namespace

class tst_GrepTool : public QObject
{
    Q_OBJECT

private:
    static void queries()
    {
        QTest::addColumn<QJsonObject>("args");
        QTest::newRow("files") << QJsonObject{{"pattern", "tool"}};
        QTest::newRow("files, case-insensitive") << QJsonObject{{"pattern", "TOOL"}, {"-i", true}};
        QTest::newRow("content") << QJsonObject{{"pattern", "run"}, {"output_mode", "content"}};
        QTest::newRow("content, no numbers")
            << QJsonObject{{"pattern", "run"}, {"output_mode", "content"}, {"-n", false}};
        QTest::newRow("content, context")
            << QJsonObject{{"pattern", "return"}, {"output_mode", "content"}, {"-C", 1}};
        QTest::newRow("content, before and after")
            << QJsonObject{{"pattern", "Tool::"}, {"output_mode", "content"}, {"-B", 2}, {"-A", 1}};
        QTest::newRow("count") << QJsonObject{{"pattern", "o"}, {"output_mode", "count"}};
        QTest::newRow("glob by name") << QJsonObject{{"pattern", "tool"}, {"glob", "*.{h,cpp}"}};
        QTest::newRow("glob anchored") << QJsonObject{{"pattern", "tool"}, {"glob", "src/*.txt"}};
        QTest::newRow("glob exclusion") << QJsonObject{{"pattern", "tool"}, {"glob", "!*.cpp"}};
        QTest::newRow("path directory") << QJsonObject{{"pattern", "int"}, {"path", "src"}};
        QTest::newRow("path file")
            << QJsonObject{{"pattern", "int"}, {"path", "src/tool.cpp"}, {"output_mode", "content"}};
        QTest::newRow("regex classes")
            << QJsonObject{{"pattern", "\\bTool::\\w+\\(\\)"}, {"output_mode", "content"}};
        QTest::newRow("anchors") << QJsonObject{{"pattern", "^\\}$"}, {"output_mode", "count"}};
        QTest::newRow("no match across lines")
            << QJsonObject{{"pattern", "run\\(\\);\\s+int"}, {"output_mode", "content"}};
        QTest::newRow("whitespace class stays on the line")
            << QJsonObject{{"pattern", "Tool\\s*$"}, {"output_mode", "content"}};
        QTest::newRow("unicode") << QJsonObject{{"pattern", "gr\\w+e"},
                                                {"-i", true},
                                                {"output_mode", "content"}};
        QTest::newRow("last line without newline")
            << QJsonObject{{"pattern", "end: tool$"}, {"output_mode", "content"}};
        QTest::newRow("bom") << QJsonObject{{"pattern", "^tool"}, {"output_mode", "content"}};
        QTest::newRow("head limit")
            << QJsonObject{{"pattern", "o"}, {"output_mode", "content"}, {"head_limit", 3}};
        QTest::newRow("no match") << QJsonObject{{"pattern", "zebra"}};
    }

private slots:
    void builtinMatchesRipgrep_data() { queries(); }

    // The tool prints the same text whichever backend searched.
    void builtinMatchesRipgrep()
    {
        QFETCH(QJsonObject, args);
        if (RipgrepSearcher::findExecutable().isEmpty())
            QSKIP("rg (Debian package ripgrep) is not on PATH: only the built-in search can run");
        ToolsTest::Repo repo;
        makeTree(repo);
        GrepTool ripgrep(repo.workspace(), GrepTool::Backend::Ripgrep);
        GrepTool builtin(repo.workspace(), GrepTool::Backend::BuiltIn);
        QCOMPARE(ripgrep.backendName(), QStringLiteral("ripgrep"));
        QCOMPARE(builtin.backendName(), QStringLiteral("builtin"));
        const ToolResult fromRipgrep = call(ripgrep, args);
        const ToolResult fromBuiltin = call(builtin, args);
        QVERIFY2(!fromRipgrep.isError, qPrintable(fromRipgrep.text()));
        QCOMPARE(fromBuiltin.text(), fromRipgrep.text());
        QCOMPARE(fromBuiltin.isError, fromRipgrep.isError);
    }

    void expectedOutput_data()
    {
        QTest::addColumn<QJsonObject>("args");
        QTest::addColumn<QString>("expected");
        QTest::newRow("files, sorted, ignored and binary skipped, hidden searched")
            << QJsonObject{{"pattern", "tool"}}
            << "Found 7 files.\n.github/ci.yml\ndocs/readme.md\nsrc/a/nested.txt\nsrc/a-b.txt\n"
               "src/main.cpp\nsrc/tool.cpp\nunicode.txt";
        QTest::newRow("content with context and separators")
            << QJsonObject{{"pattern", "return"},
                           {"output_mode", "content"},
                           {"-C", 1},
                           {"path", "src"},
                           {"glob", "*.cpp"}}
            << "3 matching lines in 2 files.\n"
               "src/main.cpp-4-    Tool tool;\nsrc/main.cpp:5:    return tool.run();\n"
               "src/main.cpp-6-}\n--\nsrc/tool.cpp-4-{\nsrc/tool.cpp:5:    return 0;\n"
               "src/tool.cpp-6-}\n--\nsrc/tool.cpp-9-{\nsrc/tool.cpp:10:    return 1;\n"
               "src/tool.cpp-11-}";
        QTest::newRow("overlapping context merges")
            << QJsonObject{{"pattern", "int"},
                           {"output_mode", "content"},
                           {"-A", 1},
                           {"path", "src/tool.h"}}
            << "2 matching lines in 1 file.\nsrc/tool.h:4:    int run();\nsrc/tool.h:5:    int "
               "stop();\nsrc/tool.h-6-};";
        QTest::newRow("count")
            << QJsonObject{{"pattern", "Tool"}, {"output_mode", "count"}, {"path", "src"}}
            << "4 matching lines in 3 files.\nsrc/main.cpp:1\nsrc/tool.cpp:2\nsrc/tool.h:1";
        QTest::newRow("crlf dropped")
            << QJsonObject{{"pattern", "TOOL"}, {"output_mode", "content"}}
            << "1 matching line in 1 file.\nsrc/a-b.txt:2:TOOL";
        QTest::newRow("head limit")
            << QJsonObject{{"pattern", "tool"}, {"head_limit", 2}}
            << "Found 7 files.\n.github/ci.yml\ndocs/readme.md\n[Showing the first 2 of 7 "
               "results. Narrow the search with path, glob or a more specific pattern, or raise "
               "head_limit.]";
        QTest::newRow("none") << QJsonObject{{"pattern", "zebra"}} << "No matches found.";
    }

    void expectedOutput()
    {
        QFETCH(QJsonObject, args);
        QFETCH(QString, expected);
        ToolsTest::Repo repo;
        makeTree(repo);
        for (const GrepTool::Backend backend :
             {GrepTool::Backend::BuiltIn, GrepTool::Backend::Automatic}) {
            GrepTool tool(repo.workspace(), backend);
            const ToolResult result = call(tool, args);
            QVERIFY(!result.isError);
            QCOMPARE(result.text(), expected);
        }
    }

    void errors_data()
    {
        QTest::addColumn<QJsonObject>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("bad regex") << QJsonObject{{"pattern", "foo("}} << "Grep failed";
        QTest::newRow("empty pattern") << QJsonObject{{"pattern", ""}} << "pattern is empty";
        QTest::newRow("missing path") << QJsonObject{{"pattern", "x"}, {"path", "srcc"}} << "src";
        QTest::newRow("bad mode") << QJsonObject{{"pattern", "x"}, {"output_mode", "lines"}}
                                  << "output_mode";
    }

    void errors()
    {
        QFETCH(QJsonObject, args);
        QFETCH(QString, message);
        ToolsTest::Repo repo;
        makeTree(repo);
        for (const GrepTool::Backend backend :
             {GrepTool::Backend::BuiltIn, GrepTool::Backend::Automatic}) {
            GrepTool tool(repo.workspace(), backend);
            const ToolResult result = call(tool, args);
            QVERIFY(result.isError);
            QVERIFY2(result.text().contains(message), qPrintable(result.text()));
        }
    }

    void details()
    {
        ToolsTest::Repo repo;
        makeTree(repo);
        GrepTool tool(repo.workspace(), GrepTool::Backend::BuiltIn);
        const QJsonObject details = call(tool, {{"pattern", "Tool"}, {"output_mode", "count"}})
                                        .details.toJson();
        QCOMPARE(details.value(QLatin1String("backend")).toString(), QStringLiteral("builtin"));
        QCOMPARE(details.value(QLatin1String("files")).toInt(), 3);
        QCOMPARE(details.value(QLatin1String("matches")).toInt(), 4);
    }

    void longLinesAreCut()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("min.js"), "var x='" + QByteArray(2000, 'a') + "';\n"));
        GrepTool tool(repo.workspace());
        const QString text = call(tool, {{"pattern", "var"}, {"output_mode", "content"}}).text();
        QVERIFY(text.size() < 1000);
        QVERIFY(text.contains(QLatin1String("more characters")));
    }

    // Neither backend searches behind a link that leads out of the repository; with the
    // permission layer's guard, naming such a link as path asks (the guard refuses it here).
    void symlinksOutOfTheRepository_data()
    {
        QTest::addColumn<QJsonObject>("args");
        QTest::addColumn<bool>("guarded");
        QTest::addColumn<QString>("expected"); // "error": refused
        for (const bool guarded : {false, true}) {
            const auto row = [guarded](const char *name) {
                return &QTest::newRow(
                    qPrintable(QString::fromLatin1(name) + (guarded ? " guarded" : "")));
            };
            *row("whole repository")
                << QJsonObject{{"pattern", "secret"}} << guarded << "Found 1 file.\nsrc/inside.txt";
            *row("content") << QJsonObject{{"pattern", "secret"}, {"output_mode", "content"}}
                            << guarded
                            << "1 matching line in 1 file.\nsrc/inside.txt:1:secret inside";
            *row("glob through link") << QJsonObject{{"pattern", "secret"}, {"glob", "link_dir/*"}}
                                      << guarded << "No matches found.";
            *row("glob deep") << QJsonObject{{"pattern", "secret"}, {"glob", "**/*.pem"}} << guarded
                              << "No matches found.";
        }
        QTest::newRow("path link dir, guarded")
            << QJsonObject{{"pattern", "secret"}, {"path", "link_dir"}} << true << "error";
        QTest::newRow("path link file, guarded")
            << QJsonObject{{"pattern", "secret"}, {"path", "link_file"}} << true << "error";
        QTest::newRow("path inside link")
            << QJsonObject{{"pattern", "secret"}, {"path", "inside_link"}} << true
            << "Found 1 file.\nsrc/inside.txt";
    }

    void symlinksOutOfTheRepository()
    {
        QFETCH(QJsonObject, args);
        QFETCH(bool, guarded);
        QFETCH(QString, expected);
        ToolsTest::Repo repo;
        ToolsTest::OutsideLinks links(repo);
        QVERIFY(links.isValid());
        if (guarded)
            PathCapability::install(*repo.workspace(), QStringList{repo.root()});
        QList<GrepTool::Backend> backends{GrepTool::Backend::BuiltIn};
        if (!RipgrepSearcher::findExecutable().isEmpty())
            backends.append(GrepTool::Backend::Ripgrep);
        for (const GrepTool::Backend backend : backends) {
            GrepTool tool(repo.workspace(), backend);
            const ToolResult result = call(tool, args);
            QVERIFY2(!result.text().contains(QLatin1String("secret outside")),
                     qPrintable(result.text()));
            if (expected == QLatin1String("error")) {
                QVERIFY2(result.isError, qPrintable(result.text()));
                QVERIFY2(result.text().contains(QLatin1String("outside the repository")),
                         qPrintable(result.text()));
            } else {
                QCOMPARE(result.text(), expected);
            }
        }
    }

    // A file swapped for a link after the walk listed it is not read through the link.
    void builtinSearchDoesNotReadThroughALink()
    {
        ToolsTest::Repo repo;
        ToolsTest::OutsideLinks links(repo);
        QVERIFY(links.isValid());
        GrepQuery query;
        query.pattern = QStringLiteral("secret");
        query.directory = repo.root();
        query.file = QStringLiteral("link_file");
        QCOMPARE(BuiltinSearcher::run(query).files.size(), 0);
        query.file = QStringLiteral("src/inside.txt");
        QCOMPARE(BuiltinSearcher::run(query).files.size(), 1);
    }

    void abortStopsTheBuiltinSearch()
    {
        ToolsTest::Repo repo;
        for (int i = 0; i < 200; ++i)
            QVERIFY(repo.write(QStringLiteral("d/%1.txt").arg(i), "x\n"));
        GrepQuery query;
        query.pattern = QStringLiteral("x");
        query.directory = repo.root();
        query.abort.abort();
        const GrepOutcome outcome = BuiltinSearcher::run(query);
        QVERIFY(outcome.incomplete);
        QVERIFY(outcome.files.size() < 200);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_GrepTool)

} // namespace tst_greptool

#include "tst_greptool.moc"
