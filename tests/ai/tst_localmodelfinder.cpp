#include "ai/localmodelfinder.h"

#include "httptestserver.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>
#include <testmain.h>

using namespace AgentCore;
using namespace TestSupport;

namespace tst_localmodelfinder {

namespace {

// A port nobody listens on: one the system gave and took back.
quint16 closedPortForFinder()
{
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost))
        return 0;
    const quint16 port = server.serverPort();
    server.close();
    return port;
}

struct FinderRun
{
    QList<LocalModelServer> servers;
    bool reported = false;
    bool synchronous = false;
    qint64 elapsedMs = 0;
};

FinderRun runFinder(const QList<quint16> &ports, int timeoutMs = 2'000)
{
    LocalModelFinder finder;
    finder.setPorts(ports);
    finder.setTimeout(timeoutMs);
    QSignalSpy spy(&finder, &LocalModelFinder::finished);
    QElapsedTimer clock;
    clock.start();
    finder.find();
    FinderRun run;
    run.synchronous = !spy.isEmpty();
    run.reported = spy.wait(timeoutMs + 10'000);
    run.elapsedMs = clock.elapsed();
    if (run.reported)
        run.servers = spy.first().first().value<QList<LocalModelServer>>();
    return run;
}

// What a local server may send: nothing of it may become an offer, nor keep the finder.
ScriptedResponse hostileModelsAnswer(const QByteArray &kind)
{
    ScriptedResponse response = ScriptedResponse::error(200, {});
    response.pieces.clear();
    if (kind == "garbage") {
        response.pieces = {QByteArray("\x00\xff{[\"data\": nonsense", 19)};
    } else if (kind == "not a list") {
        response.pieces = {R"({"data":{"id":"m"}})"};
    } else if (kind == "no models") {
        response.pieces = {R"({"object":"list","data":[]})"};
    } else if (kind == "huge") {
        response.framing = ScriptedResponse::Framing::Chunked;
        response.pieces = {R"({"data":[)", QByteArray(R"({"id":"padding-model"},)").repeated(1000)};
        response.repeatLastPiece = 400; // about 9 MB
        response.pieceDelayMs = -1;
    } else if (kind == "slow") {
        // A valid answer, one byte at a time, every 150 ms: never done within the timeout.
        response.framing = ScriptedResponse::Framing::Chunked;
        const QByteArray body = R"({"data":[{"id":"slow-model"}]})";
        for (const char c : body)
            response.pieces.append(QByteArray(1, c));
        response.pieceDelayMs = 150;
    } else if (kind == "silent") {
        response.ending = ScriptedResponse::Ending::Silent;
    } else if (kind == "wants a key") {
        response = ScriptedResponse::error(401, R"({"error":"unauthorized"})");
    } else if (kind == "redirect") {
        response = ScriptedResponse::error(302, {}).withHeader("Location",
                                                               "http://example.com/v1/models");
    }
    return response;
}

} // namespace

// LocalModelFinder against real servers on 127.0.0.1: what it sends (only GET /v1/models,
// nothing else), what it offers, and servers that lie, flood or stall.
class tst_LocalModelFinder : public QObject
{
    Q_OBJECT

private slots:
    void defaultPortsAreTheUsualServers()
    {
        QCOMPARE(LocalModelFinder::defaultPorts(), (QList<quint16>{11434, 8080, 1234}));
        QCOMPARE(LocalModelFinder().ports(), LocalModelFinder::defaultPorts());
    }

    void findsAServerAndSendsOnlyTheProbe()
    {
        HttpTestServer server;
        QVERIFY(server.isListening());
        server.enqueue(ScriptedResponse::error(
            200,
            R"({"object":"list","data":[{"id":"qwen3-coder:30b","owned_by":"library"},)"
            R"({"id":"llama3.2:latest","owned_by":"library"}]})"));
        const quint16 closed = closedPortForFinder();
        QVERIFY(closed != 0);
        const FinderRun run = runFinder({closed, server.port()});
        QVERIFY(!run.synchronous);
        QVERIFY(run.reported);
        QCOMPARE(run.servers.size(), 1);
        const LocalModelServer found = run.servers.first();
        QCOMPARE(found.port, server.port());
        QCOMPARE(found.baseUrl, QUrl(QStringLiteral("http://127.0.0.1:%1/v1").arg(server.port())));
        QCOMPARE(found.models, (QStringList{"qwen3-coder:30b", "llama3.2:latest"}));
        QCOMPARE(found.ownedBy, QStringLiteral("library"));

        // One request: GET /v1/models, without a body and without any key.
        QCOMPARE(server.requests().size(), 1);
        const RecordedRequest &request = server.requests().first();
        QCOMPARE(request.method, QByteArray("GET"));
        QCOMPARE(request.path, QByteArray("/v1/models"));
        QVERIFY(request.body.isEmpty());
        QCOMPARE(request.header("authorization"), QByteArray());
        QCOMPARE(request.header("x-api-key"), QByteArray());
        QCOMPARE(request.header("content-length"), QByteArray());
        for (const auto &[name, value] : request.headers)
            QVERIFY2(!value.contains("sk-"), name.constData());
    }

    void hostileServersGiveNoOfferAndNoHang_data()
    {
        QTest::addColumn<QByteArray>("kind");
        for (const char *kind : {"garbage",
                                 "not a list",
                                 "no models",
                                 "huge",
                                 "slow",
                                 "silent",
                                 "wants a key",
                                 "redirect"}) {
            QTest::newRow(kind) << QByteArray(kind);
        }
    }

    void hostileServersGiveNoOfferAndNoHang()
    {
        QFETCH(QByteArray, kind);
        HttpTestServer server;
        QVERIFY(server.isListening());
        server.enqueue(hostileModelsAnswer(kind));
        const int timeoutMs = 1'500;
        const FinderRun run = runFinder({server.port()}, timeoutMs);
        QVERIFY(run.reported);
        QVERIFY2(run.servers.isEmpty(), qPrintable(run.servers.value(0).models.join(u',')));
        // Done by the deadline, not by the server's end (a slow or silent one never ends).
        QVERIFY2(run.elapsedMs < timeoutMs + 1'500, qPrintable(QString::number(run.elapsedMs)));
        QVERIFY(server.requests().size() <= 1); // the redirect is not followed
        server.closeConnections();
    }

    void noPortsReportLater()
    {
        const FinderRun run = runFinder({});
        QVERIFY(!run.synchronous);
        QVERIFY(run.reported);
        QVERIFY(run.servers.isEmpty());
    }

    void aNewSearchDropsTheOldOne()
    {
        HttpTestServer server;
        server.enqueue(hostileModelsAnswer("silent"));
        server.enqueue(ScriptedResponse::error(200, R"({"data":[{"id":"m"}]})"));
        LocalModelFinder finder;
        finder.setPorts({server.port()});
        QSignalSpy spy(&finder, &LocalModelFinder::finished);
        finder.find();
        QTRY_COMPARE(server.requests().size(), 1);
        finder.find(); // the silent one is dropped: only this search reports
        QVERIFY(spy.wait(10'000));
        QTest::qWait(100);
        QCOMPARE(spy.size(), 1);
        const auto servers = spy.first().first().value<QList<LocalModelServer>>();
        QCOMPARE(servers.size(), 1);
        QCOMPARE(servers.first().models, QStringList{QStringLiteral("m")});
        server.closeConnections();
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_LocalModelFinder)

} // namespace tst_localmodelfinder

#include "tst_localmodelfinder.moc"
