// Background commands end to end (#38): agentdesk --print, a scripted provider on 127.0.0.1,
// and a real `python3 -m http.server` the model starts with Bash run_in_background. The test
// itself requests a page from it while the run goes on, BashOutput shows the server's log line
// for that request, KillShell stops it; a run that ends leaves no server behind, and neither
// does a kill -9 of agentdesk. In the sandbox (with the network, so the test can reach the
// server) and without it, where other guards end the command.

#include "headlessrun.h"
#include "httptestserver.h"
#include "modelreplies.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <testmain.h>

#include <csignal>

using namespace TestSupport;

namespace tst_headlessbackground {

namespace {

quint16 freeLocalPort()
{
    QTcpServer probe;
    return probe.listen(QHostAddress::LocalHost, 0) ? probe.serverPort() : 0;
}

// Processes (not zombies) whose command line runs http.server on \a port.
QList<qint64> httpServersOn(quint16 port)
{
    QList<qint64> found;
    const QByteArray wanted = QByteArray("http.server") + '\0' + QByteArray::number(port) + '\0';
    for (const QString &entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool number = false;
        const qint64 pid = entry.toLongLong(&number);
        if (!number)
            continue;
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (cmdline.open(QIODevice::ReadOnly) && cmdline.readAll().contains(wanted)
            && isProcessRunning(pid))
            found.append(pid);
    }
    return found;
}

// The status line of a GET of / on 127.0.0.1:\a port; empty when nothing answers.
QByteArray statusOf(quint16 port)
{
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), port);
    if (!socket.waitForConnected(1000))
        return {};
    socket.write("GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
    QByteArray answer;
    while (socket.waitForReadyRead(3000))
        answer += socket.readAll();
    return answer.left(answer.indexOf('\r'));
}

// The result text of each tool_execution_end of \a name, in order.
QStringList resultsOf(const QList<QJsonObject> &lines, const QString &name)
{
    QStringList texts;
    for (const QJsonObject &line : lines) {
        if (line.value(u"type").toString() != QLatin1String("tool_execution_end")
            || line.value(u"toolName").toString() != name)
            continue;
        QString text;
        for (const QJsonValue &block : line.value(u"result").toObject().value(u"content").toArray())
            text += block.toObject().value(u"text").toString();
        texts.append(text);
    }
    return texts;
}

ReplyToolCall serverCall(quint16 port)
{
    return {QStringLiteral("call_server"),
            QStringLiteral("Bash"),
            {{"command", QStringLiteral("python3 -m http.server %1 --bind 127.0.0.1").arg(port)},
             {"run_in_background", true}}};
}

// Sandboxed with the network (the test must reach the server), or no sandbox.
QStringList sandboxArguments(bool sandboxed)
{
    return sandboxed ? QStringList{QStringLiteral("--sandbox-network")}
                     : QStringList{QStringLiteral("--sandbox"), QStringLiteral("off")};
}

void addSandboxRows()
{
    QTest::addColumn<bool>("sandboxed");
    QTest::newRow("sandbox") << true;
    QTest::newRow("no sandbox") << false;
}

} // namespace

