#include "ai/requestbuilder.h"
#include "fixtures.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace AgentCore;

namespace {

QJsonObject json(const char *text)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray(text), &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("bad JSON literal in test: %s", qPrintable(error.errorString()));
    return document.object();
}

QJsonObject bodyOf(const HttpRequestSpec &spec)
{
    return QJsonDocument::fromJson(spec.body).object();
}

ProviderConfig makeConfig(WireApi api, const QString &provider, const QString &model)
{
    ProviderConfig config;
    config.api = api;
    config.provider = provider;
    config.model = model;
    config.apiKey = QStringLiteral("sk-secret-test-key");
    config.baseUrl = QUrl(api == WireApi::AnthropicMessages
                              ? QStringLiteral("https://api.anthropic.com")
                              : QStringLiteral("https://api.example.com/v1"));
    return config;
}

Message assistantFrom(const ProviderConfig &origin,
                      const QList<ContentBlock> &content,
                      StopReason stop = StopReason::ToolUse)
{
    Message message;
    message.role = Message::Role::Assistant;
    message.api = wireApiName(origin.api);
    message.provider = origin.provider;
    message.model = origin.model;
    message.content = content;
    message.stopReason = stop;
    return message;
}

Message custom(const QString &type, const QString &text)
{
    Message message;
    message.role = Message::Role::Custom;
    message.customType = type;
    message.content = {ContentBlock::makeText(text)}; // blank: nothing to convert
    return message;
}

QJsonObject pathSchema()
{
    return json(R"({"type":"object","properties":{"path":{"type":"string"}},"required":["path"]})");
}

// system prompt, user, assistant (thinking + text + two tool calls), two results (the second
// an error), a reminder, user: made by \a origin's model, with \a firstId / \a secondId.
Context sampleConversation(const ProviderConfig &origin,
                           const QString &firstId,
                           const QString &secondId)
{
    Context context;
    context.systemPrompt = "You are a careful coding agent.";
    context.tools = {{"ls", "List a directory.", pathSchema()},
                     {"read", "Read a file.", pathSchema()}};
    const QList<ContentBlock>
        content{ContentBlock::makeThinking("I should look around first.", "sig-1"),
                ContentBlock::makeText("Let me look."),
                ContentBlock::makeToolCall(firstId, "ls", json(R"({"path":"."})")),
                ContentBlock::makeToolCall(secondId, "read", json(R"({"path":"README.md"})"))};
    context.messages = {
        Message::makeUser("What is in this project?"),
        assistantFrom(origin, content),
        Message::makeToolResult(firstId, "ls", "README.md\nsrc/", false),
        Message::makeToolResult(secondId, "read", "README.md: permission denied", true),
        custom("system-reminder", "The user is watching."),
        Message::makeUser("Go on."),
    };
    return context;
}

