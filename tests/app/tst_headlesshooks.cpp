// Hooks end to end (docs/extending.md, "Hooks"): Claude Code-style hooks in a repository's
// .claude/settings.json, real scripts (sh, python3) run by the real agentdesk --print against a
// scripted provider: a git push blocker, a formatter after Write, a prompt-context hook, a Stop
// hook that makes the agent go on once, untrusted project hooks that never run, and a hook's
// allow that cannot widen what the policy denies.

#include "headlessrun.h"
#include "httptestserver.h"
#include "modelreplies.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <testmain.h>

using namespace TestSupport;

namespace tst_headlesshooks {

namespace {

// {"hooks": {event: [{"matcher": matcher, "hooks": [{"type": "command", "command": command}]}]}}
QByteArray hookSettings(const QList<std::tuple<QString, QString, QString>> &hooks,
                        const QJsonObject &more = {})
{
    QJsonObject events;
    for (const auto &[event, matcher, command] : hooks) {
        QJsonObject group{
            {QStringLiteral("hooks"),
             QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("command")},
                                    {QStringLiteral("command"), command}}}}};
        if (!matcher.isEmpty())
            group.insert(QStringLiteral("matcher"), matcher);
        QJsonArray list = events.value(event).toArray();
        list.append(group);
        events.insert(event, list);
    }
    QJsonObject settings = more;
    settings.insert(QStringLiteral("hooks"), events);
    return QJsonDocument(settings).toJson();
}

QList<QJsonObject> hookLines(const HeadlessRun &run)
{
    QList<QJsonObject> lines;
    for (const QJsonObject &line : run.jsonLines()) {
        if (line.value(QLatin1String("type")).toString() == u"hook")
            lines.append(line);
    }
    return lines;
}

// HeadlessSandbox::write, making the folders first.
bool writeHookFile(const HeadlessSandbox &sandbox,
                   const QString &relative,
                   const QByteArray &content)
{
    QDir(sandbox.root()).mkpath(QFileInfo(relative).path());
    return sandbox.write(relative, content);
}

const QStringList streamJson{QStringLiteral("--output-format"), QStringLiteral("stream-json")};

} // namespace

