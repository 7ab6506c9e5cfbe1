// The language servers' pure parts: the base protocol's Content-Length framing with its caps
// (a server's output is hostile input), diagnostics read from a server's JSON, what a change
// introduced, and which servers of the PATH serve which files.

#include <jsonrpc/jsonrpcframing.h>
#include <jsonrpc/jsonrpcmessage.h>
#include <lsp/lspdiagnostic.h>
#include <lsp/lspserverconfig.h>
#include <testmain.h>
#include <tools/filechange.h>

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace AgentCore;

namespace tst_lspprotocol {

namespace {

QJsonObject diagnosticJson(int line, const QString &message, int severity = 1)
{
    const QJsonObject start{{QStringLiteral("line"), line}, {QStringLiteral("character"), 4}};
    const QJsonObject end{{QStringLiteral("line"), line}, {QStringLiteral("character"), 9}};
    return {{QStringLiteral("range"),
             QJsonObject{{QStringLiteral("start"), start}, {QStringLiteral("end"), end}}},
            {QStringLiteral("severity"), severity},
            {QStringLiteral("message"), message},
            {QStringLiteral("source"), QStringLiteral("clang")}};
}

} // namespace

class tst_LspProtocol : public QObject
{
    Q_OBJECT

private slots:
    void headerFramedMessagesSplitAnywhere()
    {
        const QByteArray first = JsonRpc::notification(QStringLiteral("a"));
        const QByteArray second = JsonRpc::result(7, QJsonArray{1, 2});
        const QByteArray wire = JsonRpcHeaderReader::frame(first)
                                + "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"
                                + JsonRpcHeaderReader::frame(second);
        // Byte by byte, as a pipe may deliver it.
        JsonRpcHeaderReader reader;
        QList<JsonRpcFrame> frames;
        for (const char byte : wire)
            frames += reader.feed(QByteArray(1, byte));
        QVERIFY2(reader.problem().isEmpty(), qPrintable(reader.problem()));
        QCOMPARE(frames.size(), 2);
        QCOMPARE(frames.at(0).text, first);
        QCOMPARE(frames.at(1).text, second);
        QCOMPARE(JsonRpcMessage::parse(frames.at(1).text).id.toInteger(), 7);
        // All at once.
        JsonRpcHeaderReader whole;
        QCOMPARE(whole.feed(wire).size(), 2);
    }

    void overlongBodyIsSkippedWithItsEdges()
    {
        JsonRpcHeaderReader reader(1000);
        const QByteArray big = "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":\"" + QByteArray(5000, 'x')
                               + "\"}";
        const QByteArray wire = JsonRpcHeaderReader::frame(big)
                                + JsonRpcHeaderReader::frame("{\"ok\":1}");
        QList<JsonRpcFrame> frames;
        for (qsizetype i = 0; i < wire.size(); i += 300)
            frames += reader.feed(wire.mid(i, 300));
        QCOMPARE(frames.size(), 2);
        QVERIFY(frames.at(0).overlong);
        QVERIFY(frames.at(0).text.isEmpty());
        QCOMPARE(frames.at(0).size, big.size());
        QVERIFY(frames.at(0).head.startsWith("{\"jsonrpc\":\"2.0\",\"id\":3"));
        QVERIFY(frames.at(0).tail.endsWith("xx\"}"));
        QCOMPARE(frames.at(1).text, QByteArray("{\"ok\":1}"));
    }

    void headersThatCannotBeFollowedStopTheReader_data()
    {
        QTest::addColumn<QByteArray>("wire");
        QTest::addColumn<QString>("problem");
        QTest::newRow("no length")
            << QByteArray("Content-Type: x\r\n\r\n{}") << QStringLiteral("without Content-Length");
        QTest::newRow("not a number")
            << QByteArray("Content-Length: -5\r\n\r\n{}") << QStringLiteral("not a number");
        QTest::newRow("huge number") << QByteArray("Content-Length: 99999999999999999999\r\n\r\n")
                                     << QStringLiteral("not a number");
        QTest::newRow("not a header")
            << QByteArray("hello world\r\n\r\n") << QStringLiteral("without a name");
        QTest::newRow("endless header") << QByteArray(10000, 'a') << QStringLiteral("longer than");
    }

    void headersThatCannotBeFollowedStopTheReader()
    {
        QFETCH(QByteArray, wire);
        QFETCH(QString, problem);
        JsonRpcHeaderReader reader;
        QVERIFY(reader.feed(wire).isEmpty());
        QVERIFY2(reader.problem().contains(problem), qPrintable(reader.problem()));
        // Stopped for good: what follows is not read as messages.
        QVERIFY(reader.feed(JsonRpcHeaderReader::frame("{}")).isEmpty());
    }

