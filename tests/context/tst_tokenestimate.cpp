#include <context/tokenestimate.h>
#include <testmain.h>

#include <QTest>

using namespace AgentCore;

namespace tst_tokenestimate {

class TestTokenEstimate : public QObject
{
    Q_OBJECT
private slots:
    void asciiTakesThreeAndAHalfCharactersPerToken();
    void everyOtherCharacterIsOneToken();
    void toolCallsCountTheirArguments();
    void calibrationMovesTowardsWhatTheProviderReported();
    void oneOddFigureCannotThrowTheCalibrationFar();
    void contextCountsTheLastReplyAndEstimatesWhatCameAfter();
    void contextWithoutAReplyIsEstimatedWhole();
};

void TestTokenEstimate::asciiTakesThreeAndAHalfCharactersPerToken()
{
    QCOMPARE(estimateTokens(QStringView()), 0);
    QCOMPARE(estimateTokens(u"a"), 1);
    QCOMPARE(estimateTokens(QString(7, u'x')), 2);
    QCOMPARE(estimateTokens(QString(700, u'x')), 200);
}

void TestTokenEstimate::everyOtherCharacterIsOneToken()
{
    QCOMPARE(estimateTokens(u"上下文窗口"), 5);
    // An emoji is a surrogate pair: one character, one token.
    QCOMPARE(estimateTokens(QString::fromUtf8("\xF0\x9F\x98\x80")), 1);
}

void TestTokenEstimate::toolCallsCountTheirArguments()
{
    Message small;
    small.role = Message::Role::Assistant;
    small.content = {ContentBlock::makeToolCall("c1", "Read", {{"path", "a"}})};
    Message large = small;
    large.content = {ContentBlock::makeToolCall("c1", "Read", {{"path", QString(700, u'p')}})};
    QVERIFY(estimateTokens(large) >= estimateTokens(small) + 199);
}

void TestTokenEstimate::calibrationMovesTowardsWhatTheProviderReported()
{
    TokenCalibration calibration;
    QCOMPARE(calibration.correct(1000), 1000);
    calibration.observe(1000, 1300);
    QCOMPARE(calibration.correct(1000), 1300);
    calibration.observe(1000, 1100);
    QCOMPARE(calibration.correct(1000), 1200);
    calibration.observe(0, 500); // nothing to learn from
    calibration.observe(500, 0);
    QCOMPARE(calibration.observations(), 2);
}

void TestTokenEstimate::oneOddFigureCannotThrowTheCalibrationFar()
{
    TokenCalibration calibration;
    calibration.observe(100, 100'000);
    QCOMPARE(calibration.correct(1000), 2000);
    for (int i = 0; i < 20; ++i)
        calibration.observe(1000, 1000);
    calibration.observe(100, 100'000); // moves it by a tenth of the clamped ratio at most
    QVERIFY(calibration.correct(1000) <= 1150);
}

void TestTokenEstimate::contextCountsTheLastReplyAndEstimatesWhatCameAfter()
{
    Context context;
    context.systemPrompt = QString(7000, u's'); // counted in the reply's figure, not again
    context.messages.append(Message::makeUser("first"));
    Message reply;
    reply.role = Message::Role::Assistant;
    reply.content = {ContentBlock::makeText("ok")};
    reply.usage.input = 100;
    reply.usage.cacheRead = 5000;
    reply.usage.output = 20;
    context.messages.append(reply);
    const Message next = Message::makeUser(QString(700, u'x'));
    context.messages.append(next);

    TokenCalibration calibration;
    ContextTokens tokens = countContextTokens(context, calibration);
    QCOMPARE(tokens.reported, 5120);
    QCOMPARE(tokens.estimated, estimateTokens(next));
    QCOMPARE(tokens.total, 5120 + estimateTokens(next));

    calibration.observe(100, 200);
    tokens = countContextTokens(context, calibration);
    QCOMPARE(tokens.estimated, 2 * estimateTokens(next));
}

void TestTokenEstimate::contextWithoutAReplyIsEstimatedWhole()
{
    Context context;
    context.systemPrompt = QString(700, u's');
    context.tools.append({"Read", "Reads a file", {{"type", "object"}}});
    context.messages.append(Message::makeUser("hello"));
    const ContextTokens tokens = countContextTokens(context, TokenCalibration());
    QCOMPARE(tokens.reported, 0);
    QVERIFY(tokens.estimated > 200);
    QCOMPARE(tokens.estimated,
             estimateTokens(context.systemPrompt) + estimateTokens(context.tools.first())
                 + estimateTokens(context.messages.first()));
}

AGENTDESK_GUILESS_TEST_MAIN(TestTokenEstimate)

} // namespace tst_tokenestimate

#include "tst_tokenestimate.moc"
