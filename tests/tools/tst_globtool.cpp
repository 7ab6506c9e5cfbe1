#include "toolstest.h"

#include <permissions/pathcapability.h>
#include <testmain.h>
#include <tools/globtool.h>

#include <QJsonObject>
#include <QTest>

#include <algorithm>

using namespace AgentCore;
namespace tst_globtool {

using ToolsTest::call;

class tst_GlobTool : public QObject
{
    Q_OBJECT

private slots:
    void patterns_data()
    {
        QTest::addColumn<QJsonObject>("args");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("every cpp") << QJsonObject{{"pattern", "**/*.cpp"}}
                                   << QStringList{"main.cpp", "src/a/deep.cpp", "src/tool.cpp"};
        QTest::newRow("top level only")
            << QJsonObject{{"pattern", "*.cpp"}} << QStringList{"main.cpp"};
        QTest::newRow("braces") << QJsonObject{{"pattern", "src/**/*.{h,cpp}"}}
                                << QStringList{"src/a/deep.cpp", "src/tool.cpp", "src/tool.h"};
        QTest::newRow("one level")
            << QJsonObject{{"pattern", "src/*/*"}} << QStringList{"src/a/deep.cpp"};
        QTest::newRow("in path") << QJsonObject{{"pattern", "*.h"}, {"path", "src"}}
                                 << QStringList{"src/tool.h"};
        QTest::newRow("dot slash")
            << QJsonObject{{"pattern", "./src/*.h"}} << QStringList{"src/tool.h"};
        QTest::newRow("ignored files skipped")
            << QJsonObject{{"pattern", "**/*.o"}} << QStringList{};
        QTest::newRow("hidden files found")
            << QJsonObject{{"pattern", "**/*.yml"}} << QStringList{".github/ci.yml"};
        QTest::newRow("git dir never") << QJsonObject{{"pattern", "**/HEAD"}} << QStringList{};
        QTest::newRow("class") << QJsonObject{{"pattern", "src/tool.[ch]*"}}
                               << QStringList{"src/tool.cpp", "src/tool.h"};
    }

    void patterns()
    {
        QFETCH(QJsonObject, args);
        QFETCH(QStringList, expected);
        ToolsTest::Repo repo;
        for (const char *name : {"main.cpp",
                                 "src/tool.cpp",
                                 "src/tool.h",
                                 "src/a/deep.cpp",
                                 "build/main.o",
                                 "notes.txt",
                                 ".github/ci.yml",
                                 "x.o"})
            QVERIFY(repo.write(QString::fromLatin1(name), "x\n"));
        QVERIFY(repo.write(QStringLiteral(".gitignore"), "build/\n*.o\n"));
        GlobTool tool(repo.workspace());
        const ToolResult result = call(tool, args);
        QVERIFY2(!result.isError, qPrintable(result.text()));
        QStringList lines = result.text().split(QLatin1Char('\n'));
        if (expected.isEmpty()) {
            QVERIFY(result.text().startsWith(QLatin1String("No files found")));
            return;
        }
        QCOMPARE(lines.takeFirst(),
                 expected.size() == 1 ? QStringLiteral("Found 1 file.")
                                      : QStringLiteral("Found %1 files.").arg(expected.size()));
        QCOMPARE(lines, expected);
        QCOMPARE(result.details.toJson().value(QLatin1String("count")).toInt(), expected.size());
    }

    // A link in the repository that points out of it is no way out: Glob lists nothing behind
    // it, whatever the pattern; a link that stays inside is still followed by a literal prefix.
    void symlinksOutOfTheRepository_data()
    {
        QTest::addColumn<QJsonObject>("args");
        QTest::addColumn<bool>("guarded");         // the permission layer's path guard installed
        QTest::addColumn<QStringList>("expected"); // {"error"}: refused
        const QStringList error{QStringLiteral("error")};
        for (const bool guarded : {false, true}) {
            const auto row = [guarded](const char *name) {
                return &QTest::newRow(
                    qPrintable(QString::fromLatin1(name) + (guarded ? " guarded" : "")));
            };
            *row("link dir star") << QJsonObject{{"pattern", "link_dir/*"}} << guarded << error;
            *row("link dir deep") << QJsonObject{{"pattern", "link_dir/**/*.pem"}} << guarded
                                  << error;
            *row("link dir file") << QJsonObject{{"pattern", "link_dir/secret.txt"}} << guarded
                                  << error;
            *row("everything") << QJsonObject{{"pattern", "**/*"}} << guarded
                               << QStringList{"src/inside.txt"};
            *row("star dir") << QJsonObject{{"pattern", "*/secret.txt"}} << guarded
                             << QStringList{};
            *row("link inside") << QJsonObject{{"pattern", "inside_link/*.txt"}} << guarded
                                << QStringList{"inside_link/inside.txt"};
        }
        QTest::newRow("path through link, guarded")
            << QJsonObject{{"pattern", "*"}, {"path", "link_dir"}} << true << error;
    }

    void symlinksOutOfTheRepository()
    {
        QFETCH(QJsonObject, args);
        QFETCH(bool, guarded);
        QFETCH(QStringList, expected);
        ToolsTest::Repo repo;
        ToolsTest::OutsideLinks links(repo);
        QVERIFY(links.isValid());
        if (guarded)
            PathCapability::install(*repo.workspace(), QStringList{repo.root()});
        GlobTool tool(repo.workspace());
        const ToolResult result = call(tool, args);
        const QStringList listed = result.text().split(QLatin1Char('\n'));
        QVERIFY2(std::none_of(listed.cbegin(),
                              listed.cend(),
                              [](const QString &line) {
                                  return line.startsWith(QLatin1String("link_dir/"))
                                         || line.endsWith(QLatin1String("/secret.txt"))
                                         || line.endsWith(QLatin1String("key.pem"));
                              }),
                 qPrintable(result.text()));
        if (expected == QStringList{QStringLiteral("error")}) {
            QVERIFY2(result.isError, qPrintable(result.text()));
            QVERIFY2(result.text().contains(QLatin1String("outside")), qPrintable(result.text()));
            return;
        }
        QVERIFY2(!result.isError, qPrintable(result.text()));
        QStringList lines = result.text().split(QLatin1Char('\n'));
        if (expected.isEmpty()) {
            QVERIFY(lines.first().startsWith(QLatin1String("No files found")));
            return;
        }
        lines.removeFirst();
        QCOMPARE(lines, expected);
    }

    void cap()
    {
        ToolsTest::Repo repo;
        for (int i = 0; i < GlobTool::maxResults + 5; ++i)
            QVERIFY(repo.write(QStringLiteral("d/f%1.txt").arg(i, 4, 10, QLatin1Char('0')), ""));
        GlobTool tool(repo.workspace());
        const ToolResult result = call(tool, {{"pattern", "**/*.txt"}});
        QVERIFY(result.text().contains(QStringLiteral("Showing the first %1 of %2 files")
                                           .arg(GlobTool::maxResults)
                                           .arg(GlobTool::maxResults + 5)));
        QVERIFY(result.details.toJson().value(QLatin1String("truncated")).toBool());
    }

    void errors()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("a.txt"), ""));
        GlobTool tool(repo.workspace());
        QVERIFY(call(tool, {{"pattern", ""}}).isError);
        QVERIFY(call(tool, {{"pattern", "*"}, {"path", "a.txt"}}).isError);
        QVERIFY(call(tool, {{"pattern", "/etc/*"}}).isError);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_GlobTool)

} // namespace tst_globtool

#include "tst_globtool.moc"
