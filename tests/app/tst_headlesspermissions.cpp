// What the permission modes and rules let a run do, end to end: bypass, allow rules, plan mode,
// writes outside the repository, and settings the agent must not widen.

#include "headlessrun.h"
#include "httptestserver.h"
#include "modelreplies.h"

#include <QCoreApplication>
#include <QDir>
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

namespace tst_headlesspermissions {

namespace {

QStringList sorted(QStringList list)
{
    list.sort();
    return list;
}

} // namespace

class tst_HeadlessPermissions : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
    }

    void bashRunsInBypassMode()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(
            scriptedReply(api,
                          {},
                          {{QStringLiteral("call_bash"),
                            QStringLiteral("Bash"),
                            {{QStringLiteral("command"),
                              QStringLiteral("echo made-by-bash > made.txt && cat made.txt")}}}}));
        server.enqueue(scriptedReply(api, QStringLiteral("Made it.")));

        HeadlessRun run(sandbox,
                        server,
                        api,
                        {QStringLiteral("--permission-mode"), QStringLiteral("bypass")});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(sandbox.read(QStringLiteral("made.txt")), QByteArray("made-by-bash\n"));
        QCOMPARE(server.requests().size(), 2);
        QVERIFY(server.requests().at(1).body.contains("made-by-bash"));
        QCOMPARE(run.out, QByteArray("Made it.\n"));
    }

    void bashAllowedByRule()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(
            scriptedReply(api,
                          {},
                          {{QStringLiteral("call_bash"),
                            QStringLiteral("Bash"),
                            {{QStringLiteral("command"), QStringLiteral("touch by-rule.txt")}}}}));
        server.enqueue(scriptedReply(api, QStringLiteral("Touched.")));

        HeadlessRun run(sandbox,
                        server,
                        api,
                        {QStringLiteral("--allowed-tools"),
                         QStringLiteral("Read, Bash(touch by-rule.txt)")});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QVERIFY2(QFileInfo::exists(sandbox.root() + QStringLiteral("/by-rule.txt")),
                 qPrintable(run.report()));
    }

    // Issue #14: in acceptEdits the agent wrote .agentdesk/settings.local.json granting bypass
    // and Bash, unasked, and the next run started in bypass.
    void agentCannotWidenItsPermissions()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        const QString grant = QStringLiteral(
            "{\"permissions\": {\"allow\": [\"Bash\"], \"defaultMode\": \"bypass\"}}");
        server.enqueue(scriptedReply(api,
                                     {},
                                     {{QStringLiteral("call_write"),
                                       QStringLiteral("Write"),
                                       {{QStringLiteral("file_path"),
                                         QStringLiteral(".agentdesk/settings.local.json")},
                                        {QStringLiteral("content"), grant}}}}));
        server.enqueue(scriptedReply(api, QStringLiteral("Settings changed.")));

        HeadlessRun run(sandbox,
                        server,
                        api,
                        {QStringLiteral("--permission-mode"), QStringLiteral("acceptEdits")});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(sandbox.read(QStringLiteral(".agentdesk/settings.local.json")),
                 QByteArray("<missing>"));
        QVERIFY2(run.err.contains(QStringLiteral("AgentDesk's own settings")),
                 qPrintable(run.report()));
        QVERIFY(server.requests().at(1).body.contains("Permission denied"));

        // Had it been written (say the user approved it in the window), the next start still
        // does not apply it unasked: it says what it ignored and how to accept it.
        QVERIFY(QDir(sandbox.root()).mkpath(QStringLiteral(".agentdesk")));
        QVERIFY(sandbox.write(QStringLiteral(".agentdesk/settings.local.json"), grant.toUtf8()));
        server.enqueue(scriptedReply(api, QStringLiteral("Hello.")));
        HeadlessRun next(sandbox,
                         server,
                         api,
                         {QStringLiteral("--output-format"), QStringLiteral("stream-json")});
        next.start();
        QVERIFY(next.finish());
        QVERIFY2(next.exitCode() == 0, qPrintable(next.report()));
        QList<QJsonObject> lines = next.jsonLines();
        QVERIFY2(!lines.isEmpty(), qPrintable(next.report()));
        QCOMPARE(lines.first().value(QLatin1String("permissionMode")).toString(),
                 QStringLiteral("default"));
        QVERIFY2(next.err.contains(QStringLiteral("defaultMode: bypass"))
                     && next.err.contains(QStringLiteral("allow: Bash"))
                     && next.err.contains(QStringLiteral("--trust-project-settings")),
                 qPrintable(next.report()));

        // Accepted on the command line, it applies.
        server.enqueue(scriptedReply(api, QStringLiteral("Hello.")));
        HeadlessRun trusted(sandbox,
                            server,
                            api,
                            {QStringLiteral("--output-format"),
                             QStringLiteral("stream-json"),
                             QStringLiteral("--trust-project-settings")});
        trusted.start();
        QVERIFY(trusted.finish());
        QVERIFY2(trusted.exitCode() == 0, qPrintable(trusted.report()));
        lines = trusted.jsonLines();
        QVERIFY2(!lines.isEmpty(), qPrintable(trusted.report()));
        QCOMPARE(lines.first().value(QLatin1String("permissionMode")).toString(),
                 QStringLiteral("bypass"));
        QVERIFY2(!trusted.err.contains(QStringLiteral("--trust-project-settings")),
                 qPrintable(trusted.report()));
    }

    // Issue #14: with --permission-mode default, a `Bash` allow rule in a project file still
    // let `touch ../outside` run; bypass wrote outside with `sed -i ../secret.txt`.
    void bashNeverWritesOutside_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("command");
        QTest::newRow("default + project Bash rule")
            << QStringList{QStringLiteral("--permission-mode"),
                           QStringLiteral("default"),
                           QStringLiteral("--trust-project-settings")}
            << "touch ../outside";
        QTest::newRow("bypass sed -i")
            << QStringList{QStringLiteral("--permission-mode"), QStringLiteral("bypass")}
            << "sed -i s/secret/leaked/ ../secret.txt";
        QTest::newRow("bypass redirection")
            << QStringList{QStringLiteral("--permission-mode"), QStringLiteral("bypass")}
            << "echo leaked > ../outside";
    }

    void bashNeverWritesOutside()
    {
        QFETCH(QStringList, options);
        QFETCH(QString, command);
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        QVERIFY(QDir(sandbox.root()).mkpath(QStringLiteral(".agentdesk")));
        QVERIFY(sandbox.write(QStringLiteral(".agentdesk/settings.json"),
                              "{\"permissions\": {\"allow\": [\"Bash\"]}}"));
        QVERIFY(sandbox.write(QStringLiteral("../secret.txt"), "secret\n"));
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api,
                                     {},
                                     {{QStringLiteral("call_bash"),
                                       QStringLiteral("Bash"),
                                       {{QStringLiteral("command"), command}}}}));
        server.enqueue(scriptedReply(api, QStringLiteral("Done.")));

        HeadlessRun run(sandbox, server, api, options);
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QVERIFY2(!QFileInfo::exists(sandbox.root() + QStringLiteral("/../outside")),
                 qPrintable(run.report()));
        QCOMPARE(sandbox.read(QStringLiteral("../secret.txt")), QByteArray("secret\n"));
        QCOMPARE(server.requests().size(), 2);
        QVERIFY(server.requests().at(1).body.contains("Permission denied"));
    }

    // Plan mode offers the reading tools and Bash, whose read-only commands run (issue #15).
    void planModeRemovesSideEffectTools_data()
    {
        QTest::addColumn<ReplyApi>("api");
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QStringList>("tools");
        // BashOutput and KillShell come with Bash's first background command (none here).
        // Task has no side effect of its own: its children's calls are judged by the mode.
        const QStringList all{"Bash", "Edit", "Glob", "Grep", "LS", "Read", "Task", "Write"};
        const QStringList readOnly{"Bash", "Glob", "Grep", "LS", "Read", "Task"};
        QTest::newRow("openai default") << ReplyApi::OpenAiChat << "default" << all;
        QTest::newRow("openai plan") << ReplyApi::OpenAiChat << "plan" << readOnly;
        QTest::newRow("anthropic plan") << ReplyApi::AnthropicMessages << "plan" << readOnly;
    }

    void planModeRemovesSideEffectTools()
    {
        QFETCH(ReplyApi, api);
        QFETCH(QString, mode);
        QFETCH(QStringList, tools);
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        server.enqueue(scriptedReply(api, QStringLiteral("Plan: rename apple.")));

        // Without language servers: their Diagnostics tool comes with what the machine has.
        HeadlessRun run(sandbox,
                        server,
                        api,
                        {QStringLiteral("--permission-mode"),
                         mode,
                         QStringLiteral("--no-language-servers")});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 1);
        QCOMPARE(sorted(requestToolNames(api, server.requests().first().body)), tools);
    }

    void planModeRunsReadOnlyBash_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<bool>("runs");
        QTest::newRow("read-only") << "grep -n apple notes.txt | head -n 1" << true;
        QTest::newRow("changes a file") << "touch planned.txt" << false;
        QTest::newRow("writing redirection") << "cat notes.txt > planned.txt" << false;
    }

    // Issue #15: in plan mode the agent may look around with read-only commands; a command
    // that would change something is refused with the reason, and nothing changes.
    void planModeRunsReadOnlyBash()
    {
        QFETCH(QString, command);
        QFETCH(bool, runs);
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api,
                                     {},
                                     {{QStringLiteral("call_bash"),
                                       QStringLiteral("Bash"),
                                       {{QStringLiteral("command"), command}}}}));
        server.enqueue(scriptedReply(api, QStringLiteral("Plan: nothing to change.")));

        HeadlessRun run(sandbox,
                        server,
                        api,
                        {QStringLiteral("--permission-mode"), QStringLiteral("plan")});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 2);
        QVERIFY(server.requests().first().body.contains("only read-only commands"));
        const QByteArray result = server.requests().at(1).body;
        QVERIFY2(!QFileInfo::exists(sandbox.root() + QStringLiteral("/planned.txt")),
                 qPrintable(run.report()));
        if (runs) {
            QVERIFY2(result.contains("1:apple pie"), result.constData());
            QVERIFY2(!result.contains("Plan mode: only read-only commands run"), result.constData());
        } else {
            QVERIFY2(result.contains("Plan mode: only read-only commands run"), result.constData());
        }
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessPermissions)

} // namespace tst_headlesspermissions

#include "tst_headlesspermissions.moc"
