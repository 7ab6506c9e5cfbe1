#include "ai/protocolviolation.h"

#include <QTest>
#include <testmain.h>

using namespace AgentCore;
using namespace Qt::StringLiterals;

namespace tst_protocolviolation {

namespace {

// Anthropic's own namespace prefix, assembled so this file holds no literal tag of it.
const QString anthropicPrefix = u"ant"_s + u"ml:"_s;

} // namespace

class tst_ProtocolViolation : public QObject
{
    Q_OBJECT

private slots:
    void detect_data();
    void detect();
    void longTextsComplete_data();
    void longTextsComplete();
};

void tst_ProtocolViolation::detect_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("detail"); // empty: no violation

    const auto row = [](const char *name, const QString &text, const QString &detail) {
        QTest::newRow(name) << text << detail;
    };

    // Positives.
    row("anthropic block",
        u"I'll read the file.\n\n<function_calls>\n<invoke name=\"Read\">\n"
        "<parameter name=\"file_path\">/a.cpp</parameter>\n</invoke>\n</function_calls>\n"_s,
        u"<function_calls> in text at line 3 (and 1 more)"_s);
    row("invoke alone",
        u"<invoke name=\"Bash\">\n<parameter name=\"command\">ls"_s,
        u"<invoke name=\"Bash\"> in text at line 1"_s);
    row("anthropic prefix",
        u"Reading it now.\n<"_s + anthropicPrefix + u"invoke name=\"Read\">"_s,
        u"<"_s + anthropicPrefix + u"invoke name=\"Read\"> in text at line 2"_s);
    row("other prefix",
        u"x\n\ny <xyz:function_calls> z"_s,
        u"<xyz:function_calls> in text at line 3"_s);
    row("invoke with single quotes and spaces",
        u"<invoke  name = 'Edit'>"_s,
        u"<invoke name=\"Edit\"> in text at line 1"_s);
    row("hermes",
        u"<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n"
        "</tool_call>"_s,
        u"<tool_call> {\"name\": \"get_weather\", ...} in text at line 1"_s);
    row("hermes cut off",
        u"Let me check.\n<tool_call>\n{\"name\": \"Read\", \"arguments\": {\"file_path\": \"/x"_s,
        u"<tool_call> {\"name\": \"Read\", ...} in text at line 2"_s);
    row("hermes twice",
        u"<tool_call>{\"name\": \"a\"}</tool_call>\n<tool_call>{\"name\": \"b\"}</tool_call>"_s,
        u"<tool_call> {\"name\": \"a\", ...} in text at line 1 (and 1 more)"_s);
    row("hermes with backticks in arguments",
        u"<tool_call>{\"name\": \"Write\", \"arguments\": {\"content\": \"`a` and ```\"}}"_s,
        u"<tool_call> {\"name\": \"Write\", ...} in text at line 1"_s);
    row("qwen3-coder",
        u"<tool_call>\n<function=Read>\n<parameter=file_path>\n/a\n</parameter>\n</function>\n"
        "</tool_call>"_s,
        u"<tool_call><function=Read> in text at line 1"_s);
    row("qwen3-coder without tool_call",
        u"Sure.\n<function=Bash>\n<parameter=command>ls"_s,
        u"<function=Bash> in text at line 2"_s);
    row("glm",
        u"<tool_call>Read\n<arg_key>file_path</arg_key>\n<arg_value>/a</arg_value>"_s,
        u"<tool_call>Read in text at line 1"_s);
    row("special token",
        u"<|tool_call|>[{\"name\": \"Read\"}]"_s,
        u"<|tool_call|> in text at line 1"_s);
    row("kimi",
        u"ok\n<|tool_calls_section_begin|><|tool_call_begin|>functions.Read:0"_s,
        u"<|tool_calls_section_begin|> in text at line 2 (and 1 more)"_s);
    row("deepseek",
        u"<\uff5ctool\u2581calls\u2581begin\uff5c><\uff5ctool\u2581call\u2581begin\uff5c>"_s,
        u"<\uff5ctool\u2581calls\u2581begin\uff5c> in text at line 1 (and 1 more)"_s);
    row("mistral",
        u"[TOOL_CALLS][{\"name\": \"Read\", \"arguments\": {}}]"_s,
        u"[TOOL_CALLS] in text at line 1"_s);
    row("after a closed fence",
        u"```\ncode\n```\n<invoke name=\"Read\">"_s,
        u"<invoke name=\"Read\"> in text at line 4"_s);
    row("after a closed span",
        u"Use `x` then <invoke name=\"Read\">"_s,
        u"<invoke name=\"Read\"> in text at line 1"_s);
    row("stray backtick hides nothing",
        u"it's a ` tick\n<invoke name=\"Read\">"_s,
        u"<invoke name=\"Read\"> in text at line 2"_s);
    row("spans end at a blank line",
        u"a ` b\n\n<invoke name=\"Read\"> and ` c"_s,
        u"<invoke name=\"Read\"> in text at line 3"_s);
    row("escaped backtick",
        u"\\`<invoke name=\"Read\">`"_s,
        u"<invoke name=\"Read\"> in text at line 1"_s);
    row("after a longer fence",
        u"````\n```\n<invoke name=\"A\">\n```\n````\n<invoke name=\"B\">"_s,
        u"<invoke name=\"B\"> in text at line 6"_s);
    row("CRLF lines",
        u"```\r\nx\r\n```\r\n\r\n<function_calls>\r\n"_s,
        u"<function_calls> in text at line 5"_s);