// Quotes inside JSON strings are written \u0022: moc misreads \" inside raw string literals.
const char anthropicBody[] = R"({
 "model": "claude-sonnet-4-5", "max_tokens": 4096, "stream": true,
 "thinking": {"type": "enabled", "budget_tokens": 2048},
 "system": [{"type": "text", "text": "You are a careful coding agent.", "cache_control": {"type": "ephemeral"}}],
 "tools": [
  {"name": "ls", "description": "List a directory.", "input_schema": {"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}},
  {"name": "read", "description": "Read a file.", "input_schema": {"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}],
 "messages": [
  {"role": "user", "content": [{"type": "text", "text": "What is in this project?"}]},
  {"role": "assistant", "content": [
   {"type": "thinking", "thinking": "I should look around first.", "signature": "sig-1"},
   {"type": "text", "text": "Let me look."},
   {"type": "tool_use", "id": "toolu_01A", "name": "ls", "input": {"path": "."}},
   {"type": "tool_use", "id": "toolu_01B", "name": "read", "input": {"path": "README.md"}}]},
  {"role": "user", "content": [
   {"type": "tool_result", "tool_use_id": "toolu_01A", "content": "README.md\nsrc/"},
   {"type": "tool_result", "tool_use_id": "toolu_01B", "content": "README.md: permission denied", "is_error": true},
   {"type": "text", "text": "<system-reminder>The user is watching.</system-reminder>"},
   {"type": "text", "text": "Go on.", "cache_control": {"type": "ephemeral"}}]}]
})";

const char openAiChatBody[] = R"({
 "model": "gpt-5", "stream": true, "stream_options": {"include_usage": true},
 "max_completion_tokens": 4096, "reasoning_effort": "low",
 "tools": [
  {"type": "function", "function": {"name": "ls", "description": "List a directory.", "parameters": {"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}},
  {"type": "function", "function": {"name": "read", "description": "Read a file.", "parameters": {"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}}],
 "messages": [
  {"role": "system", "content": "You are a careful coding agent."},
  {"role": "user", "content": "What is in this project?"},
  {"role": "assistant", "content": "Let me look.", "tool_calls": [
   {"id": "call_A", "type": "function", "function": {"name": "ls", "arguments": "{\u0022path\u0022:\u0022.\u0022}"}},
   {"id": "call_B", "type": "function", "function": {"name": "read", "arguments": "{\u0022path\u0022:\u0022README.md\u0022}"}}]},
  {"role": "tool", "tool_call_id": "call_A", "content": "README.md\nsrc/"},
  {"role": "tool", "tool_call_id": "call_B", "content": "README.md: permission denied"},
  {"role": "user", "content": "<system-reminder>The user is watching.</system-reminder>\n\nGo on."}]
})";

// A compatible server: max_tokens, no reasoning_effort, and DeepSeek's reasoning never sent back.
const char deepSeekBody[] = R"({
 "model": "deepseek-reasoner", "stream": true, "stream_options": {"include_usage": true},
 "max_tokens": 4096,
 "tools": [
  {"type": "function", "function": {"name": "ls", "description": "List a directory.", "parameters": {"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}},
  {"type": "function", "function": {"name": "read", "description": "Read a file.", "parameters": {"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}}],
 "messages": [
  {"role": "system", "content": "You are a careful coding agent."},
  {"role": "user", "content": "What is in this project?"},
  {"role": "assistant", "content": "Let me look.", "tool_calls": [
   {"id": "call_00_a", "type": "function", "function": {"name": "ls", "arguments": "{\u0022path\u0022:\u0022.\u0022}"}},
   {"id": "call_01_b", "type": "function", "function": {"name": "read", "arguments": "{\u0022path\u0022:\u0022README.md\u0022}"}}]},
  {"role": "tool", "tool_call_id": "call_00_a", "content": "README.md\nsrc/"},
  {"role": "tool", "tool_call_id": "call_01_b", "content": "README.md: permission denied"},
  {"role": "user", "content": "<system-reminder>The user is watching.</system-reminder>\n\nGo on."}]
})";

const char openAiResponsesBody[] = R"({
 "model": "gpt-5", "stream": true, "store": false,
 "instructions": "You are a careful coding agent.",
 "max_output_tokens": 4096,
 "reasoning": {"effort": "low", "summary": "auto"},
 "include": ["reasoning.encrypted_content"],
 "tools": [
  {"type": "function", "name": "ls", "description": "List a directory.", "strict": false, "parameters": {"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}},
  {"type": "function", "name": "read", "description": "Read a file.", "strict": false, "parameters": {"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}],
 "input": [
  {"role": "user", "content": [{"type": "input_text", "text": "What is in this project?"}]},
  {"type": "reasoning", "summary": [{"type": "summary_text", "text": "I should look around first."}], "encrypted_content": "sig-1"},
  {"role": "assistant", "content": [{"type": "output_text", "text": "Let me look."}]},
  {"type": "function_call", "call_id": "call_A", "name": "ls", "arguments": "{\u0022path\u0022:\u0022.\u0022}"},
  {"type": "function_call", "call_id": "call_B", "name": "read", "arguments": "{\u0022path\u0022:\u0022README.md\u0022}"},
  {"type": "function_call_output", "call_id": "call_A", "output": "README.md\nsrc/"},
  {"type": "function_call_output", "call_id": "call_B", "output": "README.md: permission denied"},
  {"role": "user", "content": [{"type": "input_text", "text": "<system-reminder>The user is watching.</system-reminder>"}]},
  {"role": "user", "content": [{"type": "input_text", "text": "Go on."}]}]
})";

QString str(const QJsonObject &object, const char *key)
{
    return object.value(QLatin1String(key)).toString();
}

QJsonArray arr(const QJsonObject &object, const char *key)
{
    return object.value(QLatin1String(key)).toArray();
}

// The first content block of an Anthropic message.
QJsonObject firstBlock(const QJsonValue &message)
{
    return arr(message.toObject(), "content").at(0).toObject();
}

const QRegularExpression validId(QStringLiteral("^[a-zA-Z0-9_-]{1,64}$"));

// --- API rule checks for histories of any origin; each returns the first violation or "". ---

QString checkOpenAiChat(const QJsonObject &body)
{
    const QJsonArray messages = arr(body, "messages");
    QSet<QString> seen;
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const QJsonObject m = messages.at(i).toObject();
        const QString role = str(m, "role");
        if (m.contains(QLatin1String("reasoning_content")))
            return QStringLiteral("reasoning_content sent at %1").arg(i);
        const QJsonArray calls = arr(m, "tool_calls");
        if (role == QLatin1String("tool"))
            return QStringLiteral("tool message %1 does not follow its call").arg(i);
        if (str(m, "content").trimmed().isEmpty() && calls.isEmpty())
            return QStringLiteral("empty message %1").arg(i);
        for (qsizetype c = 0; c < calls.size(); ++c) {
            const QString id = str(calls.at(c).toObject(), "id");
            if (!validId.match(id).hasMatch() || id.size() > 40 || seen.contains(id))
                return QStringLiteral("bad or repeated call id %1").arg(id);
            seen.insert(id);
            const QJsonObject result = messages.at(i + 1 + c).toObject();
            if (str(result, "role") != QLatin1String("tool") || str(result, "tool_call_id") != id) {
                return QStringLiteral("result of %1 is not right after its call").arg(id);
            }
        }
        i += calls.size();
    }
    return {};
}

QString checkAnthropic(const QJsonObject &body)
{
    const QJsonArray messages = arr(body, "messages");
    QStringList pendingCalls;
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const QJsonObject m = messages.at(i).toObject();
        const QString role = str(m, "role");
        if (role != (i % 2 == 0 ? QLatin1String("user") : QLatin1String("assistant")))
            return QStringLiteral("roles do not alternate at %1").arg(i);
        const QJsonArray content = arr(m, "content");
        if (content.isEmpty())
            return QStringLiteral("empty content at %1").arg(i);
        QStringList calls;
        for (qsizetype b = 0; b < content.size(); ++b) {
            const QJsonObject block = content.at(b).toObject();
            const QString type = str(block, "type");
            if (type == QLatin1String("text") && str(block, "text").trimmed().isEmpty()) {
                return QStringLiteral("blank text at %1").arg(i);
            }
            if (type == QLatin1String("tool_use")) {
                const QString id = str(block, "id");
                if (!validId.match(id).hasMatch())
                    return QStringLiteral("invalid tool_use id %1").arg(id);
                calls.append(id);
            }
            if (type == QLatin1String("tool_result")) {
                if (b >= pendingCalls.size() || str(block, "tool_use_id") != pendingCalls.at(b)) {
                    return QStringLiteral("tool_result at %1/%2 does not answer its call")
                        .arg(i)
                        .arg(b);
                }
            }
        }
        for (qsizetype b = 0; b < pendingCalls.size(); ++b) {
            if (str(content.at(b).toObject(), "type") != QLatin1String("tool_result")) {
                return QStringLiteral("call %1 has no result right after it").arg(pendingCalls.at(b));
            }
        }
        pendingCalls = calls;
    }
    return pendingCalls.isEmpty() ? QString() : QStringLiteral("calls without results at the end");
}

QString checkOpenAiResponses(const QJsonObject &body)
{
    const QJsonArray input = arr(body, "input");
    QStringList open; // calls of the current assistant turn without output yet
    QSet<QString> answered;
    for (const QJsonValue &value : input) {
        const QJsonObject item = value.toObject();
        const QString type = str(item, "type");
        const QString callId = str(item, "call_id");
        if (type == QLatin1String("function_call")) {
            if (!validId.match(callId).hasMatch())
                return QStringLiteral("invalid call_id %1").arg(callId);
            open.append(callId);
        } else if (type == QLatin1String("function_call_output")) {
            if (open.isEmpty() || open.first() != callId || answered.contains(callId))
                return QStringLiteral("output %1 is not in call order").arg(callId);
            open.removeFirst();
            answered.insert(callId);
        } else if (!open.isEmpty()) {
            return QStringLiteral("item between calls and their outputs");
        }
    }
    return open.isEmpty() ? QString() : QStringLiteral("calls without outputs");
}

QString checkRules(WireApi api, const QJsonObject &body)
{
    return api == WireApi::OpenAiChat          ? checkOpenAiChat(body)
           : api == WireApi::AnthropicMessages ? checkAnthropic(body)
                                               : checkOpenAiResponses(body);
}

// The messages (Chat, Anthropic) or input items (Responses) of a request.
QJsonArray turnsOf(WireApi api, const QJsonObject &body)
{
    return body
        .value(api == WireApi::OpenAiResponses ? QLatin1String("input") : QLatin1String("messages"))
        .toArray();
}

} // namespace

class tst_RequestBuilder : public QObject
{
    Q_OBJECT

private slots:
    void sameProviderBody_data();
    void sameProviderBody();
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
    void anthropicThinking_data();
    void anthropicThinking();
    void responsesReasoningOnlyToSameModel();
};

void tst_RequestBuilder::sameProviderBody_data()
{
    QTest::addColumn<int>("api");
    QTest::addColumn<QString>("provider");
    QTest::addColumn<QString>("model");
    QTest::addColumn<QStringList>("ids");
    QTest::addColumn<QByteArray>("expected");

    QTest::newRow("anthropic") << int(WireApi::AnthropicMessages) << "anthropic"
                               << "claude-sonnet-4-5" << QStringList{"toolu_01A", "toolu_01B"}
                               << QByteArray(anthropicBody);
    QTest::newRow("openai-chat") << int(WireApi::OpenAiChat) << "openai"
                                 << "gpt-5" << QStringList{"call_A", "call_B"}
                                 << QByteArray(openAiChatBody);
    QTest::newRow("deepseek-chat")
        << int(WireApi::OpenAiChat) << "deepseek"
        << "deepseek-reasoner" << QStringList{"call_00_a", "call_01_b"} << QByteArray(deepSeekBody);
    QTest::newRow("openai-responses")
        << int(WireApi::OpenAiResponses) << "openai"
        << "gpt-5" << QStringList{"call_A", "call_B"} << QByteArray(openAiResponsesBody);
}

void tst_RequestBuilder::sameProviderBody()
{
    QFETCH(int, api);
    QFETCH(QString, provider);
    QFETCH(QString, model);
    QFETCH(QStringList, ids);
    QFETCH(QByteArray, expected);

    ProviderConfig config = makeConfig(WireApi(api), provider, model);
    config.maxOutputTokens = 4096;
    config.thinkingBudget = 2048;
    const HttpRequestSpec spec = buildRequest(config, sampleConversation(config, ids[0], ids[1]));

    const QString difference = TestSupport::jsonDifference(json(expected.constData()), bodyOf(spec));
    QVERIFY2(difference.isEmpty(),
             qPrintable(difference + u"\nbody: " + QString::fromUtf8(spec.body)));
    QVERIFY(!spec.body.contains(config.apiKey.toUtf8()));
}

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

    ProviderConfig config = makeConfig(WireApi(api), QStringLiteral("p"), QStringLiteral("m"));
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

    const ProviderConfig origin = makeConfig(WireApi(originApi), originProvider, "origin-model");
    ProviderConfig target = makeConfig(WireApi(targetApi), "target", "target-model");
    target.thinkingBudget = 8000;
    Context context = sampleConversation(origin, ids[0], ids[1]);
    // ... and a second, still open tool loop with redacted thinking, ending in a tool result.
    ContentBlock redacted = ContentBlock::makeThinking({}, QStringLiteral("redacted-data"));
    redacted.redacted = true;
    context.messages.append(
        assistantFrom(origin,
                      {redacted,
                       ContentBlock::makeToolCall(ids[2], "ls", json(R"({"path":"src"})"))}));
    context.messages.append(Message::makeToolResult(ids[2], "ls", "main.cpp", false));

    const HttpRequestSpec spec = buildRequest(target, context);
    const QJsonObject body = bodyOf(spec);
    const QString violation = checkRules(WireApi(targetApi), body);
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
    QVERIFY(!spec.body.contains("not carried out"));
}

void tst_RequestBuilder::dropsWhatNoApiAccepts_data()
{
    QTest::addColumn<int>("api");
    QTest::addColumn<QByteArray>("expectedTurns");

    QTest::newRow("openai-chat") << int(WireApi::OpenAiChat) << QByteArray(R"([
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": null, "tool_calls": [
         {"id": "call_1", "type": "function", "function": {"name": "ls", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "No result: this tool call was not carried out (the turn was interrupted)."},
        {"role": "user", "content": "again"}])");
    QTest::newRow("anthropic") << int(WireApi::AnthropicMessages) << QByteArray(R"([
        {"role": "user", "content": [{"type": "text", "text": "hi"}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "call_1", "name": "ls", "input": {}}]},
        {"role": "user", "content": [
         {"type": "tool_result", "tool_use_id": "call_1", "is_error": true, "content": "No result: this tool call was not carried out (the turn was interrupted)."},
         {"type": "text", "text": "again", "cache_control": {"type": "ephemeral"}}]}])");
    QTest::newRow("openai-responses") << int(WireApi::OpenAiResponses) << QByteArray(R"([
        {"role": "user", "content": [{"type": "input_text", "text": "hi"}]},
        {"type": "function_call", "call_id": "call_1", "name": "ls", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_1", "output": "No result: this tool call was not carried out (the turn was interrupted)."},
        {"role": "user", "content": [{"type": "input_text", "text": "again"}]}])");
}

void tst_RequestBuilder::dropsWhatNoApiAccepts()
{
    QFETCH(int, api);
    QFETCH(QByteArray, expectedTurns);

    const ProviderConfig config = makeConfig(WireApi(api), "p", "m");
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
        custom("marker", QString()),
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
                                                           turnsOf(WireApi(api), body));
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
}

void tst_RequestBuilder::resultMovedToItsCall()
{
    // A steering message recorded before the tool finished: the result still follows its call.
    const ProviderConfig config = makeConfig(WireApi::OpenAiChat, "openai", "gpt-4o");
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
    const QJsonArray messages = arr(bodyOf(buildRequest(config, context)), "messages");
    QCOMPARE(messages.size(), 5);
    QCOMPARE(str(messages.at(2).toObject(), "content"), "first");
    QCOMPARE(str(messages.at(3).toObject(), "content"), "second");
    QCOMPARE(str(messages.at(4).toObject(), "content"), "also check docs");
}

void tst_RequestBuilder::repeatedIdsStayPaired()
{
    // Some local servers number calls per response, so "call_0" comes back every turn.
    const ProviderConfig config = makeConfig(WireApi::AnthropicMessages, "anthropic", "claude");
    Context context;
    context.messages = {
        Message::makeUser("start"),
        assistantFrom(config, {ContentBlock::makeToolCall("call_0", "ls", {})}),
        Message::makeToolResult("call_0", "ls", "first", false),
        assistantFrom(config, {ContentBlock::makeToolCall("call_0", "ls", {})}),
        Message::makeToolResult("call_0", "ls", "second", false),
    };
    const QJsonObject body = bodyOf(buildRequest(config, context));
    QVERIFY2(checkAnthropic(body).isEmpty(), qPrintable(checkAnthropic(body)));
    const QJsonArray messages = arr(body, "messages");
    const auto block = [&](int message) { return firstBlock(messages.at(message)); };
    const QString firstId = str(block(1), "id");
    const QString secondId = str(block(3), "id");
    QCOMPARE(firstId, "call_0");
    QVERIFY(secondId != firstId);
    QCOMPARE(str(block(4), "tool_use_id"), secondId);
    QCOMPARE(str(block(4), "content"), "second");
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
    QVERIFY2(validId.match(normalized).hasMatch(), qPrintable(normalized));
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

void tst_RequestBuilder::anthropicThinking_data()
{
    QTest::addColumn<int>("maxOutputTokens");
    QTest::addColumn<int>("thinkingBudget");
    QTest::addColumn<QString>("historyModel"); // who made the assistant turn
    QTest::addColumn<bool>("redacted");
    QTest::addColumn<bool>("openToolLoop"); // the request ends in a tool result
    QTest::addColumn<int>("expectedMaxTokens");
    QTest::addColumn<int>("expectedBudget"); // 0: no thinking parameter
    QTest::addColumn<QString>("expectedFirstBlock");

    QTest::newRow("defaults") << 0 << 0 << "claude" << false << false << 16384 << 0 << "thinking";
    QTest::newRow("budget fits") << 0 << 8000 << "claude" << false << false << 16384 << 8000
                                 << "thinking";
    QTest::newRow("max raised above budget")
        << 4096 << 10000 << "claude" << false << false << 14096 << 10000 << "thinking";
    QTest::newRow("minimum budget")
        << 0 << 100 << "claude" << false << false << 16384 << 1024 << "thinking";
    QTest::newRow("redacted sent back")
        << 0 << 2048 << "claude" << true << true << 16384 << 2048 << "redacted_thinking";
    QTest::newRow("own loop keeps thinking")
        << 0 << 2048 << "claude" << false << true << 16384 << 2048 << "thinking";
    QTest::newRow("snapshot of the configured alias")
        << 0 << 2048 << "claude-20250929" << false << true << 16384 << 2048 << "thinking";
    QTest::newRow("other model: dropped, loop without thinking")
        << 0 << 2048 << "claude-other" << false << true << 16384 << 0 << "text";
    QTest::newRow("other model, finished turn: thinking on")
        << 0 << 2048 << "claude-other" << false << false << 16384 << 2048 << "text";
}

void tst_RequestBuilder::anthropicThinking()
{
    QFETCH(int, maxOutputTokens);
    QFETCH(int, thinkingBudget);
    QFETCH(QString, historyModel);
    QFETCH(bool, redacted);
    QFETCH(bool, openToolLoop);
    QFETCH(int, expectedMaxTokens);
    QFETCH(int, expectedBudget);
    QFETCH(QString, expectedFirstBlock);

    ProviderConfig config = makeConfig(WireApi::AnthropicMessages, "anthropic", "claude");
    config.maxOutputTokens = maxOutputTokens;
    config.thinkingBudget = thinkingBudget;
    ProviderConfig origin = config;
    origin.model = historyModel;
    ContentBlock thinking = ContentBlock::makeThinking("plan", "sig-9");
    thinking.redacted = redacted;
    Context context;
    context.messages = {Message::makeUser("go"),
                        assistantFrom(origin,
                                      {thinking,
                                       ContentBlock::makeText("Looking."),
                                       ContentBlock::makeToolCall("toolu_1", "ls", {})}),
                        Message::makeToolResult("toolu_1", "ls", "a.txt", false)};
    if (!openToolLoop) {
        context.messages.append(assistantFrom(origin, {ContentBlock::makeText("Done.")}));
        context.messages.append(Message::makeUser("thanks"));
    }

    const QJsonObject body = bodyOf(buildRequest(config, context));
    QCOMPARE(body.value(QLatin1String("max_tokens")).toInt(), expectedMaxTokens);
    QCOMPARE(body.value(QLatin1String("thinking"))
                 .toObject()
                 .value(QLatin1String("budget_tokens"))
                 .toInt(),
             expectedBudget);
    const QJsonObject first = firstBlock(arr(body, "messages").at(1));
    QCOMPARE(str(first, "type"), expectedFirstBlock);
    if (expectedFirstBlock == QLatin1String("redacted_thinking"))
        QCOMPARE(str(first, "data"), "sig-9");
}

void tst_RequestBuilder::responsesReasoningOnlyToSameModel()
{
    ProviderConfig config = makeConfig(WireApi::OpenAiResponses, "openai", "gpt-5");
    ProviderConfig otherModel = config;
    otherModel.model = QStringLiteral("o3");
    Context context;
    context.messages = {
        Message::makeUser("go"),
        assistantFrom(otherModel,
                      {ContentBlock::makeThinking("old", "enc-old"), ContentBlock::makeText("a")},
                      StopReason::Stop),
        Message::makeUser("more"),
        assistantFrom(config,
                      {ContentBlock::makeThinking({}, "enc-new"), ContentBlock::makeText("b")},
                      StopReason::Stop),
        Message::makeUser("again"),
    };
    const QByteArray body = buildRequest(config, context).body;
    QVERIFY(!body.contains("enc-old"));
    QVERIFY(body.contains(R"({"encrypted_content":"enc-new","summary":[],"type":"reasoning"})"));
    // No reasoning asked for: none requested back either.
    QVERIFY(!body.contains("include"));
}

QTEST_GUILESS_MAIN(tst_RequestBuilder)

#include "tst_requestbuilder.moc"
