#include "ai/servedmodels.h"

#include "httptestserver.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>
#include <testmain.h>

using namespace AgentCore;
using namespace TestSupport;

namespace tst_servedmodels {

// ServedModels against a real server on 127.0.0.1: the answers of Ollama, llama.cpp, vLLM and
// LM Studio, and servers that fail or lie. The UI must never block on it, and a hostile
// server must not make it hold unbounded data or show the key.
class tst_ServedModels : public QObject
{
    Q_OBJECT

private slots:
    void listsTheServersModels_data();
    void listsTheServersModels();
    void sendsTheKeyOnlyWhenGiven();
    void failuresSayWhy_data();
    void failuresSayWhy();
    void keyNeverInTheError();
    void oversizedAnswerIsNotRead();
    void redirectIsNotFollowed();
    void silentServerTimesOut();
    void unreachableServer();
    void onlyTheLatestRequestReports();
    void notAnHttpUrlReportsLater();

private:
    static ServedModelsResult fetchFrom(const QUrl &baseUrl, const QString &key = {});
};

ServedModelsResult tst_ServedModels::fetchFrom(const QUrl &baseUrl, const QString &key)
{
    ServedModels models;
    QSignalSpy spy(&models, &ServedModels::finished);
    models.fetch(baseUrl, key);
    // Asynchronous: nothing is reported before the event loop runs.
    if (!spy.isEmpty())
        return {QUrl(), {}, QStringLiteral("reported synchronously")};
    if (!spy.wait(20000))
        return {QUrl(), {}, QStringLiteral("no answer")};
    return spy.first().first().value<ServedModelsResult>();
}

void tst_ServedModels::listsTheServersModels_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QStringList>("expected");
    // As the servers answer (abridged to the fields that differ).
    QTest::newRow("ollama") << QByteArray(
        R"({"object":"list","data":[)"
        R"({"id":"qwen3-coder:30b","object":"model","created":1754000000,"owned_by":"library"},)"
        R"({"id":"llama3.2:latest","object":"model","created":1753000000,"owned_by":"library"}]})")
                            << QStringList{"qwen3-coder:30b", "llama3.2:latest"};
    QTest::newRow("llama.cpp") << QByteArray(
        R"({"models":[{"name":"m","model":"m"}],"object":"list","data":[)"
        R"({"id":"/models/Qwen3-8B-Q4_K_M.gguf","object":"model","owned_by":"llamacpp","meta":{"n_ctx_train":40960}}]})")
                               << QStringList{"/models/Qwen3-8B-Q4_K_M.gguf"};
    QTest::newRow("vllm") << QByteArray(
        R"({"object":"list","data":[{"id":"Qwen/Qwen3-Coder-30B-A3B-Instruct",)"
        R"("object":"model","owned_by":"vllm","root":"Qwen/Qwen3-Coder-30B-A3B-Instruct",)"
        R"("parent":null,"max_model_len":32768,"permission":[{}]}]})")
                          << QStringList{"Qwen/Qwen3-Coder-30B-A3B-Instruct"};
    QTest::newRow("lm studio") << QByteArray(
        R"({"data":[{"id":"qwen/qwen3-coder-30b","object":"model","owned_by":"organization_owner"},)"
        R"({"id":"text-embedding-nomic-embed-text-v1.5","object":"model","owned_by":"organization_owner"}],"object":"list"})")
                               << QStringList{"qwen/qwen3-coder-30b",
                                              "text-embedding-nomic-embed-text-v1.5"};
    QTest::newRow("no models") << QByteArray(R"({"object":"list","data":[]})") << QStringList();
    QTest::newRow("duplicates and junk are dropped")
        << QByteArray(R"({"data":[{"id":"a"},{"id":"a"},{"id":42},"b",{"id":""},{"id":"  "},)"
                      R"({"id":"evil\nline"},{"id":"bell\u0007"},{"id":"ok"}]})")
        << QStringList{"a", "ok"};
}

