#include "ai/httpmodelclient.h"
#include "ai/openaichatassembler.h"
#include "ai/requestbuilder.h"
#include "ai/servedmodels.h"
#include "ai/serverprofile.h"

#include "fixtures.h"
#include "httpclienttest.h"
#include "httptestserver.h"
#include "requestbuildertest.h"
#include "testpaths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QTest>
#include <testmain.h>

using namespace AgentCore;
using namespace TestSupport;

namespace tst_compatibleservers {

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
    void serverProfiles_data();
    void serverProfiles();
    void profileChoice_data();
    void profileChoice();
    void servedModelsTellTheServer_data();
    void servedModelsTellTheServer();
    void reasoningDetailsAreCapped();
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

namespace {

QString thinkingOf(const Message &message)
{
    QString text;
    for (const ContentBlock &b : message.content) {
        if (b.isThinking())
            text += b.text;
    }
    return text;
}

} // namespace

void tst_CompatibleServers::serverProfiles_data()
{
    QTest::addColumn<QString>("profile");
    QTest::addColumn<QString>("stream");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("thinking");
    QTest::addColumn<QStringList>("calls");   // "id name"
    QTest::addColumn<QList<qint64>>("usage"); // input, cacheRead, output
    QTest::addColumn<QString>("error");       // empty: the message ends without one

    struct Server
    {
        const char *name;
        QStringList ids;
        bool reasoning;    // its stream carries reasoning text
        bool cacheHits;    // it reports the prompt tokens its cache served
        bool usageAlways;  // usage comes without being asked
        const char *error; // what its mid-stream error says ("": the body just ends early)
    };
    const QList<Server> servers{
        {"openai",
         {"call_Vx3kq9FZpL2mA7rT0bN5cY1d",
          "call_Qm8wE2rT6yU1iO4pA9sD3fG7",
          "call_Zx1cV5bN9mQ3wE7rT2yU6iO0"},
         false,
         true,
         true,
         "The server had an error"},
        {"deepseek",
         {"call_00_Jp3rX8sK2mQ7vT1wY5zB9cD4",
          "call_01_Hn6tR2wE8qL4kM0pS3vX7yA1",
          "call_00_Fd2gH6jK0lZ4xC8vB3nM7qW1"},
         true,
         true,
         true,
         ""},
        {"openrouter",
         {"toolu_vrtx_01Kp9mQ2rT7vW3xY8zA4bC5d",
          "toolu_vrtx_01Lq0nR3sU8wX4yZ9aB5cD6e",
          "toolu_vrtx_01Mr1oS4tV9xY5zA0bC6dE7f"},
         true,
         true,
         true,
         "Provider disconnected unexpectedly"},
        {"mistral", {"D681PevKs", "a8TnR2kWq", "Zx4cV7bNm"}, true, false, true, ""},
        {"llamacpp",
         {"Xr3ba8LQ1Sx0Ayz5iTG2uHUn5yvK72Ea",
          "mQ7pL2kW9sR4tY1uI6oP3aS8dF5gH0jK",
          "bN4vC1xZ8lK5jH2gF9dS6aP3oI0uY7tR"},
         true,
         true,
         true,
         "Context size has been exceeded."},
        {"ollama", {"call_k3x9q2mw", "call_p7d1z8rt", "call_a5v0n4cy"}, true, false, true, ""},
        {"vllm",
         {"chatcmpl-tool-4f1b7c2d9e8a4b6c8d0e2f4a6b8c0d1e",
          "chatcmpl-tool-9a8b7c6d5e4f40312f1e0d9c8b7a6f5e",
          "chatcmpl-tool-0c1d2e3f4a5b46c7d8e9f0a1b2c3d4e5"},
         true,
         true,
         true,
         "Internal server error"},
        {"lmstudio",
         {"365174485", "802315347", "117093251"},
         true,
         false,
         true,
         "The model has crashed"},
        {"moonshot",
         {"functions.Read:0", "functions.Grep:1", "functions.Read:2"},
         true,
         true,
         true,
         "The engine is currently overloaded"},
        {"generic", {"call_1", "call_2", "call_3"}, true, true, false, "upstream failure"},
    };
    for (const Server &server : servers) {
        const QString name = QLatin1String(server.name);
        const auto row = [&name](const char *stream) {
            return &(QTest::newRow(qPrintable(name + u' ' + QLatin1String(stream)))
                     << name << QStringLiteral("profile-%1-%2").arg(name, QLatin1String(stream)));
        };
        const QList<qint64> small = server.usageAlways ? QList<qint64>{96, 0, 24}
                                                       : QList<qint64>{0, 0, 0};
        const bool mistral = name == QLatin1String("mistral");
        *row("reasoning") << QStringLiteral("Hello there.")
                          << (server.reasoning ? QStringLiteral("The user wants a greeting.")
                                               : QString())
                          << QStringList() << small << QString();
        *row("parallel") << QString()
                         << (server.reasoning && !mistral ? QStringLiteral("Two lookups at once.")
                                                          : QString())
                         << QStringList{server.ids.at(0) + QStringLiteral(" Read"),
                                        server.ids.at(1) + QStringLiteral(" Grep")}
                         << small << QString();
        *row("after-text") << QStringLiteral("Let me read it.")
                           << (server.reasoning && !mistral ? QStringLiteral("Read it first.")
                                                            : QString())
                           << QStringList{server.ids.at(2) + QStringLiteral(" Read")} << small
                           << QString();
        *row("usage") << QStringLiteral("Cached.") << QString() << QStringList()
                      << (server.cacheHits ? QList<qint64>{512, 1536, 12}
                                           : QList<qint64>{2048, 0, 12})
                      << QString();
        *row("error") << QString() << QString() << QStringList() << QList<qint64>{0, 0, 0}
                      << (*server.error ? QLatin1String(server.error) : QStringLiteral("*"));
    }
}

void tst_CompatibleServers::serverProfiles()
{
    QFETCH(QString, profile);
    QFETCH(QString, stream);
    QFETCH(QString, text);
    QFETCH(QString, thinking);
    QFETCH(QStringList, calls);
    QFETCH(QList<qint64>, usage);
    QFETCH(QString, error);

    const QByteArray body = compatibleStream(qPrintable(stream));
    QVERIFY(!body.isEmpty());
    HttpTestServer server;
    ProviderConfig config = httpClientConfig(QStringLiteral("openai-chat"), server);
    config.serverProfile = ServerProfile::fromName(profile);
    QVERIFY(config.serverProfile);
    config.promptCacheKey = QStringLiteral("session-1");
    config.maxRetries = 0;
    config.model = QStringLiteral("served-model");
    Context context = httpClientHelloContext();
    context.tools = {ToolDefinition{QStringLiteral("Read"), QStringLiteral("Reads a file."), {}},
                     ToolDefinition{QStringLiteral("Grep"), QStringLiteral("Searches."), {}}};

    // Cut at every event boundary as well as sent whole: the assembly may not depend on it.
    for (const NamedChunks &chunking : standardChunkings(body)) {
        server.enqueue(ScriptedResponse::sse(chunking.chunks));
        StreamEventLog log;
        const Message reply = HttpModelClient(config).complete(context, {}, log.sink());
        const QString where = QStringLiteral("%1, %2").arg(stream, chunking.name);
        if (!error.isEmpty()) {
            // llama.cpp's exceed_context_size_error is read as the overflow it is.
            QVERIFY2(reply.stopReason == StopReason::Error
                         || reply.stopReason == StopReason::ContextOverflow,
                     qPrintable(where));
            QVERIFY2(error == QLatin1String("*") || reply.errorMessage.contains(error),
                     qPrintable(where + u": " + reply.errorMessage));
            continue;
        }
        QVERIFY2(reply.stopReason == (calls.isEmpty() ? StopReason::Stop : StopReason::ToolUse),
                 qPrintable(where + u": " + reply.errorMessage));
        QCOMPARE(reply.text(), text);
        QCOMPARE(thinkingOf(reply), thinking);
        QStringList got;
        for (const ContentBlock &call : reply.toolCalls()) {
            got.append(call.id + u' ' + call.name);
            QVERIFY2(call.argumentsError.isEmpty(), qPrintable(call.argumentsError));
            QVERIFY(!call.arguments.isEmpty());
        }
        QCOMPARE(got, calls);
        QCOMPARE((QList<qint64>{reply.usage.input, reply.usage.cacheRead, reply.usage.output}),
                 usage);
    }
    if (!error.isEmpty())
        return;

    // The next request: the reply and its results (or a follow-up) go back to the same server.
    server.enqueue(ScriptedResponse::sse({body}));
    server.enqueue(ScriptedResponse::sse({compatibleStream("profile-generic-usage")}));
    StreamEventLog first;
    const int before = int(server.requests().size());
    Message reply = HttpModelClient(config).complete(context, {}, first.sink());
    context.messages.append(reply);
    if (reply.toolCalls().isEmpty())
        context.messages.append(Message::makeUser(QStringLiteral("And then?")));
    for (const ContentBlock &call : reply.toolCalls())
        context.messages.append(
            Message::makeToolResult(call.id, call.name, QStringLiteral("ok"), false));
    StreamEventLog next;
    HttpModelClient(config).complete(context, {}, next.sink());
    QCOMPARE(int(server.requests().size()), before + 2);
    const QJsonObject sent = QJsonDocument::fromJson(server.requests().constLast().body).object();
    QStringList issued;
    for (const ContentBlock &call : reply.toolCalls())
        issued.append(call.id);
    const QString violation = compatibleServerViolation(profile,
                                                        sent,
                                                        issued,
                                                        thinkingOf(reply),
                                                        reasoningDetailsIn(body));
    QVERIFY2(violation.isEmpty(), qPrintable(violation));
}

void tst_CompatibleServers::profileChoice_data()
{
    QTest::addColumn<QString>("baseUrl");
    QTest::addColumn<QString>("ownedBy");
    QTest::addColumn<QString>("chosen");
    QTest::addColumn<int>("source");
    using Source = ServerProfileChoice::Source;
    QTest::newRow("openai") << "https://api.openai.com/v1"
                            << ""
                            << "openai" << int(Source::BaseUrl);
    QTest::newRow("deepseek") << "https://api.deepseek.com/v1"
                              << ""
                              << "deepseek" << int(Source::BaseUrl);
    QTest::newRow("openrouter") << "https://openrouter.ai/api/v1"
                                << ""
                                << "openrouter" << int(Source::BaseUrl);
    QTest::newRow("mistral") << "https://api.mistral.ai/v1"
                             << ""
                             << "mistral" << int(Source::BaseUrl);
    QTest::newRow("moonshot.ai") << "https://api.moonshot.ai/v1"
                                 << ""
                                 << "moonshot" << int(Source::BaseUrl);
    QTest::newRow("moonshot.cn") << "https://api.moonshot.cn/v1"
                                 << ""
                                 << "moonshot" << int(Source::BaseUrl);
    QTest::newRow("ollama port") << "http://localhost:11434/v1"
                                 << ""
                                 << "ollama" << int(Source::BaseUrlPort);
    QTest::newRow("lm studio port") << "http://127.0.0.1:1234/v1"
                                    << ""
                                    << "lmstudio" << int(Source::BaseUrlPort);
    QTest::newRow("llama.cpp port") << "http://localhost:8080/v1"
                                    << ""
                                    << "llamacpp" << int(Source::BaseUrlPort);
    // The models list overrules a port: another server may listen there.
    QTest::newRow("vllm on 8080") << "http://localhost:8080/v1"
                                  << "vllm"
                                  << "vllm" << int(Source::ServedModels);
    QTest::newRow("llama.cpp elsewhere") << "http://gpu-box:9000/v1"
                                         << "llamacpp"
                                         << "llamacpp" << int(Source::ServedModels);
    QTest::newRow("ollama library") << "http://gpu-box:9000/v1"
                                    << "library"
                                    << "ollama" << int(Source::ServedModels);
    // A vendor's host is not overruled by what a list says.
    QTest::newRow("host wins") << "https://api.deepseek.com/v1"
                               << "vllm"
                               << "deepseek" << int(Source::BaseUrl);
    // Proxies answer "openai" and "system" too: no OpenAI-only field for them.
    QTest::newRow("proxy says openai") << "http://litellm:4000/v1"
                                       << "openai"
                                       << "generic" << int(Source::Default);
    QTest::newRow("unknown") << "https://llm.example.com/v1"
                             << ""
                             << "generic" << int(Source::Default);
    QTest::newRow("port elsewhere") << "http://gpu-box:11434/v1"
                                    << ""
                                    << "generic" << int(Source::Default);
    QTest::newRow("look-alike host") << "https://api.deepseek.com.evil.example/v1"
                                     << ""
                                     << "generic" << int(Source::Default);
}

void tst_CompatibleServers::profileChoice()
{
    QFETCH(QString, baseUrl);
    QFETCH(QString, ownedBy);
    QFETCH(QString, chosen);
    QFETCH(int, source);
    const ServerProfileChoice choice = ServerProfileChoice::choose(QUrl(baseUrl),
                                                                   std::nullopt,
                                                                   ownedBy);
    QCOMPARE(ServerProfile::name(choice.id), chosen);
    QCOMPARE(int(choice.source), source);
    QVERIFY(!choice.reason().isEmpty());
    // The user's choice wins over every sign.
    const ServerProfileChoice set = ServerProfileChoice::choose(QUrl(baseUrl),
                                                                ServerProfile::Id::Mistral,
                                                                ownedBy);
    QCOMPARE(set.id, ServerProfile::Id::Mistral);
    QCOMPARE(set.source, ServerProfileChoice::Source::User);
}

void tst_CompatibleServers::servedModelsTellTheServer_data()
{
    QTest::addColumn<QByteArray>("answer");
    QTest::addColumn<QString>("ownedBy");
    // llama.cpp server-context.cpp, vLLM's ModelCard, Ollama's ToListCompletion (namespace).
    QTest::newRow("llama.cpp") << QByteArray(
        R"({"models":[{"name":"gpt-oss-20b"}],"object":"list","data":[{"id":"gpt-oss-20b","object":"model","created":1760000000,"owned_by":"llamacpp","meta":{"n_ctx_train":131072}}]})")
                               << "llamacpp";
    QTest::newRow("vllm") << QByteArray(
        R"({"object":"list","data":[{"id":"Qwen/Qwen3-30B-A3B","object":"model","created":1760000000,"owned_by":"vllm","root":"Qwen/Qwen3-30B-A3B","parent":null,"max_model_len":32768,"permission":[]}]})")
                          << "vllm";
    QTest::newRow("ollama") << QByteArray(
        R"({"object":"list","data":[{"id":"qwen3:8b","object":"model","created":1760000000,"owned_by":"library"},{"id":"gpt-oss:20b","object":"model","created":1760000000,"owned_by":"library"}]})")
                            << "library";
    QTest::newRow("owners disagree")
        << QByteArray(R"({"data":[{"id":"a","owned_by":"vllm"},{"id":"b","owned_by":"llamacpp"}]})")
        << "";
    QTest::newRow("not a word") << QByteArray(R"({"data":[{"id":"a","owned_by":"vllm
X-Injected: 1"}]})") << "";
    QTest::newRow("too long") << QByteArray(R"({"data":[{"id":"a","owned_by":")")
                                     + QByteArray(200, 'v') + QByteArray(R"("}]})")
                              << "";
}

