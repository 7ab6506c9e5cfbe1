#include "ai/httpmodelclient.h"

#include "fixtures.h"
#include "httpclienttest.h"
#include "httptestserver.h"
#include "workercall.h"

#include <ai/messagejson.h>
#include <testmain.h>

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QTest>
#include <QThread>

#include <memory>
#include <thread>

using namespace AgentCore;
using namespace TestSupport;

namespace tst_httpmodelclient {

// HttpModelClient streaming the recorded fixtures over real HTTP, on the test thread and on a
// worker, and aborted. Failures and retries: tst_httpmodelclientfailures.cpp.
class tst_HttpModelClient : public QObject
{
    Q_OBJECT

private slots:
    void fixtureOverHttp_data();
    void fixtureOverHttp();
    void workerThread();
    void serverKeepingTheConnectionOpenAfterTheEnd();
    void abortFromAnotherThreadMidStream();
    void abortOfAWorkerFromTheUiThread();
    void abortBeforeStartSendsNothing();
};

void tst_HttpModelClient::fixtureOverHttp_data()
{
    QTest::addColumn<QString>("provider");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("chunking");
    QTest::addColumn<QList<QByteArray>>("pieces");
    const QStringList providers = TestSupport::fixtureProviders();
    QVERIFY(!providers.isEmpty());
    qsizetype fixtures = 0;
    for (const QString &provider : providers) {
        fixtures += TestSupport::fixtureNames(provider).size();
        for (const QString &name : TestSupport::fixtureNames(provider)) {
            const QByteArray stream = TestSupport::readFixtureStream(provider, name);
            for (const TestSupport::NamedChunks &chunking : TestSupport::standardChunkings(stream)) {
                const QString row = provider + u'/' + name + u'/' + chunking.name;
                QTest::newRow(qPrintable(row))
                    << provider << name << chunking.name << chunking.chunks;
            }
        }
    }
    QCOMPARE(fixtures, 21); // every recorded SDK result, none skipped
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
    StreamEventLog log;
    const Message message = completeWith(httpClientConfig(provider, server), log);

    // Identical to the SDK's result, the three Anthropic streams whose message_stop no blank
    // line (not even a line break) follows included: the body ended cleanly after it.
    const QJsonObject expected = TestSupport::readFixtureExpected(provider, name);
    const QString difference = TestSupport::jsonDifference(expected,
                                                           AgentCore::toNormalizedJson(message));
    QVERIFY2(difference.isEmpty(), qPrintable(difference));

    QCOMPARE(server.requests().size(), 1);
    const TestSupport::RecordedRequest &request = server.requests().constFirst();
    QCOMPARE(request.method, QByteArray("POST"));
    QCOMPARE(request.path, httpClientExpectedPath(provider));
    QCOMPARE(request.header("accept"), QByteArray("text/event-stream"));
    if (provider == QLatin1String("anthropic")) {
        QCOMPARE(request.header("x-api-key"), HttpClientApiKey.toUtf8());
        QVERIFY(request.header("authorization").isEmpty());
    } else {
        QCOMPARE(request.header("authorization"), "Bearer " + HttpClientApiKey.toUtf8());
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

    auto client = std::make_unique<HttpModelClient>(
        httpClientConfig(QStringLiteral("anthropic"), server));
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
    StreamEventLog log;
    QElapsedTimer timer;
    timer.start();
    const Message message = completeWith(httpClientConfig(QStringLiteral("openai-chat"), server),
                                         log);
    QVERIFY2(timer.elapsed() < 5'000, qPrintable(QString::number(timer.elapsed())));
    QCOMPARE(message.stopReason, StopReason::ToolUse);
    QCOMPARE(message.toolCalls().size(), 1);
}

void tst_HttpModelClient::abortFromAnotherThreadMidStream()
{
    HttpTestServer server;
    server.enqueue(
        firstHalfThen(fixture("anthropic", "sonnet45-text"), ScriptedResponse::Ending::Stall));

    HttpModelClient client(httpClientConfig(QStringLiteral("anthropic"), server));
    AbortToken token;
    std::thread aborter;
    StreamEventLog log;
    const StreamEventSink record = log.sink();
    QElapsedTimer timer;
    const auto sink = [&](const StreamEvent &event) {
        record(event);
        if (event.type == StreamEvent::Type::TextDelta && !aborter.joinable()) {
            timer.start();
            aborter = std::thread([token]() mutable { token.abort(); });
        }
    };
    const Message message = client.complete(httpClientHelloContext(), token, sink);
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

    HttpModelClient client(httpClientConfig(QStringLiteral("openai-chat"), server));
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
    StreamEventLog log;
    const Message message = completeWith(httpClientConfig(QStringLiteral("anthropic"), server),
                                         log,
                                         token);
    QCOMPARE(message.stopReason, StopReason::Aborted);
    QVERIFY(message.content.isEmpty());
    QVERIFY(server.requests().isEmpty());
    QCOMPARE(log.events.constLast().type, StreamEvent::Type::Error);
}

AGENTDESK_GUILESS_TEST_MAIN(tst_HttpModelClient)

} // namespace tst_httpmodelclient

#include "tst_httpmodelclient.moc"
