#include "streamjson.h"

#include <ai/messagejson.h>
#include <testmain.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace AgentCore;
namespace tst_streamjson {

using App::StreamJson;

namespace {

QJsonObject parse(const char *json)
{
    return QJsonDocument::fromJson(json).object();
}

AgentEvent eventOf(AgentEvent::Type type)
{
    AgentEvent event;
    event.type = type;
    return event;
}

Message assistantWithToolCall()
{
    Message message;
    message.role = Message::Role::Assistant;
    message.content = {ContentBlock::makeText(QStringLiteral("Reading.")),
                       ContentBlock::makeToolCall(QStringLiteral("call_1"),
                                                  QStringLiteral("Read"),
                                                  {{QStringLiteral("file_path"),
                                                    QStringLiteral("a.txt")}})};
    message.stopReason = StopReason::ToolUse;
    message.providerStopReason = QStringLiteral("tool_calls");
    message.usage = {10, 5, 0, 0, 0};
    return message;
}

} // namespace

class tst_StreamJson : public QObject
{
    Q_OBJECT

private slots:
    void streamEvents_data()
    {
        QTest::addColumn<StreamEvent>("event");
        QTest::addColumn<QByteArray>("expected");

        StreamEvent start;
        QTest::newRow("start") << start << QByteArray("{\"type\":\"start\"}");

        StreamEvent text;
        text.type = StreamEvent::Type::TextDelta;
        text.contentIndex = 0;
        text.delta = QStringLiteral("Hel");
        QTest::newRow("text delta")
            << text << QByteArray("{\"type\":\"text_delta\",\"contentIndex\":0,\"delta\":\"Hel\"}");

        StreamEvent toolStart;
        toolStart.type = StreamEvent::Type::ToolCallStart;
        toolStart.contentIndex = 1;
        toolStart.toolCallId = QStringLiteral("call_1");
        toolStart.toolName = QStringLiteral("Read");
        QTest::newRow("toolcall start")
            << toolStart
            << QByteArray("{\"type\":\"toolcall_start\",\"contentIndex\":1,\"toolCallId\":\"call_"
                          "1\",\"toolName\":\"Read\"}");

        StreamEvent toolDelta = toolStart;
        toolDelta.type = StreamEvent::Type::ToolCallDelta;
        toolDelta.delta = QStringLiteral("{\"file_");
        toolDelta.arguments = {{QStringLiteral("file_"), QString()}}; // partial: left out
        QTest::newRow("toolcall delta is compact")
            << toolDelta
            << QByteArray(
                   "{\"type\":\"toolcall_delta\",\"contentIndex\":1,\"delta\":\"{\\\"file_\"}");

        StreamEvent toolEnd = toolStart;
        toolEnd.type = StreamEvent::Type::ToolCallEnd;
        toolEnd.arguments = {{QStringLiteral("file_path"), QStringLiteral("a.txt")}};
        QTest::newRow("toolcall end")
            << toolEnd
            << QByteArray("{\"type\":\"toolcall_end\",\"contentIndex\":1,\"toolCallId\":\"call_1\","
                          "\"toolName\":\"Read\",\"arguments\":{\"file_path\":\"a.txt\"}}");

        StreamEvent retry;
        retry.type = StreamEvent::Type::Retry;
        retry.retryAttempt = 1;
        retry.retryDelayMs = 2000;
        retry.errorMessage = QStringLiteral("HTTP 529: Overloaded");
        QTest::newRow("retry") << retry
                               << QByteArray(
                                      "{\"type\":\"retry\",\"retryAttempt\":1,\"retryDelayMs\":"
                                      "2000,\"errorMessage\":\"HTTP 529: Overloaded\"}");

        StreamEvent done;
        done.type = StreamEvent::Type::Done;
        done.stopReason = StopReason::ToolUse;
        QTest::newRow("done") << done
                              << QByteArray("{\"type\":\"done\",\"stopReason\":\"toolUse\"}");

        StreamEvent error;
        error.type = StreamEvent::Type::Error;
        error.stopReason = StopReason::Aborted;
        error.errorMessage = QStringLiteral("Request aborted.");
        QTest::newRow("error") << error
                               << QByteArray("{\"type\":\"error\",\"stopReason\":\"aborted\","
                                             "\"errorMessage\":\"Request aborted.\"}");
    }

    void streamEvents()
    {
        QFETCH(StreamEvent, event);
        QFETCH(QByteArray, expected);
        QCOMPARE(StreamJson::fromStreamEvent(event), QJsonDocument::fromJson(expected).object());
    }

    void everyEventHasItsTypeName()
    {
        for (int type = int(AgentEvent::Type::AgentStart);
             type <= int(AgentEvent::Type::ToolExecutionEnd);
             ++type) {
            const auto eventType = AgentEvent::Type(type);
            const QJsonObject json = StreamJson::fromEvent(eventOf(eventType));
            QCOMPARE(json.value(u"type").toString(), agentEventTypeName(eventType));
            QVERIFY(!json.value(u"type").toString().isEmpty());
        }
    }

