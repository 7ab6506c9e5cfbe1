#include "ai/requestbuilder.h"

#include "fixtures.h"
#include "requestbuildertest.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTest>
#include <testmain.h>

using namespace AgentCore;
using namespace TestSupport;

namespace tst_requestbuilder {

// buildRequest() turning any history into one the target API accepts: URLs and headers, histories
// from another provider, what no API takes, tool-call ids. Exact bodies per provider and thinking
// options: tst_requestbuilderbodies.cpp.
class tst_RequestBuilder : public QObject
{
    Q_OBJECT

private slots:
    void urlAndHeaders_data();
    void urlAndHeaders();
    void crossProviderHistory_data();
    void crossProviderHistory();
    void dropsWhatNoApiAccepts_data();
    void dropsWhatNoApiAccepts();
    void resultMovedToItsCall();
    void repeatedIdsStayPaired();
    void toolCallIdNormalization_data();
    void toolCallIdNormalization();
};

void tst_RequestBuilder::urlAndHeaders_data()
{
    using Headers = QList<std::pair<QByteArray, QByteArray>>;
    QTest::addColumn<int>("api");
    QTest::addColumn<QString>("baseUrl");
    QTest::addColumn<QString>("apiKey");
    QTest::addColumn<Headers>("extraHeaders");
    QTest::addColumn<QString>("expectedUrl");
    QTest::addColumn<Headers>("expectedHeaders"); // must be present, exactly once each
    QTest::addColumn<QByteArrayList>("absentHeaders");

    const auto chat = int(WireApi::OpenAiChat);
    const auto anthropic = int(WireApi::AnthropicMessages);
    const auto responses = int(WireApi::OpenAiResponses);
    QTest::newRow("openai") << chat << "https://api.openai.com/v1"
                            << "sk-1" << Headers{} << "https://api.openai.com/v1/chat/completions"
                            << Headers{{"Authorization", "Bearer sk-1"},
                                       {"Content-Type", "application/json"}}
                            << QByteArrayList{"x-api-key"};
    QTest::newRow("ollama, no key, trailing slash")
        << chat << "http://127.0.0.1:11434/v1/"
        << "" << Headers{} << "http://127.0.0.1:11434/v1/chat/completions"
        << Headers{{"Content-Type", "application/json"}}
        << QByteArrayList{"Authorization", "x-api-key"};
    QTest::newRow("azure query kept")
        << chat << "https://r.openai.azure.com/openai/deployments/d?api-version=2024-10-21"
        << "azure-key-1" << Headers{{"api-key", "azure-key-1"}, {"authorization", "Bearer proxy"}}
        << "https://r.openai.azure.com/openai/deployments/d/chat/completions?api-version=2024-10-21"
        << Headers{{"api-key", "azure-key-1"}, {"authorization", "Bearer proxy"}} // replaced
        << QByteArrayList{"x-api-key"};
    QTest::newRow("anthropic") << anthropic << "https://api.anthropic.com"
                               << "sk-ant" << Headers{} << "https://api.anthropic.com/v1/messages"
                               << Headers{{"x-api-key", "sk-ant"},
                                          {"anthropic-version", "2023-06-01"},
                                          {"Content-Type", "application/json"}}
                               << QByteArrayList{"Authorization"};
    QTest::newRow("anthropic root pasted with /v1")
        << anthropic << "https://proxy.example/anthropic/v1/"
        << "" << Headers{} << "https://proxy.example/anthropic/v1/messages"
        << Headers{{"anthropic-version", "2023-06-01"}} << QByteArrayList{"x-api-key"};
    QTest::newRow("responses") << responses << "https://api.openai.com/v1"
                               << "sk-2" << Headers{{"OpenAI-Organization", "org-1"}}
                               << "https://api.openai.com/v1/responses"
                               << Headers{{"Authorization", "Bearer sk-2"},
                                          {"OpenAI-Organization", "org-1"}}
                               << QByteArrayList{"x-api-key"};
}

void tst_RequestBuilder::urlAndHeaders()
{
    using Headers = QList<std::pair<QByteArray, QByteArray>>;
    QFETCH(int, api);
    QFETCH(QString, baseUrl);
    QFETCH(QString, apiKey);
    QFETCH(Headers, extraHeaders);
    QFETCH(QString, expectedUrl);
    QFETCH(Headers, expectedHeaders);
    QFETCH(QByteArrayList, absentHeaders);

    ProviderConfig config = requestConfig(WireApi(api), QStringLiteral("p"), QStringLiteral("m"));
    config.baseUrl = QUrl(baseUrl);
    config.apiKey = apiKey;
    config.extraHeaders = extraHeaders;
    const HttpRequestSpec spec = buildRequest(config, sampleConversation(config, "a", "b"));

    QCOMPARE(spec.url.toString(), expectedUrl);
    for (const auto &[name, value] : expectedHeaders) {
        int count = 0;
        for (const auto &header : spec.headers) {
            if (header.first.compare(name, Qt::CaseInsensitive) == 0) {
                ++count;
                QCOMPARE(header.second, value);
            }
        }
        QVERIFY2(count == 1, name.constData());
    }
    for (const QByteArray &name : absentHeaders) {
        for (const auto &header : spec.headers)
            QVERIFY2(header.first.compare(name, Qt::CaseInsensitive) != 0, name.constData());
    }
    if (!apiKey.isEmpty())
        QVERIFY(!spec.body.contains(apiKey.toUtf8()));
}

void tst_RequestBuilder::crossProviderHistory_data()
{
    QTest::addColumn<int>("originApi");
    QTest::addColumn<QString>("originProvider");
    QTest::addColumn<QStringList>("ids");
    QTest::addColumn<int>("targetApi");

    const QStringList anthropicIds{"toolu_01XFDUDYJgAACzvnptvVer6u", "toolu_01AbC", "toolu_02x"};
    const QString longId = QStringLiteral("call_") + QString(70, u'x');
    const QStringList openAiIds{"call_abc123|fc_68a0b1c2d3e4f5", longId, "call/with.dots"};
    QTest::newRow("anthropic -> openai-chat") << int(WireApi::AnthropicMessages) << "anthropic"
                                              << anthropicIds << int(WireApi::OpenAiChat);
    QTest::newRow("anthropic -> openai-responses") << int(WireApi::AnthropicMessages) << "anthropic"
                                                   << anthropicIds << int(WireApi::OpenAiResponses);
    QTest::newRow("openai-responses -> anthropic") << int(WireApi::OpenAiResponses) << "openai"
                                                   << openAiIds << int(WireApi::AnthropicMessages);
    QTest::newRow("openai-responses -> openai-chat")
        << int(WireApi::OpenAiResponses) << "openai" << openAiIds << int(WireApi::OpenAiChat);
    QTest::newRow("openai-chat -> anthropic")
        << int(WireApi::OpenAiChat) << "openrouter" << openAiIds << int(WireApi::AnthropicMessages);
}

void tst_RequestBuilder::crossProviderHistory()
{
    QFETCH(int, originApi);
    QFETCH(QString, originProvider);
    QFETCH(QStringList, ids);
    QFETCH(int, targetApi);

    const ProviderConfig origin = requestConfig(WireApi(originApi), originProvider, "origin-model");
    ProviderConfig target = requestConfig(WireApi(targetApi), "target", "target-model");
    target.thinkingBudget = 8000;
    Context context = sampleConversation(origin, ids[0], ids[1]);
    // ... and a second, still open tool loop with redacted thinking, ending in a tool result.
    ContentBlock redacted = ContentBlock::makeThinking({}, QStringLiteral("redacted-data"));
    redacted.redacted = true;
    context.messages.append(
        assistantFrom(origin,
                      {redacted,
                       ContentBlock::makeToolCall(ids[2], "ls", jsonLiteral(R"({"path":"src"})"))}));
    context.messages.append(Message::makeToolResult(ids[2], "ls", "main.cpp", false));

    const HttpRequestSpec spec = buildRequest(target, context);
    const QJsonObject body = bodyOf(spec);
    const QString violation = apiRuleViolation(WireApi(targetApi), body);
    QVERIFY2(violation.isEmpty(),
             qPrintable(violation + u"\nbody: " + QString::fromUtf8(spec.body)));

    // Signatures are only valid for the model that made them.
    QVERIFY(!spec.body.contains("sig-1"));
    QVERIFY(!spec.body.contains("redacted-data"));
    QVERIFY(!spec.body.contains(R"("type":"reasoning")"));
    QVERIFY(!spec.body.contains(R"("type":"thinking")"));
    QVERIFY(!spec.body.contains(R"("type":"redacted_thinking")"));
    // Anthropic cannot think in a tool loop whose turn has no signed thinking to continue from.
    if (WireApi(targetApi) == WireApi::AnthropicMessages)
        QVERIFY(!body.contains(QLatin1String("thinking")));
    // Every call and result arrived (3 calls, 3 results, nothing synthesized).
    for (const char *text : {"README.md\\nsrc/", "permission denied", "main.cpp"})
        QVERIFY2(spec.body.contains(text), text);
    QVERIFY(!spec.body.contains("No result was recorded"));
}

void tst_RequestBuilder::dropsWhatNoApiAccepts_data()
{
    QTest::addColumn<int>("api");
    QTest::addColumn<QByteArray>("expectedTurns");

    QTest::newRow("openai-chat") << int(WireApi::OpenAiChat) << QByteArray(R"([
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": null, "tool_calls": [
         {"id": "call_1", "type": "function", "function": {"name": "ls", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "No result was recorded for this tool call: it did not run or its result was lost."},
        {"role": "user", "content": "again"}])");
    QTest::newRow("anthropic") << int(WireApi::AnthropicMessages) << QByteArray(R"([
        {"role": "user", "content": [{"type": "text", "text": "hi", "cache_control": {"type": "ephemeral"}}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "call_1", "name": "ls", "input": {}}]},
        {"role": "user", "content": [
         {"type": "tool_result", "tool_use_id": "call_1", "is_error": true, "content": "No result was recorded for this tool call: it did not run or its result was lost."},
         {"type": "text", "text": "again", "cache_control": {"type": "ephemeral"}}]}])");
    QTest::newRow("openai-responses") << int(WireApi::OpenAiResponses) << QByteArray(R"([
        {"role": "user", "content": [{"type": "input_text", "text": "hi"}]},
        {"type": "function_call", "call_id": "call_1", "name": "ls", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_1", "output": "No result was recorded for this tool call: it did not run or its result was lost."},
        {"role": "user", "content": [{"type": "input_text", "text": "again"}]}])");
}

