// agentdesk --print with MCP servers end to end: the built binary, the real reference server
// @modelcontextprotocol/server-everything (tests/mcp/install-servers.sh, pinned) and
// tests/mcp/fakeserver.py, against a scripted provider on 127.0.0.1. The model sees
// mcp__everything__echo and its result comes back, from the server over stdio and over
// Streamable HTTP; a repository's .mcp.json starts only when
// trusted; approval goes through the permission rules, whatever a tool's annotations say;
// ${VAR} references are expanded as in the window, a provider's key never; Stop sends
// notifications/cancelled.

#include "headlessrun.h"
#include "httptestserver.h"
#include "modelreplies.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QScopeGuard>
#include <QTcpServer>
#include <QTest>
#include <testmain.h>

#include <signal.h>
#include <testpaths.h>

using namespace TestSupport;

namespace tst_headlessmcp {

namespace {

const ReplyApi api = ReplyApi::OpenAiChat;

QString everythingScript()
{
    return TestSupport::mcpServersDir()
           + QStringLiteral("/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
}

QString fakeServer()
{
    return TestSupport::sourcePath(QStringLiteral("tests/mcp/fakeserver.py"));
}

QByteArray config(const QJsonObject &servers)
{
    return QJsonDocument(QJsonObject{{"mcpServers", servers}}).toJson();
}

QJsonObject everythingEntry()
{
    return {{"command", "node"}, {"args", QJsonArray{everythingScript(), "stdio"}}};
}

// A server that leaves a mark when it is started, then is the fake server.
QJsonObject markingEntry(const QString &mark)
{
    return {{"command", "sh"},
            {"args",
             QJsonArray{"-c",
                        QStringLiteral("touch '%1'; exec python3 '%2'").arg(mark, fakeServer())}}};
}

// The servers as an .mcp.json in the sandbox's home; its path, empty when it cannot be written.
QString writeConfig(const HeadlessSandbox &sandbox, const QJsonObject &servers)
{
    const QString path = sandbox.home() + "/mcp.json";
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(config(servers)) < 0)
        return {};
    return path;
}

} // namespace

class tst_HeadlessMcp : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
        QVERIFY2(QFileInfo::exists(everythingScript()),
                 "run tests/mcp/install-servers.sh (the mcp_install_servers fixture) first");
    }

    void modelCallsEverythingEcho()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        const QString file = writeConfig(sandbox, {{"everything", everythingEntry()}});
        QVERIFY(!file.isEmpty());

        HttpTestServer server;
        server.enqueue(scriptedReply(api,
                                     {},
                                     {{"call_echo",
                                       "mcp__everything__echo",
                                       {{"message", "hello through MCP"}}}}));
        server.enqueue(scriptedReply(api, QStringLiteral("The server echoed it.")));
        // echo says it is read-only, which is the server's word: a rule allows it (issue #31).
        HeadlessRun run(sandbox,
                        server,
                        api,
                        {"--mcp-config",
                         file,
                         "--output-format",
                         "stream-json",
                         "--allowed-tools",
                         "mcp__everything__echo"});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));

        QCOMPARE(server.requests().size(), 2);
        // The model was offered the server's tools with the rest.
        const QStringList offered = requestToolNames(api, server.requests().at(0).body);
        QVERIFY2(offered.contains("mcp__everything__echo") && offered.contains("Read"),
                 qPrintable(offered.join(", ")));
        // The result came back to it.
        QVERIFY2(server.requests().at(1).body.contains("Echo: hello through MCP"),
                 server.requests().at(1).body.left(4000).constData());

        const QList<QJsonObject> lines = run.jsonLines();
        QVERIFY(!lines.isEmpty());
        const QJsonArray servers = lines.first().value("mcpServers").toArray();
        QCOMPARE(servers.size(), 1);
        QCOMPARE(servers.at(0)["name"].toString(), "everything");
        QCOMPARE(servers.at(0)["status"].toString(), "connected");
        QVERIFY(servers.at(0)["tools"].toInt() > 5);
        qInfo("server-everything: tools available %d ms after the run started its servers",
              lines.first().value("mcpReadyMs").toInt());
        bool ended = false;
        for (const QJsonObject &line : lines) {
            if (line.value("type") == "tool_execution_end"
                && line.value("toolName") == "mcp__everything__echo") {
                ended = true;
                QVERIFY(!line.value("isError").toBool());
            }
        }
        QVERIFY2(ended, qPrintable(run.report()));
    }

    void modelCallsEverythingOverHttp()
    {
        // The same server in its Streamable HTTP mode, started by the test; the configuration
        // names its URL.
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const quint16 port = probe.serverPort();
        probe.close();
        QProcess everything;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert("PORT", QString::number(port));
        everything.setProcessEnvironment(environment);
        everything.setProcessChannelMode(QProcess::MergedChannels);
        everything.start("node", {everythingScript(), "streamableHttp"});
        QByteArray said;
        QTRY_VERIFY_WITH_TIMEOUT((said += everything.readAll()).contains("listening on port"),
                                 60'000);
        const auto stopEverything = qScopeGuard([&] {
            everything.kill();
            everything.waitForFinished(5000);
        });

        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        const QString file
            = writeConfig(sandbox,
                          {{"everything",
                            QJsonObject{{"type", "http"},
                                        {"url",
                                         QStringLiteral("http://127.0.0.1:%1/mcp").arg(port)}}}});
        QVERIFY(!file.isEmpty());

        HttpTestServer server;
        server.enqueue(scriptedReply(api,
                                     {},
                                     {{"call_echo",
                                       "mcp__everything__echo",
                                       {{"message", "hello over HTTP"}}}}));
        server.enqueue(scriptedReply(api, QStringLiteral("The server echoed it.")));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        {"--mcp-config",
                         file,
                         "--output-format",
                         "stream-json",
                         "--allowed-tools",
                         "mcp__everything__echo"});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 2);
        const QStringList offered = requestToolNames(api, server.requests().at(0).body);
        QVERIFY2(offered.contains("mcp__everything__echo"), qPrintable(offered.join(", ")));
        QVERIFY2(server.requests().at(1).body.contains("Echo: hello over HTTP"),
                 server.requests().at(1).body.left(4000).constData());
        const QJsonArray servers = run.jsonLines().first().value("mcpServers").toArray();
        QCOMPARE(servers.at(0)["status"].toString(), "connected");
        qInfo("server-everything over HTTP: tools available %d ms after the run started its "
              "servers",
              run.jsonLines().first().value("mcpReadyMs").toInt());
        // The run ended its session.
        QTRY_VERIFY2((said += everything.readAll()).contains("Received session termination"),
                     said.right(2000).constData());
    }

    void repositoryServersNeedTrust_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<bool>("started");
        QTest::newRow("untrusted") << QStringList() << false;
        QTest::newRow("--trust-project-settings")
            << QStringList{"--trust-project-settings"} << true;
        QTest::newRow("trusted but --strict-mcp-config")
            << QStringList{"--trust-project-settings", "--strict-mcp-config"} << false;
    }

    void repositoryServersNeedTrust()
    {
        QFETCH(QStringList, extra);
        QFETCH(bool, started);
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        const QString mark = sandbox.home() + "/started";
        QVERIFY(sandbox.write(".mcp.json", config({{"repo", markingEntry(mark)}})));
        HttpTestServer server;
        server.enqueue(scriptedReply(api, QStringLiteral("Nothing to do.")));
        HeadlessRun run(sandbox, server, api, extra);
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(QFileInfo::exists(mark), started);
        const QStringList offered = requestToolNames(api, server.requests().at(0).body);
        QCOMPARE(offered.contains("mcp__repo__env"), started);
        const bool warned = run.err.contains(
            "the MCP server \"repo\" of this repository's .mcp.json (sh -c");
        QVERIFY2(warned == (!started && !extra.contains("--strict-mcp-config")),
                 qPrintable(run.report()));
        if (warned)
            QVERIFY(run.err.contains("is not started: a repository's servers run code"));
    }

    void approvalByRules_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<bool>("runs");
        QTest::newRow("no rule: asks, and --print denies") << QStringList() << false;
        QTest::newRow("the server's tools allowed")
            << QStringList{"--allowed-tools", "mcp__fake__*"} << true;
        QTest::newRow("the tool allowed")
            << QStringList{"--allowed-tools", "mcp__fake__note"} << true;
        QTest::newRow("another tool allowed")
            << QStringList{"--allowed-tools", "mcp__fake__env"} << false;
    }

    void approvalByRules()
    {
        QFETCH(QStringList, extra);
        QFETCH(bool, runs);
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        const QString file = writeConfig(sandbox,
                                         {{"fake",
                                           QJsonObject{{"command", "python3"},
                                                       {"args", QJsonArray{fakeServer()}}}}});
        QVERIFY(!file.isEmpty());
        HttpTestServer server;
        server.enqueue(
            scriptedReply(api, {}, {{"call_note", "mcp__fake__note", {{"text", "kept"}}}}));
        server.enqueue(scriptedReply(api, QStringLiteral("Done.")));
        HeadlessRun run(sandbox, server, api, QStringList{"--mcp-config", file} + extra);
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        // The server runs in the repository; its write is the proof it ran.
        QCOMPARE(QFileInfo::exists(sandbox.root() + "/mcp-note.txt"), runs);
        QCOMPARE(server.requests().at(1).body.contains("noted"), runs);
    }

    // Issue #31: a tool the server calls read-only (fakeserver.py's delete_everything, which
    // leaves a mark in the repository) is asked about like any tool with side effects: --print
    // denies it unless a rule allows it, in acceptEdits too; plan mode neither offers nor runs
    // it, a rule or not; bypass runs it, as it runs every tool.
    void readOnlyHintSkipsNoQuestion_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<bool>("runs");
        QTest::addColumn<bool>("offered");
        const QStringList allowed{"--allowed-tools", "mcp__fake__delete_everything"};
        QTest::newRow("default: asks, and --print denies") << QStringList() << false << true;
        QTest::newRow("default, the tool allowed") << allowed << true << true;
        QTest::newRow("acceptEdits")
            << QStringList{"--permission-mode", "acceptEdits"} << false << true;
        QTest::newRow("plan") << QStringList{"--permission-mode", "plan"} << false << false;
        QTest::newRow("plan, the tool allowed")
            << QStringList{"--permission-mode", "plan"} + allowed << false << false;
        QTest::newRow("bypass") << headlessBypass({}) << true << true;
    }

    void readOnlyHintSkipsNoQuestion()
    {
        QFETCH(QStringList, extra);
        QFETCH(bool, runs);
        QFETCH(bool, offered);
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        const QString file = writeConfig(sandbox,
                                         {{"fake",
                                           QJsonObject{{"command", "python3"},
                                                       {"args", QJsonArray{fakeServer()}}}}});
        QVERIFY(!file.isEmpty());
        HttpTestServer server;
        server.enqueue(scriptedReply(api, {}, {{"call_del", "mcp__fake__delete_everything", {}}}));
        server.enqueue(scriptedReply(api, QStringLiteral("Done.")));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        QStringList{"--mcp-config", file, "--output-format", "stream-json"} + extra);
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 2);
        const QStringList tools = requestToolNames(api, server.requests().at(0).body);
        QCOMPARE(tools.contains("mcp__fake__delete_everything"), offered);
        QCOMPARE(QFileInfo::exists(sandbox.root() + "/mcp-deleted-everything.txt"), runs);
        QCOMPARE(server.requests().at(1).body.contains("deleted everything"), runs);
        bool decided = false;
        for (const QJsonObject &line : run.jsonLines()) {
            if (line.value("type") == "tool_execution_end") {
                decided = true;
                QCOMPARE(line.value("isError").toBool(), !runs);
            }
        }
        QVERIFY2(decided, qPrintable(run.report()));
    }

    // Issue #31: ${VAR} and ${VAR:-default} are expanded in a server's command, args and env,
    // as in the window (McpConfigExpansion): the server receives the values.
    void variablesAreExpanded()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        const QString dump = sandbox.home() + "/dump.json";
        const QString file
            = writeConfig(sandbox,
                          {{"fake",
                            QJsonObject{{"command", "${AGENTDESK_TEST_PYTHON:-python3}"},
                                        {"args",
                                         QJsonArray{fakeServer(),
                                                    "normal",
                                                    "--value=${AGENTDESK_TEST_VALUE}",
                                                    "--default=${AGENTDESK_TEST_UNSET:-fallback}"}},
                                        {"env",
                                         QJsonObject{{"FAKE_MCP_DUMP", dump},
                                                     {"FROM_ENV", "${AGENTDESK_TEST_VALUE}"}}}}}});
        QVERIFY(!file.isEmpty());
        HttpTestServer server;
        server.enqueue(scriptedReply(api, QStringLiteral("Nothing to do.")));
        HeadlessRun run(sandbox, server, api, {"--mcp-config", file});
        run.environment.insert("AGENTDESK_TEST_VALUE", "plain-value");
        run.environment.remove("AGENTDESK_TEST_UNSET");
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QFile dumped(dump);
        QVERIFY2(dumped.open(QIODevice::ReadOnly), qPrintable(run.report()));
        const QJsonObject seen = QJsonDocument::fromJson(dumped.readAll()).object();
        const QJsonArray argv = seen.value("argv").toArray();
        QVERIFY2(argv.contains("--value=plain-value") && argv.contains("--default=fallback"),
                 QJsonDocument(argv).toJson().constData());
        QCOMPARE(seen.value("env").toObject().value("FROM_ENV").toString(), "plain-value");
        QVERIFY(requestToolNames(api, server.requests().at(0).body).contains("mcp__fake__env"));
    }

    // Issue #31: a model provider's key is never expanded into a server's args, env, url or
    // headers: the server is not started, the run says which variable and why, and the key is
    // nowhere (another server that starts does not get it in its argv or env either).
    void providerKeysAreNeverExpanded_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("variable");
        QTest::addColumn<QStringList>("extra");
        QTest::newRow("args: ANTHROPIC_API_KEY") << "args"
                                                 << "ANTHROPIC_API_KEY" << QStringList();
        QTest::newRow("env: OPENAI_API_KEY") << "env"
                                             << "OPENAI_API_KEY" << QStringList();
        QTest::newRow("args: the --api-key-env variable")
            << "args"
            << "MY_LLM_KEY" << QStringList{"--api-key-env", "MY_LLM_KEY"};
        QTest::newRow("url: ANTHROPIC_API_KEY") << "url"
                                                << "ANTHROPIC_API_KEY" << QStringList();
        QTest::newRow("headers: OPENAI_API_KEY") << "headers"
                                                 << "OPENAI_API_KEY" << QStringList();
    }

    void providerKeysAreNeverExpanded()
    {
        QFETCH(QString, field);
        QFETCH(QString, variable);
        QFETCH(QStringList, extra);
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        const QString dump = sandbox.home() + "/dump.json";
        const QString otherDump = sandbox.home() + "/other-dump.json";
        const QString reference = QStringLiteral("${%1}").arg(variable);
        QJsonObject keyed;
        if (field == "args" || field == "env") {
            keyed = {{"command", "python3"},
                     {"args", QJsonArray{fakeServer(), "normal"}},
                     {"env", QJsonObject{{"FAKE_MCP_DUMP", dump}}}};
            if (field == "args")
                keyed["args"] = QJsonArray{fakeServer(), "normal", QString("--key=" + reference)};
            else
                keyed["env"] = QJsonObject{{"FAKE_MCP_DUMP", dump}, {"SERVER_KEY", reference}};
        } else {
            // An HTTP server that would get the key in its URL or a header: nothing listens.
            keyed = {{"type", "http"}, {"url", "http://127.0.0.1:9/mcp"}};
            if (field == "url")
                keyed["url"] = QString("http://127.0.0.1:9/mcp?key=" + reference);
            else
                keyed["headers"] = QJsonObject{{"Authorization", QString("Bearer " + reference)}};
        }
        const QString file
            = writeConfig(sandbox,
                          {{"keyed", keyed},
                           {"other",
                            QJsonObject{{"command", "python3"},
                                        {"args", QJsonArray{fakeServer()}},
                                        {"env", QJsonObject{{"FAKE_MCP_DUMP", otherDump}}}}}});
        QVERIFY(!file.isEmpty());
        const QString runKey = QStringLiteral("sk-my-own-run-key-0987654321");
        HttpTestServer server;
        server.enqueue(scriptedReply(api, QStringLiteral("Nothing to do.")));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        QStringList{"--mcp-config", file, "--output-format", "stream-json"} + extra);
        run.environment.insert("MY_LLM_KEY", runKey);
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QVERIFY2(run.err.contains(QStringLiteral("the MCP server \"keyed\" is not started: %1 is a "
                                                 "model provider's key, which AgentDesk never "
                                                 "gives to an MCP server")
                                      .arg(variable)),
                 qPrintable(run.report()));
        QVERIFY(!QFileInfo::exists(dump)); // never started
        const QJsonArray servers = run.jsonLines().first().value("mcpServers").toArray();
        QCOMPARE(servers.size(), 2);
        for (const QJsonValue &entry : servers) {
            const bool keyedServer = entry["name"] == "keyed";
            QCOMPARE(entry["status"].toString(), keyedServer ? "failed" : "connected");
            if (keyedServer)
                QVERIFY(entry["error"].toString().contains(variable + " is a model provider's key"));
        }
        // The other server started, without the keys.
        QFile other(otherDump);
        QVERIFY2(other.open(QIODevice::ReadOnly), qPrintable(run.report()));
        const QByteArray seen = other.readAll();
        QVERIFY(seen.contains("\"argv\""));
        for (const QString &key : {HeadlessApiKey, runKey}) {
            QVERIFY2(!seen.contains(key.toUtf8()), seen.constData());
            QVERIFY(!run.out.contains(key.toUtf8()));
            QVERIFY(!run.err.contains(key));
        }
        const QStringList tools = requestToolNames(api, server.requests().at(0).body);
        QVERIFY(!tools.contains("mcp__keyed__env"));
        QVERIFY(tools.contains("mcp__other__env"));
    }

    void promptAndResourceBecomeTheMessage()
    {
        // `/everything:args-prompt Oslo` is the server's prompt, `@everything:URI` attaches
        // the resource's text: the model gets both in the user's message.
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        const QString file = writeConfig(sandbox, {{"everything", everythingEntry()}});
        QVERIFY(!file.isEmpty());
        HttpTestServer server;
        server.enqueue(scriptedReply(api, QStringLiteral("Sunny.")));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        {"--mcp-config", file},
                        "/everything:args-prompt Oslo state=\"Oslo county\"\n"
                        "See @everything:demo://resource/static/document/features.md. Mail "
                        "me@example.org");
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 1);
        const QByteArray body = server.requests().at(0).body;
        QVERIFY2(body.contains("What's weather in Oslo, Oslo county?"), body.left(4000).constData());
        QVERIFY(body.contains("See @everything:demo://resource/static/document/features.md. Mail "
                              "me@example.org"));
        QVERIFY(body.contains("uri=\\\"demo://resource/static/document/features.md\\\">"));
        QVERIFY(body.contains("# Everything Server - Features"));
        QVERIFY(!body.contains("/everything:args-prompt"));
    }

    void unknownPromptOrResourceIsAUsageError_data()
    {
        QTest::addColumn<QString>("prompt");
        QTest::addColumn<QString>("error");
        QTest::newRow("missing argument")
            << "/everything:args-prompt"
            << "/everything:args-prompt: the prompt \"args-prompt\" needs the argument \"city\"";
        QTest::newRow("no such prompt")
            << "/everything:nothing"
            << "the MCP server \"everything\" has no prompt \"nothing\"";
        QTest::newRow("no such server") << "/elsewhere:args-prompt"
                                        << "/elsewhere:args-prompt: there is no MCP server";
        QTest::newRow("no such resource")
            << "Read @everything:demo://resource/static/document/nothing.md"
            << "@everything:demo://resource/static/document/nothing.md: ";
    }

    void unknownPromptOrResourceIsAUsageError()
    {
        QFETCH(QString, prompt);
        QFETCH(QString, error);
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        const QString file = writeConfig(sandbox, {{"everything", everythingEntry()}});
        QVERIFY(!file.isEmpty());
        HttpTestServer server;
        HeadlessRun run(sandbox, server, api, {"--mcp-config", file}, prompt);
        run.start();
        QVERIFY(run.finish());
        QCOMPARE(run.exitCode(), 2);
        QVERIFY2(run.err.contains("The prompt names an MCP prompt or resource that cannot be had: ")
                     && run.err.contains(error),
                 qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 0);
    }

    void badConfigIsAUsageError()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        HeadlessRun run(sandbox, server, api, {"--mcp-config", sandbox.home() + "/missing.json"});
        run.start();
        QVERIFY(run.finish());
        QCOMPARE(run.exitCode(), 2);
        QVERIFY2(run.err.contains("--mcp-config: ")
                     && run.err.contains("missing.json does not exist"),
                 qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 0);
    }

    // server-everything's tiny image reaches an Anthropic model as a picture in the tool's
    // result, not as a note about one.
    void aToolsPictureReachesTheModel()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        const QString file = writeConfig(sandbox, {{"everything", everythingEntry()}});
        QVERIFY(!file.isEmpty());

        const ReplyApi anthropic = ReplyApi::AnthropicMessages;
        HttpTestServer server;
        server.enqueue(
            scriptedReply(anthropic, {}, {{"toolu_img", "mcp__everything__get-tiny-image", {}}}));
        server.enqueue(scriptedReply(anthropic, QStringLiteral("A tiny picture.")));
        HeadlessRun run(sandbox,
                        server,
                        anthropic,
                        {"--mcp-config", file, "--allowed-tools", "mcp__everything__*"});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 2);

        const QJsonArray messages
            = QJsonDocument::fromJson(server.requests().at(1).body)["messages"].toArray();
        QJsonObject result;
        for (const QJsonValue &block : messages.last()["content"].toArray()) {
            if (block["type"] == "tool_result")
                result = block.toObject();
        }
        QCOMPARE(result["tool_use_id"].toString(), "toolu_img");
        QJsonObject image;
        for (const QJsonValue &block : result["content"].toArray()) {
            if (block["type"] == "image")
                image = block["source"].toObject();
        }
        QCOMPARE(image["type"].toString(), "base64");
        QCOMPARE(image["media_type"].toString(), "image/png");
        QVERIFY(QByteArray::fromBase64(image["data"].toString().toLatin1()).startsWith("\x89PNG"));
        QVERIFY2(!server.requests().at(1).body.contains("not passed on to the model"),
                 server.requests().at(1).body.left(4000).constData());
    }

    void failedServerLeavesTheRunWorking()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        const QString file
            = writeConfig(sandbox,
                          {{"broken",
                            QJsonObject{{"command", "python3"},
                                        {"args", QJsonArray{fakeServer(), "crash-at-start"}}}},
                           {"everything", everythingEntry()}});
        QVERIFY(!file.isEmpty());
        HttpTestServer server;
        server.enqueue(scriptedReply(api, QStringLiteral("Fine.")));
        HeadlessRun run(sandbox, server, api, {"--mcp-config", file});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QVERIFY2(run.err.contains("the MCP server \"broken\" exited with code 2; its last words on "
                                  "stderr: fatal: cannot open the database"),
                 qPrintable(run.report()));
        const QStringList offered = requestToolNames(api, server.requests().at(0).body);
        QVERIFY(offered.contains("mcp__everything__echo"));
    }

    void sigintDuringToolSendsCancellation()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        const QString log = sandbox.home() + "/fake.log";
        const QString file = writeConfig(sandbox,
                                         {{"fake",
                                           QJsonObject{{"command", "python3"},
                                                       {"args", QJsonArray{fakeServer()}},
                                                       {"env",
                                                        QJsonObject{{"FAKE_MCP_LOG", log}}}}}});
        QVERIFY(!file.isEmpty());
        HttpTestServer server;
        server.enqueue(scriptedReply(api, {}, {{"call_slow", "mcp__fake__slow", {}}}));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        {"--mcp-config", file, "--allowed-tools", "mcp__fake__slow"});
        run.start();
        const auto logText = [&log] {
            QFile file(log);
            return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
        };
        QTRY_VERIFY_WITH_TIMEOUT(logText().contains("got tools/call"), HeadlessTimeoutMs);
        QCOMPARE(::kill(pid_t(run.process.processId()), SIGINT), 0);
        QVERIFY2(run.finish(20'000), "agentdesk did not end after SIGINT");
        QVERIFY2(run.exitCode() == 130, qPrintable(run.report()));
        QTRY_VERIFY2(logText().contains("got notifications/cancelled"), logText().constData());
        QVERIFY(logText().contains("The user stopped the run."));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessMcp)

} // namespace tst_headlessmcp

#include "tst_headlessmcp.moc"
