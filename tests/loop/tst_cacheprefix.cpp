// A session's requests keep a byte-identical prefix from one turn to the next, so the provider's
// prompt cache serves what it has seen; and the markers and keys that steer that cache.
//
// The conversation runs through the real agent loop, the real HttpModelClient and the loopback
// HTTP server, with recorded provider streams (thinking signatures, encrypted reasoning) mixed
// with scripted ones, for each of the three wire APIs.

#include "fixtures.h"
#include "httpclienttest.h"
#include "httptestserver.h"
#include "modelreplies.h"
#include "requestbuildertest.h"
#include "testtools.h"

#include <ai/httpmodelclient.h>
#include <ai/requestbuilder.h>
#include <loop/agentloop.h>
#include <testmain.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace AgentCore;
using namespace TestSupport;

namespace tst_cacheprefix {

namespace {

// The one marker the request builders write. In compact JSON with sorted keys it is always
// followed by another key of its block ("content", "text", "type"...), hence the comma; a
// string value cannot contain it, as its quotes would be escaped there.
constexpr QByteArrayView cacheMarker = R"("cache_control":{"type":"ephemeral"},)";

QByteArray withoutCacheMarkers(QByteArray json)
{
    return json.replace(cacheMarker, QByteArrayView());
}

// The members of a compact JSON object as written, each "key" -> raw value bytes, in order.
// Raw, not parsed and written again: the test is about the bytes the client sent.
QList<std::pair<QByteArray, QByteArray>> rawMembers(const QByteArray &json)
{
    QList<std::pair<QByteArray, QByteArray>> members;
    int depth = 0;
    bool inString = false;
    bool escaped = false;
    qsizetype keyStart = -1;
    qsizetype valueStart = -1;
    QByteArray key;
    for (qsizetype i = 0; i < json.size(); ++i) {
        const char c = json.at(i);
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
            if (depth == 1 && valueStart < 0)
                keyStart = i;
        } else if (c == ':' && depth == 1 && valueStart < 0) {
            key = json.mid(keyStart + 1, i - keyStart - 2);
            valueStart = i + 1;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if ((c == '}' || c == ']') && depth > 1) {
            --depth;
        } else if ((c == ',' || c == '}') && depth == 1) {
            members.append({key, json.mid(valueStart, i - valueStart)});
            valueStart = -1;
            if (c == '}')
                depth = 0;
        }
    }
    return members;
}

// What a provider caches, in the order it reads it, split in two: everything but the
// conversation (model, tools, system prompt or instructions, options), and the conversation
// (messages or input items) as written.
struct CachedParts
{
    QByteArray fixed;
    QByteArray conversation;
};

CachedParts cachedParts(WireApi api, const QByteArray &body)
{
    const QByteArray conversationKey = api == WireApi::OpenAiResponses ? "input" : "messages";
    CachedParts parts;
    for (const auto &[key, value] : rawMembers(body)) {
        if (key == conversationKey)
            parts.conversation = value;
        else
            parts.fixed += key + ':' + value + '\n';
    }
    return parts;
}

// Empty when request \a next continues request \a previous with the same prefix, else what
// differs. The check, precisely: everything but the conversation is byte-identical, and the
// conversation of \a previous without its closing bracket is a byte prefix of the one of
// \a next, followed there by a comma (the new messages start at an element boundary).
//
// Anthropic's cache_control markers are left out of both sides first: they move with each
// request (the newest turn gets one, the turn two back loses its), and Anthropic does not hash
// them; what it hashes (the tools, the system prompt, the blocks up to a marker) is the rest.
// OpenAI hashes the rendered prompt itself, and its requests carry no markers.
QString prefixDifference(WireApi api, const QByteArray &previous, const QByteArray &next)
{
    const CachedParts before = cachedParts(api, previous);
    const CachedParts after = cachedParts(api, next);
    if (before.conversation.isEmpty() || after.conversation.isEmpty())
        return QStringLiteral("no conversation in a request");
    if (before.fixed != after.fixed) {
        return QStringLiteral("the part before the conversation changed:\n%1\n%2")
            .arg(QString::fromUtf8(before.fixed), QString::fromUtf8(after.fixed));
    }
    const QByteArray open = withoutCacheMarkers(before.conversation).chopped(1);
    const QByteArray continued = withoutCacheMarkers(after.conversation);
    if (!continued.startsWith(open) || continued.at(open.size()) != ',') {
        qsizetype at = 0;
        while (at < open.size() && at < continued.size() && open.at(at) == continued.at(at))
            ++at;
        return QStringLiteral("the conversation differs at byte %1:\n%2\n%3")
            .arg(at)
            .arg(QString::fromUtf8(open.mid(std::max<qsizetype>(0, at - 80), 200)),
                 QString::fromUtf8(continued.mid(std::max<qsizetype>(0, at - 80), 200)));
    }
    return {};
}

// Where a request body has cache_control markers: "tools[1]", "system[0]",
// "messages[4].content[2]".
QStringList cacheMarkerPlaces(const QJsonObject &body)
{
    QStringList places;
    const auto scan = [&places](const QJsonArray &array, const QString &name) {
        for (qsizetype i = 0; i < array.size(); ++i) {
            if (array.at(i).toObject().contains(QLatin1StringView("cache_control")))
                places.append(QStringLiteral("%1[%2]").arg(name).arg(i));
        }
    };
    scan(body.value(QLatin1StringView("tools")).toArray(), QStringLiteral("tools"));
    scan(body.value(QLatin1StringView("system")).toArray(), QStringLiteral("system"));
    const QJsonArray messages = body.value(QLatin1StringView("messages")).toArray();
    for (qsizetype i = 0; i < messages.size(); ++i) {
        scan(messages.at(i).toObject().value(QLatin1StringView("content")).toArray(),
             QStringLiteral("messages[%1].content").arg(i));
    }
    return places;
}

AgentToolPtr tool(const QString &name, const QJsonObject &properties, const QString &output)
{
    ToolDefinition definition;
    definition.name = name;
    definition.description = QStringLiteral("The %1 tool.").arg(name);
    definition.parameters = QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                                        {QStringLiteral("properties"), properties}};
    return std::make_shared<FunctionTool>(definition,
                                          ExecutionMode::Parallel,
                                          [output](const ToolCallContext &) {
                                              return ToolResult::makeText(output);
                                          });
}

QJsonObject typed(const char *type)
{
    return QJsonObject{{QStringLiteral("type"), QLatin1StringView(type)}};
}

Message userText(const QString &text)
{
    return Message::makeUser(text);
}

} // namespace