void tst_RequestBuilder::dropsWhatNoApiAccepts()
{
    QFETCH(int, api);
    QFETCH(QByteArray, expectedTurns);

    const ProviderConfig config = requestConfig(WireApi(api), "p", "m");
    Message errored = assistantFrom(config, {}, StopReason::Error);
    errored.errorMessage = QStringLiteral("HTTP 500");
    const Message aborted = assistantFrom(config, {}, StopReason::Aborted);
    const Message onlyBlank = assistantFrom(config,
                                            {ContentBlock::makeText("  \n"),
                                             ContentBlock::makeThinking("hmm", "sig")},
                                            StopReason::Stop);
    Context context;
    context.messages = {
        Message::makeUser("hi"),
        errored,
        aborted,
        onlyBlank,
        Message::makeToolResult("call_orphan", "ls", "orphan output", false),
        customMessage("marker", QString()),
        Message::makeUser(" \t "),
        // An empty text block and a call whose result was never recorded (the app quit).
        assistantFrom(config,
                      {ContentBlock::makeText(""), ContentBlock::makeToolCall("call_1", "ls", {})}),
        Message::makeUser("again"),
    };
    const QJsonObject body = bodyOf(buildRequest(config, context));
    const QJsonDocument expected = QJsonDocument::fromJson(expectedTurns);
    QVERIFY(expected.isArray());
    const QString difference = TestSupport::jsonDifference(expected.array(),
                                                           requestTurns(WireApi(api), body));
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
}

