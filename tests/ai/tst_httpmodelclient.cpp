#include "ai/httpmodelclient.h"
#include "ai/messagejson.h"

#include "fixtures.h"
#include "httptestserver.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMutex>
#include <QRandomGenerator>
#include <QTest>
#include <QThread>
#include <QTimeZone>

#include <memory>
#include <thread>

using namespace AgentCore;
using TestSupport::HttpTestServer;
using TestSupport::ScriptedResponse;

Q_DECLARE_METATYPE(TestSupport::ScriptedResponse)
Q_DECLARE_METATYPE(TestSupport::ScriptedResponse::Ending)
Q_DECLARE_METATYPE(TestSupport::ScriptedResponse::Framing)

namespace {

const QString ApiKey = QStringLiteral("sk-test-0123456789abcdef");

ProviderConfig configFor(const QString &fixtureProvider, const HttpTestServer &server)
{
    ProviderConfig config;
    if (fixtureProvider == QLatin1String("anthropic")) {
        config.api = WireApi::AnthropicMessages;
        config.provider = QStringLiteral("anthropic");
        config.baseUrl = server.url();
    } else {
        config.api = fixtureProvider == QLatin1String("openai-chat") ? WireApi::OpenAiChat
                                                                     : WireApi::OpenAiResponses;
        config.provider = QStringLiteral("openai");
        config.baseUrl = server.url(QStringLiteral("/v1"));
    }
    config.apiKey = ApiKey;
    config.model = QStringLiteral("test-model");
    config.idleTimeoutMs = 10'000;
    config.retryBaseDelayMs = 10;
    return config;
}

QByteArray expectedPath(const QString &fixtureProvider)
{
    if (fixtureProvider == QLatin1String("anthropic"))
        return "/v1/messages";
    if (fixtureProvider == QLatin1String("openai-chat"))
        return "/v1/chat/completions";
    return "/v1/responses";
}

Context helloContext()
{
    Context context;
    context.systemPrompt = QStringLiteral("You are a test.");
    context.messages = {Message::makeUser(QStringLiteral("Hello"))};
    return context;
}

/// Collects the stream events of one complete() call, with the threads they came on. Read
/// events and threads directly once the call returned; ofType() also while it runs.
struct EventLog
{
    QList<StreamEvent> events;
    QList<QThread *> threads;
    mutable QMutex mutex;

    StreamEventSink sink()
    {
        return [this](const StreamEvent &event) {
            QMutexLocker locker(&mutex);
            events.append(event);
            threads.append(QThread::currentThread());
        };
    }
    QList<StreamEvent> ofType(StreamEvent::Type type) const
    {
        QMutexLocker locker(&mutex);
        QList<StreamEvent> result;
        for (const StreamEvent &event : events) {
            if (event.type == type)
                result.append(event);
        }
        return result;
    }
};

/// The fixture's text blocks joined, as Message::text() joins the assembled ones.
QString expectedText(const QJsonObject &expected)
{
    QString text;
    for (const QJsonValue &block : expected.value(QLatin1String("content")).toArray()) {
        if (block[QLatin1String("type")].toString() == QLatin1String("text"))
            text += block[QLatin1String("text")].toString();
    }
    return text;
}

/// The first half of \a stream (cut at an event boundary, in a few pieces), then \a ending.
ScriptedResponse firstHalfThen(const QByteArray &stream, ScriptedResponse::Ending ending)
{
    const qsizetype cut = stream.indexOf("\n\n", stream.size() / 2) + 2;
    ScriptedResponse response = ScriptedResponse::sse(
        TestSupport::splitBytes(stream.left(cut), TestSupport::ChunkStrategy::random(7, 2048)));
    response.ending = ending;
    return response;
}

QByteArray fixture(const char *provider, const char *name)
{
    return TestSupport::readFixtureStream(QLatin1String(provider), QLatin1String(name));
}

/// complete() on the test thread, whose event loop serves the server meanwhile.
Message completeWith(const ProviderConfig &config, EventLog &log, const AbortToken &token = {})
{
    HttpModelClient client(config);
    return client.complete(helloContext(), token, log.sink());
}

/// complete() on a worker thread, as the agent runs it. Aborts and joins when destroyed, so a
/// failed check never leaves the worker behind.
class WorkerCall
{
public:
    WorkerCall(HttpModelClient &client, const AbortToken &token)
        : m_token(token)
        , m_thread(QThread::create(
              [this, &client] { message = client.complete(helloContext(), m_token, log.sink()); }))
    {
        m_thread->start();
    }
    ~WorkerCall()
    {
        m_token.abort();
        m_thread->wait();
    }
    QThread *thread() const { return m_thread.get(); }
    bool isFinished() const { return m_thread->isFinished(); }

