#include "ai/httpmodelclient.h"
#include "ai/requestbuilder.h"

#include "httpclienttest.h"
#include "httptestserver.h"
#include "streameventlog.h"

#include <QTest>
#include <testmain.h>

#include <algorithm>
#include <chrono>

using namespace AgentCore;
using namespace TestSupport;
using namespace std::chrono_literals;

namespace tst_wirelatency {

// What the wire costs per turn: a request reaches the server as soon as it is built, and a
// session keeps one connection. The server is the real HTTP/1.1 server of the tests on
// 127.0.0.1, keeping its connections alive as a local model server (Ollama, llama.cpp) does.
class tst_WireLatency : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void largeRequestArrivesAtOnce_data();
    void largeRequestArrivesAtOnce();
    void oneConnectionPerSession();
    void timePerTurnAt660KB();
};

namespace {

constexpr int Turns = 6;

/// A history of about \a bytes: a user message the size of a few files read.
Context historyOf(qsizetype bytes)
{
    Context context = httpClientHelloContext();
    QString text;
    text.reserve(bytes);
    for (int line = 0; text.size() < bytes; ++line)
        text += QStringLiteral("%1\tdef function_%1(argument): return argument * %1\n").arg(line);
    context.messages.prepend(Message::makeUser(text));
    return context;
}

/// Turn \a turn of a session: the answer of the previous turn and a new question appended.
void nextTurn(Context &context, const Message &answer, int turn)
{
    context.messages.append(answer);
    context.messages.append(Message::makeUser(QStringLiteral("And now step %1?").arg(turn)));
}

QString milliseconds(std::chrono::steady_clock::duration duration)
{
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(duration).count();
    return QString::number(double(us) / 1000, 'f', 1);
}

} // namespace

void tst_WireLatency::initTestCase()
{
    // The process's first request pays for what Qt sets up once (its network thread, proxy
    // settings): not what the tests below measure.
    HttpTestServer server;
    QVERIFY(server.isListening());
    server.enqueue(ScriptedResponse::sse({fixture("anthropic", "sonnet45-text")}));
    StreamEventLog log;
    QCOMPARE(completeWith(httpClientConfig(QStringLiteral("anthropic"), server), log).stopReason,
             StopReason::Stop);
}