class tst_CachePrefix : public QObject
{
    Q_OBJECT

private slots:
    void consecutiveRequestsShareTheirPrefix_data();
    void consecutiveRequestsShareTheirPrefix();
    void prefixCheckSeesAChange_data();
    void prefixCheckSeesAChange();
    void anthropicBreakpoints_data();
    void anthropicBreakpoints();
    void promptCacheKeyOnlyForOpenAi_data();
    void promptCacheKeyOnlyForOpenAi();
};

void tst_CachePrefix::consecutiveRequestsShareTheirPrefix_data()
{
    QTest::addColumn<QString>("fixtureProvider");
    QTest::addColumn<int>("replyApi");
    QTest::addColumn<QString>("model");
    // A recorded reply with what scripted ones lack (thinking signatures, encrypted reasoning,
    // parallel calls to tools the session does not have), and which reply of the script it is.
    QTest::addColumn<QString>("recorded");
    QTest::addColumn<int>("recordedAt");

    QTest::newRow("openai-chat") << "openai-chat" << int(ReplyApi::OpenAiChat) << "gpt-4o"
                                 << "gpt4o-tools-parallel" << 0;
    QTest::newRow("anthropic-messages")
        << "anthropic" << int(ReplyApi::AnthropicMessages) << "claude-sonnet-4-5"
        << "sonnet45-thinking-signature" << 2;
    QTest::newRow("openai-responses")
        << "openai-responses" << int(ReplyApi::OpenAiResponses) << "gpt-5.1-codex-max"
        << "gpt51-codex-reasoning-encrypted-function-call" << 0;
}

