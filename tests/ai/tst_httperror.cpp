#include "ai/httperror.h"

#include <QTest>
#include <testmain.h>

using namespace AgentCore;

namespace tst_httperror {

class tst_HttpError : public QObject
{
    Q_OBJECT

private slots:
    void describe_data();
    void describe();
    void longTextIsCut();
    void echoedKeyIsHidden();
    void bodyReadOnce();
};

void tst_HttpError::describe_data()
{
    QTest::addColumn<int>("api");
    QTest::addColumn<QString>("provider");
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("expectedMessage");
    QTest::addColumn<bool>("retryable");
    QTest::addColumn<bool>("contextOverflow");

    const int anthropic = int(WireApi::AnthropicMessages);
    const int chat = int(WireApi::OpenAiChat);
    const int responses = int(WireApi::OpenAiResponses);

    // Anthropic
    QTest::newRow("anthropic overloaded")
        << anthropic << "anthropic" << 529
        << QByteArray(
               R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})")
        << "Anthropic API error 529 (overloaded_error): Overloaded" << true << false;
    QTest::newRow("anthropic prompt too long")
        << anthropic << "anthropic" << 400
        << QByteArray(
               R"({"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208310 tokens > 200000 maximum"},"request_id":"req_011"})")
        << "Anthropic API error 400 (invalid_request_error): prompt is too long: 208310 tokens > "
           "200000 maximum"
        << false << true;
    QTest::newRow("anthropic input + max_tokens")
        << anthropic << "anthropic" << 400
        << QByteArray(
               R"({"type":"error","error":{"type":"invalid_request_error","message":"input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000, decrease input length or `max_tokens` and try again"}})")
        << "" << false << true;
    QTest::newRow("anthropic bad key")
        << anthropic << "anthropic" << 401
        << QByteArray(
               R"({"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}})")
        << "Anthropic API error 401 (authentication_error): invalid x-api-key" << false << false;
    QTest::newRow("anthropic rate limit")
        << anthropic << "anthropic" << 429
        << QByteArray(
               R"({"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}})")
        << "" << true << false;
    QTest::newRow("anthropic payload bytes, not tokens")
        << anthropic << "anthropic" << 413
        << QByteArray(
               R"({"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number of bytes."}})")
        << "" << false << false;

    // OpenAI
    QTest::newRow("openai context length")
        << chat << "openai" << 400
        << QByteArray(
               R"({"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}})")
        << "OpenAI API error 400 (context_length_exceeded): This model's maximum context length is "
           "128000 tokens. However, your messages resulted in 130000 tokens. Please reduce the "
           "length of the messages."
        << false << true;
    QTest::newRow("openai tokens-per-minute is a rate limit")
        << chat << "openai" << 429
        << QByteArray(
               R"({"error":{"message":"Request too large for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Requested 36000.","type":"tokens","param":null,"code":"rate_limit_exceeded"}})")
        << "" << true << false;
    QTest::newRow("openai quota is not retried")
        << chat << "openai" << 429
        << QByteArray(
               R"({"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}})")
        << "OpenAI API error 429 (insufficient_quota): You exceeded your current quota, please "
           "check your plan and billing details."
        << false << false;
    QTest::newRow("openai server error")
        << chat << "openai" << 500
        << QByteArray(
               R"({"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}})")
        << "OpenAI API error 500 (server_error): The server had an error while processing your "
           "request. Sorry about that!"
        << true << false;
    QTest::newRow("responses context window")
        << responses << "openai" << 400
        << QByteArray(
               R"({"error":{"message":"Your input exceeds the context window of this model. Please adjust your input and try again.","type":"invalid_request_error","param":"input","code":"context_length_exceeded"}})")
        << "" << false << true;
    QTest::newRow("responses output cap is not an overflow")
        << responses << "openai" << 400
        << QByteArray(
               R"({"error":{"message":"max_output_tokens is too large: 200000. This model supports at most 128000 completion tokens.","type":"invalid_request_error","param":"max_output_tokens","code":"invalid_value"}})")
        << "" << false << false;

    // OpenAI-compatible servers
    QTest::newRow("llama.cpp context size")
        << chat << "llamacpp" << 400
        << QByteArray(
               R"({"error":{"code":400,"message":"request (4476 tokens) exceeds the available context size (4096 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":4476,"n_ctx":4096}})")
        << "llama.cpp API error 400 (exceed_context_size_error): request (4476 tokens) exceeds the "
           "available context size (4096 tokens), try increasing it"
        << false << true;
    QTest::newRow("vllm maximum context length")
        << chat << "vllm" << 400
        << QByteArray(
               R"({"object":"error","message":"This model's maximum context length is 32768 tokens. However, you requested 33000 tokens (29000 in the messages, 4000 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400})")
        << "" << false << true;
    QTest::newRow("vllm decoder prompt")
        << chat << "vllm" << 400
        << QByteArray(
               R"({"object":"error","message":"The decoder prompt (length 40000) is longer than the maximum model length of 32768. Make sure that `max_model_len` is no smaller than the number of text tokens.","type":"BadRequestError","param":null,"code":400})")
        << "vLLM API error 400 (BadRequestError): The decoder prompt (length 40000) is longer than "
           "the maximum model length of 32768. Make sure that `max_model_len` is no smaller than "
           "the number of text tokens."
        << false << true;
    QTest::newRow("vllm output cap alone too big")
        << chat << "vllm" << 400
        << QByteArray(
               R"({"object":"error","message":"'max_tokens' or 'max_completion_tokens' is too large: 40000. This model's maximum context length is 32768 tokens and your request has 100 input tokens (40000 > 32768 - 100).","type":"BadRequestError","param":null,"code":400})")
        << "" << false << false;
    QTest::newRow("ollama model missing")
        << chat << "ollama" << 404
        << QByteArray(
               R"({"error":{"message":"model \"qwen3:8b\" not found, try pulling it first","type":"api_error","param":null,"code":null}})")
        << "Ollama API error 404 (api_error): model \"qwen3:8b\" not found, try pulling it first"
        << false << false;
    QTest::newRow("ollama native error string")
        << chat << "ollama" << 500
        << QByteArray(R"({"error":"the input length exceeds the context length"})")
        << "Ollama API error 500: the input length exceeds the context length" << false << true;
    QTest::newRow("deepseek context length")
        << chat << "deepseek" << 400
        << QByteArray(
               R"({"error":{"message":"This model's maximum context length is 131072 tokens. However, you requested 140000 tokens (136000 in the messages, 4000 in the completion). Please reduce the length of the messages or completion.","type":"invalid_request_error","param":null,"code":"invalid_request_error"}})")
        << "" << false << true;
    QTest::newRow("openrouter wrapped upstream error")
        << chat << "openrouter" << 400
        << QByteArray(
               R"({"error":{"message":"Provider returned error","code":400,"metadata":{"raw":"{\"error\":{\"message\":\"This endpoint's maximum context length is 200000 tokens. However, you requested about 250000 tokens.\",\"code\":400}}","provider_name":"Anthropic"}}})")
        << "OpenRouter API error 400: Provider returned error: This endpoint's maximum context "
           "length is 200000 tokens. However, you requested about 250000 tokens."
        << false << true;
    QTest::newRow("mistral too large for model")
        << chat << "mistral" << 400
        << QByteArray(
               R"({"object":"error","message":"Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length","type":"invalid_request_message_error","param":null,"code":"3051"})")
        << "" << false << true;
    QTest::newRow("google array body")
        << chat << "google" << 400
        << QByteArray(
               R"([{"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}])")
        << "Google API error 400 (INVALID_ARGUMENT): The input token count (1200000) exceeds the "
           "maximum number of tokens allowed (1048576)."
        << false << true;
    QTest::newRow("413 with overflow text")
        << chat << "someproxy" << 413
        << QByteArray(R"({"error":{"message":"prompt is too long for this deployment"}})") << ""
        << false << true;

    // Not JSON
    QTest::newRow("cloudflare html page")
        << anthropic << "anthropic" << 502
        << QByteArray("<!DOCTYPE html>\n<html><head><title>api.anthropic.com | 502: Bad gateway"
                      "</title><style>body{color:red}</style></head><body><h1>Bad gateway</h1>"
                      "</body></html>")
        << "Anthropic API error 502: api.anthropic.com | 502: Bad gateway" << true << false;
    QTest::newRow("html without title")
        << chat << "" << 503
        << QByteArray("<html><body><script>var x = 1;</script><h1>503 Service   Temporarily "
                      "Unavailable</h1>\n<hr><center>nginx</center></body></html>")
        << "api.example.com API error 503: 503 Service Temporarily Unavailable nginx" << true
        << false;
    QTest::newRow("nginx 413 page is not an overflow")
        << chat << "vllm" << 413
        << QByteArray("<html><head><title>413 Request Entity Too Large</title></head></html>")
        << "vLLM API error 413: 413 Request Entity Too Large" << false << false;
    QTest::newRow("plain text") << chat << "vllm" << 504
                                << QByteArray("  upstream request timeout\n")
                                << "vLLM API error 504: upstream request timeout" << true << false;
    QTest::newRow("empty body") << chat << "openai" << 503 << QByteArray()
                                << "OpenAI API error 503: Service Unavailable" << true << false;
    QTest::newRow("not implemented is final")
        << chat << "vllm" << 501 << QByteArray() << "" << false << false;
    QTest::newRow("timeout") << chat << "openai" << 408 << QByteArray() << "" << true << false;
    QTest::newRow("bad request") << chat << "openai" << 400 << QByteArray("{}")
                                 << "OpenAI API error 400: Bad Request" << false << false;
}