    EventLog log;
    Message message; ///< valid once finished

private:
    AbortToken m_token;
    std::unique_ptr<QThread> m_thread;
};

/// Empty when \a message assembles to the fixture's expected result, else the first difference.
QString fixtureDifference(const Message &message, const QString &provider, const QString &name)
{
    return TestSupport::jsonDifference(TestSupport::readFixtureExpected(provider, name),
                                       toNormalizedJson(message));
}

const QByteArray OverloadedBody
    = R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})";

} // namespace

class tst_HttpModelClient : public QObject
{
    Q_OBJECT

private slots:
    void fixtureOverHttp_data();
    void fixtureOverHttp();
    void workerThread();
    void serverKeepingTheConnectionOpenAfterTheEnd();
    void dropMidStreamKeepsPartial_data();
    void dropMidStreamKeepsPartial();
    void idleStreamTimesOut_data();
    void idleStreamTimesOut();
    void abortFromAnotherThreadMidStream();
    void abortOfAWorkerFromTheUiThread();
    void abortBeforeStartSendsNothing();
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

void tst_HttpModelClient::fixtureOverHttp_data()
{
    QTest::addColumn<QString>("provider");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("chunking");
    QTest::addColumn<QList<QByteArray>>("pieces");
    const QStringList providers = TestSupport::fixtureProviders();
    QVERIFY(!providers.isEmpty());
    for (const QString &provider : providers) {
        for (const QString &name : TestSupport::fixtureNames(provider)) {
            const QByteArray stream = TestSupport::readFixtureStream(provider, name);
            for (const TestSupport::NamedChunks &chunking : TestSupport::standardChunkings(stream)) {
                const QString row = provider + u'/' + name + u'/' + chunking.name;
                QTest::newRow(qPrintable(row))
                    << provider << name << chunking.name << chunking.chunks;
            }
        }
    }
}

void tst_HttpModelClient::fixtureOverHttp()
{
    QFETCH(QString, provider);
    QFETCH(QString, name);
    QFETCH(QString, chunking);
    QFETCH(QList<QByteArray>, pieces);

    HttpTestServer server;
    QVERIFY(server.isListening());
    ScriptedResponse response = ScriptedResponse::sse(pieces);
    // Few cuts whose exact place matters: a pause makes each piece a read of its own. Otherwise
    // every piece leaves in its own event-loop turn, and reads are a mix of sizes.
    if (chunking == QLatin1String("crlf-split") || chunking == QLatin1String("utf8-split"))
        response.pieceDelayMs = 1;
    server.enqueue(response);
    EventLog log;
    const Message message = completeWith(configFor(provider, server), log);

    const QString difference = fixtureDifference(message, provider, name);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));

    QCOMPARE(server.requests().size(), 1);
    const TestSupport::RecordedRequest &request = server.requests().constFirst();
    QCOMPARE(request.method, QByteArray("POST"));
    QCOMPARE(request.path, expectedPath(provider));
    QCOMPARE(request.header("accept"), QByteArray("text/event-stream"));
    if (provider == QLatin1String("anthropic")) {
        QCOMPARE(request.header("x-api-key"), ApiKey.toUtf8());
        QVERIFY(request.header("authorization").isEmpty());
    } else {
        QCOMPARE(request.header("authorization"), "Bearer " + ApiKey.toUtf8());
    }
    QVERIFY(!QJsonDocument::fromJson(request.body).isNull());

    QVERIFY(!log.events.isEmpty());
    QVERIFY(log.ofType(StreamEvent::Type::Retry).isEmpty());
    const bool failed = message.stopReason == StopReason::Error;
    QCOMPARE(log.events.constLast().type,
             failed ? StreamEvent::Type::Error : StreamEvent::Type::Done);
    QCOMPARE(log.events.constLast().stopReason, message.stopReason);
}

