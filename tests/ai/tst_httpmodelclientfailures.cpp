#include "ai/httpmodelclient.h"

#include "fixtures.h"
#include "httpclienttest.h"
#include "httptestserver.h"
#include "workercall.h"

#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QTest>
#include <QTimeZone>

#include <memory>

using namespace AgentCore;
using namespace TestSupport;

// HttpModelClient against servers that fail: dropped and idle streams, HTTP errors, retries
// with their delays, hostile bytes. The API key never shows in what the user reads.
class tst_HttpModelClientFailures : public QObject
{
    Q_OBJECT

private slots:
    void dropMidStreamKeepsPartial_data();
    void dropMidStreamKeepsPartial();
    void idleStreamTimesOut_data();
    void idleStreamTimesOut();
    void abortDuringRetryWait();
    void retryThenSuccess_data();
    void retryThenSuccess();
    void retriesExhausted();
    void retryAfterLongerThanMaximumIsNotWaitedFor();
    void contextOverflow_data();
    void contextOverflow();
    void htmlErrorBodyIsReadable();
    void resetBeforeAnyByteThenSuccess();
    void connectionRefusedIsRetriedThenFails();
    void apiKeyNeverInMessages();
    void hostileServerNeverCrashes_data();
    void hostileServerNeverCrashes();
    void retryAfterDelay_data();
    void retryAfterDelay();
};

void tst_HttpModelClientFailures::dropMidStreamKeepsPartial_data()
{
    using Ending = ScriptedResponse::Ending;
    using Framing = ScriptedResponse::Framing;
    QTest::addColumn<Ending>("ending");
    QTest::addColumn<Framing>("framing");
    QTest::addColumn<int>("pauseMs");
    QTest::newRow("closed, chunked") << Ending::Drop << Framing::Chunked << 10;
    QTest::newRow("closed, Content-Length") << Ending::Drop << Framing::ContentLength << 10;
    QTest::newRow("reset, chunked") << Ending::DropWithReset << Framing::Chunked << 10;
    // The close arriving with the last bytes: Qt 6.8 then reports a chunked body as complete,
    // so only the missing final event tells (the assembler's message, not "lost").
    QTest::newRow("closed at once, chunked") << Ending::Drop << Framing::Chunked << -1;
}

void tst_HttpModelClientFailures::dropMidStreamKeepsPartial()
{
    QFETCH(ScriptedResponse::Ending, ending);
    QFETCH(ScriptedResponse::Framing, framing);
    QFETCH(int, pauseMs);
    HttpTestServer server;
    const QByteArray stream = fixture("openai-chat", "gpt4o-text-weather");
    ScriptedResponse response = firstHalfThen(stream, ending);
    response.framing = framing;
    response.pieceDelayMs = pauseMs;
    server.enqueue(response);
    server.enqueue(ScriptedResponse::sse({stream})); // must not be asked for: no duplicated output

    StreamEventLog log;
    const Message message = completeWith(httpClientConfig(QStringLiteral("openai-chat"), server),
                                         log);

    QCOMPARE(message.stopReason, StopReason::Error);
    QVERIFY(!message.text().isEmpty());
    const QString full = expectedFixtureText(
        TestSupport::readFixtureExpected(QStringLiteral("openai-chat"),
                                         QStringLiteral("gpt4o-text-weather")));
    QVERIFY2(full.startsWith(message.text()) && message.text().size() < full.size(),
             qPrintable(message.text()));
    QVERIFY(!message.errorMessage.isEmpty());
    if (pauseMs > 0)
        QVERIFY2(message.errorMessage.contains(QLatin1String("lost")),
                 qPrintable(message.errorMessage));
    QCOMPARE(server.requests().size(), 1);
    QVERIFY(log.ofType(StreamEvent::Type::Retry).isEmpty());
    QCOMPARE(log.events.constLast().type, StreamEvent::Type::Error);
}

void tst_HttpModelClientFailures::idleStreamTimesOut_data()
{
    QTest::addColumn<bool>("afterSomeOutput");
    QTest::newRow("stalls mid-stream") << true;
    QTest::newRow("never answers") << false;
}

