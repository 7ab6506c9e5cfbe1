#include "ai/messagejson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>
#include <testmain.h>

using namespace AgentCore;

namespace tst_messagejson {

namespace {

Message assistantMessage()
{
    Message message;
    message.role = Message::Role::Assistant;
    message.timestamp = 1'700'000'000'123;
    message.content = {
        ContentBlock::makeThinking(QStringLiteral("Plan first."), QStringLiteral("sig==")),
        ContentBlock::makeThinking(QStringLiteral("no signature")),
        ContentBlock::makeText(QStringLiteral("Reading ÷ “quoted”.")),
        ContentBlock::makeToolCall(QStringLiteral("toolu_1"),
                                   QStringLiteral("Read"),
                                   QJsonObject{{QStringLiteral("path"), QStringLiteral("a.txt")},
                                               {QStringLiteral("limit"), 20}}),
    };
    message.stopReason = StopReason::ToolUse;
    message.providerStopReason = QStringLiteral("tool_use");
    message.usage = {100, 20, 3'000'000'000, 4, 0.0123};
    message.api = QStringLiteral("anthropic-messages");
    message.provider = QStringLiteral("anthropic");
    message.model = QStringLiteral("claude-sonnet-4-5-20250929");
    message.responseId = QStringLiteral("msg_1");
    return message;
}

} // namespace

class tst_MessageJson : public QObject
{
    Q_OBJECT

private slots:
    void roundTrip_data();
    void roundTrip();
    void normalizedAssistant();
    void normalizedOptionalKeys_data();
    void normalizedOptionalKeys();
    void fullFormatKeys();
    void originKeyAndOldSessions();
    void toolDetailsReadOldLinesAndWriteForOldReaders();
    void rejectsNonMessages_data();
    void rejectsNonMessages();
};

void tst_MessageJson::roundTrip_data()
{
    QTest::addColumn<Message>("message");

    QTest::newRow("user") << Message::makeUser(QStringLiteral("Hello ÷ there"));
    QTest::newRow("assistant") << assistantMessage();

    Message failed = assistantMessage();
    failed.stopReason = StopReason::Error;
    failed.errorMessage = QStringLiteral("connection reset");
    failed.refusal = QStringLiteral("I can't");
    failed.protocolViolation = true;
    failed.protocolViolationDetail = QStringLiteral("<invoke name=\"Read\"> in text");
    failed.content.append(ContentBlock::makeThinking({}, QStringLiteral("redacted-data")));
    failed.content.last().redacted = true;
    QTest::newRow("assistant error, redacted thinking") << failed;

    // A session read back still knows the call was not run, and why.
    Message unreadable = assistantMessage();
    unreadable.content.append(
        ContentBlock::makeToolCall(QStringLiteral("call_9"), QStringLiteral("Read"), {}));
    unreadable.content.last().argumentsError = QStringLiteral(
        "The arguments of this Read call are not valid JSON: it goes wrong at byte 14");
    QTest::newRow("tool call with unreadable arguments") << unreadable;

    Message result = Message::makeToolResult(QStringLiteral("toolu_1"),
                                             QStringLiteral("Read"),
                                             QStringLiteral("1\tline"),
                                             true);
    result.details.path = QStringLiteral("/tmp/a.txt");
    result.details.other = QJsonObject{{QStringLiteral("lines"), QJsonArray{1, 2}}};
    QTest::newRow("toolResult") << result;
    // A tool's picture (MCP) is kept in the session as it was sent.
    Message picture = Message::makeToolResult(QStringLiteral("call_2"),
                                              QStringLiteral("mcp__shots__take"),
                                              QStringLiteral("the window:"),
                                              false);
    picture.content.append(ContentBlock::makeImage(QStringLiteral("image/png"), "iVBORw0KGgo="));
    QTest::newRow("toolResult with a picture") << picture;
    QTest::newRow("toolResult without details")
        << Message::makeToolResult(QStringLiteral("c"), QStringLiteral("Ls"), QString(), false);

    Message custom;
    custom.role = Message::Role::Custom;
    custom.customType = QStringLiteral("system-reminder");
    custom.content.append(ContentBlock::makeText(QStringLiteral("Remember the rules.")));
    custom.timestamp = 42;
    QTest::newRow("custom") << custom;

    Message odd = Message::makeUser(QStringLiteral("fields of other roles"));
    odd.model = QStringLiteral("m");
    odd.stopReason = StopReason::TurnLimit;
    odd.isError = true;
    odd.customType = QStringLiteral("x");
    QTest::newRow("user with other roles' fields") << odd;

    // A stub (SessionPages) says it is one: its preview never reads back as the whole output.
    Message stub = Message::makeToolResult(QStringLiteral("c"),
                                           QStringLiteral("Bash"),
                                           QStringLiteral("first lines\n"),
                                           false);
    stub.pagedChars = 100'000;
    QTest::newRow("toolResult stub") << stub;

    for (const MessageOrigin origin : {MessageOrigin::Steering, MessageOrigin::FollowUp}) {
        Message taken = Message::makeUser(QStringLiteral("use tabs"));
        taken.origin = origin;
        QTest::newRow(qPrintable(QStringLiteral("user, ") + messageOriginName(origin))) << taken;
    }
}

void tst_MessageJson::roundTrip()
{
    QFETCH(Message, message);
    const QJsonObject json = messageToJson(message);
    // Through text as well: the session store writes JSON lines.
    const QJsonObject reread = QJsonDocument::fromJson(QJsonDocument(json).toJson()).object();
    Message back;
    QString error;
    QVERIFY2(messageFromJson(reread, &back, &error), qPrintable(error));
    QCOMPARE(back, message);
}

void tst_MessageJson::normalizedAssistant()
{
    const QJsonObject expected = QJsonDocument::fromJson(R"({
        "content": [
            {"type": "thinking", "thinking": "Plan first.", "signature": "sig=="},
            {"type": "thinking", "thinking": "no signature", "signature": null},
            {"type": "text", "text": "Reading ÷ “quoted”."},
            {"type": "toolCall", "id": "toolu_1", "name": "Read", "arguments": {"path": "a.txt", "limit": 20}}
        ],
        "stopReason": "toolUse",
        "providerStopReason": "tool_use",
        "usage": {"input": 100, "output": 20, "cacheRead": 3000000000, "cacheWrite": 4}
    })")
                                     .object();
    QVERIFY(!expected.isEmpty());
    const QJsonObject actual = toNormalizedJson(assistantMessage());
    // Exact: no extra keys (api, cost, redacted...) and no missing ones.
    QCOMPARE(QJsonDocument(actual).toJson(QJsonDocument::Compact),
             QJsonDocument(expected).toJson(QJsonDocument::Compact));
}

void tst_MessageJson::normalizedOptionalKeys_data()
{
    QTest::addColumn<StopReason>("stopReason");
    QTest::addColumn<QString>("errorMessage");
    QTest::addColumn<QString>("refusal");
    QTest::addColumn<QStringList>("keys");

    const QStringList base{QStringLiteral("content"),
                           QStringLiteral("providerStopReason"),
                           QStringLiteral("stopReason"),
                           QStringLiteral("usage")};
    QTest::newRow("stop") << StopReason::Stop << QString() << QString() << base;
    QTest::newRow("error") << StopReason::Error << QStringLiteral("boom") << QString()
                           << base + QStringList{QStringLiteral("errorMessage")};
    QTest::newRow("aborted keeps errorMessage out")
        << StopReason::Aborted << QStringLiteral("aborted") << QString() << base;
    QTest::newRow("refusal") << StopReason::Refusal << QString() << QStringLiteral("No.")
                             << base + QStringList{QStringLiteral("refusal")};
}

void tst_MessageJson::normalizedOptionalKeys()
{
    QFETCH(StopReason, stopReason);
    QFETCH(QString, errorMessage);
    QFETCH(QString, refusal);
    QFETCH(QStringList, keys);
    Message message;
    message.role = Message::Role::Assistant;
    message.stopReason = stopReason;
    message.errorMessage = errorMessage;
    message.refusal = refusal;
    const QJsonObject json = toNormalizedJson(message);
    QStringList actualKeys = json.keys();
    actualKeys.sort();
    keys.sort();
    QCOMPARE(actualKeys, keys);
    QVERIFY(json.value(u"providerStopReason").isNull());
    if (keys.contains(QStringLiteral("errorMessage")))
        QCOMPARE(json.value(u"errorMessage").toString(), errorMessage);
    if (keys.contains(QStringLiteral("refusal")))
        QCOMPARE(json.value(u"refusal").toString(), refusal);
}

void tst_MessageJson::fullFormatKeys()
{
    // The documented format other code (and old session files) rely on.
    const QJsonObject assistant = messageToJson(assistantMessage());
    QCOMPARE(assistant.value(u"role").toString(), QStringLiteral("assistant"));
    QCOMPARE(assistant.value(u"stopReason").toString(), QStringLiteral("toolUse"));
    QCOMPARE(assistant.value(u"usage").toObject().value(u"cost").toDouble(), 0.0123);
    QCOMPARE(assistant.value(u"api").toString(), QStringLiteral("anthropic-messages"));
    QCOMPARE(assistant.value(u"timestamp").toInteger(), Q_INT64_C(1'700'000'000'123));
    QVERIFY(!assistant.contains(u"toolCallId"));
    QVERIFY(!assistant.contains(u"errorMessage"));

    const QJsonObject result = messageToJson(Message::makeToolResult(QStringLiteral("c1"),
                                                                     QStringLiteral("Bash"),
                                                                     QStringLiteral("out"),
                                                                     true));
    QCOMPARE(result.value(u"role").toString(), QStringLiteral("toolResult"));
    QCOMPARE(result.value(u"toolCallId").toString(), QStringLiteral("c1"));
    QCOMPARE(result.value(u"toolName").toString(), QStringLiteral("Bash"));
    QCOMPARE(result.value(u"isError").toBool(), true);
    QVERIFY(!result.contains(u"stopReason"));
    QVERIFY(!result.contains(u"usage"));
}

void tst_MessageJson::originKeyAndOldSessions()
{
    // A prompt writes no key: a session without origins reads the same in an older version.
    QVERIFY(!messageToJson(Message::makeUser(QStringLiteral("fix it"))).contains(u"origin"));
    Message steering = Message::makeUser(QStringLiteral("use tabs"));
    steering.origin = MessageOrigin::FollowUp;
    QCOMPARE(messageToJson(steering).value(u"origin").toString(), QStringLiteral("followUp"));

    // A line written before origins (or with one a later version added) loads as a prompt.
    for (const QJsonValue &origin : {QJsonValue(), QJsonValue(QStringLiteral("scheduled"))}) {
        QJsonObject json{{QStringLiteral("role"), QStringLiteral("user")},
                         {QStringLiteral("content"),
                          QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                                 {QStringLiteral("text"), QStringLiteral("hi")}}}},
                         {QStringLiteral("timestamp"), 1}};
        if (!origin.isUndefined())
            json.insert(u"origin", origin);
        Message message;
        QString error;
        QVERIFY2(messageFromJson(json, &message, &error), qPrintable(error));
        QCOMPARE(message.origin, MessageOrigin::Prompt);
        QCOMPARE(message.text(), QStringLiteral("hi"));
    }
}

