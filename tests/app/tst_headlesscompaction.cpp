// agentdesk --print when the conversation outgrows the model's window: the provider's
// overflow error compacts the conversation (a summary request to the same model) and the turn
// is sent again, and stream-json says so with compaction_start / compaction_end
// (docs/stream-json.md). The harness is tests/support/headlessrun.h.

#include "headlessrun.h"
#include "httptestserver.h"
#include "modelreplies.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <testmain.h>

using namespace TestSupport;

namespace tst_headlesscompaction {

namespace {

// OpenAI's own wording (a raw string literal here would confuse moc).
const QByteArray overflowBody
    = "{\"error\":{\"message\":\"This model's maximum context length is 128000 tokens. However, "
      "your messages resulted in 130211 tokens. Please reduce the length of the messages.\","
      "\"type\":\"invalid_request_error\",\"param\":\"messages\",\"code\":"
      "\"context_length_exceeded\"}}";

const QString summary = QStringLiteral("The user asked to fix the notes; notes.txt was read.");
// Long enough that its summary makes the request smaller (a summary that does not is refused).
const QString prompt = QStringLiteral("Fix the notes. ")
                       + QStringLiteral("They list every release with its date and changes; ")
                             .repeated(60);

// A Read, a request the provider refuses as too long, the summary request, the turn again.
void enqueueOverflowAndRecovery(HttpTestServer &server, ReplyApi api)
{
    server.enqueue(scriptedReply(api, QStringLiteral("Reading."), {headlessReadCall()}));
    server.enqueue(ScriptedResponse::error(400, overflowBody));
    server.enqueue(scriptedReply(api, summary));
    server.enqueue(scriptedReply(api, QStringLiteral("The notes are fine.")));
}

QStringList typesOf(const QList<QJsonObject> &lines)
{
    QStringList types;
    for (const QJsonObject &line : lines)
        types.append(line.value(QLatin1StringView("type")).toString());
    return types;
}

} // namespace

class tst_HeadlessCompaction : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
    }

    void overflowCompactsAndTheTurnGoesOn()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        QVERIFY(server.isListening());
        const ReplyApi api = ReplyApi::OpenAiChat;
        enqueueOverflowAndRecovery(server, api);
        HeadlessRun run(sandbox,
                        server,
                        api,
                        {QStringLiteral("--output-format"), QStringLiteral("stream-json")},
                        prompt);
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));

        const QList<QJsonObject> lines = run.jsonLines();
        const QStringList types = typesOf(lines);
        const qsizetype start = types.indexOf(QStringLiteral("compaction_start"));
        const qsizetype end = types.indexOf(QStringLiteral("compaction_end"));
        QVERIFY2(start >= 0 && end > start, qPrintable(types.join(u' ')));
        QCOMPARE(lines.at(start).value(QLatin1StringView("waiting")).toBool(), true);
        const QJsonObject done = lines.at(end);
        QVERIFY2(!done.contains(QLatin1StringView("error")), qPrintable(run.report()));
        QCOMPARE(done.value(QLatin1StringView("coveredCount")).toInt(), 1);
        QCOMPARE(types.constLast(), QStringLiteral("agent_end"));
        // The refused attempt is withdrawn as what it was, not as tool calls written as text
        // (issue #34, item 6).
        const qsizetype discard = types.indexOf(QStringLiteral("message_discard"));
        QVERIFY2(discard >= 0, qPrintable(types.join(u' ')));
        QCOMPARE(lines.at(discard).value(QLatin1StringView("reason")).toString(),
                 QStringLiteral("context_overflow"));

        // The summary request, then the same turn again with the summary in front of what
        // stayed (the Read call and its result), the prompt itself summarised.
        QCOMPARE(server.requests().size(), 4);
        const QByteArray retried = server.requests().at(3).body;
        QVERIFY2(retried.contains(summary.toUtf8()), retried.constData());
        QVERIFY2(retried.contains("notes.txt"), retried.constData());
        const QJsonArray messages
            = QJsonDocument::fromJson(retried).object().value(u"messages").toArray();
        QVERIFY(!messages.isEmpty());
        QVERIFY2(!messages.at(1)
                      .toObject()
                      .value(u"content")
                      .toString()
                      .contains(QStringLiteral("Fix the notes.")),
                 retried.constData());

        // History keeps everything: the prompt, the withdrawn nothing, the compaction.
        const QJsonArray newMessages = lines.constLast().value(u"newMessages").toArray();
        bool prompt = false;
        bool compaction = false;
        for (const QJsonValue &message : newMessages) {
            const QJsonObject object = message.toObject();
            prompt = prompt || QJsonDocument(object).toJson().contains("Fix the notes.");
            compaction = compaction
                         || object.value(u"customType").toString() == QStringLiteral("compaction");
        }
        QVERIFY(prompt);
        QVERIFY(compaction);
    }

    void textModeSaysOnStderr()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        QVERIFY(server.isListening());
        const ReplyApi api = ReplyApi::OpenAiChat;
        enqueueOverflowAndRecovery(server, api);
        HeadlessRun run(sandbox, server, api, {}, prompt);
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(run.out.trimmed(), QByteArray("The notes are fine."));
        QVERIFY2(run.err.contains(QLatin1String("summarising its older part first")),
                 qPrintable(run.err));
        QVERIFY2(run.err.contains(QLatin1String("Compacted: a summary stands for the first 1 "
                                                "message")),
                 qPrintable(run.err));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessCompaction)

} // namespace tst_headlesscompaction

#include "tst_headlesscompaction.moc"