void tst_ServedModels::listsTheServersModels()
{
    QFETCH(QByteArray, body);
    QFETCH(QStringList, expected);
    HttpTestServer server;
    QVERIFY(server.isListening());
    server.enqueue(ScriptedResponse::error(200, body));
    const ServedModelsResult result = fetchFrom(server.url(QStringLiteral("/v1/")));
    QVERIFY2(result.succeeded(), qPrintable(result.error));
    QCOMPARE(result.models, expected);
    QCOMPARE(result.baseUrl, server.url(QStringLiteral("/v1/")));
    QCOMPARE(server.requests().size(), 1);
    QCOMPARE(server.requests().first().method, QByteArray("GET"));
    QCOMPARE(server.requests().first().path, QByteArray("/v1/models"));
}

void tst_ServedModels::sendsTheKeyOnlyWhenGiven()
{
    HttpTestServer server;
    const QByteArray body = R"({"data":[{"id":"m"}]})";
    server.enqueue(ScriptedResponse::error(200, body));
    server.enqueue(ScriptedResponse::error(200, body));
    QVERIFY(
        fetchFrom(server.url(QStringLiteral("/v1")), QStringLiteral("sk-local-123")).succeeded());
    QVERIFY(fetchFrom(server.url(QStringLiteral("/v1"))).succeeded());
    QCOMPARE(server.requests().size(), 2);
    QCOMPARE(server.requests().at(0).header("authorization"), QByteArray("Bearer sk-local-123"));
    QCOMPARE(server.requests().at(1).header("authorization"), QByteArray());
}

void tst_ServedModels::failuresSayWhy_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("expected");
    QTest::newRow("no key") << 401 << QByteArray(R"({"error":"unauthorized"})") << QString()
                            << "The server wants an API key (HTTP 401).";
    QTest::newRow("wrong key") << 403 << QByteArray() << "sk-wrong"
                               << "The server did not accept the API key (HTTP 403).";
    QTest::newRow("openai error") << 404
                                  << QByteArray(
                                         R"({"error":{"message":"Not found: /v1/models","type":"x"}})")
                                  << QString()
                                  << "The server answered HTTP 404: Not found: /v1/models";
    QTest::newRow("ollama error") << 500 << QByteArray(R"({"error":"model runner crashed"})")
                                  << QString()
                                  << "The server answered HTTP 500: model runner crashed";
    // The body is read as describeHttpError reads a provider's (one implementation, httperror.h).
    QTest::newRow("html page") << 502
                               << QByteArray("<html><head><title>502 Bad Gateway</title></head>"
                                             "<body><center><h1>502 Bad Gateway</h1></center>"
                                             "<hr><center>nginx</center></body></html>")
                               << QString() << "The server answered HTTP 502: 502 Bad Gateway";
    QTest::newRow("fastapi detail") << 404 << QByteArray(R"({"detail":"Not Found"})") << QString()
                                    << "The server answered HTTP 404: Not Found";
    QTest::newRow("empty json") << 500 << QByteArray("{}") << QString()
                                << "The server answered HTTP 500.";
    QTest::newRow("not json") << 200 << QByteArray("hello") << QString()
                              << "The server's answer is not a list of models (no \"data\" array).";
    QTest::newRow("no data") << 200 << QByteArray(R"({"models":[{"name":"x"}]})") << QString()
                             << "The server's answer is not a list of models (no \"data\" array).";
    QTest::newRow("data not a list")
        << 200 << QByteArray(R"({"data":{"id":"x"}})") << QString()
        << "The server's answer is not a list of models (no \"data\" array).";
    QTest::newRow("no usable id") << 200 << QByteArray(R"({"data":[{"name":"x"},{"id":7}]})")
                                  << QString()
                                  << "The server's list of models has no usable model ids.";
}

void tst_ServedModels::failuresSayWhy()
{
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(QString, key);
    QFETCH(QString, expected);
    HttpTestServer server;
    server.enqueue(ScriptedResponse::error(status, body));
    const ServedModelsResult result = fetchFrom(server.url(QStringLiteral("/v1")), key);
    QCOMPARE(result.error, expected);
    QVERIFY(result.models.isEmpty());
}

void tst_ServedModels::keyNeverInTheError()
{
    HttpTestServer server;
    const QString key = QStringLiteral("sk-secret-0123456789abcdefghij");
    server.enqueue(ScriptedResponse::error(
        400, R"({"error":{"message":"bad key sk-secret-0123456789abcdefghij for this server"}})"));
    const ServedModelsResult result = fetchFrom(server.url(QStringLiteral("/v1")), key);
    QVERIFY(!result.succeeded());
    QVERIFY2(!result.error.contains(QStringLiteral("0123456789abcdefghij")),
             qPrintable(result.error));
    QVERIFY2(result.error.contains(QStringLiteral("[API key]")), qPrintable(result.error));
}

