#include "httpclienttest.h"

#include "fixtures.h"

#include <ai/httpmodelclient.h>
#include <ai/messagejson.h>

#include <QJsonArray>

namespace TestSupport {

using namespace AgentCore;

const QString HttpClientApiKey = QStringLiteral("sk-test-0123456789abcdef");

const QByteArray OverloadedBody
    = R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})";

ProviderConfig httpClientConfig(const QString &fixtureProvider, const HttpTestServer &server)
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
    config.apiKey = HttpClientApiKey;
    config.model = QStringLiteral("test-model");
    config.idleTimeoutMs = 10'000;
    config.retryBaseDelayMs = 10;
    return config;
}

QByteArray httpClientExpectedPath(const QString &fixtureProvider)
{
    if (fixtureProvider == QLatin1String("anthropic"))
        return "/v1/messages";
    if (fixtureProvider == QLatin1String("openai-chat"))
        return "/v1/chat/completions";
    return "/v1/responses";
}

Context httpClientHelloContext()
{
    Context context;
    context.systemPrompt = QStringLiteral("You are a test.");
    context.messages = {Message::makeUser(QStringLiteral("Hello"))};
    return context;
}

QString expectedFixtureText(const QJsonObject &expected)
{
    QString text;
    for (const QJsonValue &block : expected.value(QLatin1String("content")).toArray()) {
        if (block[QLatin1String("type")].toString() == QLatin1String("text"))
            text += block[QLatin1String("text")].toString();
    }
    return text;
}

ScriptedResponse firstHalfThen(const QByteArray &stream, ScriptedResponse::Ending ending)
{
    const qsizetype cut = stream.indexOf("\n\n", stream.size() / 2) + 2;
    ScriptedResponse response = ScriptedResponse::sse(
        splitBytes(stream.left(cut), ChunkStrategy::random(7, 2048)));
    response.ending = ending;
    return response;
}

QByteArray fixture(const char *provider, const char *name)
{
    return readFixtureStream(QLatin1String(provider), QLatin1String(name));
}

Message completeWith(const ProviderConfig &config, StreamEventLog &log, const AbortToken &token)
{
    HttpModelClient client(config);
    return client.complete(httpClientHelloContext(), token, log.sink());
}

QString fixtureDifference(const Message &message, const QString &provider, const QString &name)
{
    return jsonDifference(readFixtureExpected(provider, name), toNormalizedJson(message));
}

} // namespace TestSupport
