// agentdesk --print against an OpenAI-compatible server that numbers tool calls per reply
// (call_0 in every reply, as some llama.cpp, vLLM and proxy setups do): each call keeps its own
// id and result in the stream-json output, the audit log and the next request.
// The harness is tests/support/headlessrun.h.

#include "headlessrun.h"
#include "httptestserver.h"
#include "modelreplies.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <testmain.h>

using namespace TestSupport;

namespace tst_headlessids {

namespace {

/// "id name" of each call and "id text" of each answer in a Chat Completions request body.
QStringList requestPairs(const QByteArray &body)
{
    QStringList pairs;
    const QJsonArray messages = QJsonDocument::fromJson(body).object().value(u"messages").toArray();
    for (const QJsonValue &value : messages) {
        const QJsonObject message = value.toObject();
        for (const QJsonValue &call : message.value(u"tool_calls").toArray()) {
            pairs << call[QLatin1String("id")].toString() + u' '
                         + call[QLatin1String("function")][QLatin1String("name")].toString();
        }
        if (message.value(u"role").toString() == QLatin1String("tool")) {
            pairs << message.value(u"tool_call_id").toString() + u' '
                         + message.value(u"content").toString().section(u'\n', 0, 0).trimmed();
        }
    }
    return pairs;
}

QString firstText(const QJsonObject &result)
{
    return result.value(u"content").toArray().first()[QLatin1String("text")].toString();
}

} // namespace

class tst_HeadlessIds : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
    }

    void idsRepeatedAcrossRepliesStayApart()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        QVERIFY(server.isListening());
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api,
                                     QStringLiteral("Reading."),
                                     numberedPerResponse({headlessReadCall()})));
        server.enqueue(scriptedReply(api, {}, numberedPerResponse({headlessEditCall()})));
        server.enqueue(scriptedReply(api, QStringLiteral("Done, it says banana now.")));

        HeadlessRun run(sandbox,
                        server,
                        api,
                        {QStringLiteral("--permission-mode"),
                         QStringLiteral("acceptEdits"),
                         QStringLiteral("--output-format"),
                         QStringLiteral("stream-json")});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(sandbox.read(QStringLiteral("notes.txt")), QByteArray("banana pie\n"));

        // The history as the run ends: both calls, each with its own id and its own result.
        const QList<QJsonObject> lines = run.jsonLines();
        QVERIFY2(!lines.isEmpty(), qPrintable(run.report()));
        const QJsonArray newMessages = lines.last().value(u"newMessages").toArray();
        QStringList history;
        QString editId;
        for (const QJsonValue &value : newMessages) {
            const QJsonObject message = value.toObject();
            for (const QJsonValue &block : message.value(u"content").toArray()) {
                if (block[QLatin1String("type")].toString() != QLatin1String("toolCall"))
                    continue;
                history << block[QLatin1String("id")].toString() + u' '
                               + block[QLatin1String("name")].toString();
                if (block[QLatin1String("name")].toString() == QLatin1String("Edit")) {
                    editId = block[QLatin1String("id")].toString();
                    QCOMPARE(block[QLatin1String("providerId")].toString(),
                             QStringLiteral("call_0"));
                }
            }
            if (message.value(u"role").toString() == QLatin1String("toolResult"))
                history << message.value(u"toolCallId").toString() + u' '
                               + firstText(message).section(u'\n', 0, 0).trimmed();
        }
        QVERIFY(!editId.isEmpty());
        QVERIFY2(editId != QLatin1String("call_0"), qPrintable(history.join(u", ")));
        const QString editResult = history.value(3).section(u' ', 1);
        QVERIFY2(editResult.contains(QLatin1String("notes.txt")), qPrintable(editResult));
        QCOMPARE(history,
                 (QStringList{QStringLiteral("call_0 Read"),
                              QStringLiteral("call_0 1\tapple pie"),
                              editId + QStringLiteral(" Edit"),
                              editId + u' ' + editResult}));

        // The events say the same: the streamed calls and the tool executions.
        QStringList streamed, started, ended;
        for (const QJsonObject &line : lines) {
            const QString type = line.value(u"type").toString();
            const QJsonObject event = line.value(u"event").toObject();
            if (type == QLatin1String("message_update")
                && event.value(u"type").toString() == QLatin1String("toolcall_start"))
                streamed << event.value(u"toolCallId").toString();
            if (type == QLatin1String("tool_execution_start"))
                started << line.value(u"toolCallId").toString() + u' '
                               + line.value(u"toolName").toString();
            if (type == QLatin1String("tool_execution_end"))
                ended << line.value(u"toolCallId").toString() + u' '
                             + firstText(line.value(u"result").toObject())
                                   .section(u'\n', 0, 0)
                                   .trimmed();
        }
        QCOMPARE(streamed, (QStringList{QStringLiteral("call_0"), editId}));
        QCOMPARE(started, (QStringList{QStringLiteral("call_0 Read"), editId + u" Edit"}));
        QCOMPARE(ended.size(), 2);
        QCOMPARE(ended.at(0), QStringLiteral("call_0 1\tapple pie"));
        QVERIFY2(ended.at(1).startsWith(editId + u' '), qPrintable(ended.at(1)));

        // The audit log keeps each call apart.
        QFile audit(lines.first().value(u"auditLog").toString());
        QVERIFY2(audit.open(QIODevice::ReadOnly), qPrintable(audit.fileName()));
        QStringList audited;
        for (const QByteArray &entry : audit.readAll().trimmed().split('\n')) {
            const QJsonObject json = QJsonDocument::fromJson(entry).object();
            audited << json.value(u"toolCallId").toString() + u' ' + json.value(u"tool").toString();
        }
        QCOMPARE(audited, (QStringList{QStringLiteral("call_0 Read"), editId + u" Edit"}));

        // The server is given unique ids, each answered right after its call by its own result.
        QCOMPARE(server.requests().size(), 3);
        const QStringList sent = requestPairs(server.requests().at(2).body);
        QCOMPARE(sent.size(), 4);
        const QString sentEditId = sent.at(2).section(u' ', 0, 0);
        QVERIFY(sentEditId != QLatin1String("call_0"));
        QCOMPARE(sent,
                 (QStringList{QStringLiteral("call_0 Read"),
                              QStringLiteral("call_0 1\tapple pie"),
                              sentEditId + QStringLiteral(" Edit"),
                              sentEditId + u' ' + editResult}));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessIds)

} // namespace tst_headlessids

#include "tst_headlessids.moc"
