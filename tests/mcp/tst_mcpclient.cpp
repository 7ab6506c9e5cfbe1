// The MCP client against the real reference server @modelcontextprotocol/server-everything
// (installed by tests/mcp/install-servers.sh at the version pinned in servers/package-lock.json)
// and against fakeserver.py for the faults a real server does not make on demand: malformed
// messages, answers to unknown ids, an overlong line, a schema that is no JSON Schema, a server
// that dies, one that never answers initialize. Calls run on a thread of their own, as the
// loop's tools do.

#include <mcp/mcpclient.h>
#include <mcp/mcphost.h>
#include <mcp/mcptool.h>
#include <testmain.h>
#include <tools/commandenvironment.h>

#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMutex>
#include <QTest>
#include <QThread>
#include <QTimer>

#include <future>
#include <testpaths.h>

Q_DECLARE_METATYPE(AgentCore::McpServerConfig)

using namespace AgentCore;

namespace tst_mcpclient {

namespace {

const QString serversDir = TestSupport::mcpServersDir();

QString everythingScript()
{
    return serversDir
           + QStringLiteral("/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
}

McpServerConfig everything()
{
    McpServerConfig config;
    config.name = QStringLiteral("everything");
    config.type = QStringLiteral("stdio");
    config.command = QStringLiteral("node");
    config.args = {everythingScript(), QStringLiteral("stdio")};
    return config;
}

McpServerConfig fake(const QString &mode = QStringLiteral("normal"))
{
    McpServerConfig config;
    config.name = QStringLiteral("fake");
    config.type = QStringLiteral("stdio");
    config.command = QStringLiteral("python3");
    config.args = {TestSupport::sourcePath(QStringLiteral("tests/mcp/fakeserver.py")), mode};
    return config;
}

McpClientOptions options()
{
    McpClientOptions options;
    options.environment = QProcessEnvironment::systemEnvironment();
    options.initializeTimeoutMs = 60'000; // node's first start on a cold disk
    return options;
}

// Runs \a work on a thread of its own, as the loop runs a tool, and waits for it.
template<typename F>
auto onToolThread(F work)
{
    std::packaged_task<decltype(work())()> task(std::move(work));
    auto future = task.get_future();
    std::unique_ptr<QThread> thread(QThread::create(std::move(task)));
    thread->start();
    while (future.wait_for(std::chrono::milliseconds(0)) != std::future_status::ready)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    thread->wait();
    return future.get();
}

QStringList names(const QList<McpToolInfo> &tools)
{
    QStringList names;
    for (const McpToolInfo &tool : tools)
        names.append(tool.name);
    return names;
}

} // namespace

class tst_McpClient : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(everythingScript()),
                 "run tests/mcp/install-servers.sh (the mcp_install_servers fixture) first");
    }

    void everythingListsAndEchoes()
    {
        McpHost host;
        auto client = host.addServer(everything(), options());
        QElapsedTimer started;
        started.start();
        host.startAll();
        host.waitUntilSettled(60'000);
        QVERIFY2(client->state() == McpClient::State::Ready, qPrintable(client->log()));
        qInfo("server-everything: tools available after %lld ms", started.elapsed());
        QCOMPARE(client->protocolVersion(), "2025-11-25");
        const QStringList listed = names(client->tools());
        QVERIFY2(listed.contains("echo") && listed.contains("get-sum")
                     && listed.contains("trigger-long-running-operation"),
                 qPrintable(listed.join(", ")));

        QStringList problems;
        const QList<AgentToolPtr> tools = host.tools({"Bash", "Read"}, &problems);
        QVERIFY(problems.isEmpty());
        AgentToolPtr echo;
        for (const AgentToolPtr &tool : tools) {
            if (tool->definition().name == "mcp__everything__echo")
                echo = tool;
        }
        QVERIFY(echo);
        QCOMPARE(echo->definition().parameters.value("type").toString(), "object");
        // The loop's validation reads the server's schema: message is required.
        QVERIFY(!echo->compiledSchema().validate("mcp__everything__echo", {}).ok);
        QVERIFY(echo->compiledSchema().validate("mcp__everything__echo", {{"message", "hi"}}).ok);

        ToolCallContext context;
        context.arguments = {{"message", "hello from AgentDesk"}};
        const ToolResult result = onToolThread([&] { return echo->execute(context); });
        QVERIFY2(!result.isError, qPrintable(result.text()));
        QCOMPARE(result.text(), "Echo: hello from AgentDesk");

        const McpCallResult ping = onToolThread([&] { return client->call("ping", {}); });
        QVERIFY2(ping.ok, qPrintable(ping.error));

        // A figure, not a limit: one call's round trip through the client's thread and node.
        constexpr int calls = 50;
        const qint64 perCallUs = onToolThread([&] {
            QElapsedTimer timer;
            timer.start();
            for (int i = 0; i < calls; ++i)
                echo->execute(context);
            return timer.nsecsElapsed() / 1000 / calls;
        });
        qInfo("mcp__everything__echo: %lld us per call", perCallUs);
    }

    void fiveServersStartTogether()
    {
        // The figure of the issue: five stdio servers started in parallel, to their tools.
        McpHost host;
        for (int i = 0; i < 5; ++i) {
            McpServerConfig config = everything();
            config.name = QStringLiteral("everything%1").arg(i);
            host.addServer(config, options());
        }
        QElapsedTimer started;
        started.start();
        host.startAll();
        host.waitUntilSettled(120'000);
        const qint64 elapsed = started.elapsed();
        for (const auto &client : host.clients())
            QVERIFY2(client->state() == McpClient::State::Ready, qPrintable(client->log()));
        QStringList problems;
        QCOMPARE(host.tools({}, &problems).size(), 5 * host.clients().first()->tools().size());
        qInfo("five server-everything: tools available after %lld ms", elapsed);
    }

    void everythingReportsProgress()
    {
        McpHost host;
        auto client = host.addServer(everything(), options());
        host.startAll();
        host.waitUntilSettled(60'000);
        QVERIFY2(client->state() == McpClient::State::Ready, qPrintable(client->log()));
        McpToolInfo info;
        for (const McpToolInfo &tool : client->tools()) {
            if (tool.name == "trigger-long-running-operation")
                info = tool;
        }
        QVERIFY(info.readOnlyHint); // annotations.readOnlyHint
        McpTool tool(client, "everything", info);
        // Issue #31: a hint of the server, never trusted: it asks and runs alone like any tool
        // with side effects.
        QCOMPARE(tool.executionMode(), ExecutionMode::Sequential);
        QVERIFY(tool.hasSideEffects());

        QMutex mutex;
        QStringList updates;
        ToolCallContext context;
        context.arguments = {{"duration", 0.3}, {"steps", 3}};
        context.onUpdate = [&](const ToolResult &partial) {
            QMutexLocker locker(&mutex);
            updates.append(partial.text());
        };
        const ToolResult result = onToolThread([&] { return tool.execute(context); });
        QVERIFY2(!result.isError, qPrintable(result.text()));
        QVERIFY(result.text().contains("Long running operation completed"));
        QCOMPARE(updates, QStringList({"progress 1/3", "progress 2/3", "progress 3/3"}));
    }

    void apiKeysNeverReachTheServer()
    {
        McpClientOptions withKeys = options();
        QProcessEnvironment base = QProcessEnvironment::systemEnvironment();
        base.insert("ANTHROPIC_API_KEY", "sk-ant-never-passed-1234");
        base.insert("OPENAI_API_KEY", "sk-openai-never-passed-1234");
        McpServerConfig config = everything();
        config.env.insert("EVERYTHING_MODE", "test");
        config.env.insert("ANTHROPIC_API_KEY", "sk-ant-never-passed-1234");
        withKeys.environment = McpHost::serverEnvironment(base, CommandEnvironment(), config.env);
        McpHost host;
        auto client = host.addServer(config, withKeys);
        host.startAll();
        host.waitUntilSettled(60'000);
        QVERIFY2(client->state() == McpClient::State::Ready, qPrintable(client->log()));
        const McpCallResult env = onToolThread([&] { return client->callTool("get-env", {}); });
        QVERIFY2(env.ok, qPrintable(env.error));
        const QString text = QJsonDocument(env.result).toJson();
        QVERIFY(text.contains("EVERYTHING_MODE"));
        QVERIFY(!text.contains("never-passed"));
        QVERIFY(!text.contains("ANTHROPIC_API_KEY"));
    }

    void pagesAndBadSchemas()
    {
        McpHost host;
        auto client = host.addServer(fake(), options());
        host.startAll();
        host.waitUntilSettled(30'000);
        QVERIFY2(client->state() == McpClient::State::Ready, qPrintable(client->log()));
        // Two pages, the tool with a broken schema left out with the reason.
        QCOMPARE(names(client->tools()),
                 QStringList({"slow",
                              "die",
                              "garbage",
                              "huge",
                              "change",
                              "env",
                              "fails",
                              "note",
                              "deep",
                              "delete_everything"}));
        QVERIFY2(client->log().contains("the inputSchema of tool \"broken-schema\" is not valid "
                                        "JSON Schema: /properties/x is not a schema"),
                 qPrintable(client->log()));
        // The server's stderr comes on its own pipe: it may arrive after the answers.
        QTRY_VERIFY_WITH_TIMEOUT(client->log().contains("got tools/list {\"cursor\": \"page-2\"}"),
                                 10'000);
        QTRY_VERIFY_WITH_TIMEOUT(client->log().contains("got notifications/initialized"), 10'000);
    }

    void nameClashIsLeftOut()
    {
        McpHost host;
        auto client = host.addServer(fake(), options());
        host.startAll();
        host.waitUntilSettled(30'000);
        QStringList problems;
        const QList<AgentToolPtr> tools = host.tools({"mcp__fake__env"}, &problems);
        QCOMPARE(tools.size(), 9);
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.first().contains("the tool \"env\" of MCP server \"fake\" is left out: "
                                           "another tool is called mcp__fake__env"),
                 qPrintable(problems.first()));
    }

    void malformedOutputIsNotedAndTheCallGoesOn()
    {
        McpHost host;
        auto client = host.addServer(fake(), options());
        host.startAll();
        const McpCallResult result = onToolThread([&] { return client->callTool("garbage", {}); });
        QVERIFY2(result.ok, qPrintable(result.error));
        QCOMPARE(result.result.value("content").toArray().first().toObject().value("text"),
                 "still here");
        const QString log = client->log();
        QVERIFY2(log.contains("a malformed message was ignored: not JSON"), qPrintable(log));
        QVERIFY(log.contains("a malformed message was ignored: not JSON-RPC 2.0"));
        QVERIFY(log.contains("a response to unknown id 99999 was ignored"));
        QVERIFY(log.contains("nested deeper than 1024 levels"));
        QVERIFY(log.contains("needs exactly one of \"result\" and \"error\""));
        QCOMPARE(client->state(), McpClient::State::Ready);
    }

    // Issue #31: an answer nested 150 levels is read (the model layer's cap is 1024); one of
    // 2000 levels (valid JSON) fails its call at once, not after the call's timeout, and the
    // server stays usable.
    void deepAnswers()
    {
        McpHost host;
        McpClientOptions patient = options();
        patient.callTimeoutMs = 60'000;
        auto client = host.addServer(fake(), patient);
        host.startAll();
        host.waitUntilSettled(30'000);
        QVERIFY2(client->state() == McpClient::State::Ready, qPrintable(client->log()));

        const McpCallResult deep = onToolThread([&] {
            return client->callTool("deep", {{"levels", 150}});
        });
        QVERIFY2(deep.ok, qPrintable(deep.error));
        QCOMPARE(deep.result.value("content").toArray().first().toObject().value("text"),
                 "deep 150");

        QElapsedTimer timer;
        timer.start();
        const McpCallResult tooDeep = onToolThread([&] {
            return client->callTool("deep", {{"levels", 2000}});
        });
        const qint64 elapsed = timer.elapsed();
        QVERIFY(!tooDeep.ok);
        QVERIFY(!tooDeep.aborted);
        QVERIFY2(tooDeep.error.contains("the MCP server \"fake\" answered with a message nested "
                                        "deeper than 1024 levels, which AgentDesk does not read"),
                 qPrintable(tooDeep.error));
        QVERIFY2(elapsed < 5'000, qPrintable(QString::number(elapsed)));
        qInfo("2000 levels: the call failed after %lld ms (its timeout: %d ms)",
              elapsed,
              patient.callTimeoutMs);

        const McpCallResult next = onToolThread([&] { return client->callTool("fails", {}); });
        QVERIFY2(next.ok, qPrintable(next.error));
        QCOMPARE(client->state(), McpClient::State::Ready);
        QVERIFY2(!client->log().contains("unknown id"), qPrintable(client->log()));
    }

    void overlongAnswerFailsItsCall()
    {
        McpHost host;
        auto client = host.addServer(fake(), options());
        host.startAll();
        const McpCallResult huge = onToolThread([&] { return client->callTool("huge", {}); });
        QVERIFY(!huge.ok);
        QVERIFY2(huge.error.contains("over the 8 MiB cap; it was dropped"), qPrintable(huge.error));
        // The server still works.
        const McpCallResult next = onToolThread([&] { return client->callTool("fails", {}); });
        QVERIFY2(next.ok, qPrintable(next.error));
        const ToolResult mapped = McpTool::resultOf(next, "fake");
        QVERIFY(mapped.isError); // isError honoured
        QCOMPARE(mapped.text(), "the thing is broken");
    }

    void stopSendsCancellation()
    {
        McpHost host;
        auto client = host.addServer(fake(), options());
        host.startAll();
        host.waitUntilSettled(30'000);
        AbortToken abort;
        QString progressed;
        const McpCallResult result = onToolThread([&] {
            return client->callTool("slow", {}, abort, [&](const McpProgress &progress) {
                progressed = progress.message; // on the client's thread, before the abort
                abort.abort();                 // the user presses Stop while the tool runs
            });
        });
        QCOMPARE(progressed, "first step");
        QVERIFY(!result.ok);
        QVERIFY(result.aborted);
        QCOMPARE(result.error, "stopped by the user");
        // The server got notifications/cancelled for that request, answered late, and the
        // late answer is no "unknown id".
        QTRY_VERIFY2(client->log().contains("got notifications/cancelled"),
                     qPrintable(client->log()));
        QVERIFY(client->log().contains("\"reason\": \"The user stopped the run.\""));
        const McpCallResult ping = onToolThread([&] { return client->call("ping", {}); });
        QVERIFY(ping.ok);
        QVERIFY2(!client->log().contains("unknown id"), qPrintable(client->log()));
    }

    void deadServerIsReportedAndRestarted()
    {
        McpHost host;
        auto client = host.addServer(fake(), options());
        host.startAll();
        const McpCallResult died = onToolThread([&] { return client->callTool("die", {}); });
        QVERIFY(!died.ok);
        QVERIFY2(died.error.contains("the MCP server \"fake\" exited with code 3; its last words "
                                     "on stderr: fatal: asked to die (it is started again on the "
                                     "next call)"),
                 qPrintable(died.error));
        // The call learns of the death from the closed pipe, the state from the exit: either
        // may come first.
        QTRY_COMPARE_WITH_TIMEOUT(client->state(), McpClient::State::Failed, 10'000);
        QVERIFY(client->error().contains("exited with code 3"));
        // The next call starts it again.
        const McpCallResult again = onToolThread([&] { return client->callTool("fails", {}); });
        QVERIFY2(again.ok, qPrintable(again.error));
        QCOMPARE(client->state(), McpClient::State::Ready);
    }

    void startFailures_data()
    {
        QTest::addColumn<McpServerConfig>("config");
        QTest::addColumn<QString>("error");
        // Long enough for a slow interpreter to start (a pyenv shim takes 0.5 s) where the
        // failure is another one; short where the timeout is the failure.
        QTest::addColumn<int>("initializeTimeoutMs");
        McpServerConfig missing = fake();
        missing.command = "/nonexistent/mcp-server";
        QTest::newRow("no such program")
            << missing << "the MCP server \"fake\" could not be started (/nonexistent/mcp-server)"
            << 10'000;
        QTest::newRow("crash at start")
            << fake("crash-at-start")
            << "exited with code 2; its last words on stderr: fatal: cannot open the database"
            << 10'000;
        QTest::newRow("never answers initialize")
            << fake("silent")
            << "the MCP server \"fake\" did not finish starting (initialize and tools/list) "
               "within 0.5 s"
            << 500;
        QTest::newRow("unknown protocol revision")
            << fake("badversion") << "speaks protocol revision \"1999-01-01\"" << 10'000;
    }

    void startFailures()
    {
        QFETCH(McpServerConfig, config);
        QFETCH(QString, error);
        QFETCH(int, initializeTimeoutMs);
        McpClientOptions quick = options();
        quick.initializeTimeoutMs = initializeTimeoutMs;
        McpHost host;
        auto client = host.addServer(config, quick);
        host.startAll();
        host.waitUntilSettled(30'000);
        QCOMPARE(client->state(), McpClient::State::Failed);
        QVERIFY2(client->error().contains(error), qPrintable(client->error()));
        // A call reports the same reason (it tried to start the server again).
        const McpCallResult call = onToolThread([&] { return client->callTool("x", {}); });
        QVERIFY(!call.ok);
        QVERIFY2(call.error.contains(error), qPrintable(call.error));
    }

    // The client's side of ping: an idle server is asked now and then; one that answers stays
    // Ready, one that does not is reported Failed with the reason, like a dead one, and the
    // next call starts it again.
    void idleServerIsPinged()
    {
        McpClientOptions pinging = options();
        pinging.pingIntervalMs = 200;
        pinging.pingTimeoutMs = 2000;
        McpHost host;
        auto client = host.addServer(fake(), pinging);
        host.startAll();
        host.waitUntilSettled(30'000);
        QVERIFY2(client->state() == McpClient::State::Ready, qPrintable(client->log()));
        QTRY_VERIFY_WITH_TIMEOUT(client->log().count("got ping") >= 3, 10'000);
        QCOMPARE(client->state(), McpClient::State::Ready);
        QVERIFY2(!client->log().contains("did not answer a ping"), qPrintable(client->log()));
    }

    void serverNotAnsweringPingsIsFailedAndRestarted()
    {
        McpClientOptions pinging = options();
        pinging.pingIntervalMs = 200;
        pinging.pingTimeoutMs = 300;
        McpHost host;
        auto client = host.addServer(fake("no-pong"), pinging);
        host.startAll();
        host.waitUntilSettled(30'000);
        QVERIFY2(client->state() == McpClient::State::Ready, qPrintable(client->log()));
        QTRY_COMPARE_WITH_TIMEOUT(client->state(), McpClient::State::Failed, 10'000);
        QCOMPARE(client->error(),
                 "the MCP server \"fake\" did not answer a ping within 0.3 s; it was stopped");
        QVERIFY2(client->log().contains("got ping"), qPrintable(client->log()));
        // Restarted on demand, as a dead server is: the call gets its answer.
        const McpCallResult again = onToolThread([&] { return client->callTool("fails", {}); });
        QVERIFY2(again.ok, qPrintable(again.error));
        QCOMPARE(client->state(), McpClient::State::Ready);
    }

    // No ping while a call waits for its answer: the call's own timeout speaks for the server,
    // and one busy with a long tool need not answer anything else.
    void noPingWhileACallWaits()
    {
        McpClientOptions pinging = options();
        // Long enough that the call is under way before a first ping could go out.
        pinging.pingIntervalMs = 500;
        pinging.pingTimeoutMs = 300;
        McpHost host;
        auto client = host.addServer(fake("no-pong"), pinging);
        host.startAll();
        host.waitUntilSettled(30'000);
        QVERIFY2(client->state() == McpClient::State::Ready, qPrintable(client->log()));
        AbortToken abort;
        McpClient::State stateBefore = McpClient::State::Stopped;
        QString logBefore;
        // 5 ping intervals into the call, what the client did is read, then the call stopped
        // (after it the idle server is pinged again, and fails: not this test's business).
        QTimer::singleShot(2500, [&] {
            stateBefore = client->state();
            logBefore = client->log();
            abort.abort();
        });
        const McpCallResult slow = onToolThread(
            [&] { return client->callTool("slow", {}, abort, [](const McpProgress &) {}); });
        QVERIFY(slow.aborted);
        QCOMPARE(stateBefore, McpClient::State::Ready);
        QVERIFY2(logBefore.contains("got tools/call"), qPrintable(logBefore));
        QVERIFY2(!logBefore.contains("got ping"), qPrintable(logBefore));
    }

    void listChangedListsAgain()
    {
        McpHost host;
        auto client = host.addServer(fake(), options());
        host.startAll();
        host.waitUntilSettled(30'000);
        QVERIFY(!names(client->tools()).contains("added"));
        const McpCallResult changed = onToolThread([&] { return client->callTool("change", {}); });
        QVERIFY(changed.ok);
        QTRY_VERIFY(names(client->tools()).contains("added"));
    }

    void callsAfterShutdownFail()
    {
        auto host = std::make_unique<McpHost>();
        auto client = host->addServer(fake(), options());
        host->startAll();
        host->waitUntilSettled(30'000);
        host.reset();
        QCOMPARE(client->state(), McpClient::State::Stopped);
        const McpCallResult call = onToolThread([&] { return client->callTool("fails", {}); });
        QVERIFY(!call.ok);
        QCOMPARE(call.error, "the MCP server \"fake\" was stopped");
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_McpClient)

} // namespace tst_mcpclient

#include "tst_mcpclient.moc"
