// agentdesk --print with deferred tools end to end (issue #39, lean tool lists): two instances
// of the reference server server-everything (tests/mcp/install-servers.sh) give more MCP tools
// than the budget sends whole, so the requests carry ToolSearch's listing instead; the model
// loads one, the next request carries its schema after the rest unchanged, a compaction (the
// provider's overflow) keeps it, stream-json reports every step, and --continue offers it again.

#include "headlessrun.h"
#include "httptestserver.h"
#include "modelreplies.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <testmain.h>

#include <testpaths.h>

using namespace TestSupport;

namespace tst_headlessdeferredtools {

namespace {

const ReplyApi deferredApi = ReplyApi::OpenAiChat;

const QByteArray deferredOverflowBody
    = "{\"error\":{\"message\":\"This model's maximum context length is 128000 tokens. However, "
      "your messages resulted in 130211 tokens.\",\"type\":\"invalid_request_error\",\"param\":"
      "\"messages\",\"code\":\"context_length_exceeded\"}}";

QString deferredEverything()
{
    return TestSupport::mcpServersDir()
           + QStringLiteral("/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
}

QJsonArray deferredRequestTools(const QByteArray &body)
{
    return QJsonDocument::fromJson(body).object().value(u"tools").toArray();
}

QString deferredConfig(const HeadlessSandbox &sandbox)
{
    const QJsonObject entry{{"command", "node"},
                            {"args", QJsonArray{deferredEverything(), "stdio"}}};
    const QString path = sandbox.home() + "/mcp.json";
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)
        || file.write(QJsonDocument(
                          QJsonObject{{"mcpServers",
                                       QJsonObject{{"everything", entry}, {"everything2", entry}}}})
                          .toJson())
               < 0)
        return {};
    return path;
}

} // namespace

class tst_HeadlessDeferredTools : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
        QVERIFY2(QFileInfo::exists(deferredEverything()),
                 "run tests/mcp/install-servers.sh (the mcp_install_servers fixture) first");
    }

    void loadedToolSurvivesCompactionAndResume()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        const QString config = deferredConfig(sandbox);
        QVERIFY(!config.isEmpty());

        HttpTestServer server;
        server.enqueue(scriptedReply(deferredApi,
                                     {},
                                     {{"call_search",
                                       "ToolSearch",
                                       {{"query", "select:mcp__everything__echo"}}}}));
        // The request after ToolSearch overflows: a summary, then the same turn again.
        server.enqueue(ScriptedResponse::error(400, deferredOverflowBody));
        server.enqueue(scriptedReply(deferredApi, QStringLiteral("The user wants an echo.")));
        server.enqueue(scriptedReply(deferredApi,
                                     {},
                                     {{"call_echo",
                                       "mcp__everything__echo",
                                       {{"message", "hello deferred"}}}}));
        server.enqueue(scriptedReply(deferredApi, QStringLiteral("Echoed.")));
        HeadlessRun run(sandbox,
                        server,
                        deferredApi,
                        {"--mcp-config",
                         config,
                         "--output-format",
                         "stream-json",
                         "--allowed-tools",
                         "mcp__everything__echo"},
                        // Long enough that its summary makes the context smaller.
                        QStringLiteral("Echo something. ")
                            + QStringLiteral("The echo should say what the user said; ")
                                  .repeated(60));
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 5);

        // The first request: no server's schema, ToolSearch last, listing them.
        const QJsonArray first = deferredRequestTools(server.requests().at(0).body);
        const QStringList names = requestToolNames(deferredApi, server.requests().at(0).body);
        QVERIFY2(names.filter("mcp__").isEmpty(), qPrintable(names.join(", ")));
        QCOMPARE(names.last(), "ToolSearch");
        QVERIFY(first.last()["function"]["description"].toString().contains(
            "mcp__everything2__echo: "));

        // Loaded: appended, the tools before it byte for byte the same.
        const QJsonArray loaded = deferredRequestTools(server.requests().at(1).body);
        QCOMPARE(loaded.size(), first.size() + 1);
        for (qsizetype i = 0; i < first.size(); ++i)
            QCOMPARE(QJsonDocument(loaded.at(i).toObject()).toJson(QJsonDocument::Compact),
                     QJsonDocument(first.at(i).toObject()).toJson(QJsonDocument::Compact));
        QCOMPARE(loaded.last()["function"]["name"].toString(), "mcp__everything__echo");
        // After the compaction (request 2 is the summary's) the same tools.
        QCOMPARE(deferredRequestTools(server.requests().at(3).body), loaded);
        QVERIFY(server.requests().at(4).body.contains("Echo: hello deferred"));
        QCOMPARE(deferredRequestTools(server.requests().at(4).body), loaded);

        // stream-json: ToolSearch and echo ran; the compaction was reported.
        const QList<QJsonObject> lines = run.jsonLines();
        QVERIFY2(!lines.isEmpty(), qPrintable(run.report()));
        QStringList ended;
        bool compacted = false;
        for (const QJsonObject &line : lines) {
            if (line.value("type") == "tool_execution_end") {
                QVERIFY2(!line.value("isError").toBool(), qPrintable(run.report()));
                ended.append(line.value("toolName").toString());
            }
            compacted = compacted || line.value("type") == "compaction_end";
        }
        QCOMPARE(ended, (QStringList{"ToolSearch", "mcp__everything__echo"}));
        QVERIFY(compacted);

        // --continue: the resumed session offers what it loaded, where it was.
        server.enqueue(scriptedReply(deferredApi, QStringLiteral("Still here.")));
        HeadlessRun again(sandbox,
                          server,
                          deferredApi,
                          {"--mcp-config", config, "--continue"},
                          QStringLiteral("Again."));
        again.start();
        QVERIFY(again.finish());
        QVERIFY2(again.exitCode() == 0, qPrintable(again.report()));
        QCOMPARE(server.requests().size(), 6);
        QCOMPARE(deferredRequestTools(server.requests().at(5).body), loaded);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessDeferredTools)

} // namespace tst_headlessdeferredtools

#include "tst_headlessdeferredtools.moc"
