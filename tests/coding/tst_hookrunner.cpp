// The hooks' parts on their own: the settings' "hooks" key read with its errors named, Claude
// Code's matchers, and the runner with real processes: exit codes, JSON output, a hook that
// hangs stops at its timeout, a hook that floods is capped, the event on stdin.

#include <hooks/hookconfig.h>
#include <hooks/hookrunner.h>
#include <hooks/hookseams.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>
#include <testmain.h>

using namespace AgentCore;

namespace tst_hookrunner {

namespace {

HookEntry hookRunnerEntry(const QString &command, int timeoutSeconds = 60)
{
    HookEntry hook;
    hook.command = command;
    hook.timeoutSeconds = timeoutSeconds;
    return hook;
}

HookConfig hookRunnerConfig(const QByteArray &json, const QString &file = QStringLiteral("s.json"))
{
    HookConfig config;
    config.addFrom(QJsonDocument::fromJson(json).object(), file, QStringLiteral("test"), false);
    return config;
}

} // namespace

class tst_HookRunner : public QObject
{
    Q_OBJECT

private slots:
    void matchersAreClaudeCodes()
    {
        QVERIFY(hookMatcherSelects({}, QStringLiteral("Bash")));
        QVERIFY(hookMatcherSelects(QStringLiteral("*"), QStringLiteral("Bash")));
        QVERIFY(hookMatcherSelects(QStringLiteral("Bash"), QStringLiteral("Bash")));
        QVERIFY(!hookMatcherSelects(QStringLiteral("Bash"), QStringLiteral("BashOutput")));
        QVERIFY(hookMatcherSelects(QStringLiteral("Edit|Write"), QStringLiteral("Write")));
        QVERIFY(!hookMatcherSelects(QStringLiteral("Edit|Write"), QStringLiteral("Read")));
        QVERIFY(hookMatcherSelects(QStringLiteral("mcp__github__.*"),
                                   QStringLiteral("mcp__github__create_issue")));
        QVERIFY(!hookMatcherSelects(QStringLiteral("mcp__github__.*"),
                                    QStringLiteral("mcp__gitlab__create_issue")));
        QVERIFY(hookMatcherSelects(QStringLiteral("Notebook.*"), QStringLiteral("NotebookEdit")));
        QVERIFY(!hookMatcherSelects(QStringLiteral("(unclosed"), QStringLiteral("(unclosed")));
    }

    void configIsReadWithErrorsNamed()
    {
        const HookConfig config = hookRunnerConfig(
            "{\"hooks\": {\n"
            "            \"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": "
            "\"command\", \"command\": \"a.sh\", \"timeout\": 5},\n"
            "                                                          {\"type\": \"command\", "
            "\"command\": 7},\n"
            "                                                          {\"type\": \"prompt\", "
            "\"prompt\": \"x\"}]}],\n"
            "            \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": "
            "\"b.sh\"}]}],\n"
            "            \"SubagentStop\": [{\"hooks\": [{\"type\": \"command\", \"command\": "
            "\"c.sh\"}]}],\n"
            "            \"Bogus\": [],\n"
            "            \"PostToolUse\": [{\"matcher\": \"(\", \"hooks\": []}, {\"matcher\": "
            "\"Write\", \"hooks\": [{\"command\": \"d.sh\", \"timeout\": \"x\"}]}]\n"
            "        }}");
        QCOMPARE(config.hooks.size(), 3);
        QCOMPARE(config.hooks.at(0).command, QStringLiteral("a.sh"));
        QCOMPARE(config.hooks.at(0).timeoutSeconds, 5);
        QCOMPARE(config.hooks.at(1).event, HookEventName::Stop);
        QCOMPARE(config.hooks.at(1).timeoutSeconds, 60);
        const QString errors = config.errors.join(u'\n');
        QVERIFY2(errors.contains(QStringLiteral("s.json: hooks.PreToolUse[0].hooks[1].command")),
                 qPrintable(errors));
        QVERIFY2(errors.contains(QStringLiteral("hooks.PreToolUse[0].hooks[2].type")),
                 qPrintable(errors));
        QVERIFY2(errors.contains(QStringLiteral("hooks.Bogus: not an event")), qPrintable(errors));
        QVERIFY2(errors.contains(QStringLiteral("hooks.PostToolUse[0].matcher")),
                 qPrintable(errors));
        QVERIFY2(errors.contains(QStringLiteral("hooks.PostToolUse[1].hooks[0].timeout")),
                 qPrintable(errors));
        QVERIFY2(!errors.contains(QStringLiteral("SubagentStop")), qPrintable(errors));
        QCOMPARE(config.errors.size(), 5);
        QCOMPARE(config.matching(HookEventName::PreToolUse, QStringLiteral("Bash")).size(), 1);
        QCOMPARE(config.matching(HookEventName::PreToolUse, QStringLiteral("Read")).size(), 0);
        QCOMPARE(config.matching(HookEventName::Stop).size(), 1);
        QCOMPARE(config.matching(HookEventName::SubagentStop).size(), 1);
    }