void tst_HttpModelClient::workerThread()
{
    // As the agent runs it: the client on a worker thread, the server on the test thread.
    HttpTestServer server;
    const QByteArray stream = fixture("anthropic", "sonnet45-text-then-tool");
    ScriptedResponse response = ScriptedResponse::sse(
        TestSupport::splitBytes(stream, TestSupport::ChunkStrategy::random(3, 40)));
    response.pieceDelayMs = 2;
    server.enqueue(response);

    auto client = std::make_unique<HttpModelClient>(configFor(QStringLiteral("anthropic"), server));
    WorkerCall call(*client, AbortToken());
    QTRY_VERIFY_WITH_TIMEOUT(call.isFinished(), 20'000);

    const QString difference = fixtureDifference(call.message,
                                                 QStringLiteral("anthropic"),
                                                 QStringLiteral("sonnet45-text-then-tool"));
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
    QVERIFY(!call.log.threads.isEmpty());
    for (QThread *thread : std::as_const(call.log.threads))
        QCOMPARE(thread, call.thread());
    client.reset(); // after its thread finished: must not crash or warn
}

void tst_HttpModelClient::serverKeepingTheConnectionOpenAfterTheEnd()
{
    // Some servers keep the connection open after [DONE]: the message is complete anyway.
    HttpTestServer server;
    ScriptedResponse response = ScriptedResponse::sse({fixture("openai-chat", "gpt4o-tool-nyc")});
    response.ending = ScriptedResponse::Ending::Stall;
    server.enqueue(response);
    EventLog log;
    QElapsedTimer timer;
    timer.start();
    const Message message = completeWith(configFor(QStringLiteral("openai-chat"), server), log);
    QVERIFY2(timer.elapsed() < 5'000, qPrintable(QString::number(timer.elapsed())));
    QCOMPARE(message.stopReason, StopReason::ToolUse);
    QCOMPARE(message.toolCalls().size(), 1);
}

void tst_HttpModelClient::dropMidStreamKeepsPartial_data()
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

void tst_HttpModelClient::dropMidStreamKeepsPartial()
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

    EventLog log;
    const Message message = completeWith(configFor(QStringLiteral("openai-chat"), server), log);

    QCOMPARE(message.stopReason, StopReason::Error);
    QVERIFY(!message.text().isEmpty());
    const QString full = expectedText(
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

void tst_HttpModelClient::idleStreamTimesOut_data()
{
    QTest::addColumn<bool>("afterSomeOutput");
    QTest::newRow("stalls mid-stream") << true;
    QTest::newRow("never answers") << false;
}

void tst_HttpModelClient::idleStreamTimesOut()
{
    QFETCH(bool, afterSomeOutput);
    HttpTestServer server;
    server.enqueue(firstHalfThen(fixture("anthropic", "sonnet45-text"),
                                 afterSomeOutput ? ScriptedResponse::Ending::Stall
                                                 : ScriptedResponse::Ending::Silent));

    ProviderConfig config = configFor(QStringLiteral("anthropic"), server);
    config.idleTimeoutMs = 300;
    EventLog log;
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

void tst_HttpModelClient::abortFromAnotherThreadMidStream()
{
    HttpTestServer server;
    server.enqueue(
        firstHalfThen(fixture("anthropic", "sonnet45-text"), ScriptedResponse::Ending::Stall));

    HttpModelClient client(configFor(QStringLiteral("anthropic"), server));
    AbortToken token;
    std::thread aborter;
    EventLog log;
    const StreamEventSink record = log.sink();
    QElapsedTimer timer;
    const auto sink = [&](const StreamEvent &event) {
        record(event);
        if (event.type == StreamEvent::Type::TextDelta && !aborter.joinable()) {
            timer.start();
            aborter = std::thread([token]() mutable { token.abort(); });
        }
    };
    const Message message = client.complete(helloContext(), token, sink);
    const qint64 elapsed = timer.elapsed();
    aborter.join();

    QVERIFY2(elapsed < 2'000, qPrintable(QString::number(elapsed)));
    QCOMPARE(message.stopReason, StopReason::Aborted);
    QVERIFY(!message.text().isEmpty());
    QCOMPARE(log.events.constLast().type, StreamEvent::Type::Error);
    QCOMPARE(log.events.constLast().stopReason, StopReason::Aborted);
}

void tst_HttpModelClient::abortOfAWorkerFromTheUiThread()
{
    HttpTestServer server;
    server.enqueue(firstHalfThen(fixture("openai-chat", "gpt4o-text-weather"),
                                 ScriptedResponse::Ending::Stall));

    HttpModelClient client(configFor(QStringLiteral("openai-chat"), server));
    AbortToken token;
    WorkerCall call(client, token);
    QTRY_VERIFY(!call.log.ofType(StreamEvent::Type::TextDelta).isEmpty());
    QElapsedTimer timer;
    timer.start();
    token.abort();
    QTRY_VERIFY_WITH_TIMEOUT(call.isFinished(), 5'000);
    QVERIFY2(timer.elapsed() < 2'000, qPrintable(QString::number(timer.elapsed())));
    QCOMPARE(call.message.stopReason, StopReason::Aborted);
    QVERIFY(!call.message.text().isEmpty());
    QCOMPARE(call.log.events.constLast().stopReason, StopReason::Aborted);
}

void tst_HttpModelClient::abortBeforeStartSendsNothing()
{
    HttpTestServer server;
    server.enqueue(ScriptedResponse::sse({fixture("anthropic", "sonnet45-text")}));
    AbortToken token;
    token.abort();
    EventLog log;
    const Message message = completeWith(configFor(QStringLiteral("anthropic"), server), log, token);
    QCOMPARE(message.stopReason, StopReason::Aborted);
    QVERIFY(message.content.isEmpty());
    QVERIFY(server.requests().isEmpty());
    QCOMPARE(log.events.constLast().type, StreamEvent::Type::Error);
}

void tst_HttpModelClient::abortDuringRetryWait()
{
    HttpTestServer server;
    server.enqueue(ScriptedResponse::retryAfterMs(529, 30'000, OverloadedBody));
    server.enqueue(ScriptedResponse::sse({fixture("anthropic", "sonnet45-text")}));
    HttpModelClient client(configFor(QStringLiteral("anthropic"), server));
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

void tst_HttpModelClient::retryThenSuccess_data()
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

void tst_HttpModelClient::retryThenSuccess()
{
    QFETCH(ScriptedResponse, failure);
    QFETCH(int, minDelay);
    QFETCH(int, maxDelay);
    HttpTestServer server;
    server.enqueue(failure);
    server.enqueue(ScriptedResponse::sse({fixture("anthropic", "sonnet45-text")}));
    EventLog log;
    QElapsedTimer timer;
    timer.start();
    const Message message = completeWith(configFor(QStringLiteral("anthropic"), server), log);
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

void tst_HttpModelClient::retriesExhausted()
{
    HttpTestServer server;
    for (int i = 0; i < 3; ++i)
        server.enqueue(ScriptedResponse::error(529, OverloadedBody));
    ProviderConfig config = configFor(QStringLiteral("anthropic"), server);
    config.maxRetries = 2;
    EventLog log;
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

void tst_HttpModelClient::retryAfterLongerThanMaximumIsNotWaitedFor()
{
    HttpTestServer server;
    server.enqueue(ScriptedResponse::retryAfter(429, "120"));
    server.enqueue(ScriptedResponse::sse({fixture("openai-chat", "gpt4o-text-weather")}));
    ProviderConfig config = configFor(QStringLiteral("openai-chat"), server);
    config.retryMaxDelayMs = 60'000;
    EventLog log;
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

void tst_HttpModelClient::contextOverflow_data()
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

void tst_HttpModelClient::contextOverflow()
{
    QFETCH(QString, provider);
    QFETCH(QByteArray, body);
    QFETCH(QString, expectedText);
    HttpTestServer server;
    server.enqueue(ScriptedResponse::error(400, body));
    EventLog log;
    const Message message = completeWith(configFor(provider, server), log);

    QCOMPARE(message.stopReason, StopReason::ContextOverflow);
    QVERIFY2(message.errorMessage.contains(expectedText), qPrintable(message.errorMessage));
    QCOMPARE(server.requests().size(), 1);
    QCOMPARE(log.events.size(), 1); // no retry, one Error event
    QCOMPARE(log.ofType(StreamEvent::Type::Error).constFirst().stopReason, message.stopReason);
    QCOMPARE(log.events.constFirst().errorMessage, message.errorMessage);
}

void tst_HttpModelClient::htmlErrorBodyIsReadable()
{
    HttpTestServer server;
    server.enqueue(ScriptedResponse::error(
        500,
        "<html>\r\n<head><title>500 Internal Server Error</title></head>\r\n<body>\r\n"
        "<center><h1>500 Internal Server Error</h1></center>\r\n<hr><center>nginx</center>\r\n"
        "</body>\r\n</html>\r\n",
        "text/html"));
    ProviderConfig config = configFor(QStringLiteral("openai-chat"), server);
    config.maxRetries = 0;
    EventLog log;
    const Message message = completeWith(config, log);

    QCOMPARE(message.stopReason, StopReason::Error);
    QVERIFY2(message.errorMessage.contains(QLatin1String("Internal Server Error"))
                 && !message.errorMessage.contains(u'<'),
             qPrintable(message.errorMessage));
    QCOMPARE(server.requests().size(), 1);
}

void tst_HttpModelClient::resetBeforeAnyByteThenSuccess()
{
    // Qt's HTTP layer itself sends a request again when the connection closes before any
    // response byte (up to twice); beyond that the client's own retry takes over. Both end in
    // the complete message, without duplicated output.
    HttpTestServer server;
    for (int i = 0; i < 4; ++i)
        server.enqueue(ScriptedResponse::reset());
    server.enqueue(ScriptedResponse::sse({fixture("openai-chat", "gpt4o-tool-single")}));
    EventLog log;
    const Message message = completeWith(configFor(QStringLiteral("openai-chat"), server), log);

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

void tst_HttpModelClient::connectionRefusedIsRetriedThenFails()
{
    auto server = std::make_unique<HttpTestServer>();
    ProviderConfig config = configFor(QStringLiteral("openai-chat"), *server);
    server.reset(); // nothing listens on its port now
    config.maxRetries = 1;
    config.retryBaseDelayMs = 5;
    EventLog log;
    const Message message = completeWith(config, log);

    QCOMPARE(message.stopReason, StopReason::Error);
    QVERIFY2(message.errorMessage.contains(QLatin1String("refused")),
             qPrintable(message.errorMessage));
    QCOMPARE(log.ofType(StreamEvent::Type::Retry).size(), 1);
    QCOMPARE(log.events.constLast().type, StreamEvent::Type::Error);
}

void tst_HttpModelClient::apiKeyNeverInMessages()
{
    HttpTestServer server;
    const QByteArray echo = R"({"error":{"message":"Incorrect API key provided: )" + ApiKey.toUtf8()
                            + R"(.","type":"invalid_request_error","code":"invalid_api_key"}})";
    server.enqueue(ScriptedResponse::error(401, echo));
    server.enqueue(ScriptedResponse::retryAfterMs(429, 1, echo));
    server.enqueue(ScriptedResponse::error(400, echo));
    HttpModelClient client(configFor(QStringLiteral("openai-chat"), server));
    for (int i = 0; i < 2; ++i) {
        EventLog log;
        const Message message = client.complete(helloContext(), AbortToken(), log.sink());
        QCOMPARE(message.stopReason, StopReason::Error);
        QVERIFY(message.errorMessage.contains(QLatin1String("Incorrect API key")));
        QVERIFY(!message.errorMessage.contains(ApiKey));
        for (const StreamEvent &event : std::as_const(log.events))
            QVERIFY(!event.errorMessage.contains(ApiKey));
    }
}

void tst_HttpModelClient::hostileServerNeverCrashes_data()
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

void tst_HttpModelClient::hostileServerNeverCrashes()
{
    QFETCH(ScriptedResponse, response);
    HttpTestServer server;
    server.enqueue(response);
    ProviderConfig config = configFor(QStringLiteral("openai-chat"), server);
    config.maxRetries = 0;
    EventLog log;
    const Message message = completeWith(config, log);
    QCOMPARE(message.stopReason, StopReason::Error);
    QVERIFY(!message.errorMessage.isEmpty());
    QVERIFY(message.errorMessage.size() < 4096);
    QCOMPARE(log.events.constLast().type, StreamEvent::Type::Error);
}

void tst_HttpModelClient::retryAfterDelay_data()
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

void tst_HttpModelClient::retryAfterDelay()
{
    QFETCH(QByteArray, retryAfterMs);
    QFETCH(QByteArray, retryAfter);
    QFETCH(qint64, expected);
    const QDateTime now(QDate(2015, 10, 21), QTime(7, 28), QTimeZone::utc());
    const std::optional<qint64> delay = retryAfterDelayMs(retryAfterMs, retryAfter, now);
    QCOMPARE(delay.value_or(-1), expected);
}

QTEST_GUILESS_MAIN(tst_HttpModelClient)

#include "tst_httpmodelclient.moc"
