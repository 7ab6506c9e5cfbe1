// agentdesk --print end to end: the built binary against a scripted provider on 127.0.0.1 speaking
// the real Chat Completions, Responses and Anthropic wire formats: edits, prompts, stream-json,
// exit codes, bad arguments and interrupts. The harness is tests/support/headlessrun.h.

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

namespace tst_headless {

class tst_Headless : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
    }

    void readThenEdit_data()
    {
        QTest::addColumn<ReplyApi>("api");
        QTest::addColumn<QString>("mode");
        QTest::addColumn<bool>("changed");
        QTest::newRow("openai acceptEdits") << ReplyApi::OpenAiChat << "acceptEdits" << true;
        QTest::newRow("anthropic acceptEdits")
            << ReplyApi::AnthropicMessages << "acceptEdits" << true;
        QTest::newRow("openai default") << ReplyApi::OpenAiChat << "default" << false;
        QTest::newRow("anthropic default") << ReplyApi::AnthropicMessages << "default" << false;
    }

    void readThenEdit()
    {
        QFETCH(ReplyApi, api);
        QFETCH(QString, mode);
        QFETCH(bool, changed);
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        QVERIFY(server.isListening());
        server.enqueue(scriptedReply(api, QStringLiteral("Reading."), {headlessReadCall()}));
        server.enqueue(scriptedReply(api, {}, {headlessEditCall()}));
        server.enqueue(scriptedReply(api, QStringLiteral("Done, it says banana now.")));

        HeadlessRun run(sandbox, server, api, {QStringLiteral("--permission-mode"), mode});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));

        QCOMPARE(run.out, QByteArray("Done, it says banana now.\n"));
        QCOMPARE(sandbox.read(QStringLiteral("notes.txt")),
                 changed ? QByteArray("banana pie\n") : QByteArray("apple pie\n"));
        QCOMPARE(server.requests().size(), 3);
        for (const RecordedRequest &request : server.requests()) {
            QCOMPARE(request.path, replyPath(api));
            QCOMPARE(api == ReplyApi::OpenAiChat ? request.header("authorization")
                                                 : request.header("x-api-key"),
                     api == ReplyApi::OpenAiChat ? "Bearer " + HeadlessApiKey.toUtf8()
                                                 : HeadlessApiKey.toUtf8());
        }
        // The model saw the file, then the outcome of its Edit.
        QVERIFY(server.requests().at(1).body.contains("apple pie"));
        const QByteArray afterEdit = server.requests().at(2).body;
        QCOMPARE(afterEdit.contains("Permission denied"), !changed);
        // Tool activity goes to stderr, briefly.
        QVERIFY2(run.err.contains(QStringLiteral("> Read notes.txt")), qPrintable(run.report()));
        QVERIFY2(run.err.contains(QStringLiteral("> Edit notes.txt")), qPrintable(run.report()));
        if (!changed) {
            QVERIFY2(run.err.contains(QStringLiteral("Denied this Edit of notes.txt")),
                     qPrintable(run.report()));
        }
    }

    void systemPromptCarriesAgentsMd_data()
    {
        QTest::addColumn<ReplyApi>("api");
        QTest::newRow("openai") << ReplyApi::OpenAiChat;
        QTest::newRow("anthropic") << ReplyApi::AnthropicMessages;
    }

    void systemPromptCarriesAgentsMd()
    {
        QFETCH(ReplyApi, api);
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        server.enqueue(scriptedReply(api, QStringLiteral("Three words here.")));

        HeadlessRun run(sandbox, server, api, {});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 1);
        const QByteArray body = server.requests().first().body;
        QVERIFY(body.contains(HeadlessAgentsRule));
        QVERIFY(body.contains(QByteArray(sandbox.root().toUtf8() + "/AGENTS.md")));
        QVERIFY(body.contains("You are AgentDesk"));
    }

    // --tools offers the model only the named tools, and the system prompt names no other.
    void toolsLimitWhatTheModelIsOffered()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        const ReplyApi api = ReplyApi::AnthropicMessages;
        server.enqueue(scriptedReply(api, QStringLiteral("Done.")));

        HeadlessRun run(sandbox,
                        server,
                        api,
                        {QStringLiteral("--tools"), QStringLiteral("Read,bash")});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 1);
        const QJsonObject body = QJsonDocument::fromJson(server.requests().first().body).object();
        QStringList names;
        for (const QJsonValue &tool : body.value(u"tools").toArray())
            names.append(tool.toObject().value(u"name").toString());
        // What reads and stops Bash's background commands comes with the first of them.
        QCOMPARE(names, (QStringList{QStringLiteral("Read"), QStringLiteral("Bash")}));
        const QString system = QString::fromUtf8(
            QJsonDocument(body.value(u"system").toArray()).toJson());
        QVERIFY(system.contains(QStringLiteral("Use Bash for builds")));
        QVERIFY2(!system.contains(QStringLiteral("Grep")), qPrintable(system));
    }

    void promptFromStandardInput()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api, QStringLiteral("Read it.")));
        const QString input = sandbox.home() + QStringLiteral("/prompt.txt");
        {
            QFile file(input);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("Summarise notes.txt (piped 5521).\n");
        }

        HeadlessRun run(sandbox, server, api, {}, QStringLiteral("-"));
        run.stdinFile = input;
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 1);
        QVERIFY(server.requests().first().body.contains("Summarise notes.txt (piped 5521)."));
    }

    void streamJson()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api, QStringLiteral("Reading."), {headlessReadCall()}));
        server.enqueue(scriptedReply(api, QStringLiteral("It says apple pie.")));

        HeadlessRun run(sandbox,
                        server,
                        api,
                        {QStringLiteral("--output-format"), QStringLiteral("stream-json")});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));

        const QList<QJsonObject> lines = run.jsonLines();
        QVERIFY2(!lines.isEmpty(), qPrintable(run.report()));
        QStringList types;
        for (const QJsonObject &line : lines)
            types.append(line.value(u"type").toString());
        QCOMPARE(types.first(), QStringLiteral("agent_start"));
        QCOMPARE(types.last(), QStringLiteral("agent_end"));
        QCOMPARE(types.count(QStringLiteral("agent_end")), 1);
        QCOMPARE(types.count(QStringLiteral("turn_start")), 2);
        QCOMPARE(types.count(QStringLiteral("tool_execution_start")), 1);
        QCOMPARE(types.count(QStringLiteral("tool_execution_end")), 1);
        QVERIFY(types.count(QStringLiteral("message_update")) >= 2);

        const QJsonObject start = lines.first();
        QCOMPARE(start.value(u"model").toString(), QStringLiteral("test-model"));
        QCOMPARE(start.value(u"permissionMode").toString(), QStringLiteral("default"));
        QCOMPARE(start.value(u"repository").toString(), sandbox.root());

        for (const QJsonObject &line : lines) {
            if (line.value(u"type").toString() == QLatin1String("message_update")) {
                QVERIFY(!line.value(u"event").toObject().value(u"type").toString().isEmpty());
                QVERIFY(!line.contains(u"message")); // compact: the delta only
            }
            if (line.value(u"type").toString() == QLatin1String("tool_execution_end")) {
                QCOMPARE(line.value(u"toolName").toString(), QStringLiteral("Read"));
                QCOMPARE(line.value(u"isError").toBool(), false);
            }
        }

        const QJsonObject end = lines.last();
        QCOMPARE(end.value(u"exitCode").toInt(-1), 0);
        const QJsonArray messages = end.value(u"newMessages").toArray();
        QStringList roles;
        for (const QJsonValue &message : messages)
            roles.append(message[QLatin1String("role")].toString());
        QCOMPARE(roles, (QStringList{"user", "assistant", "toolResult", "assistant"}));
        const QJsonObject answer = messages.last().toObject();
        for (const char *key : {"content", "stopReason", "providerStopReason", "usage"})
            QVERIFY2(answer.contains(QLatin1String(key)), key);
        QCOMPARE(answer.value(u"stopReason").toString(), QStringLiteral("stop"));
        QCOMPARE(answer.value(u"content").toArray().first().toObject().value(u"text").toString(),
                 QStringLiteral("It says apple pie."));
        const QJsonObject toolCall
            = messages.at(1).toObject().value(u"content").toArray().last().toObject();
        QCOMPARE(toolCall.value(u"type").toString(), QStringLiteral("toolCall"));
        QCOMPARE(toolCall.value(u"name").toString(), QStringLiteral("Read"));

        // The audit log named at the start recorded the call with its permission decision.
        QFile audit(start.value(u"auditLog").toString());
        QVERIFY2(audit.open(QIODevice::ReadOnly), qPrintable(audit.fileName()));
        const QList<QByteArray> auditLines = audit.readAll().trimmed().split('\n');
        QCOMPARE(auditLines.size(), 1);
        const QJsonObject entry = QJsonDocument::fromJson(auditLines.first()).object();
        QCOMPARE(entry.value(u"tool").toString(), QStringLiteral("Read"));
        QCOMPARE(entry.value(u"toolCallId").toString(), QStringLiteral("call_read"));
        QVERIFY2(entry.value(u"decision").toString().startsWith(QLatin1String("allow")),
                 auditLines.first().constData());
    }

    void exitCodes_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("reply"); // "text", "tool", "401", "" (no request expected)
        QTest::addColumn<bool>("withKey");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("errorText");

        QTest::newRow("natural end") << QStringList{} << "text" << true << 0 << QString();
        QTest::newRow("provider error")
            << QStringList{} << "401" << true << 1 << "the run failed: ";
        QTest::newRow("max turns") << QStringList{"--max-turns", "1"} << "tool" << true << 3
                                   << "stopped after 1 turn(s): the limit set with --max-turns.";
        QTest::newRow("bad option") << QStringList{"--permission-mode", "yolo"} << "" << true << 2
                                    << "Unknown permission mode \"yolo\"";
        QTest::newRow("missing repository") << QStringList{"--repo", "/nonexistent/agentdesk-repo"}
                                            << "" << true << 2 << "/nonexistent/agentdesk-repo";
        QTest::newRow("missing key for a remote server")
            << QStringList{"--base-url", "https://llm.example.invalid/v1"} << "" << false << 2
            << "No API key: OPENAI_API_KEY is not set.";
    }

    void exitCodes()
    {
        QFETCH(QStringList, extra);
        QFETCH(QString, reply);
        QFETCH(bool, withKey);
        QFETCH(int, exitCode);
        QFETCH(QString, errorText);
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        if (reply == QLatin1String("text"))
            server.enqueue(scriptedReply(api, QStringLiteral("Nothing to do.")));
        else if (reply == QLatin1String("tool"))
            server.enqueue(scriptedReply(api, {}, {headlessReadCall()}));
        else if (reply == QLatin1String("401"))
            server.enqueue(
                ScriptedResponse::error(401,
                                        "{\"error\":{\"message\":\"Incorrect API key "
                                        "provided\",\"type\":\"invalid_request_error\"}}"));

        HeadlessRun run(sandbox, server, api, extra);
        if (!withKey)
            run.environment.remove(QStringLiteral("OPENAI_API_KEY"));
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == exitCode, qPrintable(run.report()));
        if (!errorText.isEmpty())
            QVERIFY2(run.err.contains(errorText), qPrintable(run.report()));
        QCOMPARE(server.requests().size(), reply.isEmpty() ? 0 : 1);
        QCOMPARE(server.pendingResponses(), 0);
    }

    // Issue #14: 60,000 levels of nesting in a tool call's arguments took the process down
    // with SIGSEGV, and broken JSON came back to the model as a missing field. Either is now an
    // isError result the model reads, and the run goes on to a normal end.
    void unreadableToolArguments_data()
    {
        QTest::addColumn<ReplyApi>("api");
        QTest::addColumn<QByteArray>("arguments");
        QTest::addColumn<QByteArray>("result");
        const QByteArray deep = R"({"file_path":"notes.txt","x":)" + QByteArray(60'000, '[');
        const QByteArray deepResult = "The arguments of this Read call nest deeper than 512 levels";
        const QByteArray unquoted = R"({"file_path": notes.txt})";
        // Byte 15: "no" could still have been the start of null.
        const QByteArray unquotedResult
            = "The arguments of this Read call are not valid JSON: it goes wrong at byte 15";
        for (const auto &[name, api] : {std::pair{"openai", ReplyApi::OpenAiChat},
                                        std::pair{"anthropic", ReplyApi::AnthropicMessages},
                                        std::pair{"openai-responses", ReplyApi::OpenAiResponses}}) {
            QTest::addRow("%s: 60,000 levels", name) << api << deep << deepResult;
            QTest::addRow("%s: unquoted string", name) << api << unquoted << unquotedResult;
        }
    }

    void unreadableToolArguments()
    {
        QFETCH(ReplyApi, api);
        QFETCH(QByteArray, arguments);
        QFETCH(QByteArray, result);
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        QVERIFY(server.isListening());
        ReplyToolCall call = headlessReadCall();
        call.rawArguments = arguments;
        server.enqueue(scriptedReply(api, QStringLiteral("Reading."), {call}));
        server.enqueue(scriptedReply(api, QStringLiteral("Sorry, my arguments were broken.")));

        HeadlessRun run(sandbox, server, api, {});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(run.out, QByteArray("Sorry, my arguments were broken.\n"));
        QCOMPARE(server.requests().size(), 2);
        // The model read why its call was not run, and nothing of the file.
        const QByteArray next = server.requests().at(1).body;
        QVERIFY2(next.contains(result), next.left(4000).constData());
        QVERIFY(!next.contains("apple pie"));
        QVERIFY(!next.contains("is required"));
    }

    void sigintDuringStalledStream_data()
    {
        QTest::addColumn<ReplyApi>("api");
        QTest::newRow("openai") << ReplyApi::OpenAiChat;
        QTest::newRow("anthropic") << ReplyApi::AnthropicMessages;
    }

    void sigintDuringStalledStream()
    {
        QFETCH(ReplyApi, api);
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        server.enqueue(stalledReply(api));
        QSignalSpy stalled(&server, &HttpTestServer::responseFinished);

        HeadlessRun run(sandbox,
                        server,
                        api,
                        {QStringLiteral("--output-format"), QStringLiteral("stream-json")});
        run.start();
        // The provider sent the start of its answer and hangs.
        QVERIFY(stalled.wait(HeadlessTimeoutMs));
        QElapsedTimer timer;
        timer.start();
        QCOMPARE(::kill(pid_t(run.process.processId()), SIGINT), 0);
        QVERIFY2(run.finish(10'000), "agentdesk did not end after SIGINT");
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));

        QVERIFY2(run.exitCode() == 130, qPrintable(run.report()));
        QVERIFY2(run.err.contains(QStringLiteral("interrupted")), qPrintable(run.report()));
        const QList<QJsonObject> lines = run.jsonLines();
        QVERIFY2(!lines.isEmpty(), qPrintable(run.report()));
        QCOMPARE(lines.last().value(u"type").toString(), QStringLiteral("agent_end"));
        QCOMPARE(lines.last().value(u"exitCode").toInt(), 130);
        const QJsonArray messages = lines.last().value(u"newMessages").toArray();
        QVERIFY(!messages.isEmpty());
        QCOMPARE(messages.last()[QLatin1String("stopReason")].toString(), QStringLiteral("aborted"));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_Headless)

} // namespace tst_headless

#include "tst_headless.moc"