    void configIsCapped()
    {
        QJsonArray many;
        for (int i = 0; i < HookConfig::maxHooks + 10; ++i)
            many.append(QJsonObject{{QStringLiteral("command"), QStringLiteral("true")}});
        QJsonObject settings{
            {QStringLiteral("hooks"),
             QJsonObject{{QStringLiteral("Stop"),
                          QJsonArray{QJsonObject{{QStringLiteral("hooks"), many}}}}}}};
        HookConfig config;
        config.addFrom(settings, QStringLiteral("big.json"), QStringLiteral("test"), true);
        QCOMPARE(config.hooks.size(), HookConfig::maxHooks);
        QCOMPARE(config.errors.size(), 1);

        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("huge.json")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(HookConfig::maxFileBytes + 1, ' '));
        file.close();
        HookConfig huge;
        huge.addFile(file.fileName(), QStringLiteral("test"), true);
        QVERIFY(huge.hooks.isEmpty());
        QVERIFY2(huge.errors.value(0).contains(QStringLiteral("huge.json: larger than")),
                 qPrintable(huge.errors.value(0)));
    }

    void untrustedProjectHooksAreHeldBack()
    {
        HookConfig config;
        config.addFrom(QJsonDocument::fromJson(
                           "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"command\": \"touch x\"}]}]}}")
                           .object(),
                       QStringLiteral(".claude/settings.json"),
                       QStringLiteral("project"),
                       true);
        HookRunner runner(config, {}, [](const QString &) { return false; });
        QVERIFY(!runner.has(HookEventName::Stop));
        QCOMPARE(runner.untrustedGrants(), QStringList{QStringLiteral("hook: Stop: touch x")});
        runner.trust(runner.untrustedGrants());
        QVERIFY(runner.has(HookEventName::Stop));
    }