void tst_RequestBuilder::resultMovedToItsCall()
{
    // A steering message recorded before the tool finished: the result still follows its call.
    const ProviderConfig config = requestConfig(WireApi::OpenAiChat, "openai", "gpt-4o");
    Context context;
    context.messages = {
        Message::makeUser("start"),
        assistantFrom(config,
                      {ContentBlock::makeToolCall("call_1", "ls", {}),
                       ContentBlock::makeToolCall("call_2", "ls", {})}),
        Message::makeToolResult("call_2", "ls", "second", false),
        Message::makeUser("also check docs"),
        Message::makeToolResult("call_1", "ls", "first", false),
    };
    const QJsonArray messages = arrayAt(bodyOf(buildRequest(config, context)), "messages");
    QCOMPARE(messages.size(), 5);
    QCOMPARE(stringAt(messages.at(2).toObject(), "content"), "first");
    QCOMPARE(stringAt(messages.at(3).toObject(), "content"), "second");
    QCOMPARE(stringAt(messages.at(4).toObject(), "content"), "also check docs");
}

void tst_RequestBuilder::repeatedIdsStayPaired()
{
    // Some local servers number calls per response, so "call_0" comes back every turn.
    const ProviderConfig config = requestConfig(WireApi::AnthropicMessages, "anthropic", "claude");
    Context context;
    context.messages = {
        Message::makeUser("start"),
        assistantFrom(config, {ContentBlock::makeToolCall("call_0", "ls", {})}),
        Message::makeToolResult("call_0", "ls", "first", false),
        assistantFrom(config, {ContentBlock::makeToolCall("call_0", "ls", {})}),
        Message::makeToolResult("call_0", "ls", "second", false),
    };
    const QJsonObject body = bodyOf(buildRequest(config, context));
    QVERIFY2(anthropicRuleViolation(body).isEmpty(), qPrintable(anthropicRuleViolation(body)));
    const QJsonArray messages = arrayAt(body, "messages");
    const auto block = [&](int message) { return firstBlock(messages.at(message)); };
    const QString firstId = stringAt(block(1), "id");
    const QString secondId = stringAt(block(3), "id");
    QCOMPARE(firstId, "call_0");
    QVERIFY(secondId != firstId);
    QCOMPARE(stringAt(block(4), "tool_use_id"), secondId);
    QCOMPARE(stringAt(block(4), "content"), "second");
}

