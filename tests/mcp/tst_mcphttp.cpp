// The MCP client's Streamable HTTP transport against the real reference server
// @modelcontextprotocol/server-everything started in its streamableHttp mode (installed by
// tests/mcp/install-servers.sh), and against fakehttpserver.py for the faults it does not make
// on demand: a session that expires, an HTML error page, a body over the cap, a stream that
// drops before its answer. Calls run on a thread of their own, as the loop's tools do.

#include <mcp/mcpclient.h>
#include <mcp/mcphost.h>
#include <mcp/mcptool.h>
#include <testmain.h>

#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QMutex>
#include <QProcess>
#include <QTcpServer>
#include <QTest>
#include <QThread>

#include <future>
#include <testpaths.h>

using namespace AgentCore;

namespace tst_mcphttp {

namespace {

const QString serversDir = TestSupport::mcpServersDir();

QString everythingScript()
{
    return serversDir
           + QStringLiteral("/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
}

McpClientOptions options()
{
    McpClientOptions options;
    options.environment = QProcessEnvironment::systemEnvironment();
    options.initializeTimeoutMs = 60'000;
    return options;
}

McpServerConfig httpServer(const QString &name, const QString &url)
{
    McpServerConfig config;
    config.name = name;
    config.type = QStringLiteral("http");
    config.url = url;
    return config;
}

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

QString firstText(const McpCallResult &result)
{
    return result.result.value("content").toArray().first().toObject().value("text").toString();
}

/// A server process the test starts, with everything it printed.
class Server
{
public:
    ~Server()
    {
        process.kill();
        process.waitForFinished(5000);
    }
    QString output()
    {
        text += QString::fromUtf8(process.readAllStandardOutput());
        text += QString::fromUtf8(process.readAllStandardError());
        return text;
    }
    QProcess process;
    QString text;
};

// A port nobody listens on now (a moment later someone might: the server then fails to start,
// which the test reports).
quint16 freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

} // namespace

class tst_McpHttp : public QObject
{
    Q_OBJECT

    std::unique_ptr<Server> m_everything;
    QString m_everythingUrl;

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(everythingScript()),
                 "run tests/mcp/install-servers.sh (the mcp_install_servers fixture) first");
        m_everything = std::make_unique<Server>();
        const quint16 port = freePort();
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert("PORT", QString::number(port));
        m_everything->process.setProcessEnvironment(environment);
        m_everything->process.start("node", {everythingScript(), "streamableHttp"});
        QTRY_VERIFY2_WITH_TIMEOUT(m_everything->output().contains("listening on port"),
                                  qPrintable(m_everything->output()),
                                  60'000);
        m_everythingUrl = QStringLiteral("http://127.0.0.1:%1/mcp").arg(port);
    }

    void cleanupTestCase() { m_everything.reset(); }