void tst_WireLatency::largeRequestArrivesAtOnce_data()
{
    QTest::addColumn<QString>("provider");
    QTest::addColumn<qsizetype>("historyBytes");
    for (const char *provider : {"anthropic", "openai-chat", "openai-responses"})
        QTest::newRow(provider) << QString::fromLatin1(provider) << qsizetype(100'000);
}

void tst_WireLatency::largeRequestArrivesAtOnce()
{
    // A request larger than the 16 KiB Qt writes at a time must not wait for the server's
    // delayed ACK (40 ms on Linux) before its last segment leaves. Before the fix every request
    // after the first of a connection reached the server 43-58 ms after complete() was called;
    // now it arrives within a few ms (building the JSON body included). A correctness bound for
    // "no stall", not a benchmark: the median of the turns stays far below the 40 ms a stall
    // costs each of them, even on a busy machine where a single turn may take longer.
    QFETCH(QString, provider);
    QFETCH(qsizetype, historyBytes);

    HttpTestServer server;
    QVERIFY(server.isListening());
    server.setKeepAlive(true);
    const char *stream = provider == QLatin1String("anthropic")     ? "sonnet45-text"
                         : provider == QLatin1String("openai-chat") ? "gpt4o-text-weather"
                                                                    : "gpt4o-mini-text";
    for (int turn = 0; turn < Turns; ++turn)
        server.enqueue(ScriptedResponse::sse({fixture(provider.toLatin1().constData(), stream)}));

    HttpModelClient client(httpClientConfig(provider, server));
    Context context = historyOf(historyBytes);
    QList<std::chrono::steady_clock::duration> waits;
    for (int turn = 0; turn < Turns; ++turn) {
        StreamEventLog log;
        const auto start = std::chrono::steady_clock::now();
        const Message answer = client.complete(context, AbortToken(), log.sink());
        QCOMPARE(answer.stopReason, StopReason::Stop);
        QCOMPARE(server.requests().size(), turn + 1);
        const RecordedRequest &request = server.requests().at(turn);
        QVERIFY(request.body.size() >= historyBytes);
        waits.append(request.completedAt - start);
        nextTurn(context, answer, turn);
    }
    QCOMPARE(server.connectionsAccepted(), 1);

    QStringList shown;
    for (const auto wait : std::as_const(waits))
        shown.append(milliseconds(wait));
    const QString figures = QStringLiteral("complete() to the request's last byte at the server, "
                                           "per turn, ms: %1")
                                .arg(shown.join(QLatin1String(", ")));
    qInfo("%s", qPrintable(figures));
    std::sort(waits.begin(), waits.end());
    QVERIFY2(waits.at(waits.size() / 2) < 20ms, qPrintable(figures));
}

void tst_WireLatency::oneConnectionPerSession()
{
    // Every turn of a session reuses the connection of the first: no TCP (or TLS) setup per
    // request, and a connection whose options were set once keeps them.
    HttpTestServer server;
    QVERIFY(server.isListening());
    server.setKeepAlive(true);
    for (int turn = 0; turn < Turns; ++turn)
        server.enqueue(ScriptedResponse::sse({fixture("anthropic", "sonnet45-text")}));

    HttpModelClient client(httpClientConfig(QStringLiteral("anthropic"), server));
    Context context = historyOf(20'000);
    for (int turn = 0; turn < Turns; ++turn) {
        StreamEventLog log;
        const Message answer = client.complete(context, AbortToken(), log.sink());
        QCOMPARE(answer.stopReason, StopReason::Stop);
        nextTurn(context, answer, turn);
    }
    QCOMPARE(server.requests().size(), Turns);
    QCOMPARE(server.connectionsAccepted(), 1);
    for (const RecordedRequest &request : server.requests())
        QCOMPARE(request.connection, 0);
}

void tst_WireLatency::timePerTurnAt660KB()
{
    // The figures of issue #22 at a 660 KB history (printed, not asserted: a benchmark, not a
    // test): AgentDesk's own time per turn, from the server's last response byte to the next
    // request's first byte at the server (reading the end of the response, building the
    // request, handing it to Qt), and the whole request on the wire.
    HttpTestServer server;
    QVERIFY(server.isListening());
    server.setKeepAlive(true);
    for (int turn = 0; turn < Turns; ++turn)
        server.enqueue(ScriptedResponse::sse({fixture("anthropic", "sonnet45-text")}));
    QList<std::chrono::steady_clock::time_point> responseEnds;
    connect(&server, &HttpTestServer::responseFinished, this, [&responseEnds] {
        responseEnds.append(std::chrono::steady_clock::now());
    });

    const ProviderConfig config = httpClientConfig(QStringLiteral("anthropic"), server);
    HttpModelClient client(config);
    Context context = historyOf(660'000);
    QStringList building;
    QStringList ownTime;
    QStringList firstByte;
    QStringList onTheWire;
    for (int turn = 0; turn < Turns; ++turn) {
        const auto buildStart = std::chrono::steady_clock::now();
        const HttpRequestSpec spec = buildRequest(config, context);
        building.append(milliseconds(std::chrono::steady_clock::now() - buildStart));
        StreamEventLog log;
        const auto start = std::chrono::steady_clock::now();
        const Message answer = client.complete(context, AbortToken(), log.sink());
        QCOMPARE(answer.stopReason, StopReason::Stop);
        const RecordedRequest &request = server.requests().at(turn);
        QCOMPARE(request.body, spec.body);
        firstByte.append(milliseconds(request.startedAt - start));
        onTheWire.append(milliseconds(request.completedAt - request.startedAt));
        if (turn > 0)
            ownTime.append(milliseconds(request.startedAt - responseEnds.at(turn - 1)));
        nextTurn(context, answer, turn);
    }
    QCOMPARE(server.connectionsAccepted(), 1);
    const QLatin1String comma(", ");
    qInfo("660 KB, ms per turn: building the request alone (buildRequest()): %s",
          qPrintable(building.join(comma)));
    qInfo("660 KB, ms per turn: complete() to the first request byte at the server: %s",
          qPrintable(firstByte.join(comma)));
    qInfo("660 KB, ms per turn: last response byte sent to the next request's first byte: %s",
          qPrintable(ownTime.join(comma)));
    qInfo("660 KB, ms per turn: the request's first to last byte at the server: %s",
          qPrintable(onTheWire.join(comma)));
}

AGENTDESK_GUILESS_TEST_MAIN(tst_WireLatency)

} // namespace tst_wirelatency

#include "tst_wirelatency.moc"
