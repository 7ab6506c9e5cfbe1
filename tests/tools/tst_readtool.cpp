#include "toolstest.h"

#include <permissions/pathcapability.h>
#include <testmain.h>
#include <tools/readtool.h>
#include <tools/textfile.h>

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

using namespace AgentCore;
namespace tst_readtool {

using ToolsTest::call;

class tst_ReadTool : public QObject
{
    Q_OBJECT

private slots:
    void numberedLines()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("src/a.txt"), "first\n\tsecond\nthird"));
        ReadTool tool(repo.workspace());
        const ToolResult result = call(tool, {{"file_path", "src/a.txt"}});
        QVERIFY(!result.isError);
        QCOMPARE(result.text(), QStringLiteral("1\tfirst\n2\t\tsecond\n3\tthird\n"));
        const QJsonObject details = result.details.toJson();
        QCOMPARE(details.value(QLatin1String("totalLines")).toInt(), 3);
        QCOMPARE(details.value(QLatin1String("displayPath")).toString(),
                 QStringLiteral("src/a.txt"));
        QCOMPARE(details.value(QLatin1String("path")).toString(),
                 repo.path(QStringLiteral("src/a.txt")));
    }

    void window_data()
    {
        QTest::addColumn<int>("offset");
        QTest::addColumn<int>("limit");
        QTest::addColumn<int>("first");
        QTest::addColumn<int>("last");
        QTest::addColumn<bool>("continues");
        QTest::newRow("start") << 0 << 3 << 1 << 3 << true;
        QTest::newRow("middle") << 5 << 2 << 5 << 6 << true;
        QTest::newRow("to the end") << 8 << 100 << 8 << 10 << false;
        QTest::newRow("last line") << 10 << 1 << 10 << 10 << false;
    }

    void window()
    {
        QFETCH(int, offset);
        QFETCH(int, limit);
        QFETCH(int, first);
        QFETCH(int, last);
        QFETCH(bool, continues);
        ToolsTest::Repo repo;
        QByteArray content;
        for (int i = 1; i <= 10; ++i)
            content += "line " + QByteArray::number(i) + '\n';
        QVERIFY(repo.write(QStringLiteral("a.txt"), content));
        ReadTool tool(repo.workspace());
        QJsonObject args{{"file_path", "a.txt"}, {"limit", limit}};
        if (offset > 0)
            args.insert(QStringLiteral("offset"), offset);
        const ToolResult result = call(tool, args);
        QVERIFY(!result.isError);
        const QStringList lines = result.text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        // No padding: "9\t" and "10\t" alike (the tab aligns the text).
        QCOMPARE(lines.first(), QStringLiteral("%1\tline %1").arg(first));
        QCOMPARE(result.details.toJson().value(QLatin1String("endLine")).toInt(), last);
        QCOMPARE(result.text().contains(QStringLiteral("offset=%1").arg(last + 1)), continues);
    }

    void offsetPastEnd()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("a.txt"), "1\n2\n"));
        ReadTool tool(repo.workspace());
        const ToolResult result = call(tool, {{"file_path", "a.txt"}, {"offset", 5}});
        QVERIFY(result.isError);
        QVERIFY2(result.text().contains(QLatin1String("2 lines")), qPrintable(result.text()));
    }

    void longLinesAreCut()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("min.js"), QByteArray(5000, 'x') + "\nshort\n"));
        ReadTool tool(repo.workspace());
        const ToolResult result = call(tool, {{"file_path", "min.js"}});
        QVERIFY(!result.isError);
        QVERIFY(result.text().contains(QLatin1String("3000 more characters")));
        QVERIFY(result.text().contains(QLatin1String("\tshort\n")));
        QCOMPARE(result.details.toJson().value(QLatin1String("cutLines")).toInt(), 1);
    }

    // Many long lines: the output cap cuts before the line limit and says where to go on.
    void outputCapNotes()
    {
        ToolsTest::Repo repo;
        QByteArray content;
        for (int i = 0; i < 1000; ++i)
            content += QByteArray(1000, 'a' + char(i % 26)) + '\n';
        QVERIFY(repo.write(QStringLiteral("big.txt"), content));
        ReadTool tool(repo.workspace());
        const ToolResult result = call(tool, {{"file_path", "big.txt"}});
        QVERIFY(!result.isError);
        QVERIFY(result.text().size() <= ReadTool::maxOutputChars + 200);
        const int last = result.details.toJson().value(QLatin1String("endLine")).toInt();
        QVERIFY(last > 50 && last < 1000);
        QVERIFY(result.text().contains(QStringLiteral("Showing lines 1-%1 of 1000").arg(last)));
        QVERIFY(result.text().contains(QStringLiteral("offset=%1").arg(last + 1)));
    }

    void crlfAndBomAreNotShown()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("w.txt"), "\xEF\xBB\xBFone\r\ntwo\r\n"));
        ReadTool tool(repo.workspace());
        QCOMPARE(call(tool, {{"file_path", "w.txt"}}).text(), QStringLiteral("1\tone\n2\ttwo\n"));
    }

    void errors_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("message");
        QTest::newRow("binary") << "image.bin"
                                << "binary file";
        // A picture's name: Read sends pictures (tst_readpictures), not a broken one.
        QTest::newRow("picture cut short") << "image.png"
                                           << "broken PNG";
        QTest::newRow("directory") << "src"
                                   << "is a directory";
        QTest::newRow("missing, similar in same dir") << "src/mian.cpp"
                                                      << "src/main.cpp";
        QTest::newRow("missing, same name elsewhere") << "main.cpp"
                                                      << "src/main.cpp";
        QTest::newRow("missing, wrong directory") << "scr/main.cpp"
                                                  << "src/main.cpp";
        QTest::newRow("missing, nothing similar") << "zzzzzzzz.qqq"
                                                  << "File not found";
    }

    void errors()
    {
        QFETCH(QString, path);
        QFETCH(QString, message);
        ToolsTest::Repo repo;
        for (const char *name : {"image.png", "image.bin"}) {
            QVERIFY(
                repo.write(QLatin1String(name), QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16)));
        }
        QVERIFY(repo.write(QStringLiteral("src/main.cpp"), "int main() {}\n"));
        QVERIFY(repo.write(QStringLiteral("src/other.cpp"), "\n"));
        ReadTool tool(repo.workspace());
        const ToolResult result = call(tool, {{"file_path", path}});
        QVERIFY(result.isError);
        QVERIFY2(result.text().contains(message), qPrintable(result.text()));
        QVERIFY(!repo.workspace()->lastRead(repo.path(path)));
    }

    // A link in the repository is the path it points at: reading through a link out of the
    // repository needs the approval a read outside needs (the guard refuses it here).
    void symlinksOutOfTheRepository()
    {
        ToolsTest::Repo repo;
        ToolsTest::OutsideLinks links(repo);
        QVERIFY(links.isValid());
        PathCapability::install(*repo.workspace(), QStringList{repo.root()});
        ReadTool tool(repo.workspace());
        for (const char *path : {"link_file", "link_dir/secret.txt", "link_dir/deep/key.pem"}) {
            const ToolResult result = call(tool, {{"file_path", path}});
            QVERIFY2(result.isError, qPrintable(result.text()));
            QVERIFY(!result.text().contains(QLatin1String("secret outside")));
            QVERIFY(result.text().contains(links.outside()));
        }
        const ToolResult inside = call(tool, {{"file_path", "inside_link/inside.txt"}});
        QVERIFY2(inside.text().contains(QLatin1String("secret inside")), qPrintable(inside.text()));
    }

    // What bypass does with a read outside the repository (grants it: a PathCapability scope,
    // as the middleware opens) does not open a link out of it, nor one inside a folder that
    // links out: the model names the target itself (which asks outside bypass), or reads
    // nothing. Grep, Glob and LS take their paths the same way.
    void symlinksOutStayClosedWhenReadsOutsideAreGranted()
    {
        ToolsTest::Repo repo;
        ToolsTest::OutsideLinks links(repo);
        QVERIFY(links.isValid());
        PathCapability::install(*repo.workspace(), QStringList{repo.root()});
        ReadTool tool(repo.workspace());
        const PathCapability::Scope granted({links.outside()});
        for (const char *path : {"link_file", "link_dir/secret.txt", "link_dir/deep/key.pem"}) {
            const ToolResult result = call(tool, {{"file_path", path}});
            QVERIFY2(result.isError, qPrintable(result.text()));
            QVERIFY2(!result.text().contains(QLatin1String("secret outside")),
                     qPrintable(result.text()));
            QVERIFY2(result.text().contains(QLatin1String("symbolic link")),
                     qPrintable(result.text()));
        }
        const QString outsideFile = links.outside() + QStringLiteral("/secret.txt");
        const ToolResult target = call(tool, {{"file_path", outsideFile}});
        QVERIFY2(target.text().contains(QLatin1String("secret outside")), qPrintable(target.text()));
        QVERIFY(call(tool, {{"file_path", "inside_link/inside.txt"}})
                    .text()
                    .contains(QLatin1String("secret inside")));
    }

    // The path Read opens is the one the guard saw: a link swapped in since is not followed.
    void loadDoesNotFollowALink()
    {
        ToolsTest::Repo repo;
        ToolsTest::OutsideLinks links(repo);
        QVERIFY(links.isValid());
        TextFile file;
        QString error;
        QVERIFY(!file.load(repo.path(QStringLiteral("link_file")), 1024, &error));
        QVERIFY2(error.contains(QLatin1String("symbolic link")), qPrintable(error));
        QVERIFY(file.load(repo.path(QStringLiteral("src/inside.txt")), 1024, &error));
        QCOMPARE(file.bytes, QByteArray("secret inside\n"));
    }

    void emptyFile()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("empty.txt"), ""));
        ReadTool tool(repo.workspace());
        const ToolResult result = call(tool, {{"file_path", "empty.txt"}});
        QVERIFY(!result.isError);
        QVERIFY(result.text().contains(QLatin1String("empty")));
        QVERIFY(repo.workspace()->lastRead(repo.path(QStringLiteral("empty.txt"))));
    }

    void recordsWhatItRead()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.write(QStringLiteral("a.txt"), "x\ny\n"));
        ReadTool tool(repo.workspace());
        QVERIFY(!call(tool, {{"file_path", "a.txt"}, {"offset", 2}, {"limit", 1}}).isError);
        const auto snapshot = repo.workspace()->lastRead(repo.path(QStringLiteral("a.txt")));
        QVERIFY(snapshot);
        QCOMPARE(snapshot->size, 4);
    }

    void readsOutsideTheRepositoryByDefault()
    {
        ToolsTest::Repo repo;
        QTemporaryDir other;
        QFile file(other.filePath(QStringLiteral("notes.txt")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("outside\n");
        file.close();
        ReadTool tool(repo.workspace());
        const ToolResult result = call(tool, {{"file_path", file.fileName()}});
        QVERIFY(!result.isError);
        QVERIFY(result.text().contains(QLatin1String("outside")));
    }

    void schema()
    {
        ToolsTest::Repo repo;
        const ToolDefinition definition = ReadTool(repo.workspace()).definition();
        QCOMPARE(definition.name, QStringLiteral("Read"));
        QVERIFY(definition.description.size() > 100);
        QCOMPARE(definition.parameters.value(QLatin1String("required")).toArray().first().toString(),
                 QStringLiteral("file_path"));
        QCOMPARE(ReadTool(repo.workspace()).executionMode(), ExecutionMode::Parallel);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_ReadTool)

} // namespace tst_readtool

#include "tst_readtool.moc"