class tst_HeadlessHooks : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
    }

    // PreToolUse on Bash, exit 2: the command never runs and the model gets the hook's stderr.
    void gitPushBlockerDeniesTheCall()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        QVERIFY(
            writeHookFile(sandbox,
                          QStringLiteral(".claude/hooks/no-push.py"),
                          "import json, sys\n"
                          "event = json.load(sys.stdin)\n"
                          "if 'git push' in event['tool_input'].get('command', ''):\n"
                          "    print('pushing is not allowed from the agent', file=sys.stderr)\n"
                          "    sys.exit(2)\n"));
        QVERIFY(
            writeHookFile(sandbox,
                          QStringLiteral(".claude/settings.json"),
                          hookSettings({{QStringLiteral("PreToolUse"),
                                         QStringLiteral("Bash"),
                                         QStringLiteral("python3 \"$CLAUDE_PROJECT_DIR\"/.claude/"
                                                        "hooks/no-push.py")}})));
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api,
                                     {},
                                     {headlessBashCall(QStringLiteral(
                                         "touch pushed.txt && git push origin main"))}));
        server.enqueue(scriptedReply(api, QStringLiteral("Not pushed.")));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        headlessBypass({QStringLiteral("--trust-project-settings")}) + streamJson);
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QVERIFY2(!QFileInfo::exists(sandbox.root() + QStringLiteral("/pushed.txt")),
                 qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 2);
        QVERIFY2(server.requests().at(1).body.contains("pushing is not allowed from the agent"),
                 server.requests().at(1).body.constData());
        const QList<QJsonObject> hooks = hookLines(run);
        QCOMPARE(hooks.size(), 1);
        QCOMPARE(hooks.at(0).value(QLatin1String("event")).toString(), QStringLiteral("PreToolUse"));
        QCOMPARE(hooks.at(0).value(QLatin1String("exitCode")).toInt(), 2);
        QVERIFY(hooks.at(0).value(QLatin1String("blocked")).toBool());
        QCOMPARE(hooks.at(0).value(QLatin1String("toolCallId")).toString(),
                 QStringLiteral("call_bash"));
    }

    // PostToolUse on Write: the formatter rewrites the file the agent wrote.
    void formatterEditsAfterWrite()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        QVERIFY(writeHookFile(sandbox,
                              QStringLiteral(".claude/hooks/format.py"),
                              "import json, sys\n"
                              "event = json.load(sys.stdin)\n"
                              "path = event['tool_input']['file_path']\n"
                              "text = open(path).read()\n"
                              "open(path, 'w').write(text.upper())\n"));
        QVERIFY(writeHookFile(sandbox,
                              QStringLiteral(".claude/settings.json"),
                              hookSettings({{QStringLiteral("PostToolUse"),
                                             QStringLiteral("Write|Edit"),
                                             QStringLiteral("python3 .claude/hooks/format.py")}})));
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api,
                                     {},
                                     {{QStringLiteral("call_write"),
                                       QStringLiteral("Write"),
                                       {{QStringLiteral("file_path"), QStringLiteral("made.txt")},
                                        {QStringLiteral("content"),
                                         QStringLiteral("formatted by the hook\n")}}}}));
        server.enqueue(scriptedReply(api, QStringLiteral("Written.")));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        headlessBypass({QStringLiteral("--trust-project-settings")}) + streamJson);
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(sandbox.read(QStringLiteral("made.txt")), QByteArray("FORMATTED BY THE HOOK\n"));
        const QList<QJsonObject> hooks = hookLines(run);
        QCOMPARE(hooks.size(), 1);
        QCOMPARE(hooks.at(0).value(QLatin1String("event")).toString(),
                 QStringLiteral("PostToolUse"));
        QCOMPARE(hooks.at(0).value(QLatin1String("outcome")).toString(), QStringLiteral("ok"));
    }

    // UserPromptSubmit: the hook's additionalContext reaches the request; it saw the prompt.
    void promptContextReachesTheRequest()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        QVERIFY(writeHookFile(sandbox,
                              QStringLiteral(".claude/hooks/ticket.py"),
                              "import json, sys\n"
                              "event = json.load(sys.stdin)\n"
                              "assert event['hook_event_name'] == 'UserPromptSubmit'\n"
                              "print(json.dumps({'hookSpecificOutput': {'hookEventName': "
                              "'UserPromptSubmit', 'additionalContext': 'Ticket TICKET-4242 for: ' "
                              "+ event['prompt']}}))\n"));
        QVERIFY(writeHookFile(sandbox,
                              QStringLiteral(".claude/settings.json"),
                              hookSettings({{QStringLiteral("UserPromptSubmit"),
                                             {},
                                             QStringLiteral("python3 .claude/hooks/ticket.py")}})));
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api, QStringLiteral("Noted.")));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        QStringList{QStringLiteral("--trust-project-settings")} + streamJson,
                        QStringLiteral("Fix the login page."));
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 1);
        QVERIFY2(server.requests().at(0).body.contains(
                     "Ticket TICKET-4242 for: Fix the login page."),
                 server.requests().at(0).body.constData());
    }

    // UserPromptSubmit, exit 2: the prompt is refused, nothing reaches the model.
    void promptHookRefusesThePrompt()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        QVERIFY(writeHookFile(sandbox,
                              QStringLiteral(".claude/settings.json"),
                              hookSettings({{QStringLiteral("UserPromptSubmit"),
                                             {},
                                             QStringLiteral("echo 'no secrets in prompts' >&2; "
                                                            "exit 2")}})));
        HttpTestServer server;
        HeadlessRun run(sandbox,
                        server,
                        ReplyApi::OpenAiChat,
                        {QStringLiteral("--trust-project-settings")});
        run.start();
        QVERIFY(run.finish());
        QCOMPARE(run.exitCode(), 1);
        QVERIFY2(run.err.contains(QStringLiteral("no secrets in prompts")),
                 qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 0);
    }

    // Stop: the first time the agent would stop, the hook blocks with a reason and the agent
    // goes on with it; the second time stop_hook_active is true and the hook lets it stop.
    void stopHookMakesTheAgentContinueOnce()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        QVERIFY(writeHookFile(sandbox,
                              QStringLiteral(".claude/hooks/stop.py"),
                              "import json, sys\n"
                              "event = json.load(sys.stdin)\n"
                              "if not event['stop_hook_active']:\n"
                              "    print('run the unit tests before stopping', file=sys.stderr)\n"
                              "    sys.exit(2)\n"));
        QVERIFY(writeHookFile(sandbox,
                              QStringLiteral(".claude/settings.json"),
                              hookSettings({{QStringLiteral("Stop"),
                                             {},
                                             QStringLiteral("python3 .claude/hooks/stop.py")}})));
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api, QStringLiteral("Done.")));
        server.enqueue(scriptedReply(api, QStringLiteral("Tests pass, done.")));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        QStringList{QStringLiteral("--trust-project-settings")} + streamJson);
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 2);
        QVERIFY2(server.requests().at(1).body.contains("run the unit tests before stopping"),
                 server.requests().at(1).body.constData());
        QCOMPARE(hookLines(run).size(), 2);
    }

    // A repository's hooks are code execution: without the user's trust they never run, and
    // the run says which were ignored.
    void untrustedProjectHooksNeverRun()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        const QString marker = sandbox.home() + QStringLiteral("/hook-ran");
        const QString touch = QStringLiteral("touch '%1'").arg(marker);
        QVERIFY(writeHookFile(sandbox,
                              QStringLiteral(".claude/settings.json"),
                              hookSettings({{QStringLiteral("UserPromptSubmit"), {}, touch},
                                            {QStringLiteral("PreToolUse"), {}, touch},
                                            {QStringLiteral("Stop"), {}, touch}})));
        QVERIFY(writeHookFile(sandbox,
                              QStringLiteral(".agentdesk/settings.json"),
                              hookSettings({{QStringLiteral("SessionStart"), {}, touch}})));
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api, {}, {headlessReadCall()}));
        server.enqueue(scriptedReply(api, QStringLiteral("Read it.")));
        HeadlessRun run(sandbox, server, api, streamJson);
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QVERIFY2(!QFileInfo::exists(marker), qPrintable(run.report()));
        QVERIFY2(run.err.contains(QStringLiteral("hook: PreToolUse: touch")),
                 qPrintable(run.report()));
        QCOMPARE(hookLines(run).size(), 0);
    }

    // The policy denies rm; a PreToolUse hook allowing every call does not widen that.
    void hookAllowDoesNotWidenPolicyDeny()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        QVERIFY(writeHookFile(sandbox, QStringLiteral("keep.txt"), "keep\n"));
        QJsonObject permissions{{QStringLiteral("deny"), QJsonArray{QStringLiteral("Bash(rm:*)")}}};
        QVERIFY(
            writeHookFile(sandbox,
                          QStringLiteral(".claude/settings.json"),
                          hookSettings({{QStringLiteral("PreToolUse"),
                                         QStringLiteral("*"),
                                         QStringLiteral(
                                             "echo '{\"hookSpecificOutput\": {\"hookEventName\": "
                                             "\"PreToolUse\", \"permissionDecision\": \"allow\", "
                                             "\"permissionDecisionReason\": \"all fine\"}}'")}})));
        QVERIFY(
            writeHookFile(sandbox,
                          QStringLiteral(".agentdesk/settings.json"),
                          QJsonDocument(QJsonObject{{QStringLiteral("permissions"), permissions}})
                              .toJson()));
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api, {}, {headlessBashCall(QStringLiteral("rm keep.txt"))}));
        server.enqueue(scriptedReply(api, QStringLiteral("Could not.")));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        headlessBypass({QStringLiteral("--trust-project-settings")}) + streamJson);
        run.start();
        QVERIFY(run.finish());
        QCOMPARE(sandbox.read(QStringLiteral("keep.txt")), QByteArray("keep\n"));
        QCOMPARE(hookLines(run).size(), 1);
        QCOMPARE(hookLines(run).at(0).value(QLatin1String("outcome")).toString(),
                 QStringLiteral("ok"));
    }

    // The provider refuses the request as too long: AgentDesk compacts on its own and the
    // PreCompact hook reads trigger "auto" (it is not waited for: the run goes on).
    void preCompactHookSeesAnAutomaticCompaction()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        QVERIFY(writeHookFile(sandbox,
                              QStringLiteral(".claude/settings.json"),
                              hookSettings({{QStringLiteral("PreCompact"),
                                             QStringLiteral("auto"),
                                             QStringLiteral("cat > \"$CLAUDE_PROJECT_DIR\"/"
                                                            "precompact.json")}})));
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api, QStringLiteral("Reading."), {headlessReadCall()}));
        // OpenAI's overflow error (a raw string literal here would confuse moc).
        server.enqueue(ScriptedResponse::error(
            400,
            "{\"error\":{\"message\":\"This model's maximum context length is 128000 tokens. "
            "However, your messages resulted in 130211 tokens.\",\"type\":"
            "\"invalid_request_error\",\"param\":\"messages\",\"code\":"
            "\"context_length_exceeded\"}}"));
        server.enqueue(scriptedReply(api, QStringLiteral("The user asked to fix the notes.")));
        server.enqueue(scriptedReply(api, QStringLiteral("The notes are fine.")));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        QStringList{QStringLiteral("--trust-project-settings")} + streamJson,
                        QStringLiteral("Fix the notes. ")
                            + QStringLiteral("They list every release with its date; ").repeated(60));
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 4);
        QFile seen(sandbox.root() + QStringLiteral("/precompact.json"));
        QVERIFY2(seen.open(QIODevice::ReadOnly), qPrintable(run.report()));
        const QJsonObject input = QJsonDocument::fromJson(seen.readAll()).object();
        QCOMPARE(input.value(QLatin1String("hook_event_name")).toString(),
                 QStringLiteral("PreCompact"));
        QCOMPARE(input.value(QLatin1String("trigger")).toString(), QStringLiteral("auto"));
        QCOMPARE(input.value(QLatin1String("custom_instructions")).toString(), QString());
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessHooks)

} // namespace tst_headlesshooks
#include "tst_headlesshooks.moc"