class tst_HeadlessBackground : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
    }

    void serverIsReadThenKilled_data() { addSandboxRows(); }
    // The model starts the server, waits (a Bash loop) until the test has requested a page,
    // reads the server's output, stops it; stream-json shows each as a tool call.
    void serverIsReadThenKilled()
    {
        QFETCH(bool, sandboxed);
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        const quint16 port = freeLocalPort();
        QVERIFY(port > 0);
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api, {}, {serverCall(port)}));
        server.enqueue(scriptedReply(
            api,
            {},
            {{QStringLiteral("call_wait"),
              QStringLiteral("Bash"),
              {{"command",
                QStringLiteral(
                    "for i in $(seq 300); do [ -e requested ] && break; sleep 0.1; done")}}}}));
        server.enqueue(scriptedReply(api,
                                     {},
                                     {{QStringLiteral("call_read"),
                                       QStringLiteral("BashOutput"),
                                       {{"bash_id", "bash_1"}}}}));
        server.enqueue(scriptedReply(api,
                                     {},
                                     {{QStringLiteral("call_kill"),
                                       QStringLiteral("KillShell"),
                                       {{"shell_id", "bash_1"}}}}));
        server.enqueue(scriptedReply(api, QStringLiteral("The server ran and is stopped.")));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        headlessBypass(QStringList{QStringLiteral("--output-format"),
                                                   QStringLiteral("stream-json")}
                                       + sandboxArguments(sandboxed)));
        run.start();
        const auto cleanUp = qScopeGuard([port] { // only when the test failed
            for (const qint64 pid : httpServersOn(port))
                ::kill(pid_t(pid), SIGKILL);
        });
        // Once Bash has returned (the model is asked again), one request, which only BashOutput
        // can show.
        QTRY_COMPARE_WITH_TIMEOUT(server.requests().size(), 2, 20000);
        QByteArray status;
        QTRY_VERIFY_WITH_TIMEOUT(!(status = statusOf(port)).isEmpty(), 20000);
        QCOMPARE(status, QByteArray("HTTP/1.0 200 OK"));
        QVERIFY(sandbox.write(QStringLiteral("requested"), "yes\n"));
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));

        const QList<QJsonObject> lines = run.jsonLines();
        const QStringList started = resultsOf(lines, QStringLiteral("Bash"));
        QVERIFY2(started.size() == 2
                     && started[0].startsWith(
                         QLatin1String("Started in the background as shell bash_1")),
                 qPrintable(run.report()));
        const QStringList read = resultsOf(lines, QStringLiteral("BashOutput"));
        QVERIFY2(read.size() == 1 && read[0].contains(QLatin1String("is running"))
                     && read[0].contains(QLatin1String("\"GET / HTTP/1.0\" 200"))
                     && !started[0].contains(QLatin1String("GET /")),
                 qPrintable(started.join(QLatin1Char('\n')) + read.join(QLatin1Char('\n'))
                            + run.report()));
        const QStringList killed = resultsOf(lines, QStringLiteral("KillShell"));
        QVERIFY2(killed.size() == 1 && killed[0].startsWith(QLatin1String("Stopped shell bash_1")),
                 qPrintable(run.report()));
        QVERIFY(httpServersOn(port).isEmpty());
        QVERIFY(statusOf(port).isEmpty());
    }

    // The run ends with the server still running: it goes with the session.
    void runsEndTakesTheServer()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        const quint16 port = freeLocalPort();
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api, {}, {serverCall(port)}));
        server.enqueue(scriptedReply(api, QStringLiteral("Started it.")));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        headlessBypass(QStringList{QStringLiteral("--output-format"),
                                                   QStringLiteral("stream-json"),
                                                   QStringLiteral("--sandbox"),
                                                   QStringLiteral("off")}));
        run.start();
        const auto cleanUp = qScopeGuard([port] {
            for (const qint64 pid : httpServersOn(port))
                ::kill(pid_t(pid), SIGKILL);
        });
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        const QStringList started = resultsOf(run.jsonLines(), QStringLiteral("Bash"));
        QVERIFY2(started.size() == 1 && started[0].contains(QLatin1String("shell bash_1 (process")),
                 qPrintable(run.report()));
        // Gone when agentdesk has exited: the session's end stopped it, nobody else did.
        QVERIFY(httpServersOn(port).isEmpty());
        QVERIFY2(run.err.contains(
                     QStringLiteral("note: background commands still running end with the run: "
                                    "bash_1 (python3 -m http.server %1")
                         .arg(port)),
                 qPrintable(run.report()));
    }

    void killMinus9TakesTheServer_data() { addSandboxRows(); }
    // agentdesk killed with SIGKILL, cleaning nothing up, while the model "thinks": the server
    // is gone within seconds all the same.
    void killMinus9TakesTheServer()
    {
        QFETCH(bool, sandboxed);
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        const quint16 port = freeLocalPort();
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api, {}, {serverCall(port)}));
        server.enqueue(stalledReply(api));
        HeadlessRun run(sandbox, server, api, headlessBypass(sandboxArguments(sandboxed)));
        run.start();
        const auto cleanUp = qScopeGuard([port] {
            for (const qint64 pid : httpServersOn(port))
                ::kill(pid_t(pid), SIGKILL);
        });
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(port), QByteArray("HTTP/1.0 200 OK"), 20000);
        QTRY_COMPARE_WITH_TIMEOUT(server.requests().size(), 2, 20000); // the model "thinks"
        QVERIFY(!httpServersOn(port).isEmpty());

        QCOMPARE(::kill(pid_t(run.process.processId()), SIGKILL), 0);
        QVERIFY(run.finish());
        QTRY_VERIFY_WITH_TIMEOUT(httpServersOn(port).isEmpty(), 5000);
        QVERIFY(statusOf(port).isEmpty());
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessBackground)

} // namespace tst_headlessbackground

#include "tst_headlessbackground.moc"
