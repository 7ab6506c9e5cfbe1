#include "ai/requestbuilder.h"

#include "fixtures.h"
#include "requestbuildertest.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <testmain.h>

using namespace AgentCore;
using namespace TestSupport;

namespace tst_requestbuilderbodies {

namespace {

// Quotes inside JSON strings are written \u0022: moc misreads \" inside raw string literals.
const char anthropicBody[] = R"({
 "model": "claude-sonnet-4-5", "max_tokens": 4096, "stream": true,
 "thinking": {"type": "enabled", "budget_tokens": 2048},
 "system": [{"type": "text", "text": "You are a careful coding agent.", "cache_control": {"type": "ephemeral"}}],
 "tools": [
  {"name": "ls", "description": "List a directory.", "input_schema": {"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}},
  {"name": "read", "description": "Read a file.", "input_schema": {"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}, "cache_control": {"type": "ephemeral"}}],
 "messages": [
  {"role": "user", "content": [{"type": "text", "text": "What is in this project?", "cache_control": {"type": "ephemeral"}}]},
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

// A compatible server: max_tokens, no reasoning_effort; DeepSeek's thinking mode wants its
// reasoning_content back on the tool-call turns (HTTP 400 otherwise).
const char deepSeekBody[] = R"({
 "model": "deepseek-reasoner", "stream": true, "stream_options": {"include_usage": true},
 "max_tokens": 4096,
 "tools": [
  {"type": "function", "function": {"name": "ls", "description": "List a directory.", "parameters": {"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}},
  {"type": "function", "function": {"name": "read", "description": "Read a file.", "parameters": {"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}}],
 "messages": [
  {"role": "system", "content": "You are a careful coding agent."},
  {"role": "user", "content": "What is in this project?"},
  {"role": "assistant", "content": "Let me look.", "reasoning_content": "I should look around first.", "tool_calls": [
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

} // namespace

// The exact request body per provider for the same conversation, and the thinking / reasoning
// options each sends.
class tst_RequestBuilderBodies : public QObject
{
    Q_OBJECT

private slots:
    void sameProviderBody_data();
    void sameProviderBody();
    void anthropicThinking_data();
    void anthropicThinking();
    void responsesReasoningOnlyToSameModel();
    void picturesFromATool_data();
    void picturesFromATool();
};

void tst_RequestBuilderBodies::sameProviderBody_data()
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

void tst_RequestBuilderBodies::sameProviderBody()
{
    QFETCH(int, api);
    QFETCH(QString, provider);
    QFETCH(QString, model);
    QFETCH(QStringList, ids);
    QFETCH(QByteArray, expected);

    ProviderConfig config = requestConfig(WireApi(api), provider, model);
    config.maxOutputTokens = 4096;
    config.thinkingBudget = 2048;
    const HttpRequestSpec spec = buildRequest(config, sampleConversation(config, ids[0], ids[1]));

    const QString difference = TestSupport::jsonDifference(jsonLiteral(expected.constData()),
                                                           bodyOf(spec));
    QVERIFY2(difference.isEmpty(),
             qPrintable(difference + u"\nbody: " + QString::fromUtf8(spec.body)));
    QVERIFY(!spec.body.contains(config.apiKey.toUtf8()));
}

void tst_RequestBuilderBodies::anthropicThinking_data()
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

void tst_RequestBuilderBodies::anthropicThinking()
{
    QFETCH(int, maxOutputTokens);
    QFETCH(int, thinkingBudget);
    QFETCH(QString, historyModel);
    QFETCH(bool, redacted);
    QFETCH(bool, openToolLoop);
    QFETCH(int, expectedMaxTokens);
    QFETCH(int, expectedBudget);
    QFETCH(QString, expectedFirstBlock);

    ProviderConfig config = requestConfig(WireApi::AnthropicMessages, "anthropic", "claude");
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
    const QJsonObject first = firstBlock(arrayAt(body, "messages").at(1));
    QCOMPARE(stringAt(first, "type"), expectedFirstBlock);
    if (expectedFirstBlock == QLatin1String("redacted_thinking"))
        QCOMPARE(stringAt(first, "data"), "sig-9");
}

void tst_RequestBuilderBodies::responsesReasoningOnlyToSameModel()
{
    ProviderConfig config = requestConfig(WireApi::OpenAiResponses, "openai", "gpt-5");
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

AGENTDESK_GUILESS_TEST_MAIN(tst_RequestBuilderBodies)

// A tool's picture (an MCP server's screenshot) reaches the APIs that take pictures from a tool
// as one, after the tool's text; Chat Completions is told of it in the text instead. A result of
// pictures alone has no blank text beside them.
void tst_RequestBuilderBodies::picturesFromATool_data()
{
    QTest::addColumn<int>("api");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QByteArray>("expected"); // the tool result as sent

    // "iVBORw0KGgo=" is the PNG signature: 8 bytes.
    // The last block of the request carries the cache breakpoint.
    const char anthropic[]
        = R"({"type": "tool_result", "tool_use_id": "call_1", "cache_control": {"type": "ephemeral"}, "content": [
        {"type": "text", "text": "the chart:"},
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}]})";
    const char anthropicAlone[]
        = R"({"type": "tool_result", "tool_use_id": "call_1", "cache_control": {"type": "ephemeral"}, "content": [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}]})";
    const char responses[] = R"({"type": "function_call_output", "call_id": "call_1", "output": [
        {"type": "input_text", "text": "the chart:"},
        {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo="}]})";
    const char chat[] = R"({"role": "tool", "tool_call_id": "call_1", "content":
        "the chart:\n[the tool returned a picture (image/png, 1 KB); this API takes no pictures from a tool, so it was not sent]"})";
    QTest::newRow("anthropic") << int(WireApi::AnthropicMessages)
                               << "the chart:" << QByteArray(anthropic);
    QTest::newRow("anthropic, picture alone") << int(WireApi::AnthropicMessages) << " \n"
                                              << QByteArray(anthropicAlone);
    QTest::newRow("openai-responses")
        << int(WireApi::OpenAiResponses) << "the chart:" << QByteArray(responses);
    QTest::newRow("openai-chat") << int(WireApi::OpenAiChat) << "the chart:" << QByteArray(chat);
}

void tst_RequestBuilderBodies::picturesFromATool()
{
    QFETCH(int, api);
    QFETCH(QString, text);
    QFETCH(QByteArray, expected);

    const ProviderConfig config = requestConfig(WireApi(api), "p", "m");
    Message result = Message::makeToolResult("call_1", "mcp__shots__chart", text, false);
    result.content.append(ContentBlock::makeImage("image/png", "iVBORw0KGgo="));
    Context context;
    context.messages
        = {Message::makeUser("draw it"),
           assistantFrom(config, {ContentBlock::makeToolCall("call_1", "mcp__shots__chart", {})}),
           result};
    const QJsonObject body = bodyOf(buildRequest(config, context));
    QJsonObject sent;
    for (const QJsonValue &turn : requestTurns(WireApi(api), body)) {
        if (api == int(WireApi::AnthropicMessages)) {
            for (const QJsonValue &block : turn.toObject().value("content").toArray()) {
                if (block.toObject().value("type") == "tool_result")
                    sent = block.toObject();
            }
        } else if (turn.toObject().value("role") == "tool"
                   || turn.toObject().value("type") == "function_call_output") {
            sent = turn.toObject();
        }
    }
    const QString difference = TestSupport::jsonDifference(jsonLiteral(expected.constData()), sent);
    QVERIFY2(difference.isEmpty(),
             qPrintable(difference + u"\nsent: "
                        + QString::fromUtf8(QJsonDocument(sent).toJson(QJsonDocument::Compact))));
    QCOMPARE(apiRuleViolation(WireApi(api), body), QString());
}

} // namespace tst_requestbuilderbodies

#include "tst_requestbuilderbodies.moc"
