// Keys and processes, end to end: the provider key never reaches output, Bash or logs; tool
// processes and their logs do not outlive AgentDesk.

#include "headlessrun.h"
#include "httptestserver.h"
#include "modelreplies.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <testmain.h>

#include <signal.h>

using namespace TestSupport;

namespace tst_headlesssecrets {

class tst_HeadlessSecrets : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
    }

    void providerErrorInStreamHidesTheKey_data()
    {
        QTest::addColumn<ReplyApi>("api");
        QTest::addColumn<QString>("format");
        QTest::addColumn<QByteArray>("errorEvent");
        const QByteArray openAi = "data: {\"error\":{\"message\":\"Incorrect API key provided: "
                                  + HeadlessApiKey.toUtf8()
                                  + ".\",\"type\":\"invalid_request_error\"}}\n\n";
        const QByteArray anthropic = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":"
                                     "\"authentication_error\",\"message\":\"invalid x-api-key "
                                     + HeadlessApiKey.toUtf8() + "\"}}\n\n";
        for (const char *format : {"text", "stream-json"}) {
            QTest::addRow("openai, %s", format) << ReplyApi::OpenAiChat << format << openAi;
            QTest::addRow("anthropic, %s", format)
                << ReplyApi::AnthropicMessages << format << anthropic;
        }
    }

    // An error event inside a 200 stream that echoes the key: neither what the user reads
    // (stderr, stream-json) nor any file the run wrote holds it.
    void providerErrorInStreamHidesTheKey()
    {
        QFETCH(ReplyApi, api);
        QFETCH(QString, format);
        QFETCH(QByteArray, errorEvent);
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        QList<QByteArray> events = stalledReply(api).pieces;
        events.append(errorEvent);
        server.enqueue(ScriptedResponse::sse(events));

        HeadlessRun run(sandbox, server, api, {QStringLiteral("--output-format"), format});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 1, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 1);
        QVERIFY2(run.err.contains(QStringLiteral("the run failed: ")), qPrintable(run.report()));
        QVERIFY2(run.err.contains(QStringLiteral("[API key]")), qPrintable(run.report()));
        QVERIFY2(!run.err.contains(HeadlessApiKey), qPrintable(run.report()));
        QVERIFY2(!run.out.contains(HeadlessApiKey.toUtf8()), qPrintable(run.report()));
        if (format == QLatin1String("stream-json")) {
            const QList<QJsonObject> lines = run.jsonLines();
            QVERIFY2(!lines.isEmpty(), qPrintable(run.report()));
            const QJsonArray messages = lines.last().value(u"newMessages").toArray();
            QVERIFY(!messages.isEmpty());
            QVERIFY2(messages.last()[QLatin1String("errorMessage")].toString().contains(
                         QLatin1String("[API key]")),
                     qPrintable(run.report()));
        }
        QDirIterator files(sandbox.home(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (files.hasNext()) {
            QFile file(files.next());
            QVERIFY(file.open(QIODevice::ReadOnly));
            QVERIFY2(!file.readAll().contains(HeadlessApiKey.toUtf8()), qPrintable(file.fileName()));
        }
    }

    // Issue #14, 3(b): the key reached the model through `printenv` in every mode.
    void bashGetsNoProviderKey_data()
    {
        QTest::addColumn<ReplyApi>("api");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("keyVariable");
        QTest::addColumn<QString>("key");
        QTest::newRow("openai") << ReplyApi::OpenAiChat << QStringList() << "OPENAI_API_KEY"
                                << HeadlessApiKey;
        QTest::newRow("anthropic") << ReplyApi::AnthropicMessages << QStringList()
                                   << "ANTHROPIC_API_KEY" << HeadlessApiKey;
        QTest::newRow("--api-key-env")
            << ReplyApi::OpenAiChat << QStringList{"--api-key-env", "LLM_GATEWAY"} << "LLM_GATEWAY"
            << "gw-headless-key-4242";
    }

    void bashGetsNoProviderKey()
    {
        QFETCH(ReplyApi, api);
        QFETCH(QStringList, extra);
        QFETCH(QString, keyVariable);
        QFETCH(QString, key);
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        server.enqueue(scriptedReply(api, {}, {headlessBashCall(QStringLiteral("printenv; env"))}));
        server.enqueue(scriptedReply(api, QStringLiteral("Seen.")));

        HeadlessRun run(sandbox,
                        server,
                        api,
                        QStringList{QStringLiteral("--permission-mode"),
                                    QStringLiteral("bypass"),
                                    QStringLiteral("--output-format"),
                                    QStringLiteral("stream-json"),
                                    // The sandbox also drops the agents' sockets
                                    // (tst_headlesssandbox): here the environment as such.
                                    QStringLiteral("--sandbox"),
                                    QStringLiteral("off")}
                            + extra);
        run.environment.insert(keyVariable, key);
        run.environment.insert(QStringLiteral("GITHUB_TOKEN"), QStringLiteral("ghp-headless-77"));
        run.environment.insert(QStringLiteral("INNOCENT_COPY"), key);
        run.environment.insert(QStringLiteral("SSH_AUTH_SOCK"), QStringLiteral("/run/test-ssh"));
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 2);
        // The key was used to call the provider ...
        QVERIFY(server.requests()
                    .at(0)
                    .header(api == ReplyApi::OpenAiChat ? "authorization" : "x-api-key")
                    .contains(key.toUtf8()));
        // ... and the command saw the user's environment, but no secret.
        const QByteArray seen = server.requests().at(1).body;
        QVERIFY2(seen.contains(QByteArray("HOME=" + sandbox.home().toUtf8())), seen.constData());
        QVERIFY(seen.contains("SSH_AUTH_SOCK=/run/test-ssh"));
        QVERIFY(seen.contains("PATH="));
        for (const QByteArray &secret :
             {key.toUtf8(), HeadlessApiKey.toUtf8(), QByteArray("ghp-headless-77")}) {
            QVERIFY2(!seen.contains(secret), secret.constData());
            QVERIFY2(!run.out.contains(secret), secret.constData());
            QVERIFY2(!allFilesUnder(sandbox.home()).contains(secret), secret.constData());
        }
        QVERIFY(!seen.contains("INNOCENT_COPY"));
        QVERIFY(!seen.contains(QByteArray(keyVariable.toUtf8() + '=')));
    }

    // Issue #14, item 10: kill -9 left the command's processes running.
    void bashProcessesDieWithAgentDesk()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        // A background sleep and a foreground one, each in a process of its own.
        server.enqueue(scriptedReply(api,
                                     {},
                                     {headlessBashCall(QStringLiteral(
                                         "sleep 1000 & echo $! > first.pid; "
                                         "sh -c 'echo $$ > second.pid; exec sleep 1000'"))}));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        // The sandbox's pid namespace would give the pids inside it.
                        {QStringLiteral("--permission-mode"),
                         QStringLiteral("bypass"),
                         QStringLiteral("--sandbox"),
                         QStringLiteral("off")});
        // A killed AgentDesk leaves its log folder for the next start to remove: not in /tmp.
        run.environment.insert(QStringLiteral("TMPDIR"), sandbox.home());
        run.start();
        QList<qint64> sleeps;
        const auto cleanUp = qScopeGuard([&sleeps] {
            for (const qint64 pid : std::as_const(sleeps))
                ::kill(pid_t(pid), SIGKILL); // only when the test failed
        });
        const auto pidIn = [&sandbox](const char *file) {
            return sandbox.read(QString::fromLatin1(file)).trimmed().toLongLong();
        };
        QTRY_VERIFY_WITH_TIMEOUT(pidIn("first.pid") > 0 && pidIn("second.pid") > 0,
                                 HeadlessTimeoutMs);
        sleeps = {pidIn("first.pid"), pidIn("second.pid")};
        QVERIFY(isProcessRunning(sleeps[0]));
        QVERIFY(isProcessRunning(sleeps[1]));

        QCOMPARE(::kill(pid_t(run.process.processId()), SIGKILL), 0);
        QVERIFY(run.finish());
        QCOMPARE(run.process.exitStatus(), QProcess::CrashExit);
        // A generous bound: the guard terminates them at once, with a grace period for TERM.
        QTRY_VERIFY_WITH_TIMEOUT(!isProcessRunning(sleeps[0]) && !isProcessRunning(sleeps[1]),
                                 20'000);
    }

    // Issue #14, 3(b) and 10: full output logs in a private folder that goes at exit; the
    // folders of dead processes go at the next start.
    void toolLogsArePrivateAndRemoved()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        const QString temp = sandbox.home() + QStringLiteral("/tmp");
        QVERIFY(QDir().mkpath(temp));
        QProcess gone;
        gone.start(QStringLiteral("true"), QStringList());
        QVERIFY(gone.waitForStarted());
        const qint64 dead = gone.processId(); // 0 once it has ended
        QVERIFY(dead > 0);
        QVERIFY(gone.waitForFinished());
        const QString stale = temp + QStringLiteral("/agentdesk-tool-logs-")
                              + QString::number(dead);
        const QString staleNew = stale + QStringLiteral("-Xy12Zq");
        const QString live = temp + QStringLiteral("/agentdesk-tool-logs-")
                             + QString::number(QCoreApplication::applicationPid())
                             + QStringLiteral("-Alive1");
        for (const QString &directory : {stale, staleNew, live})
            QVERIFY(QDir().mkpath(directory));
        QVERIFY(QFile(stale + QStringLiteral("/bash-20250101-120000-77-1.log"))
                    .open(QIODevice::WriteOnly));

        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api,
                                     {},
                                     {headlessBashCall(QStringLiteral(
                                         "seq 1 40000; for d in \"$TMPDIR\"/agentdesk-tool-logs-*; "
                                         "do stat -c 'mode=%a %n' \"$d\"; done"))}));
        // The log of a command gets its name once the result names it: look at it afterwards.
        server.enqueue(
            scriptedReply(api,
                          {},
                          {headlessBashCall(QStringLiteral(
                              "stat -c 'mode=%a %n' \"$TMPDIR\"/agentdesk-tool-logs-*/*"))}));
        server.enqueue(scriptedReply(api, QStringLiteral("Counted.")));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        // The sandbox's TMPDIR is its private /tmp.
                        {QStringLiteral("--permission-mode"),
                         QStringLiteral("bypass"),
                         QStringLiteral("--sandbox"),
                         QStringLiteral("off")});
        run.environment.insert(QStringLiteral("TMPDIR"), temp);
        run.start();
        const qint64 agentDeskPid = run.process.processId(); // 0 once it has ended
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 3);

        // What the command saw while it ran: the stale folders gone, its own private.
        const QByteArray body = server.requests().at(2).body;
        static const QRegularExpression line(QStringLiteral("mode=(\\d+) ([^\\\\\"]+)"));
        QMap<QString, QString> modes;
        for (auto it = line.globalMatch(QString::fromUtf8(body)); it.hasNext();) {
            const QRegularExpressionMatch match = it.next();
            modes.insert(match.captured(2).trimmed(), match.captured(1));
        }
        const QString own = temp + QStringLiteral("/agentdesk-tool-logs-")
                            + QString::number(agentDeskPid) + u'-';
        QString ownDirectory;
        QString log;
        for (auto it = modes.cbegin(); it != modes.cend(); ++it) {
            if (it.key().startsWith(own) && !it.key().contains(QLatin1String("/bash-")))
                ownDirectory = it.key();
            if (it.key().startsWith(own) && it.key().contains(QLatin1String("/bash-")))
                log = it.key();
        }
        QVERIFY2(!ownDirectory.isEmpty(), body.mid(body.lastIndexOf("39999"), 2000).constData());
        QCOMPARE(modes.value(ownDirectory), QStringLiteral("700"));
        QCOMPARE(modes.value(log), QStringLiteral("600"));
        QVERIFY2(QRegularExpression(QStringLiteral("/bash-[A-Za-z0-9]{6}\\.log$"))
                     .match(log)
                     .hasMatch(),
                 qPrintable(log));
        QVERIFY2(body.contains(log.toUtf8()), "the result names the full log");
        QVERIFY(!modes.contains(stale));
        QVERIFY(!modes.contains(staleNew));
        QVERIFY(modes.contains(live)); // this test process still runs

        // After a normal exit, only the folder of the process that still runs is left.
        QVERIFY(!QFileInfo::exists(ownDirectory));
        QVERIFY(!QFileInfo::exists(stale));
        QVERIFY(QFileInfo::exists(live));
        QCOMPARE(QDir(temp).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 QStringList{QFileInfo(live).fileName()});
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessSecrets)

} // namespace tst_headlesssecrets

#include "tst_headlesssecrets.moc"