    void everythingListsAndEchoes()
    {
        QElapsedTimer started;
        started.start();
        qint64 readyMs = 0;
        {
            McpHost host;
            auto client = host.addServer(httpServer("everything", m_everythingUrl), options());
            host.startAll();
            host.waitUntilSettled(60'000);
            readyMs = started.elapsed();
            QVERIFY2(client->state() == McpClient::State::Ready, qPrintable(client->log()));
            qInfo("server-everything over HTTP: tools available after %lld ms", readyMs);
            QCOMPARE(client->protocolVersion(), "2025-11-25");
            QStringList names;
            for (const McpToolInfo &tool : client->tools())
                names.append(tool.name);
            // tools/list is answered only in the session initialize started: the session id
            // went with it.
            QVERIFY2(names.contains("echo") && names.contains("trigger-long-running-operation"),
                     qPrintable(names.join(", ")));

            QStringList problems;
            AgentToolPtr echo;
            for (const AgentToolPtr &tool : host.tools({"Bash"}, &problems)) {
                if (tool->definition().name == "mcp__everything__echo")
                    echo = tool;
            }
            QVERIFY(echo);
            ToolCallContext context;
            context.arguments = {{"message", "hello over HTTP"}};
            const ToolResult result = onToolThread([&] { return echo->execute(context); });
            QVERIFY2(!result.isError, qPrintable(result.text()));
            QCOMPARE(result.text(), "Echo: hello over HTTP");

            // A figure, not a limit: one call's round trip through the client's thread, HTTP
            // on loopback and node.
            constexpr int calls = 50;
            const qint64 perCallUs = onToolThread([&] {
                QElapsedTimer timer;
                timer.start();
                for (int i = 0; i < calls; ++i)
                    echo->execute(context);
                return timer.nsecsElapsed() / 1000 / calls;
            });
            qInfo("mcp__everything__echo over HTTP: %lld us per call", perCallUs);
        }
        // The host is gone: the session was DELETEd (the server says so on its stdout).
        QTRY_VERIFY2(m_everything->output().contains("Received session termination request"),
                     qPrintable(m_everything->text.right(2000)));
    }

    void everythingReportsProgressAndStops()
    {
        McpHost host;
        auto client = host.addServer(httpServer("everything", m_everythingUrl), options());
        host.startAll();
        host.waitUntilSettled(60'000);
        QVERIFY2(client->state() == McpClient::State::Ready, qPrintable(client->log()));
        McpToolInfo info;
        for (const McpToolInfo &tool : client->tools()) {
            if (tool.name == "trigger-long-running-operation")
                info = tool;
        }
        McpTool tool(client, "everything", info);
        // Progress notifications come on the request's event stream.
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

        // Stop during a slow call: the call ends at once, cancelled; the session goes on.
        AbortToken abort;
        const McpCallResult stopped = onToolThread([&] {
            return client->callTool("trigger-long-running-operation",
                                    {{"duration", 60}, {"steps", 60}},
                                    abort,
                                    [&](const McpProgress &) { abort.abort(); });
        });
        QVERIFY(!stopped.ok);
        QVERIFY(stopped.aborted);
        const McpCallResult echo = onToolThread([&] {
            return client->callTool("echo", {{"message", "still here"}});
        });
        QVERIFY2(echo.ok, qPrintable(echo.error));
        QCOMPARE(firstText(echo), "Echo: still here");
        QVERIFY2(!client->log().contains("unknown id"), qPrintable(client->log()));
    }

    // Issue #31 over HTTP: an answer of 150 levels is read, one of 2000 levels (valid JSON)
    // fails its call at once with the reason, and the session goes on.
    void deepAnswers()
    {
        Server fake;
        fake.process.start("python3",
                           {TestSupport::sourcePath(
                               QStringLiteral("tests/mcp/fakehttpserver.py"))});
        QTRY_VERIFY_WITH_TIMEOUT(fake.output().contains("PORT "), 20'000);
        const QString port = fake.output().section("PORT ", 1).section('\n', 0, 0).trimmed();
        McpClientOptions patient = options();
        patient.callTimeoutMs = 60'000;
        McpHost host;
        auto client = host.addServer(httpServer("fake",
                                                QStringLiteral("http://127.0.0.1:%1/mcp").arg(port)),
                                     patient);
        host.startAll();
        host.waitUntilSettled(30'000);
        QVERIFY2(client->state() == McpClient::State::Ready, qPrintable(client->log()));

        const McpCallResult deep = onToolThread([&] {
            return client->callTool("deep", {{"levels", 150}});
        });
        QVERIFY2(deep.ok, qPrintable(deep.error));
        QCOMPARE(firstText(deep), "deep 150");

        QElapsedTimer timer;
        timer.start();
        const McpCallResult tooDeep = onToolThread([&] {
            return client->callTool("deep", {{"levels", 2000}});
        });
        const qint64 elapsed = timer.elapsed();
        QVERIFY(!tooDeep.ok);
        QVERIFY2(tooDeep.error.contains("the MCP server \"fake\" answered with a message nested "
                                        "deeper than 1024 levels, which AgentDesk does not read"),
                 qPrintable(tooDeep.error));
        QVERIFY2(elapsed < 5'000, qPrintable(QString::number(elapsed)));
        qInfo("2000 levels over HTTP: the call failed after %lld ms (its timeout: %d ms)",
              elapsed,
              patient.callTimeoutMs);

        const McpCallResult hello = onToolThread([&] { return client->callTool("hello", {}); });
        QVERIFY2(hello.ok, qPrintable(hello.error));
        QCOMPARE(client->state(), McpClient::State::Ready);
    }

    void faults()
    {
        Server fake;
        fake.process.start("python3",
                           {TestSupport::sourcePath(
                               QStringLiteral("tests/mcp/fakehttpserver.py"))});
        QTRY_VERIFY_WITH_TIMEOUT(fake.output().contains("PORT "), 20'000);
        const QString port = fake.output().section("PORT ", 1).section('\n', 0, 0).trimmed();
        McpServerConfig config = httpServer("fake",
                                            QStringLiteral("http://127.0.0.1:%1/mcp").arg(port));
        config.headers.insert("Authorization", "Bearer test-token");
        McpClientOptions small = options();
        small.maxLineBytes = 1024 * 1024;
        {
            McpHost host;
            auto client = host.addServer(config, small);
            host.startAll();
            host.waitUntilSettled(30'000);
            QVERIFY2(client->state() == McpClient::State::Ready, qPrintable(client->log()));
            QCOMPARE(client->tools().size(), 7);

            const McpCallResult hello = onToolThread([&] { return client->callTool("hello", {}); });
            QVERIFY2(hello.ok, qPrintable(hello.error));
            QCOMPARE(firstText(hello), "hello in session-1");
            // Every message after initialize carries the session, the revision, both
            // answers it takes and the configuration's headers.
            QVERIFY2(fake.output().contains(
                         "got tools/call session=session-1 version=2025-11-25 "
                         "accept=application/json, text/event-stream auth=Bearer test-token"),
                     qPrintable(fake.output()));
            QVERIFY(fake.output().contains("got notifications/initialized session=session-1"));
            // The server has no stream of its own messages (GET: 405): noted, nothing else.
            QTRY_VERIFY2(client->log().contains("offers no stream of its own messages"),
                         qPrintable(client->log()));

            // The session expires: the next call gets 404, the client initializes again and
            // sends it once more.
            QVERIFY(onToolThread([&] { return client->callTool("expire", {}); }).ok);
            const McpCallResult again = onToolThread([&] { return client->callTool("hello", {}); });
            QVERIFY2(again.ok, qPrintable(again.error));
            QCOMPARE(firstText(again), "hello in session-2");
            QVERIFY2(client->log().contains("the server ended the session (HTTP 404); "
                                            "initializing again"),
                     qPrintable(client->log()));

            // A 500 with an HTML page: its status and words, not its markup.
            const McpCallResult html = onToolThread([&] { return client->callTool("html500", {}); });
            QVERIFY(!html.ok);
            QVERIFY2(html.error.startsWith("the MCP server \"fake\" answered HTTP 500 Internal "
                                           "Server Error: Internal Server Error The upstream "
                                           "database is down."),
                     qPrintable(html.error));
            QVERIFY(!html.error.contains('<'));

            // A body over the cap fails its call; the session goes on.
            const McpCallResult huge = onToolThread([&] { return client->callTool("huge", {}); });
            QVERIFY(!huge.ok);
            QVERIFY2(huge.error.contains("sent a message over the 1 MiB cap; it was dropped"),
                     qPrintable(huge.error));

            // A stream that drops before its answer is resumed after its last event.
            QString progressed;
            const McpCallResult dropped = onToolThread([&] {
                return client->callTool("drop", {}, {}, [&](const McpProgress &progress) {
                    progressed = progress.message;
                });
            });
            QVERIFY2(dropped.ok, qPrintable(dropped.error + "\n" + client->log()));
            QCOMPARE(firstText(dropped), "answered after the resumption");
            QCOMPARE(progressed, "before the drop");
            QTRY_VERIFY(fake.output().contains("got GET session=session-2 last-event-id=e1"));
            QCOMPARE(client->state(), McpClient::State::Ready);

            // Stop during a call: notifications/cancelled is POSTed with the session.
            AbortToken abort;
            const McpCallResult stopped = onToolThread([&] {
                return client->callTool("slow", {}, abort, [&](const McpProgress &) {
                    abort.abort();
                });
            });
            QVERIFY(stopped.aborted);
            QTRY_VERIFY2(fake.output().contains("slow: cancelled"), qPrintable(fake.output()));
            QVERIFY(fake.output().contains("got notifications/cancelled session=session-2"));
            QVERIFY(fake.output().contains(": The user stopped the run."));
        }
        QTRY_VERIFY2(fake.output().contains("got DELETE session=session-2"),
                     qPrintable(fake.output()));
    }

    void aServerThatGoesAwayIsReportedAndStartedOnTheNextCall()
    {
        const QString script = TestSupport::sourcePath(
            QStringLiteral("tests/mcp/fakehttpserver.py"));
        auto fake = std::make_unique<Server>();
        fake->process.start("python3", {script});
        QTRY_VERIFY_WITH_TIMEOUT(fake->output().contains("PORT "), 20'000);
        const QString port = fake->output().section("PORT ", 1).section('\n', 0, 0).trimmed();
        McpHost host;
        auto client = host.addServer(httpServer("fake",
                                                QStringLiteral("http://127.0.0.1:%1/mcp").arg(port)),
                                     options());
        host.startAll();
        host.waitUntilSettled(30'000);
        QVERIFY2(client->state() == McpClient::State::Ready, qPrintable(client->log()));
        QVERIFY(onToolThread([&] { return client->callTool("hello", {}); }).ok);

        // The server dies: the call says so, and so does the server's state.
        fake.reset();
        const McpCallResult lost = onToolThread([&] { return client->callTool("hello", {}); });
        QVERIFY(!lost.ok);
        QVERIFY2(lost.error.contains("the MCP server \"fake\" cannot be reached at"),
                 qPrintable(lost.error));
        QCOMPARE(client->state(), McpClient::State::Failed);
        QVERIFY2(client->error().contains("cannot be reached"), qPrintable(client->error()));

        // It comes back: the next call starts a new session and is answered.
        fake = std::make_unique<Server>();
        fake->process.start("python3", {script, port});
        QTRY_VERIFY_WITH_TIMEOUT(fake->output().contains("PORT " + port), 20'000);
        const McpCallResult back = onToolThread([&] { return client->callTool("hello", {}); });
        QVERIFY2(back.ok, qPrintable(back.error + "\n" + client->log()));
        QCOMPARE(firstText(back), "hello in session-1");
        QCOMPARE(client->state(), McpClient::State::Ready);
    }

    void unreachableServerFailsClearly()
    {
        McpClientOptions quick = options();
        McpHost host;
        auto client
            = host.addServer(httpServer("gone",
                                        QStringLiteral("http://127.0.0.1:%1/mcp").arg(freePort())),
                             quick);
        host.startAll();
        host.waitUntilSettled(30'000);
        QCOMPARE(client->state(), McpClient::State::Failed);
        QVERIFY2(client->error().contains("the MCP server \"gone\" cannot be reached at "
                                          "http://127.0.0.1:"),
                 qPrintable(client->error()));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_McpHttp)

} // namespace tst_mcphttp

#include "tst_mcphttp.moc"