void tst_HttpModelClientFailures::idleStreamTimesOut()
{
    QFETCH(bool, afterSomeOutput);
    HttpTestServer server;
    server.enqueue(firstHalfThen(fixture("anthropic", "sonnet45-text"),
                                 afterSomeOutput ? ScriptedResponse::Ending::Stall
                                                 : ScriptedResponse::Ending::Silent));

    ProviderConfig config = httpClientConfig(QStringLiteral("anthropic"), server);
    config.idleTimeoutMs = 300;
    StreamEventLog log;
    QElapsedTimer timer;
    timer.start();
    const Message message = completeWith(config, log);
    const qint64 elapsed = timer.elapsed();

    QVERIFY2(elapsed >= 290 && elapsed < 3'000, qPrintable(QString::number(elapsed)));
    QCOMPARE(message.stopReason, StopReason::Error);
    QCOMPARE(message.text().isEmpty(), !afterSomeOutput);
    QVERIFY2(message.errorMessage.contains(QLatin1String("300 ms")),
             qPrintable(message.errorMessage));
    QCOMPARE(server.requests().size(), 1);
    QCOMPARE(log.events.constLast().type, StreamEvent::Type::Error);
}

void tst_HttpModelClientFailures::abortDuringRetryWait()
{
    HttpTestServer server;
    server.enqueue(ScriptedResponse::retryAfterMs(529, 30'000, OverloadedBody));
    server.enqueue(ScriptedResponse::sse({fixture("anthropic", "sonnet45-text")}));
    HttpModelClient client(httpClientConfig(QStringLiteral("anthropic"), server));
    AbortToken token;
    WorkerCall call(client, token);
    QTRY_COMPARE(call.log.ofType(StreamEvent::Type::Retry).size(), 1);
    QElapsedTimer timer;
    timer.start();
    token.abort();
    QTRY_VERIFY_WITH_TIMEOUT(call.isFinished(), 5'000);
    QVERIFY2(timer.elapsed() < 2'000, qPrintable(QString::number(timer.elapsed())));
    QCOMPARE(call.log.ofType(StreamEvent::Type::Retry).constFirst().retryDelayMs, 30'000);
    QCOMPARE(call.message.stopReason, StopReason::Aborted);
    QCOMPARE(server.requests().size(), 1);
}

void tst_HttpModelClientFailures::retryThenSuccess_data()
{
    QTest::addColumn<ScriptedResponse>("failure");
    QTest::addColumn<int>("minDelay");
    QTest::addColumn<int>("maxDelay");
    QTest::newRow("429 Retry-After: 1") << ScriptedResponse::retryAfter(
        429,
        "1",
        R"({"type":"error","error":{"type":"rate_limit_error",)"
        R"("message":"Number of requests has exceeded your rate limit"}})")
                                        << 1000 << 1000;
    QTest::newRow("503 retry-after-ms: 150")
        << ScriptedResponse::retryAfterMs(503, 150, "upstream unavailable") << 150 << 150;
    // Without a server's wish: retryBaseDelayMs (10) plus up to 25 % jitter.
    QTest::newRow("529 backoff") << ScriptedResponse::error(529, OverloadedBody) << 10 << 13;
}

void tst_HttpModelClientFailures::retryThenSuccess()
{
    QFETCH(ScriptedResponse, failure);
    QFETCH(int, minDelay);
    QFETCH(int, maxDelay);
    HttpTestServer server;
    server.enqueue(failure);
    server.enqueue(ScriptedResponse::sse({fixture("anthropic", "sonnet45-text")}));
    StreamEventLog log;
    QElapsedTimer timer;
    timer.start();
    const Message message = completeWith(httpClientConfig(QStringLiteral("anthropic"), server), log);
    const qint64 elapsed = timer.elapsed();

    const QList<StreamEvent> retries = log.ofType(StreamEvent::Type::Retry);
    QCOMPARE(retries.size(), 1);
    QCOMPARE(retries.constFirst().retryAttempt, 1);
    QVERIFY2(retries.constFirst().retryDelayMs >= minDelay
                 && retries.constFirst().retryDelayMs <= maxDelay,
             qPrintable(QString::number(retries.constFirst().retryDelayMs)));
    QVERIFY(!retries.constFirst().errorMessage.isEmpty());
    QVERIFY2(elapsed >= minDelay, qPrintable(QString::number(elapsed)));
    QCOMPARE(log.events.constFirst().type, StreamEvent::Type::Retry);

    const QString difference = fixtureDifference(message,
                                                 QStringLiteral("anthropic"),
                                                 QStringLiteral("sonnet45-text"));
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
    QCOMPARE(server.requests().size(), 2);
    QCOMPARE(server.requests().at(1).body, server.requests().at(0).body);
}

void tst_HttpModelClientFailures::retriesExhausted()
{
    HttpTestServer server;
    for (int i = 0; i < 3; ++i)
        server.enqueue(ScriptedResponse::error(529, OverloadedBody));
    ProviderConfig config = httpClientConfig(QStringLiteral("anthropic"), server);
    config.maxRetries = 2;
    StreamEventLog log;
    const Message message = completeWith(config, log);

    QCOMPARE(message.stopReason, StopReason::Error);
    QVERIFY2(message.errorMessage.contains(QLatin1String("Overloaded")),
             qPrintable(message.errorMessage));
    QVERIFY(message.content.isEmpty());
    QCOMPARE(server.requests().size(), 3);
    const QList<StreamEvent> retries = log.ofType(StreamEvent::Type::Retry);
    QCOMPARE(retries.size(), 2);
    QCOMPARE(retries.at(0).retryAttempt, 1);
    QCOMPARE(retries.at(1).retryAttempt, 2);
    // Exponential: 10 then 20 ms, each with up to 25 % jitter.
    QVERIFY(retries.at(0).retryDelayMs >= 10 && retries.at(0).retryDelayMs <= 13);
    QVERIFY(retries.at(1).retryDelayMs >= 20 && retries.at(1).retryDelayMs <= 25);
    QCOMPARE(log.ofType(StreamEvent::Type::Error).size(), 1);
    QCOMPARE(log.events.constLast().type, StreamEvent::Type::Error);
}

void tst_HttpModelClientFailures::retryAfterLongerThanMaximumIsNotWaitedFor()
{
    HttpTestServer server;
    server.enqueue(ScriptedResponse::retryAfter(429, "120"));
    server.enqueue(ScriptedResponse::sse({fixture("openai-chat", "gpt4o-text-weather")}));
    ProviderConfig config = httpClientConfig(QStringLiteral("openai-chat"), server);
    config.retryMaxDelayMs = 60'000;
    StreamEventLog log;
    QElapsedTimer timer;
    timer.start();
    const Message message = completeWith(config, log);

    QVERIFY2(timer.elapsed() < 2'000, qPrintable(QString::number(timer.elapsed())));
    QCOMPARE(message.stopReason, StopReason::Error);
    QVERIFY2(message.errorMessage.contains(QLatin1String("2 min")),
             qPrintable(message.errorMessage));
    QVERIFY(log.ofType(StreamEvent::Type::Retry).isEmpty());
    QCOMPARE(server.requests().size(), 1);
}

void tst_HttpModelClientFailures::contextOverflow_data()
{
    QTest::addColumn<QString>("provider");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("expectedText");
    QTest::newRow("anthropic")
        << QStringLiteral("anthropic")
        << QByteArray(R"({"type":"error","error":{"type":"invalid_request_error",)"
                      R"("message":"prompt is too long: 208310 tokens > 200000 maximum"}})")
        << QStringLiteral("prompt is too long");
    QTest::newRow("openai")
        << QStringLiteral("openai-chat")
        << QByteArray(R"({"error":{"message":"This model's maximum context length is 128000 tokens.)"
                      R"( However, your messages resulted in 130412 tokens.",)"
                      R"("type":"invalid_request_error","param":"messages",)"
                      R"("code":"context_length_exceeded"}})")
        << QStringLiteral("maximum context length is 128000");
}

void tst_HttpModelClientFailures::contextOverflow()
{
    QFETCH(QString, provider);
    QFETCH(QByteArray, body);
    QFETCH(QString, expectedText);
    HttpTestServer server;
    server.enqueue(ScriptedResponse::error(400, body));
    StreamEventLog log;
    const Message message = completeWith(httpClientConfig(provider, server), log);

    QCOMPARE(message.stopReason, StopReason::ContextOverflow);
    QVERIFY2(message.errorMessage.contains(expectedText), qPrintable(message.errorMessage));
    QCOMPARE(server.requests().size(), 1);
    QCOMPARE(log.events.size(), 1); // no retry, one Error event
    QCOMPARE(log.ofType(StreamEvent::Type::Error).constFirst().stopReason, message.stopReason);
    QCOMPARE(log.events.constFirst().errorMessage, message.errorMessage);
}

void tst_HttpModelClientFailures::htmlErrorBodyIsReadable()
{
    HttpTestServer server;
    server.enqueue(ScriptedResponse::error(
        500,
        "<html>\r\n<head><title>500 Internal Server Error</title></head>\r\n<body>\r\n"
        "<center><h1>500 Internal Server Error</h1></center>\r\n<hr><center>nginx</center>\r\n"
        "</body>\r\n</html>\r\n",
        "text/html"));
    ProviderConfig config = httpClientConfig(QStringLiteral("openai-chat"), server);
    config.maxRetries = 0;
    StreamEventLog log;
    const Message message = completeWith(config, log);

    QCOMPARE(message.stopReason, StopReason::Error);
    QVERIFY2(message.errorMessage.contains(QLatin1String("Internal Server Error"))
                 && !message.errorMessage.contains(u'<'),
             qPrintable(message.errorMessage));
    QCOMPARE(server.requests().size(), 1);
}

void tst_HttpModelClientFailures::resetBeforeAnyByteThenSuccess()
{
    // Qt's HTTP layer itself sends a request again when the connection closes before any
    // response byte (up to twice); beyond that the client's own retry takes over. Both end in
    // the complete message, without duplicated output.
    HttpTestServer server;
    for (int i = 0; i < 4; ++i)
        server.enqueue(ScriptedResponse::reset());
    server.enqueue(ScriptedResponse::sse({fixture("openai-chat", "gpt4o-tool-single")}));
    StreamEventLog log;
    const Message message = completeWith(httpClientConfig(QStringLiteral("openai-chat"), server),
                                         log);

    const QString difference = fixtureDifference(message,
                                                 QStringLiteral("openai-chat"),
                                                 QStringLiteral("gpt4o-tool-single"));
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
    QCOMPARE(server.requests().size(), 5);
    const QList<StreamEvent> retries = log.ofType(StreamEvent::Type::Retry);
    QVERIFY(!retries.isEmpty());
    QVERIFY2(retries.constFirst().errorMessage.contains(QLatin1String("closed")),
             qPrintable(retries.constFirst().errorMessage));
    QCOMPARE(log.ofType(StreamEvent::Type::ToolCallStart).size(), 1);
}

void tst_HttpModelClientFailures::connectionRefusedIsRetriedThenFails()
{
    auto server = std::make_unique<HttpTestServer>();
    ProviderConfig config = httpClientConfig(QStringLiteral("openai-chat"), *server);
    server.reset(); // nothing listens on its port now
    config.maxRetries = 1;
    config.retryBaseDelayMs = 5;
    StreamEventLog log;
    const Message message = completeWith(config, log);

    QCOMPARE(message.stopReason, StopReason::Error);
    QVERIFY2(message.errorMessage.contains(QLatin1String("refused")),
             qPrintable(message.errorMessage));
    QCOMPARE(log.ofType(StreamEvent::Type::Retry).size(), 1);
    QCOMPARE(log.events.constLast().type, StreamEvent::Type::Error);
}

void tst_HttpModelClientFailures::apiKeyNeverInMessages()
{
    HttpTestServer server;
    const QByteArray echo = R"({"error":{"message":"Incorrect API key provided: )"
                            + HttpClientApiKey.toUtf8()
                            + R"(.","type":"invalid_request_error","code":"invalid_api_key"}})";
    server.enqueue(ScriptedResponse::error(401, echo));
    server.enqueue(ScriptedResponse::retryAfterMs(429, 1, echo));
    server.enqueue(ScriptedResponse::error(400, echo));
    HttpModelClient client(httpClientConfig(QStringLiteral("openai-chat"), server));
    for (int i = 0; i < 2; ++i) {
        StreamEventLog log;
        const Message message = client.complete(httpClientHelloContext(), AbortToken(), log.sink());
        QCOMPARE(message.stopReason, StopReason::Error);
        QVERIFY(message.errorMessage.contains(QLatin1String("Incorrect API key")));
        QVERIFY(!message.errorMessage.contains(HttpClientApiKey));
        for (const StreamEvent &event : std::as_const(log.events))
            QVERIFY(!event.errorMessage.contains(HttpClientApiKey));
    }
}

void tst_HttpModelClientFailures::hostileServerNeverCrashes_data()
{
    QTest::addColumn<ScriptedResponse>("response");
    QRandomGenerator random(42);
    QByteArray noise(64 * 1024, Qt::Uninitialized);
    for (char &byte : noise)
        byte = char(random.bounded(256));
    QTest::newRow("random bytes") << ScriptedResponse::sse(
        TestSupport::splitBytes(noise, TestSupport::ChunkStrategy::random(1, 3000)));
    QTest::newRow("empty 200") << ScriptedResponse::sse({});
    QTest::newRow("JSON instead of a stream")
        << ScriptedResponse::error(200, R"({"id":"x","choices":[]})");
    QTest::newRow("one endless line")
        << ScriptedResponse::sse({"data: " + QByteArray(2 * 1024 * 1024, 'x')});
    QTest::newRow("bad JSON events") << ScriptedResponse::sse(
        {"data: {\"choices\":[{\"delta\":{\"content\":\n\n", "data: [1,2\n\ndata: \xff\xfe\n\n"});
    QTest::newRow("huge error body")
        << ScriptedResponse::error(400, QByteArray(4 * 1024 * 1024, 'e'), "text/plain");
    ScriptedResponse truncatedError = ScriptedResponse::error(503, R"({"error":{"mess)");
    truncatedError.ending = ScriptedResponse::Ending::Drop;
    QTest::newRow("error body cut off") << truncatedError;
}

void tst_HttpModelClientFailures::hostileServerNeverCrashes()
{
    QFETCH(ScriptedResponse, response);
    HttpTestServer server;
    server.enqueue(response);
    ProviderConfig config = httpClientConfig(QStringLiteral("openai-chat"), server);
    config.maxRetries = 0;
    StreamEventLog log;
    const Message message = completeWith(config, log);
    QCOMPARE(message.stopReason, StopReason::Error);
    QVERIFY(!message.errorMessage.isEmpty());
    QVERIFY(message.errorMessage.size() < 4096);
    QCOMPARE(log.events.constLast().type, StreamEvent::Type::Error);
}

void tst_HttpModelClientFailures::retryAfterDelay_data()
{
    QTest::addColumn<QByteArray>("retryAfterMs");
    QTest::addColumn<QByteArray>("retryAfter");
    QTest::addColumn<qint64>("expected"); // -1: none
    QTest::newRow("milliseconds") << QByteArray("1500") << QByteArray() << qint64(1500);
    QTest::newRow("fractional milliseconds") << QByteArray("12.2") << QByteArray() << qint64(13);
    QTest::newRow("seconds") << QByteArray() << QByteArray("2") << qint64(2000);
    QTest::newRow("milliseconds win") << QByteArray("250") << QByteArray("7") << qint64(250);
    QTest::newRow("unreadable milliseconds fall back")
        << QByteArray("soon") << QByteArray("3") << qint64(3000);
    QTest::newRow("HTTP date") << QByteArray() << QByteArray("Wed, 21 Oct 2015 07:28:10 GMT")
                               << qint64(10'000);
    QTest::newRow("HTTP date in the past")
        << QByteArray() << QByteArray("Wed, 21 Oct 2015 07:27:00 GMT") << qint64(0);
    QTest::newRow("negative seconds") << QByteArray() << QByteArray("-5") << qint64(0);
    QTest::newRow("garbage") << QByteArray() << QByteArray("tomorrow, maybe") << qint64(-1);
    QTest::newRow("absent") << QByteArray() << QByteArray() << qint64(-1);
}

void tst_HttpModelClientFailures::retryAfterDelay()
{
    QFETCH(QByteArray, retryAfterMs);
    QFETCH(QByteArray, retryAfter);
    QFETCH(qint64, expected);
    const QDateTime now(QDate(2015, 10, 21), QTime(7, 28), QTimeZone::utc());
    const std::optional<qint64> delay = retryAfterDelayMs(retryAfterMs, retryAfter, now);
    QCOMPARE(delay.value_or(-1), expected);
}

QTEST_GUILESS_MAIN(tst_HttpModelClientFailures)

#include "tst_httpmodelclientfailures.moc"