void tst_MessageJson::toolDetailsReadOldLinesAndWriteForOldReaders()
{
    // A Write result's details as every session so far holds them.
    const QJsonObject old{{QStringLiteral("path"), QStringLiteral("/repo/a.txt")},
                          {QStringLiteral("displayPath"), QStringLiteral("a.txt")},
                          {QStringLiteral("created"), false},
                          {QStringLiteral("diff"), QStringLiteral("--- a/a.txt\n+++ b/a.txt\n")},
                          {QStringLiteral("additions"), 2},
                          {QStringLiteral("deletions"), 1},
                          {QStringLiteral("aborted"), false},
                          {QStringLiteral("logPath"), QStringLiteral("/tmp/bash-1.log")},
                          {QStringLiteral("exitCode"), 0}};
    Message result = Message::makeToolResult(QStringLiteral("c1"),
                                             QStringLiteral("Write"),
                                             QStringLiteral("Wrote a.txt"),
                                             false);
    QJsonObject line = messageToJson(result);
    line.insert(u"details", old);
    QVERIFY(messageFromJson(line, &result));
    const ToolDetails &details = result.details;
    QCOMPARE(details.path, QStringLiteral("/repo/a.txt"));
    QCOMPARE(details.displayPath, QStringLiteral("a.txt"));
    QVERIFY(!details.created);
    QCOMPARE(details.diff, QStringLiteral("--- a/a.txt\n+++ b/a.txt\n"));
    QCOMPARE(details.additions, 2);
    QCOMPARE(details.deletions, 1);
    QVERIFY(!details.aborted);
    QCOMPARE(details.logPath, QStringLiteral("/tmp/bash-1.log"));
    QCOMPARE(details.other, (QJsonObject{{QStringLiteral("exitCode"), 0}}));

    // Written again, an older version reads the same: every key as it was, except those that
    // held their default, which it reads as that default when missing.
    QJsonObject expected = old;
    expected.remove(u"created");
    expected.remove(u"aborted");
    QCOMPARE(messageToJson(result).value(u"details").toObject(), expected);
}