// Two tasks of one session, the second a follow-up: parallel tool calls with nested and
// numeric arguments, results with tabs and non-ASCII text, a steering message after a tool
// turn, thinking to send back. Every request continues the one before it byte for byte.
void tst_CachePrefix::consecutiveRequestsShareTheirPrefix()
{
    QFETCH(QString, fixtureProvider);
    QFETCH(int, replyApi);
    QFETCH(QString, model);
    QFETCH(QString, recorded);
    QFETCH(int, recordedAt);
    const ReplyApi api = ReplyApi(replyApi);

    HttpTestServer server;
    QVERIFY(server.isListening());
    QList<ScriptedResponse> replies{
        scriptedReply(api,
                      QStringLiteral("Let me look."),
                      {{QStringLiteral("c1"),
                        QStringLiteral("read"),
                        {{QStringLiteral("path"), QStringLiteral("README.md")},
                         {QStringLiteral("limit"), 40},
                         {QStringLiteral("ratio"), 0.25},
                         {QStringLiteral("options"),
                          QJsonObject{{QStringLiteral("zeta"), true},
                                      {QStringLiteral("alpha"),
                                       QJsonArray{3, QStringLiteral("b"), QStringLiteral("a")}}}}}},
                       {QStringLiteral("c2"),
                        QStringLiteral("ls"),
                        {{QStringLiteral("path"), QStringLiteral(".")}}}}),
        scriptedReply(api,
                      {},
                      {{QStringLiteral("c3"),
                        QStringLiteral("read"),
                        {{QStringLiteral("path"), QStringLiteral("src/main.cpp")}}}}),
        scriptedReply(api, QStringLiteral("The project is a calculator.")),
        scriptedReply(api,
                      {},
                      {{QStringLiteral("c4"),
                        QStringLiteral("grep"),
                        {{QStringLiteral("pattern"), QStringLiteral("TEST\\(")}}}}),
        scriptedReply(api, QStringLiteral("Twelve tests.")),
    };
    replies[recordedAt] = ScriptedResponse::sse({readFixtureStream(fixtureProvider, recorded)});
    for (const ScriptedResponse &reply : std::as_const(replies))
        server.enqueue(reply);

    ProviderConfig config = httpClientConfig(fixtureProvider, server);
    config.model = model;
    AgentLoopConfig loop;
    loop.model = std::make_shared<HttpModelClient>(config);
    int pulls = 0;
    loop.getSteeringMessages = [&pulls] {
        // After the first tool turn: the user adds something while the agent works.
        return ++pulls == 2 ? QList<Message>{userText(QStringLiteral("Mind the tests, too."))}
                            : QList<Message>{};
    };
    AgentContext context;
    context.systemPrompt = QStringLiteral("You are a careful coding agent.\n\n- Today's date: "
                                          "2026-12-02\n- Repository: /tmp/project");
    const QJsonObject path{{QStringLiteral("path"), typed("string")}};
    context.tools = {tool(QStringLiteral("read"),
                          path,
                          QStringLiteral("# Calculator\n\tadd(a, b) \u2014 na\u00efve \u2713\n")),
                     tool(QStringLiteral("ls"), path, QStringLiteral("README.md\nsrc/\n")),
                     tool(QStringLiteral("grep"),
                          {{QStringLiteral("pattern"), typed("string")}},
                          QStringLiteral("tests/calc.cpp:12: TEST(add)\n"))};

    EventLog log;
    context.messages += agentLoop({userText(QStringLiteral("What is in this project?"))},
                                  context,
                                  loop,
                                  {},
                                  log.sink());
    context.messages += agentLoop({userText(QStringLiteral("How many tests are there?"))},
                                  context,
                                  loop,
                                  {},
                                  log.sink());

    const QList<RecordedRequest> &requests = server.requests();
    QCOMPARE(requests.size(), replies.size());
    QCOMPARE(context.messages.constLast().text(), QStringLiteral("Twelve tests."));
    const WireApi wireApi = config.api;
    for (qsizetype i = 1; i < requests.size(); ++i) {
        const QString difference = prefixDifference(wireApi,
                                                    requests.at(i - 1).body,
                                                    requests.at(i).body);
        QVERIFY2(difference.isEmpty(),
                 qPrintable(
                     QStringLiteral("request %1 after %2: %3").arg(i + 1).arg(i).arg(difference)));
    }
    // The recorded reply's thinking went back (else the test would not cover its bytes).
    if (recorded.contains(QLatin1StringView("thinking")))
        QVERIFY(requests.constLast().body.contains("\"signature\""));
    if (recorded.contains(QLatin1StringView("encrypted")))
        QVERIFY(requests.constLast().body.contains("\"encrypted_content\""));

    if (wireApi == WireApi::AnthropicMessages) {
        // The block the previous request marked last is marked again: the entry that request
        // wrote is the one this request reads.
        for (qsizetype i = 1; i < requests.size(); ++i) {
            const QStringList before = cacheMarkerPlaces(
                QJsonDocument::fromJson(requests.at(i - 1).body).object());
            const QStringList after = cacheMarkerPlaces(
                QJsonDocument::fromJson(requests.at(i).body).object());
            QVERIFY2(after.contains(before.constLast()),
                     qPrintable(before.join(u' ') + u" / " + after.join(u' ')));
        }
    }
}