    void diagnosticsAreReadAndCapped()
    {
        QJsonArray list{diagnosticJson(11, QStringLiteral("use of undeclared\nidentifier 'y'"))};
        QJsonObject noRange{{QStringLiteral("message"), QStringLiteral("x")}};
        list.append(noRange);
        QJsonObject negative = diagnosticJson(-1, QStringLiteral("x"));
        list.append(negative);
        QJsonObject huge = diagnosticJson(3, QString(50'000, QLatin1Char('m')), 7);
        list.append(huge);
        const QList<LspDiagnostic> read = LspDiagnostic::listFromJson(list);
        QCOMPARE(read.size(), 2);
        QCOMPARE(read.at(0).line, 12);
        QCOMPARE(read.at(0).column, 5);
        QCOMPARE(read.at(0).toText(),
                 QStringLiteral("12:5 error: use of undeclared identifier 'y' [clang]"));
        QVERIFY(read.at(1).message.size() <= LspDiagnostic::maxMessageChars + 1);
        QCOMPARE(read.at(1).severity, LspDiagnostic::Severity::Error); // 7 is no severity

        QJsonArray many;
        for (int i = 0; i < 2000; ++i)
            many.append(diagnosticJson(i, QStringLiteral("w"), 2));
        QCOMPARE(LspDiagnostic::listFromJson(many).size(), LspDiagnostic::maxPerFile);
    }

    void aChangeIntroducesWhatWasNotThereWhereverTheOldOnesMoved()
    {
        const auto one = [](int line, const QString &message, int severity = 1) {
            return *LspDiagnostic::fromJson(diagnosticJson(line, message, severity));
        };
        const QList<LspDiagnostic> before{one(10, QStringLiteral("unused variable 'a'"), 2),
                                          one(20, QStringLiteral("no member named 'b'"))};
        // Two lines were added above both: they moved, and one new error came.
        const QList<LspDiagnostic> after{one(12, QStringLiteral("unused variable 'a'"), 2),
                                         one(14, QStringLiteral("cannot initialize 'int'")),
                                         one(22, QStringLiteral("no member named 'b'"))};
        const QList<LspDiagnostic> introduced = introducedDiagnostics(before, after);
        QCOMPARE(introduced.size(), 1);
        QCOMPARE(introduced.at(0).line, 15);
        // The same problem twice where it was once: one is new.
        QCOMPARE(introducedDiagnostics(before, before + before.mid(0, 1)).size(), 1);

        // Errors first, then by line; capped with a count of the rest.
        const QString text = diagnosticsText(after, 2);
        const QStringList lines = text.split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines.at(0).startsWith(QStringLiteral("15:5 error")));
        QVERIFY(lines.at(1).startsWith(QStringLiteral("23:5 error")));
        QVERIFY2(lines.at(2).contains(QStringLiteral("1 more")), qPrintable(lines.at(2)));
    }

    void serversAreFoundOnThePathFirstOfALanguageWins()
    {
        QTemporaryDir bin;
        QVERIFY(bin.isValid());
        const auto tool = [&bin](const QString &name) {
            QFile file(bin.filePath(name));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("#!/bin/sh\n");
            file.close();
            file.setPermissions(QFile::ReadOwner | QFile::ExeOwner | QFile::WriteOwner);
        };
        tool(QStringLiteral("pyright-langserver"));
        tool(QStringLiteral("gopls"));
        QProcessEnvironment environment;
        environment.insert(QStringLiteral("PATH"), bin.path());
        QList<LspServerConfig> found = LspServerConfig::available(LspServerConfig::defaults(),
                                                                  environment);
        QCOMPARE(found.size(), 2);
        QCOMPARE(found.at(0).name, QStringLiteral("pyright"));
        QCOMPARE(found.at(0).command, bin.filePath(QStringLiteral("pyright-langserver")));
        QVERIFY(found.at(0).handles(QStringLiteral("/r/a/b.py")));
        QVERIFY(!found.at(0).handles(QStringLiteral("/r/a/b.go")));

        // With pylsp too, pylsp serves Python and pyright is left out.
        tool(QStringLiteral("pylsp"));
        found = LspServerConfig::available(LspServerConfig::defaults(), environment);
        QCOMPARE(found.size(), 2);
        QCOMPARE(found.at(0).name, QStringLiteral("pylsp"));
        QCOMPARE(LspServerConfig::languageId(QStringLiteral("x/y.hpp")), QStringLiteral("cpp"));
        QCOMPARE(LspServerConfig::languageId(QStringLiteral("x/y.py")), QStringLiteral("python"));

        environment.insert(QStringLiteral("PATH"), QStringLiteral("/nonexistent"));
        QVERIFY(LspServerConfig::available(LspServerConfig::defaults(), environment).isEmpty());
    }

    // A recorded result is a file anyone could have written: the changed-files list takes its
    // problem count only when it is one.
    void aRecordedProblemCountIsTakenOnlyWhenItIsOne_data()
    {
        QTest::addColumn<QJsonValue>("recorded");
        QTest::addColumn<int>("taken"); // -1: none
        QTest::newRow("count") << QJsonValue(3) << 3;
        QTest::newRow("none found") << QJsonValue(0) << 0;
        QTest::newRow("negative") << QJsonValue(-1) << -1;
        QTest::newRow("huge") << QJsonValue(1e12) << -1;
        QTest::newRow("text") << QJsonValue(QStringLiteral("3")) << -1;
        QTest::newRow("missing") << QJsonValue(QJsonValue::Undefined) << -1;
    }
    void aRecordedProblemCountIsTakenOnlyWhenItIsOne()
    {
        QFETCH(QJsonValue, recorded);
        QFETCH(int, taken);
        ToolDetails details;
        details.path = QStringLiteral("/repo/tool.py");
        details.diff = QStringLiteral("@@ -1 +1 @@\n-a\n+b\n");
        if (!recorded.isUndefined())
            details.other.insert(QStringLiteral("problems"), recorded);
        const std::optional<FileChange> change = FileChange::fromDetails(details);
        QVERIFY(change);
        QCOMPARE(change->problems.value_or(-1), taken);
    }

    // The settings keep servers as JSON, which a user (or anything that writes the file) can
    // get wrong: only a usable server comes back.
    void aServerFromTheSettingsIsTakenOnlyWhenUsable()
    {
        const LspServerConfig clangd = LspServerConfig::defaults().first();
        QCOMPARE(LspServerConfig::fromJson(clangd.toJson())->toJson(), clangd.toJson());
        const QJsonObject usable{{QStringLiteral("name"), QStringLiteral("mine")},
                                 {QStringLiteral("command"), QStringLiteral("/opt/mine/bin/ls")},
                                 {QStringLiteral("args"), QJsonArray{QStringLiteral("--stdio")}},
                                 {QStringLiteral("suffixes"), QJsonArray{QStringLiteral("C++")}}};
        QCOMPARE(LspServerConfig::fromJson(usable)->suffixes, QStringList{QStringLiteral("c++")});
        const auto without = [&usable](const QString &key, const QJsonValue &value) {
            QJsonObject json = usable;
            json.insert(key, value);
            return LspServerConfig::fromJson(json);
        };
        QVERIFY(!without(QStringLiteral("command"), QString()));
        QVERIFY(!without(QStringLiteral("name"), QString(201, u'n')));
        QVERIFY(!without(QStringLiteral("suffixes"), QJsonArray{}));
        QVERIFY(!without(QStringLiteral("suffixes"), QJsonArray{QStringLiteral("../py")}));
        QVERIFY(!without(QStringLiteral("args"), QJsonArray{1}));
        QJsonArray many;
        for (int i = 0; i < 51; ++i)
            many.append(QStringLiteral("-x"));
        QVERIFY(!without(QStringLiteral("args"), many));
    }

    // clangd finds compile_commands.json only in the file's folders and their build/: a CMake
    // build in build/<preset>/, as many keep theirs, is named to it.
    void clangdIsToldWhereACMakeBuildKeepsItsCommands()
    {
        QTemporaryDir root;
        const LspServerConfig clangd = LspServerConfig::defaults().first();
        const LspServerConfig pylsp = LspServerConfig::defaults().at(1);
        QCOMPARE(clangd.forRepository(root.path()), clangd); // no build: as it was
        const auto touch = [&root](const QString &relative) {
            QDir(root.path()).mkpath(QFileInfo(root.filePath(relative)).path());
            QFile file(root.filePath(relative));
            return file.open(QIODevice::WriteOnly) && file.write("[]") == 2;
        };
        QVERIFY(touch(QStringLiteral("build/release/compile_commands.json")));
        QVERIFY(touch(QStringLiteral("build/debug/compile_commands.json")));
        QFile older(root.filePath(QStringLiteral("build/release/compile_commands.json")));
        QVERIFY(older.open(QIODevice::ReadWrite));
        QVERIFY(older.setFileTime(QDateTime::currentDateTime().addDays(-1),
                                  QFileDevice::FileModificationTime));
        older.close();
        QCOMPARE(clangd.forRepository(root.path()).args.last(),
                 QStringLiteral("--compile-commands-dir=")
                     + root.filePath(QStringLiteral("build/debug")));
        QCOMPARE(pylsp.forRepository(root.path()), pylsp);
        LspServerConfig named = clangd;
        named.args.append(QStringLiteral("--compile-commands-dir=/elsewhere"));
        QCOMPARE(named.forRepository(root.path()), named);
        QVERIFY(touch(QStringLiteral("compile_commands.json"))); // where clangd looks itself
        QCOMPARE(clangd.forRepository(root.path()), clangd);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_LspProtocol)

} // namespace tst_lspprotocol

#include "tst_lspprotocol.moc"