void tst_HttpError::describe()
{
    QFETCH(int, api);
    QFETCH(QString, provider);
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(QString, expectedMessage);
    QFETCH(bool, retryable);
    QFETCH(bool, contextOverflow);

    ProviderConfig config;
    config.api = WireApi(api);
    config.provider = provider;
    config.baseUrl = QUrl(QStringLiteral("https://api.example.com/v1"));
    const HttpError error = describeHttpError(config, status, body);
    if (!expectedMessage.isEmpty())
        QCOMPARE(error.message, expectedMessage);
    QVERIFY(error.message.contains(QString::number(status)));
    QCOMPARE(error.retryable, retryable);
    QCOMPARE(error.contextOverflow, contextOverflow);
}

void tst_HttpError::longTextIsCut()
{
    ProviderConfig config;
    config.provider = QStringLiteral("openai");
    const QByteArray body = "Error: " + QByteArray(5000, 'x');
    const HttpError error = describeHttpError(config, 500, body);
    QVERIFY2(error.message.size() < 560, qPrintable(QString::number(error.message.size())));
    QVERIFY(error.message.endsWith(QChar(0x2026)));
    QVERIFY(error.message.contains(QLatin1String("Error: xxx")));
}

void tst_HttpError::echoedKeyIsHidden()
{
    ProviderConfig config;
    config.provider = QStringLiteral("someproxy");
    config.apiKey = QStringLiteral("sk-live-1234567890abcdef");
    const HttpError error = describeHttpError(
        config,
        401,
        R"({"error":{"message":"Incorrect API key provided: sk-live-1234567890abcdef.","code":"invalid_api_key"}})");
    QVERIFY(!error.message.contains(config.apiKey));
    QCOMPARE(error.message,
             "someproxy API error 401 (invalid_api_key): Incorrect API key provided: ***.");
    QVERIFY(!error.retryable);
}