void tst_RequestBuilder::toolCallIdNormalization_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<int>("maxLength");
    QTest::addColumn<QString>("expectedPrefix"); // the whole id when it must stay unchanged
    QTest::addColumn<bool>("unchanged");

    QTest::newRow("anthropic id") << "toolu_01XFDUDYJgAACzvnptvVer6u" << 64
                                  << "toolu_01XFDUDYJgAACzvnptvVer6u" << true;
    QTest::newRow("openai id") << "call_Ab-9" << 40 << "call_Ab-9" << true;
    QTest::newRow("pipe") << "call_abc|fc_123" << 64 << "call_abc_fc_123_" << false;
    QTest::newRow("too long") << QString(80, u'a') << 64 << QString(51, u'a') + u'_' << false;
    QTest::newRow("over chat limit")
        << QString(50, u'b') << 40 << QString(27, u'b') + u'_' << false;
    QTest::newRow("empty") << "" << 64 << "call_" << false;
    QTest::newRow("unicode") << QStringLiteral("r\u00e9sum\u00e9") << 64 << "r_sum__" << false;
}

void tst_RequestBuilder::toolCallIdNormalization()
{
    QFETCH(QString, id);
    QFETCH(int, maxLength);
    QFETCH(QString, expectedPrefix);
    QFETCH(bool, unchanged);

    const QString normalized = normalizedToolCallId(id, maxLength);
    QVERIFY2(validToolCallId().match(normalized).hasMatch(), qPrintable(normalized));
    QVERIFY(normalized.size() <= maxLength);
    QCOMPARE(normalizedToolCallId(id, maxLength), normalized); // deterministic
    if (unchanged) {
        QCOMPARE(normalized, id);
    } else {
        QVERIFY2(normalized.startsWith(expectedPrefix), qPrintable(normalized));
        // Another id that sanitizes or truncates to the same text still gets a different id.
        QVERIFY(normalizedToolCallId(id + u'!', maxLength) != normalized);
    }
    QCOMPARE(normalizedToolCallId(id), normalizedToolCallId(id, 64));
}

AGENTDESK_GUILESS_TEST_MAIN(tst_RequestBuilder)

} // namespace tst_requestbuilder

#include "tst_requestbuilder.moc"
