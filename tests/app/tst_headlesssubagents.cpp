// Subagents end to end (#37): the real agentdesk --print against a scripted provider on
// 127.0.0.1. stream-json carries a child's events with parent_tool_use_id set to its Task call's
// id, between that call's tool_execution_start and tool_execution_end; the child's request holds
// its prompt alone; a Markdown agent type's `model` goes into its requests; text output shows
// nothing of a child but its Task call's line.

#include "headlessrun.h"
#include "httptestserver.h"
#include "modelreplies.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <testmain.h>

using namespace TestSupport;

namespace tst_headlesssubagents {

namespace {

const QStringList subagentsStreamJson{QStringLiteral("--output-format"),
                                      QStringLiteral("stream-json")};

ReplyToolCall subagentTaskCall(const QString &id,
                               const QString &type,
                               const QString &description,
                               const QString &prompt)
{
    return {id,
            QStringLiteral("Task"),
            {{QStringLiteral("description"), description},
             {QStringLiteral("prompt"), prompt},
             {QStringLiteral("subagent_type"), type}}};
}

} // namespace

class tst_HeadlessSubagents : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
    }

    void streamJsonCarriesTheChildsEvents()
    {
        const ReplyApi api = ReplyApi::OpenAiChat;
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        server.enqueue(scriptedReply(api,
                                     {},
                                     {subagentTaskCall(QStringLiteral("call_task"),
                                                       QStringLiteral("explore"),
                                                       QStringLiteral("Find the notes"),
                                                       QStringLiteral("Where are the notes?"))}));
        server.enqueue(scriptedReply(api, QStringLiteral("notes.txt holds them")));
        server.enqueue(scriptedReply(api, QStringLiteral("The notes are in notes.txt.")));
        HeadlessRun run(sandbox, server, api, subagentsStreamJson);
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 3);
        // A fresh context: the child's request holds its prompt alone.
        QCOMPARE(requestConversation(server.requests().at(1).body),
                 QStringList{QStringLiteral("user: Where are the notes?")});
        QVERIFY(server.requests().at(2).body.contains("notes.txt holds them"));

        const QList<QJsonObject> lines = run.jsonLines();
        QVERIFY2(!lines.isEmpty(), qPrintable(run.report()));
        qsizetype start = -1;
        qsizetype end = -1;
        QList<qsizetype> children;
        QStringList childTypes;
        bool answered = false;
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const QJsonObject &line = lines.at(i);
            const QString type = line.value(QLatin1String("type")).toString();
            if (line.contains(QLatin1String("parent_tool_use_id"))) {
                QCOMPARE(line.value(QLatin1String("parent_tool_use_id")).toString(),
                         QStringLiteral("call_task"));
                QCOMPARE(line.value(QLatin1String("subagentType")).toString(),
                         QStringLiteral("explore"));
                QCOMPARE(line.value(QLatin1String("subagentPath")).toArray(),
                         QJsonArray{QStringLiteral("call_task")});
                children.append(i);
                childTypes.append(type);
                if (type == u"message_end"
                    && line.value(QLatin1String("message"))
                               .toObject()
                               .value(QLatin1String("role"))
                               .toString()
                           == u"assistant"
                    && QJsonDocument(line).toJson().contains("notes.txt holds them"))
                    answered = true;
                continue;
            }
            if (line.value(QLatin1String("toolCallId")).toString() != u"call_task")
                continue;
            if (type == u"tool_execution_start")
                start = i;
            else if (type == u"tool_execution_end")
                end = i;
        }
        QVERIFY2(start >= 0 && end > start, qPrintable(run.report()));
        QVERIFY2(!children.isEmpty(), qPrintable(run.report()));
        QVERIFY2(children.first() > start && children.last() < end, qPrintable(run.report()));
        QCOMPARE(childTypes.first(), QStringLiteral("agent_start"));
        QCOMPARE(childTypes.last(), QStringLiteral("agent_end"));
        QVERIFY2(answered, qPrintable(run.report()));
        QCOMPARE(lines.last().value(QLatin1String("type")).toString(), QStringLiteral("agent_end"));
        QVERIFY(!lines.last().contains(QLatin1String("parent_tool_use_id")));
        // The run's usage counts its subagent's reply (each scripted reply: 10 in, 5 out).
        const QJsonObject usage = lines.last().value(QLatin1String("usage")).toObject();
        QCOMPARE(usage.value(QLatin1String("input")).toInteger(), 30);
        QCOMPARE(usage.value(QLatin1String("output")).toInteger(), 15);
        QCOMPARE(lines.last()
                     .value(QLatin1String("subagentUsage"))
                     .toObject()
                     .value(QLatin1String("input"))
                     .toInteger(),
                 10);
    }

    // A type of `.claude/agents/` with a model of its own: its requests name that model. Text
    // output: the answer on stdout, the Task call's line on stderr, nothing of the child's.
    void markdownTypeModelAndTextOutput()
    {
        const ReplyApi api = ReplyApi::OpenAiChat;
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        QVERIFY(QDir(sandbox.root()).mkpath(QStringLiteral(".claude/agents")));
        QVERIFY(sandbox.write(QStringLiteral(".claude/agents/mini.md"),
                              "---\nname: mini\ndescription: A small helper\ntools: Read\n"
                              "model: tiny-model\n---\nYou are mini.\n"));
        HttpTestServer server;
        server.enqueue(scriptedReply(api,
                                     {},
                                     {subagentTaskCall(QStringLiteral("call_mini"),
                                                       QStringLiteral("mini"),
                                                       QStringLiteral("Ask mini"),
                                                       QStringLiteral("Say hello"))}));
        server.enqueue(scriptedReply(api, QStringLiteral("child words here")));
        server.enqueue(scriptedReply(api, QStringLiteral("Parent answer.")));
        HeadlessRun run(sandbox, server, api, {});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 3);
        const QJsonObject parent = QJsonDocument::fromJson(server.requests().at(0).body).object();
        const QJsonObject child = QJsonDocument::fromJson(server.requests().at(1).body).object();
        QVERIFY(parent.value(QLatin1String("model")).toString() != u"tiny-model");
        QCOMPARE(child.value(QLatin1String("model")).toString(), QStringLiteral("tiny-model"));
        QVERIFY(requestToolNames(api, server.requests().at(1).body)
                == QStringList{QStringLiteral("Read")});
        QVERIFY(server.requests().at(1).body.contains("You are mini."));
        QCOMPARE(run.out, QByteArray("Parent answer.\n"));
        QVERIFY2(run.err.contains(QStringLiteral("> Task Ask mini")), qPrintable(run.report()));
        QVERIFY2(!run.err.contains(QStringLiteral("child words")), qPrintable(run.report()));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessSubagents)

} // namespace tst_headlesssubagents

#include "tst_headlesssubagents.moc"
