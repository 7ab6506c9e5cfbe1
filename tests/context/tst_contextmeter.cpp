#include <context/contextmeter.h>
#include <testmain.h>

#include <QTest>

using namespace AgentCore;

namespace tst_contextmeter {

namespace {

Message reply(const QString &text, qint64 input, qint64 output)
{
    Message message;
    message.role = Message::Role::Assistant;
    message.content = {ContentBlock::makeText(text)};
    message.usage.input = input;
    message.usage.output = output;
    return message;
}

Message callReply(const QString &id, qint64 input)
{
    Message message;
    message.role = Message::Role::Assistant;
    message.content = {ContentBlock::makeToolCall(id, "Read", {{"path", "src/main.cpp"}})};
    message.usage.input = input;
    message.usage.output = 40;
    return message;
}

} // namespace

class TestContextMeter : public QObject
{
    Q_OBJECT
private slots:
    void emptyConversationCountsNothing();
    void lastReplyIsCountedAndWhatCameAfterEstimated();
    void eachReplyTeachesTheCalibration();
    void resumedConversationCountsAsItDidLive();
    void rewrittenHistoryIsEstimatedUntilTheNextReply();
};

void TestContextMeter::emptyConversationCountsNothing()
{
    ContextMeter meter;
    meter.setPreamble(QString(7000, u's'), {{"Read", "Reads a file", {{"type", "object"}}}});
    QCOMPARE(meter.tokens().total, 0);
    // The first message sent: the whole request is estimated, system prompt and tools included.
    const Message first = Message::makeUser("hello");
    meter.append(first);
    QCOMPARE(meter.tokens().reported, 0);
    QCOMPARE(meter.tokens().total, estimateTokens(meter.context()));
    QVERIFY(meter.tokens().total > 2000);
}

void TestContextMeter::lastReplyIsCountedAndWhatCameAfterEstimated()
{
    ContextMeter meter;
    meter.setPreamble(QString(700, u's'), {});
    meter.append(Message::makeUser("read main.cpp"));
    meter.append(callReply("c1", 10'000));
    QCOMPARE(meter.tokens().total, 10'040);
    // A 35 KB tool output queued for the next request: estimated, then calibrated.
    const Message output = Message::makeToolResult("c1", "Read", QString(35'000, u'x'), false);
    meter.append(output);
    const ContextTokens tokens = meter.tokens();
    QCOMPARE(tokens.reported, 10'040);
    QCOMPARE(tokens.estimated, meter.calibration().correct(estimateTokens(output)));
    QCOMPARE(tokens.total, 10'040 + tokens.estimated);
    QVERIFY(tokens.estimated >= 5'000); // 35,000 characters are thousands of tokens
}

void TestContextMeter::eachReplyTeachesTheCalibration()
{
    ContextMeter meter;
    meter.setPreamble(QString(3500, u's'), {}); // 1000 tokens by the estimate
    const Message question = Message::makeUser("why?");
    meter.append(question);
    const qint64 request = estimateTokens(meter.context());
    // The provider counted 30% more than the estimate of the request.
    meter.append(reply("because", qint64(std::llround(request * 1.3)), 10));
    QCOMPARE(meter.calibration().observations(), 1);
    QVERIFY(qAbs(meter.calibration().ratio() - 1.3) < 0.01);
    const Message next = Message::makeUser(QString(7000, u'n'));
    meter.append(next);
    QCOMPARE(meter.tokens().estimated,
             qint64(std::llround(estimateTokens(next) * meter.calibration().ratio())));
    // A reply without usage (aborted before the provider counted) teaches nothing.
    meter.append(reply("", 0, 0));
    QCOMPARE(meter.calibration().observations(), 1);
}

void TestContextMeter::resumedConversationCountsAsItDidLive()
{
    const QList<Message> messages{Message::makeUser("read it"),
                                  callReply("c1", 4'000),
                                  Message::makeToolResult("c1", "Read", QString(9000, u'y'), false),
                                  reply("done", 9'000, 30),
                                  Message::makeUser("and the tests?")};
    ContextMeter live;
    live.setPreamble(QStringLiteral("You are tested."), {});
    for (const Message &message : messages)
        live.append(message);
    ContextMeter resumed;
    resumed.setMessages(messages);
    resumed.setPreamble(QStringLiteral("You are tested."), {});
    QCOMPARE(resumed.tokens().total, live.tokens().total);
    QCOMPARE(resumed.calibration().ratio(), live.calibration().ratio());
    QCOMPARE(resumed.calibration().observations(), 2);
}

void TestContextMeter::rewrittenHistoryIsEstimatedUntilTheNextReply()
{
    ContextMeter meter;
    meter.setPreamble(QStringLiteral("You are tested."), {});
    meter.append(Message::makeUser("start"));
    meter.append(reply("a long answer", 150'000, 2'000));
    QCOMPARE(meter.tokens().total, 152'000);
    // Compacted: the reply kept in the tail counted the old, long request.
    Message summary;
    summary.role = Message::Role::Custom;
    summary.customType = QStringLiteral("compaction");
    summary.content = {ContentBlock::makeText(QString(3500, u'z'))};
    const QList<Message> compacted{summary, reply("a long answer", 150'000, 2'000)};
    meter.setMessages(compacted, true);
    QVERIFY(meter.tokens().total < 5'000);
    QCOMPARE(meter.tokens().reported, 0);
    meter.append(Message::makeUser("go on"));
    meter.append(reply("ok", 1'200, 10));
    QCOMPARE(meter.tokens().total, 1'210);
}

AGENTDESK_GUILESS_TEST_MAIN(TestContextMeter)

} // namespace tst_contextmeter

#include "tst_contextmeter.moc"