void tst_CompatibleServers::servedModelsTellTheServer()
{
    QFETCH(QByteArray, answer);
    QFETCH(QString, ownedBy);
    QString error;
    QString owner = QStringLiteral("stale");
    QVERIFY(ServedModels::parse(answer, &error, &owner));
    QCOMPARE(owner, ownedBy);
}

void tst_CompatibleServers::reasoningDetailsAreCapped()
{
    // OpenRouter's blocks are kept as received only up to a cap: past it none is kept (a part
    // would be rejected), and the message itself still assembles.
    const QByteArray chunk
        = R"(data: {"id":"gen-1","model":"m","choices":[{"index":0,"delta":{"reasoning_details":[{"type":"reasoning.encrypted","data":")"
          + QByteArray(64 * 1024, 'A') + R"(","format":"openai-responses-v1","index":0}]}}]})"
          + "\n\n";
    QByteArray stream;
    const int chunks = int(OpenAiChatAssembler::maxReasoningDetailsBytes / (64 * 1024)) + 2;
    for (int i = 0; i < chunks; ++i)
        stream += chunk;
    stream += R"(data: {"id":"gen-1","model":"m","choices":[{"index":0,"delta":{"content":"Done."},"finish_reason":"stop"}]})"
              "\n\ndata: [DONE]\n\n";
    HttpTestServer server;
    ProviderConfig config = httpClientConfig(QStringLiteral("openai-chat"), server);
    config.serverProfile = ServerProfile::Id::OpenRouter;
    const Message message = servedOverHttp({stream}, server, config);
    QCOMPARE(message.stopReason, StopReason::Stop);
    QCOMPARE(message.text(), QStringLiteral("Done."));
    for (const ContentBlock &b : message.content)
        QVERIFY(b.signature.size() <= OpenAiChatAssembler::maxReasoningDetailsBytes);

    // Below the cap they are kept whole.
    const Message small = servedOverHttp(
        {chunk + chunk
         + R"(data: {"id":"gen-1","model":"m","choices":[{"index":0,"delta":{"content":"Done."},"finish_reason":"stop"}]})"
           "\n\n"},
        server,
        config);
    QCOMPARE(small.stopReason, StopReason::Stop);
    QCOMPARE(QJsonDocument::fromJson(small.content.constFirst().signature.toUtf8()).array().size(),
             2);
}

AGENTDESK_GUILESS_TEST_MAIN(tst_CompatibleServers)

} // namespace tst_compatibleservers

#include "tst_compatibleservers.moc"
