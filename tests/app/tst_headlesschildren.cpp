// AgentDesk's own children die with it, and its checkpoint store survives a kill mid-write:
// kill -9 of agentdesk --print while an MCP server is busy in a call ends the server and what
// it started (ChildGroupGuard), and a lock a killed git left in the checkpoint store is removed
// on the next start, whose first checkpoint is taken, and said on stderr.

#include "headlessrun.h"
#include "httptestserver.h"
#include "modelreplies.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <testmain.h>

#include <csignal>

#include <testpaths.h>
#include <unistd.h>

using namespace TestSupport;

namespace tst_headlesschildren {

namespace {

QString fakeServer()
{
    return TestSupport::sourcePath(QStringLiteral("tests/mcp/fakeserver.py"));
}

QByteArray fileText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll().trimmed() : QByteArray();
}

// Alive and not a zombie nobody reaped yet.
bool running(pid_t pid)
{
    if (pid <= 1 || ::kill(pid, 0) != 0)
        return false;
    const QByteArray stat = fileText(QStringLiteral("/proc/%1/stat").arg(pid));
    const qsizetype end = stat.lastIndexOf(')');
    return end < 0 || stat.mid(end + 2, 1) != "Z";
}

int checkpointLines(const QList<QJsonObject> &lines)
{
    int count = 0;
    for (const QJsonObject &line : lines)
        count += line.value(u"type").toString() == QLatin1String("checkpoint")
                 && line.value(u"id").toString().size() == 40;
    return count;
}

} // namespace

class tst_HeadlessChildren : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
    }

    // A server that does not end when its stdin closes (it ignores SIGTERM, too), and a process
    // it started: both gone within seconds of AgentDesk's kill -9.
    void mcpServerDiesWithKilledAgentDesk()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        const QString log = sandbox.home() + QStringLiteral("/fake.log");
        const QString serverPid = sandbox.home() + QStringLiteral("/server.pid");
        const QString childPid = sandbox.home() + QStringLiteral("/child.pid");
        const QJsonObject entry{
            {"command", "sh"},
            {"args",
             QJsonArray{"-c",
                        QStringLiteral("sleep 300 & echo $! > '%1'; exec python3 '%2' stubborn")
                            .arg(childPid, fakeServer())}},
            {"env", QJsonObject{{"FAKE_MCP_LOG", log}, {"FAKE_MCP_PID", serverPid}}}};
        const QString config = sandbox.home() + QStringLiteral("/mcp.json");
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(
            QJsonDocument(QJsonObject{{"mcpServers", QJsonObject{{"fake", entry}}}}).toJson());
        file.close();

        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api, {}, {{"call_slow", "mcp__fake__slow", {}}}));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        {QStringLiteral("--mcp-config"),
                         config,
                         QStringLiteral("--allowed-tools"),
                         QStringLiteral("mcp__fake__slow")});
        run.start();
        QTRY_VERIFY_WITH_TIMEOUT(fileText(log).contains("got tools/call"), HeadlessTimeoutMs);
        const pid_t serverProcess = pid_t(fileText(serverPid).toInt());
        const pid_t childProcess = pid_t(fileText(childPid).toInt());
        const auto cleanUp = qScopeGuard([&] { // only when the test failed
            for (const pid_t pid : {serverProcess, childProcess}) {
                if (running(pid))
                    ::kill(pid, SIGKILL);
            }
        });
        QVERIFY(running(serverProcess));
        QVERIFY(running(childProcess));

        QCOMPARE(::kill(pid_t(run.process.processId()), SIGKILL), 0);
        QVERIFY(run.finish());
        QTRY_VERIFY_WITH_TIMEOUT(!running(serverProcess) && !running(childProcess), 5000);
    }

    // A lock a killed AgentDesk's git left in the store: the next run's first checkpoint is
    // taken, and stderr says what was removed (stream-json has no line for it).
    void staleStoreLockIsRemovedAndSaid()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        const QStringList arguments{QStringLiteral("--permission-mode"),
                                    QStringLiteral("acceptEdits"),
                                    QStringLiteral("--output-format"),
                                    QStringLiteral("stream-json")};
        server.enqueue(scriptedReply(api, QStringLiteral("Reading."), {headlessReadCall()}));
        server.enqueue(scriptedReply(api, {}, {headlessEditCall()}));
        server.enqueue(scriptedReply(api, QStringLiteral("Done.")));
        HeadlessRun first(sandbox, server, api, arguments);
        first.start();
        QVERIFY(first.finish());
        QVERIFY2(first.exitCode() == 0, qPrintable(first.report()));

        // The store, and in it what git leaves when it is killed with SIGKILL.
        QDirIterator stores(sandbox.home(),
                            {QStringLiteral("*.git")},
                            QDir::Dirs | QDir::Hidden,
                            QDirIterator::Subdirectories);
        QString store;
        while (stores.hasNext()) {
            const QString path = stores.next();
            if (path.contains(QLatin1String("/checkpoints/")))
                store = path;
        }
        QVERIFY2(!store.isEmpty(), "no checkpoint store");
        QFile lock(store + QStringLiteral("/index.lock"));
        QVERIFY(lock.open(QIODevice::WriteOnly));
        lock.write("half an index");
        lock.close();
        QVERIFY(sandbox.write(QStringLiteral("notes.txt"), "apple pie again\n"));

        server.enqueue(scriptedReply(api, QStringLiteral("Reading."), {headlessReadCall()}));
        server.enqueue(scriptedReply(api, {}, {headlessEditCall()}));
        server.enqueue(scriptedReply(api, QStringLiteral("Done.")));
        HeadlessRun second(sandbox, server, api, arguments);
        second.start();
        QVERIFY(second.finish());
        QVERIFY2(second.exitCode() == 0, qPrintable(second.report()));
        QVERIFY2(checkpointLines(second.jsonLines()) > 0, qPrintable(second.report()));
        QVERIFY2(second.err.contains(QLatin1String("index.lock"))
                     && second.err.contains(QLatin1String("removed")),
                 qPrintable(second.report()));
        QVERIFY(!QFileInfo::exists(store + QStringLiteral("/index.lock")));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessChildren)

} // namespace tst_headlesschildren

#include "tst_headlesschildren.moc"