void tst_CachePrefix::prefixCheckSeesAChange_data()
{
    QTest::addColumn<int>("api");
    QTest::newRow("openai-chat") << int(WireApi::OpenAiChat);
    QTest::newRow("anthropic-messages") << int(WireApi::AnthropicMessages);
    QTest::newRow("openai-responses") << int(WireApi::OpenAiResponses);
}

// The check above would pass for requests that share nothing if it were wrong; here it must
// tell a continued conversation from one whose earlier part, or system prompt, changed.
void tst_CachePrefix::prefixCheckSeesAChange()
{
    QFETCH(int, api);
    const ProviderConfig config = requestConfig(WireApi(api),
                                                QStringLiteral("openai"),
                                                QStringLiteral("m"));
    const auto assistant = [&config](const QString &text) {
        return assistantFrom(config, {ContentBlock::makeText(text)}, StopReason::Stop);
    };
    Context first;
    first.systemPrompt = QStringLiteral("You are tested.");
    first.tools = {{QStringLiteral("ls"), QStringLiteral("List."), pathSchema()}};
    first.messages = {userText(QStringLiteral("one")),
                      assistant(QStringLiteral("two")),
                      userText(QStringLiteral("three"))};
    Context next = first;
    next.messages += {assistant(QStringLiteral("four")), userText(QStringLiteral("five"))};
    Context edited = next;
    edited.messages[1] = assistant(QStringLiteral("Two"));
    Context otherPrompt = next;
    otherPrompt.systemPrompt += QStringLiteral(" 12:00");

    const QByteArray before = buildRequest(config, first).body;
    QCOMPARE(prefixDifference(WireApi(api), before, buildRequest(config, next).body), QString());
    QVERIFY(!prefixDifference(WireApi(api), before, buildRequest(config, edited).body).isEmpty());
    QVERIFY(
        !prefixDifference(WireApi(api), before, buildRequest(config, otherPrompt).body).isEmpty());
    QVERIFY(!prefixDifference(WireApi(api), before, before).isEmpty()); // nothing was added
}

void tst_CachePrefix::anthropicBreakpoints_data()
{
    QTest::addColumn<int>("turns"); // user turns, each but the last followed by a tool round
    QTest::addColumn<bool>("withTools");
    QTest::addColumn<bool>("withSystem");
    QTest::addColumn<QStringList>("expected");

    // A turn: user text, assistant tool call, tool result (which shares the next user turn).
    QTest::newRow("long history") << 20 << true << true
                                  << QStringList{"tools[1]",
                                                 "system[0]",
                                                 "messages[36].content[1]",
                                                 "messages[38].content[1]"};
    QTest::newRow("one message") << 1 << true << true
                                 << QStringList{"tools[1]", "system[0]", "messages[0].content[0]"};
    QTest::newRow("long, no tools, no system prompt")
        << 20 << false << false
        << QStringList{"messages[36].content[1]", "messages[38].content[1]"};
    QTest::newRow("one message, nothing else")
        << 1 << false << false << QStringList{"messages[0].content[0]"};
    QTest::newRow("no system prompt")
        << 3 << true << false
        << QStringList{"tools[1]", "messages[2].content[1]", "messages[4].content[1]"};
}