    void messageEventsCarryTheMessage()
    {
        AgentEvent end = eventOf(AgentEvent::Type::MessageEnd);
        end.message = assistantWithToolCall();
        const QJsonObject json = StreamJson::fromEvent(end);
        QCOMPARE(json.value(u"message").toObject(), messageToJson(end.message));
        // The normalized fields of shared/fixtures/README.md are all there.
        const QJsonObject message = json.value(u"message").toObject();
        QCOMPARE(message.value(u"role").toString(), QStringLiteral("assistant"));
        for (const char *key : {"content", "stopReason", "providerStopReason", "usage"})
            QVERIFY2(message.contains(QLatin1String(key)), key);
        QCOMPARE(message.value(u"content").toArray().at(1).toObject(),
                 parse("{\"type\":\"toolCall\",\"id\":\"call_1\",\"name\":\"Read\",\"arguments\":{"
                       "\"file_path\":\"a.txt\"}}"));
    }

    void turnAndAgentEnd()
    {
        const Message result = Message::makeToolResult(QStringLiteral("call_1"),
                                                       QStringLiteral("Read"),
                                                       QStringLiteral("1\thello"),
                                                       false);
        AgentEvent turnEnd = eventOf(AgentEvent::Type::TurnEnd);
        turnEnd.message = assistantWithToolCall();
        turnEnd.toolResults = {result};
        turnEnd.hasMoreToolCalls = true;
        const QJsonObject turn = StreamJson::fromEvent(turnEnd);
        QCOMPARE(turn.value(u"hasMoreToolCalls").toBool(), true);
        QCOMPARE(turn.value(u"toolResults").toArray(), QJsonArray{messageToJson(result)});

        AgentEvent agentEnd = eventOf(AgentEvent::Type::AgentEnd);
        agentEnd.newMessages = {Message::makeUser(QStringLiteral("go")),
                                assistantWithToolCall(),
                                result};
        const QJsonArray messages = StreamJson::fromEvent(agentEnd).value(u"newMessages").toArray();
        QCOMPARE(messages.size(), 3);
        QStringList roles;
        for (const QJsonValue &message : messages)
            roles.append(message[QLatin1String("role")].toString());
        QCOMPARE(roles, (QStringList{"user", "assistant", "toolResult"}));
    }

    void toolExecution()
    {
        AgentEvent start = eventOf(AgentEvent::Type::ToolExecutionStart);
        start.toolCallId = QStringLiteral("call_2");
        start.toolName = QStringLiteral("Bash");
        start.arguments = {{QStringLiteral("command"), QStringLiteral("make")}};
        QCOMPARE(StreamJson::fromEvent(start),
                 parse("{\"type\":\"tool_execution_start\",\"toolCallId\":\"call_2\",\"toolName\":"
                       "\"Bash\",\"arguments\":{\"command\":\"make\"}}"));

        AgentEvent end = start;
        end.type = AgentEvent::Type::ToolExecutionEnd;
        end.result = ToolResult::makeError(QStringLiteral("exit code 2"));
        end.isError = true;
        QCOMPARE(StreamJson::fromEvent(end),
                 parse("{\"type\":\"tool_execution_end\",\"toolCallId\":\"call_2\",\"toolName\":"
                       "\"Bash\",\"isError\":true,"
                       "\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"exit code "
                       "2\"}],\"isError\":true}}"));

        AgentEvent update = start;
        update.type = AgentEvent::Type::ToolExecutionUpdate;
        update.result = ToolResult::makeText(QStringLiteral("building"),
                                             ToolDetails::fromJson(
                                                 QJsonObject{{QStringLiteral("log"),
                                                              QStringLiteral("/tmp/x.log")}}));
        QCOMPARE(StreamJson::fromEvent(update).value(u"partialResult").toObject(),
                 parse("{\"content\":[{\"type\":\"text\",\"text\":\"building\"}],\"isError\":false,"
                       "\"details\":{\"log\":\"/tmp/x.log\"}}"));
    }

    void lineIsCompact()
    {
        const QByteArray line = StreamJson::line(
            StreamJson::fromEvent(eventOf(AgentEvent::Type::TurnStart)));
        QCOMPARE(line, QByteArray("{\"type\":\"turn_start\"}\n"));

        AgentEvent start = eventOf(AgentEvent::Type::ToolExecutionStart);
        start.toolCallId = QStringLiteral("call_2");
        start.toolName = QStringLiteral("Bash");
        start.arguments = {{QStringLiteral("command"), QStringLiteral("echo \"hi\"")}};
        QCOMPARE(StreamJson::line(StreamJson::fromEvent(start)),
                 QByteArray(
                     "{\"type\":\"tool_execution_start\",\"arguments\":{\"command\":"
                     "\"echo \\\"hi\\\"\"},\"toolCallId\":\"call_2\",\"toolName\":\"Bash\"}\n"));
        QCOMPARE(StreamJson::line(QJsonObject{{QStringLiteral("a"), 1}}), QByteArray("{\"a\":1}\n"));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_StreamJson)

} // namespace tst_streamjson

#include "tst_streamjson.moc"