// The model list (ServedModels) shows an error body as readableErrorBody() reads it: the same
// words a failed request shows, from every body describe() knows.
void tst_HttpError::bodyReadOnce()
{
    ProviderConfig config;
    config.provider = QStringLiteral("openai");
    const QList<QByteArray> bodies{
        R"({"error":{"message":"Invalid model","type":"invalid_request_error"}})",
        R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})",
        R"({"error":"model 'x' not found"})",
        R"({"object":"error","message":"vLLM says no","type":"BadRequestError"})",
        R"({"detail":"Not Found"})",
        R"({"error":{"message":"Provider returned error","metadata":{"raw":"{\"error\":{\"message\":\"upstream down\"}}"}}})",
        R"([{"error":{"code":400,"message":"Google says no","status":"INVALID_ARGUMENT"}}])",
        "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>",
        "upstream connect error",
        "Error: " + QByteArray(5000, 'x'),
    };
    for (const QByteArray &body : bodies) {
        const QString detail = readableErrorBody(body);
        QVERIFY2(!detail.isEmpty(), body.constData());
        QVERIFY2(describeHttpError(config, 400, body).message.endsWith(u": " + detail),
                 body.constData());
    }
    QCOMPARE(readableErrorBody("{}"), QString());
    QCOMPARE(readableErrorBody(""), QString());
    QCOMPARE(readableErrorBody("<html><head><title>502 Bad Gateway</title></head></html>"),
             QStringLiteral("502 Bad Gateway"));
    QCOMPARE(readableErrorBody(R"({"detail":"Not Found"})"), QStringLiteral("Not Found"));
}

AGENTDESK_GUILESS_TEST_MAIN(tst_HttpError)

} // namespace tst_httperror

#include "tst_httperror.moc"