void tst_MessageJson::rejectsNonMessages_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::newRow("no role") << QByteArray(R"({"content":[]})");
    QTest::newRow("unknown role") << QByteArray(R"({"role":"system","content":[]})");
    QTest::newRow("content not an array") << QByteArray(R"({"role":"user","content":"hi"})");
    QTest::newRow("unknown block") << QByteArray(R"({"role":"user","content":[{"type":"audio"}]})");
    QTest::newRow("image without data") << QByteArray(
        R"({"role":"toolResult","content":[{"type":"image","mimeType":"image/png"}]})");
    QTest::newRow("image of a kind no model reads") << QByteArray(
        R"({"role":"toolResult","content":[{"type":"image","mimeType":"image/svg+xml","data":"PHN2Zz4="}]})");
    QTest::newRow("unknown stop reason")
        << QByteArray(R"({"role":"assistant","content":[],"stopReason":"finished"})");
}

void tst_MessageJson::rejectsNonMessages()
{
    QFETCH(QByteArray, json);
    Message message = Message::makeUser(QStringLiteral("untouched"));
    const Message before = message;
    QString error;
    QVERIFY(!messageFromJson(QJsonDocument::fromJson(json).object(), &message, &error));
    QVERIFY(!error.isEmpty());
    QCOMPARE(message, before);
}

AGENTDESK_GUILESS_TEST_MAIN(tst_MessageJson)

} // namespace tst_messagejson

#include "tst_messagejson.moc"