void tst_ServedModels::oversizedAnswerIsNotRead()
{
    // Announced (Content-Length) and unannounced (chunked): both end at the cap, not at the end.
    for (const auto framing :
         {ScriptedResponse::Framing::ContentLength, ScriptedResponse::Framing::Chunked}) {
        HttpTestServer server;
        ScriptedResponse response;
        response.framing = framing;
        response.headers.append({QByteArray("Content-Type"), QByteArray("application/json")});
        response.pieces = {R"({"data":[)",
                           QByteArray(R"({"id":"padding-model-name"},)").repeated(1000)};
        response.repeatLastPiece = 400; // about 11 MB
        response.pieceDelayMs = -1;
        server.enqueue(response);
        const ServedModelsResult result = fetchFrom(server.url(QStringLiteral("/v1")));
        QCOMPARE(result.error,
                 QStringLiteral(
                     "The server's list of models is larger than 2 MB: it was not read."));
    }
}

void tst_ServedModels::redirectIsNotFollowed()
{
    HttpTestServer server;
    server.enqueue(
        ScriptedResponse::error(302, {})
            .withHeader("Location", server.url(QStringLiteral("/elsewhere")).toEncoded()));
    server.enqueue(ScriptedResponse::error(200, R"({"data":[{"id":"m"}]})"));
    const ServedModelsResult result = fetchFrom(server.url(QStringLiteral("/v1")),
                                                QStringLiteral("sk-key"));
    QVERIFY(result.error.contains(QStringLiteral("redirect")));
    QCOMPARE(server.requests().size(), 1);
}

void tst_ServedModels::silentServerTimesOut()
{
    HttpTestServer server;
    ScriptedResponse silent;
    silent.ending = ScriptedResponse::Ending::Silent;
    server.enqueue(silent);
    ServedModels models;
    models.setTimeout(1000);
    QSignalSpy spy(&models, &ServedModels::finished);
    models.fetch(server.url(QStringLiteral("/v1")));
    QVERIFY(spy.wait(20000));
    QCOMPARE(spy.first().first().value<ServedModelsResult>().error,
             QStringLiteral("The server did not answer in time (1 s)."));
}

void tst_ServedModels::unreachableServer()
{
    // A port that was just free.
    quint16 port = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        port = probe.serverPort();
    }
    const ServedModelsResult result = fetchFrom(
        QUrl(QStringLiteral("http://127.0.0.1:%1/v1").arg(port)));
    QVERIFY2(result.error.startsWith(QStringLiteral("Cannot reach the server: ")),
             qPrintable(result.error));
}

void tst_ServedModels::onlyTheLatestRequestReports()
{
    HttpTestServer slow;
    ScriptedResponse silent;
    silent.ending = ScriptedResponse::Ending::Silent;
    slow.enqueue(silent);
    HttpTestServer fast;
    fast.enqueue(ScriptedResponse::error(200, R"({"data":[{"id":"from-fast"}]})"));

    ServedModels models;
    QSignalSpy spy(&models, &ServedModels::finished);
    models.fetch(slow.url(QStringLiteral("/v1")));
    QTRY_COMPARE(slow.requests().size(), 1);
    models.fetch(fast.url(QStringLiteral("/v1")));
    QVERIFY(spy.wait(20000));
    QTest::qWait(100);
    QCOMPARE(spy.size(), 1);
    const auto result = spy.first().first().value<ServedModelsResult>();
    QCOMPARE(result.models, QStringList{QStringLiteral("from-fast")});
    QVERIFY(!models.isRunning());
}

void tst_ServedModels::notAnHttpUrlReportsLater()
{
    const ServedModelsResult result = fetchFrom(QUrl(QStringLiteral("file:///etc/passwd")));
    QCOMPARE(result.error, QStringLiteral("The address is not an http or https URL."));
}

AGENTDESK_GUILESS_TEST_MAIN(tst_ServedModels)

} // namespace tst_servedmodels

#include "tst_servedmodels.moc"
