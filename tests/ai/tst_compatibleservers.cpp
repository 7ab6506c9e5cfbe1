#include "ai/httpmodelclient.h"
#include "ai/requestbuilder.h"

#include "fixtures.h"
#include "httpclienttest.h"
#include "httptestserver.h"
#include "requestbuildertest.h"
#include "testpaths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <testmain.h>

using namespace AgentCore;
using namespace TestSupport;

// The OpenAI-compatible servers (Mistral, DeepSeek, Kimi/Moonshot, vLLM, llama.cpp) as they write
// their Chat Completions streams, served over HTTP: tests/ai/compatible/*.sse, each citing in its
// first line (an SSE comment) where its format comes from.
class tst_CompatibleServers : public QObject
{
    Q_OBJECT

private slots:
    void objectArguments_data();
    void objectArguments();
    void objectArgumentsKeepTheSizeLimit();
    void deepSeekCacheHits_data();
    void deepSeekCacheHits();
    void kimiIdsGoBackAsIssued();
};

namespace {

QByteArray compatibleStream(const char *name)
{
    QFile file(sourcePath(QStringLiteral("tests/ai/compatible/%1.sse").arg(QLatin1String(name))));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void addChunkings(const char *name)
{
    QTest::addColumn<QList<QByteArray>>("pieces");
    const QByteArray stream = compatibleStream(name);
    QVERIFY(!stream.isEmpty());
    for (const NamedChunks &chunking : standardChunkings(stream))
        QTest::newRow(qPrintable(chunking.name)) << chunking.chunks;
}

Message servedOverHttp(const QList<QByteArray> &pieces,
                       HttpTestServer &server,
                       ProviderConfig config = {})
{
    server.enqueue(ScriptedResponse::sse(pieces));
    if (config.baseUrl.isEmpty())
        config = httpClientConfig(QStringLiteral("openai-chat"), server);
    StreamEventLog log;
    return completeWith(config, log);
}

} // namespace

void tst_CompatibleServers::objectArguments_data()
{
    addChunkings("mistral-object-arguments");
}

void tst_CompatibleServers::objectArguments()
{
    QFETCH(QList<QByteArray>, pieces);
    HttpTestServer server;
    const Message message = servedOverHttp(pieces, server);

    QCOMPARE(message.stopReason, StopReason::ToolUse);
    QCOMPARE(message.text(), QStringLiteral("Reading it."));
    const QList<ContentBlock> calls = message.toolCalls();
    QCOMPARE(calls.size(), 1);
    QCOMPARE(calls.constFirst().id, QStringLiteral("D681PevKs"));
    QCOMPARE(calls.constFirst().name, QStringLiteral("Read"));
    // The object as sent, nested values included; it used to become {}.
    const QJsonObject expected = QJsonDocument::fromJson(
                                     R"({"file_path":"README.md","limit":40,
                                         "range":{"from":1,"to":[2,3]}})")
                                     .object();
    const QString difference = jsonDifference(expected, calls.constFirst().arguments);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
}

void tst_CompatibleServers::objectArgumentsKeepTheSizeLimit()
{
    // An object is held to the same limit as arguments sent as text.
    HttpTestServer server;
    ProviderConfig config = httpClientConfig(QStringLiteral("openai-chat"), server);
    config.maxToolArgumentsBytes = 32;
    const Message message = servedOverHttp({compatibleStream("mistral-object-arguments")},
                                           server,
                                           config);
    QCOMPARE(message.stopReason, StopReason::Error);
    QVERIFY(message.toolCalls().isEmpty() || message.toolCalls().constFirst().arguments.size() < 3);
}

void tst_CompatibleServers::deepSeekCacheHits_data()
{
    addChunkings("deepseek-cache-hit-usage");
}

void tst_CompatibleServers::deepSeekCacheHits()
{
    // DeepSeek counts its cache hits outside prompt_tokens_details; as on the OpenAI path,
    // input is the uncached part of prompt_tokens and cacheRead the part served from the cache.
    QFETCH(QList<QByteArray>, pieces);
    HttpTestServer server;
    const Message message = servedOverHttp(pieces, server);

    QCOMPARE(message.stopReason, StopReason::Stop);
    QCOMPARE(message.text(), QStringLiteral("Done."));
    QCOMPARE(message.usage.input, 512);
    QCOMPARE(message.usage.cacheRead, 12288);
    QCOMPARE(message.usage.cacheWrite, 0);
    QCOMPARE(message.usage.output, 42);
}

void tst_CompatibleServers::kimiIdsGoBackAsIssued()
{
    // Kimi's chat template renders the call's id into the prompt, and "functions.Read:0" is the
    // only place the function's name appears there: the next request carries it byte for byte.
    HttpTestServer server;
    ProviderConfig config = httpClientConfig(QStringLiteral("openai-chat"), server);
    config.model = QStringLiteral("kimi-k2-0905-preview");
    server.enqueue(ScriptedResponse::sse({compatibleStream("kimi-parallel-tool-calls")}));
    server.enqueue(ScriptedResponse::sse({compatibleStream("deepseek-cache-hit-usage")}));

    Context context = httpClientHelloContext();
    StreamEventLog log;
    const Message reply = HttpModelClient(config).complete(context, {}, log.sink());
    QCOMPARE(reply.stopReason, StopReason::ToolUse);
    const QStringList issued = {QStringLiteral("functions.Read:0"),
                                QStringLiteral("functions.Grep:1")};
    QStringList ids;
    context.messages.append(reply);
    for (const ContentBlock &call : reply.toolCalls()) {
        ids.append(call.id);
        context.messages.append(
            Message::makeToolResult(call.id, call.name, QStringLiteral("ok"), false));
    }
    QCOMPARE(ids, issued);

    StreamEventLog next;
    HttpModelClient(config).complete(context, {}, next.sink());
    QCOMPARE(server.requests().size(), 2);
    const QJsonArray messages = QJsonDocument::fromJson(server.requests().at(1).body)
                                    .object()
                                    .value(QLatin1String("messages"))
                                    .toArray();
    QStringList sentCalls;
    QStringList sentResults;
    for (const QJsonValue &message : messages) {
        for (const QJsonValue &call : message[QLatin1String("tool_calls")].toArray())
            sentCalls.append(call[QLatin1String("id")].toString());
        if (message[QLatin1String("role")].toString() == QLatin1String("tool"))
            sentResults.append(message[QLatin1String("tool_call_id")].toString());
    }
    QCOMPARE(sentCalls, issued);
    QCOMPARE(sentResults, issued);

    // Switched to Anthropic mid-session, the same history still gets ids Anthropic accepts.
    const QJsonObject anthropic = bodyOf(
        buildRequest(httpClientConfig(QStringLiteral("anthropic"), server), context));
    const QString violation = anthropicRuleViolation(anthropic);
    QVERIFY2(violation.isEmpty(), qPrintable(violation));
}

AGENTDESK_GUILESS_TEST_MAIN(tst_CompatibleServers)
#include "tst_compatibleservers.moc"