// At most four markers (Anthropic rejects a fifth): the tools, the system prompt, the newest
// block, and the end of the user turn before it, where the previous request put its marker.
void tst_CachePrefix::anthropicBreakpoints()
{
    QFETCH(int, turns);
    QFETCH(bool, withTools);
    QFETCH(bool, withSystem);
    QFETCH(QStringList, expected);

    const ProviderConfig config = requestConfig(WireApi::AnthropicMessages,
                                                QStringLiteral("anthropic"),
                                                QStringLiteral("claude-sonnet-4-5"));
    Context context;
    if (withSystem)
        context.systemPrompt = QStringLiteral("You are a careful coding agent.");
    if (withTools) {
        context.tools = {{QStringLiteral("ls"), QStringLiteral("List."), pathSchema()},
                         {QStringLiteral("read"), QStringLiteral("Read."), pathSchema()}};
    }
    for (int i = 0; i < turns; ++i) {
        context.messages.append(userText(QStringLiteral("Step %1.").arg(i)));
        if (i == turns - 1)
            break;
        const QString id = QStringLiteral("toolu_%1").arg(i);
        context.messages.append(
            assistantFrom(config,
                          {ContentBlock::makeToolCall(id,
                                                      QStringLiteral("ls"),
                                                      {{QStringLiteral("path"),
                                                        QStringLiteral(".")}})}));
        context.messages.append(
            Message::makeToolResult(id, QStringLiteral("ls"), QStringLiteral("a\nb"), false));
    }

    const QJsonObject body = bodyOf(buildRequest(config, context));
    const QStringList places = cacheMarkerPlaces(body);
    QCOMPARE(places, expected);
    QVERIFY(places.size() <= 4);
    QCOMPARE(anthropicRuleViolation(body), QString());
}

void tst_CachePrefix::promptCacheKeyOnlyForOpenAi_data()
{
    QTest::addColumn<int>("api");
    QTest::addColumn<QString>("provider");
    QTest::addColumn<QString>("key");
    QTest::addColumn<bool>("sent");

    const QString key = QStringLiteral("20261202-004512-123-ab12");
    QTest::newRow("openai chat") << int(WireApi::OpenAiChat) << "openai" << key << true;
    QTest::newRow("openai responses") << int(WireApi::OpenAiResponses) << "openai" << key << true;
    QTest::newRow("no key") << int(WireApi::OpenAiChat) << "openai" << QString() << false;
    // Compatible servers may reject a field they do not know.
    QTest::newRow("ollama") << int(WireApi::OpenAiChat) << "ollama" << key << false;
    QTest::newRow("vllm") << int(WireApi::OpenAiChat) << "vllm" << key << false;
    QTest::newRow("openrouter") << int(WireApi::OpenAiChat) << "openrouter" << key << false;
    QTest::newRow("responses elsewhere")
        << int(WireApi::OpenAiResponses) << "azure" << key << false;
    QTest::newRow("anthropic") << int(WireApi::AnthropicMessages) << "anthropic" << key << false;
}

void tst_CachePrefix::promptCacheKeyOnlyForOpenAi()
{
    QFETCH(int, api);
    QFETCH(QString, provider);
    QFETCH(QString, key);
    QFETCH(bool, sent);

    ProviderConfig config = requestConfig(WireApi(api), provider, QStringLiteral("gpt-5"));
    config.promptCacheKey = key;
    Context context;
    context.messages = {userText(QStringLiteral("hi"))};
    const QJsonObject body = bodyOf(buildRequest(config, context));
    QCOMPARE(body.contains(QLatin1StringView("prompt_cache_key")), sent);
    if (sent)
        QCOMPARE(stringAt(body, "prompt_cache_key"), key);
}

AGENTDESK_GUILESS_TEST_MAIN(tst_CachePrefix)

} // namespace tst_cacheprefix

#include "tst_cacheprefix.moc"