    // Negatives.
    row("empty", QString(), QString());
    row("prose",
        u"The model should emit a tool_call instead of text; tool_calls are native, "
        "and function_calls in the API are fine. We invoke the Read tool."_s,
        QString());
    row("tag without json", u"Use <tool_call> tags in the Hermes format."_s, QString());
    row("tag then prose", u"<tool_call> is followed by JSON like {\"name\": ...}"_s, QString());
    row("json without name", u"<tool_call>{\"arguments\": {}}</tool_call>"_s, QString());
    row("backtick fence",
        u"Example:\n```xml\n<function_calls>\n<invoke name=\"Read\">\n</invoke>\n```\nDone."_s,
        QString());
    row("tilde fence with info", u"~~~ {.xml}\n<invoke name=\"Read\">\n~~~\n"_s, QString());
    row("unclosed fence", u"Here:\n```\n<invoke name=\"Read\">\n"_s, QString());
    row("shorter fence does not close", u"````\n<a>\n```\n<invoke name=\"X\">\n"_s, QString());
    row("backticks do not close tildes", u"~~~\n```\n<invoke name=\"X\">\n"_s, QString());
    row("indented fence in a list",
        u"1. Example:\n   ```\n   <invoke name=\"Read\">\n   ```\n2. Next"_s,
        QString());
    row("inline span", u"Write `<invoke name=\"Read\">` to call it."_s, QString());
    row("double backtick span", u"``<tool_call>{\"name\": \"x\"}`` is Hermes"_s, QString());
    row("span holding a backtick", u"`` a ` <invoke name=\"R\"> ``"_s, QString());
    row("span across lines", u"See `<function_calls>\n<invoke name=\"R\">` above."_s, QString());
    row("html", u"<invoice id=\"1\"> <involve> <invoke> <invokename=\"x\"> <div>"_s, QString());
    row("other special tokens", u"<|endoftext|> <|im_start|>assistant"_s, QString());
    row("function without parameter", u"<function=Read> is Qwen's syntax"_s, QString());
}

void tst_ProtocolViolation::detect()
{
    QFETCH(QString, text);
    QFETCH(QString, detail);

    const ProtocolViolation violation = detectFakeToolCalls(text);
    QCOMPARE(violation.detail, detail);
    QCOMPARE(violation.found, !detail.isEmpty());
}

void tst_ProtocolViolation::longTextsComplete_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("found");

    constexpr qsizetype megabyte = 1024 * 1024;
    const auto repeated = [](const QString &piece) {
        QString text;
        text.reserve(megabyte + piece.size());
        while (text.size() < megabyte)
            text += piece;
        return text;
    };
    const QString markdown = repeated(
        u"Some prose with `code`, a <b>tag</b>, a tool_call mention and <tool_call> tags.\n"
        "```cpp\nint x = a < b;\n```\n\n"_s);
    QTest::newRow("markdown") << markdown << false;
    QTest::newRow("markdown then fake call") << markdown + u"\n<invoke name=\"Read\">\n"_s << true;
    QTest::newRow("unmatched backticks") << repeated(u"` `` ``` ```` x "_s) << false;
    QTest::newRow("open json after tags") << repeated(u"<tool_call>{\"x\": \""_s) << false;
    QTest::newRow("nested json prefixes")
        << repeated(u"<tool_call>{\"a\": [<tool_call>{\"b\": "_s) << false;
    QTest::newRow("angle brackets") << repeated(u"<<<|<|tool<xyz:invoke name=\"a"_s) << false;
    QTest::newRow("one unclosed fence")
        << u"```\n"_s + repeated(u"<invoke name=\"R\">\n"_s) << false;
}

// Runs on every assistant message: a megabyte of hostile text must finish (no timing asserted,
// a quadratic scan would hang the test run instead).
void tst_ProtocolViolation::longTextsComplete()
{
    QFETCH(QString, text);
    QFETCH(bool, found);

    const ProtocolViolation violation = detectFakeToolCalls(text);
    QCOMPARE(violation.found, found);
    if (found)
        QVERIFY(violation.detail.startsWith(u"<invoke name=\"Read\"> in text at line "_s));
}

AGENTDESK_GUILESS_TEST_MAIN(tst_ProtocolViolation)

} // namespace tst_protocolviolation

#include "tst_protocolviolation.moc"