    void eventGoesOnStdinAndExitCodesDecide()
    {
        QTemporaryDir dir;
        HookConfig config;
        const QString script = QStringLiteral(
            "cat > \"$CLAUDE_PROJECT_DIR/event.json\"; echo 'not yours' >&2; exit 2");
        config.addFrom(
            QJsonObject{
                {QStringLiteral("hooks"),
                 QJsonObject{
                     {QStringLiteral("PreToolUse"),
                      QJsonArray{QJsonObject{{QStringLiteral("matcher"), QStringLiteral("Bash")},
                                             {QStringLiteral("hooks"),
                                              QJsonArray{QJsonObject{
                                                  {QStringLiteral("command"), script}}}}}}}}}},
            QStringLiteral("s.json"),
            QStringLiteral("user"),
            false);
        HookRunner::Session session{QStringLiteral("session-1"),
                                    QStringLiteral("/t/s.jsonl"),
                                    dir.path(),
                                    {}};
        QList<HookRun> told;
        HookRunner runner(
            config,
            session,
            [](const QString &) { return true; },
            [&told](const HookRun &run) { told.append(run); });
        const HookOutcome outcome
            = runner.run(HookEventName::PreToolUse,
                         QStringLiteral("Bash"),
                         {{QStringLiteral("tool_name"), QStringLiteral("Bash")},
                          {QStringLiteral("tool_input"),
                           QJsonObject{{QStringLiteral("command"), QStringLiteral("ls")}}}},
                         {},
                         QStringLiteral("call_1"));
        QVERIFY(outcome.blocked);
        QCOMPARE(outcome.blockReason, QStringLiteral("not yours"));
        QCOMPARE(outcome.permissionDecision, QStringLiteral("deny"));
        QCOMPARE(told.size(), 1);
        QCOMPARE(told.at(0).toolCallId, QStringLiteral("call_1"));
        QFile event(dir.filePath(QStringLiteral("event.json")));
        QVERIFY(event.open(QIODevice::ReadOnly));
        const QJsonObject input = QJsonDocument::fromJson(event.readAll()).object();
        QCOMPARE(input.value(QLatin1String("session_id")).toString(), QStringLiteral("session-1"));
        QCOMPARE(input.value(QLatin1String("transcript_path")).toString(),
                 QStringLiteral("/t/s.jsonl"));
        QCOMPARE(input.value(QLatin1String("cwd")).toString(), dir.path());
        QCOMPARE(input.value(QLatin1String("hook_event_name")).toString(),
                 QStringLiteral("PreToolUse"));
        QCOMPARE(input.value(QLatin1String("tool_input")).toObject().value(QLatin1String("command")),
                 QJsonValue(QStringLiteral("ls")));
        // Not a tool this hook matches: nothing runs.
        QVERIFY(runner.run(HookEventName::PreToolUse, QStringLiteral("Read"), {}).runs.isEmpty());
    }

    void otherExitCodesAreShownNotBlocking()
    {
        const HookRun run = HookRunner::runOne(hookRunnerEntry(
                                                   QStringLiteral("echo oops >&2; exit 3")),
                                               "{}",
                                               QDir::tempPath(),
                                               {});
        QCOMPARE(run.exitCode, 3);
        QVERIFY(!run.blocks());
        QVERIFY(run.failed());
        QCOMPARE(run.err, QByteArray("oops\n"));
    }

    void jsonOutputIsParsed()
    {
        const HookRun run = HookRunner::runOne(hookRunnerEntry(QStringLiteral(
                                                   "echo '{\"continue\": false, \"stopReason\": "
                                                   "\"enough\", \"suppressOutput\": true}'")),
                                               "{}",
                                               QDir::tempPath(),
                                               {});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.json);
        QCOMPARE(run.json->value(QLatin1String("stopReason")).toString(), QStringLiteral("enough"));
    }

    void hangingHookStopsAtItsTimeout()
    {
        QTemporaryDir dir;
        const QString marker = dir.filePath(QStringLiteral("child-survived"));
        QElapsedTimer clock;
        clock.start();
        // The child of the shell goes with it: the whole group is killed.
        const HookRun run = HookRunner::runOne(
            hookRunnerEntry(QStringLiteral("(sleep 3; touch '%1') & sleep 60").arg(marker), 1),
            "{}",
            dir.path(),
            {});
        QVERIFY(run.timedOut);
        QVERIFY(!run.blocks());
        QVERIFY2(clock.elapsed() < 10'000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(run.outcomeText(), QStringLiteral("timed out after 1 s"));
        QTest::qWait(3500);
        QVERIFY(!QFile::exists(marker));
    }

    void floodingHookIsCapped()
    {
        QElapsedTimer clock;
        clock.start();
        const HookRun run = HookRunner::runOne(hookRunnerEntry(QStringLiteral("yes flood"), 30),
                                               "{}",
                                               QDir::tempPath(),
                                               {});
        QVERIFY(run.flooded);
        QVERIFY(run.outputCapped);
        QCOMPARE(run.out.size(), HookRun::maxKeptBytes);
        QVERIFY2(clock.elapsed() < 20'000, qPrintable(QString::number(clock.elapsed())));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HookRunner)

} // namespace tst_hookrunner

#include "tst_hookrunner.moc"
