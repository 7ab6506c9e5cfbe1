#include "ai/partialjson.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>
#include <testmain.h>
#include <testpaths.h>

using namespace AgentCore;
using namespace Qt::StringLiterals;

namespace tst_partialjson {

namespace {

// Expected values are written as JSON text; "undefined" stands for the undefined value, and
// scalars are allowed (QJsonDocument only parses containers, hence the array wrapper).
QJsonValue jsonValue(const QByteArray &text)
{
    if (text == "undefined")
        return QJsonValue(QJsonValue::Undefined);
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson("[" + text + "]", &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("bad expectation %s: %s", text.constData(), qPrintable(error.errorString()));
    return document.array().at(0);
}

QByteArray render(const QJsonValue &value)
{
    if (value.isUndefined())
        return "undefined";
    const QByteArray array = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return array.mid(1, array.size() - 2);
}

// True when everything \a earlier holds is still in \a later: members stay, arrays only grow,
// strings and literals never change. A number may (the last one of a prefix can still grow).
bool covers(const QJsonValue &earlier, const QJsonValue &later)
{
    switch (earlier.type()) {
    case QJsonValue::Undefined:
        return true;
    case QJsonValue::Object: {
        if (!later.isObject())
            return false;
        const QJsonObject a = earlier.toObject();
        const QJsonObject b = later.toObject();
        for (auto it = a.begin(); it != a.end(); ++it) {
            if (!b.contains(it.key()) || !covers(it.value(), b.value(it.key())))
                return false;
        }
        return true;
    }
    case QJsonValue::Array: {
        if (!later.isArray())
            return false;
        const QJsonArray a = earlier.toArray();
        const QJsonArray b = later.toArray();
        if (a.size() > b.size())
            return false;
        for (qsizetype i = 0; i < a.size(); ++i) {
            if (!covers(a.at(i), b.at(i)))
                return false;
        }
        return true;
    }
    case QJsonValue::Double:
        return later.isDouble();
    default:
        return earlier == later;
    }
}

QByteArray readFixture(const QString &relativePath)
{
    QFile file(QDir(TestSupport::fixturesDir()).filePath(relativePath));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read fixture %s", qPrintable(file.fileName()));
    return file.readAll();
}

QList<QJsonObject> dataPayloads(const QByteArray &sse)
{
    QList<QJsonObject> payloads;
    for (const QByteArray &line : sse.split('\n')) {
        if (line.startsWith("data: "))
            payloads.append(QJsonDocument::fromJson(line.mid(6)).object());
    }
    return payloads;
}

// The argument fragments of each tool call, in the order the provider streamed them.
QList<QByteArrayList> toolArgumentFragments(const QString &api, const QByteArray &sse)
{
    QMap<int, QByteArrayList> byIndex;
    for (const QJsonObject &payload : dataPayloads(sse)) {
        if (api == "anthropic"_L1) {
            const int index = payload.value("index"_L1).toInt();
            const QString type = payload.value("type"_L1).toString();
            if (type == "content_block_start"_L1
                && payload["content_block"_L1]["type"_L1] == "tool_use"_L1)
                byIndex[index];
            const QJsonObject delta = payload.value("delta"_L1).toObject();
            if (type == "content_block_delta"_L1 && delta["type"_L1] == "input_json_delta"_L1)
                byIndex[index].append(delta["partial_json"_L1].toString().toUtf8());
            continue;
        }
        for (const QJsonValue &choice : payload.value("choices"_L1).toArray()) {
            if (choice["index"_L1].toInt() != 0)
                continue;
            const QJsonArray calls = choice["delta"_L1]["tool_calls"_L1].toArray();
            for (const QJsonValue &call : calls) {
                const QJsonValue arguments = call["function"_L1]["arguments"_L1];
                byIndex[call["index"_L1].toInt()].append(arguments.toString().toUtf8());
            }
        }
    }
    return byIndex.values();
}

QList<QByteArray> chunked(const QByteArray &input, QRandomGenerator &random)
{
    QList<QByteArray> chunks;
    for (qsizetype at = 0; at < input.size();) {
        const qsizetype size = random.bounded(1, 17);
        chunks.append(input.mid(at, size));
        at += size;
    }
    return chunks;
}

} // namespace

class tst_PartialJson : public QObject
{
    Q_OBJECT

private slots:
    void snapshots_data();
    void snapshots();
    void invalidInput_data();
    void invalidInput();
    void documents_data();
    void documents();
    void providerFixtures_data();
    void providerFixtures();
    void snapshotIsIndependentOfLaterInput();
    void objectOfNonObjectIsEmpty();
    void resetStartsOver();
    void errorSaysWhere_data();
    void errorSaysWhere();
    void nestingIsCapped_data();
    void nestingIsCapped();
};

void tst_PartialJson::snapshots_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArray>("expected");
    QTest::addColumn<bool>("complete");

    const auto row = [](const char *name,
                        const QByteArray &input,
                        const QByteArray &expected,
                        bool complete = false) {
        QTest::newRow(name) << input << expected << complete;
    };
    row("empty", "", "undefined");
    row("whitespace", " \n\t ", "undefined");
    row("open object", "{", "{}");
    row("open key quote", "{\"", "{}");
    row("unterminated key", "{\"fil", "{}");
    row("key without colon", "{\"file\"", "{}");
    row("key without value", "{\"file\": ", "{}");
    row("unterminated string value drops key", "{\"file\": \"ta", "{}");
    row("string value", "{\"file\": \"taxes.txt\"", R"({"file":"taxes.txt"})");
    row("after comma", "{\"file\": \"t\",", R"({"file":"t"})");
    row("after comma and open key", "{\"file\": \"t\", \"li", R"({"file":"t"})");
    row("trailing number kept", "{\"a\": \"t\", \"n\": 12", R"({"a":"t","n":12})");
    row("minus alone", "{\"n\": -", "{}");
    row("number with dot", "{\"n\": 1.", "{}");
    row("number with exponent mark", "{\"n\": 1e", "{}");
    row("number with exponent sign", "{\"n\": 1e+", "{}");
    row("number with exponent", "{\"n\": -2.5e+3", R"({"n":-2500})");
    row("unfinished true", "{\"b\": tru", "{}");
    row("unfinished null", "{\"b\": nul", "{}");
    row("unfinished false in array", "[1, fa", "[1]");
    row("true", "{\"b\": true", R"({"b":true})");
    row("null", "{\"b\": null", R"({"b":null})");
    row("open array", "{\"a\": [", R"({"a":[]})");
    row("numbers in array", "{\"a\": [1, 2", R"({"a":[1,2]})");
    row("unterminated string in array", "{\"a\": [\"x\", \"y", R"({"a":["x"]})");
    row("complete string in array", "{\"a\": [\"x\", \"y\"", R"({"a":["x","y"]})");
    row("nested unterminated string", "{\"a\": {\"b\": \"c", R"({"a":{}})");
    row("nested open key",
        "{\"a\": {\"b\": \"c\"}, \"d\": [{\"e\": 1}, {\"f\"",
        R"({"a":{"b":"c"},"d":[{"e":1},{}]})");
    row("open arrays", "[[[", "[[[]]]");
    row("closed inner", "[[1], [2, [3]], [", "[[1],[2,[3]],[]]");
    row("top-level unterminated string", "\"abc", "undefined");
    row("top-level string", "\"abc\"", "\"abc\"", true);
    row("top-level number", "12", "12", true);
    row("top-level minus", "-", "undefined");
    row("top-level literal", "false", "false", true);
    row("backslash at end", "{\"s\": \"a\\", "{}");
    row("escaped quote", "{\"s\": \"a\\\"b\"", R"({"s":"a\"b"})");
    row("escapes", R"({"s": "\n\t\/\\\"\b\f\r"})", R"({"s":"\n\t/\\\"\b\f\r"})", true);
    row("partial unicode escape", "{\"s\": \"\\u00", "{}");
    row("high surrogate only", "{\"s\": \"\\ud83d", "{}");
    row("surrogate pair", "{\"s\": \"\\ud83d\\ude00\"", "{\"s\":\"\U0001F600\"}");
    row("raw UTF-8",
        "{\"s\": \"\xc3\xa4\xe2\x82\xac\xf0\x9f\x98\x80\"}",
        "{\"s\":\"\u00e4\u20ac\U0001F600\"}",
        true);
    row("complete object", "{\"a\": 1}", R"({"a":1})", true);
    row("trailing whitespace", "{\"a\": 1} \n", R"({"a":1})", true);
    row("empty object", "{}", "{}", true);
    row("empty array", " [ ] ", "[]", true);
    row("empty key", R"({"": ""})", R"({"":""})", true);
    row("duplicate key keeps last", R"({"a": 1, "a": 2})", R"({"a":2})", true);
}

void tst_PartialJson::snapshots()
{
    QFETCH(QByteArray, input);
    QFETCH(QByteArray, expected);
    QFETCH(bool, complete);

    PartialJsonParser whole;
    whole.append(input);
    QCOMPARE(render(whole.value()), render(jsonValue(expected)));
    QCOMPARE(whole.value(), jsonValue(expected));
    QCOMPARE(whole.isComplete(), complete);
    QVERIFY(!whole.isInvalid());

    PartialJsonParser bytewise;
    for (const char c : input)
        bytewise.append(QByteArrayView(&c, 1));
    QCOMPARE(render(bytewise.value()), render(jsonValue(expected)));
    QCOMPARE(bytewise.isComplete(), complete);

    QCOMPARE(render(PartialJsonParser::parse(input)), render(jsonValue(expected)));
}

void tst_PartialJson::invalidInput_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArray>("expected"); // what was known before the error

    const auto row = [](const char *name, const QByteArray &input, const QByteArray &expected) {
        QTest::newRow(name) << input << expected;
    };
    row("trailing comma", "{\"a\": 1,}", R"({"a":1})");
    row("missing colon", "{\"a\" 1", "{}");
    row("garbage after value", "{\"a\": 1} x", R"({"a":1})");
    row("second value", "[1] [2]", "[1]");
    row("bad literal", "[1, 2, tx", "[1,2]");
    row("capitalized literal", "[True]", "[]");
    row("leading zero", "{\"a\": 01", "{}");
    row("plus sign", "[+1]", "[]");
    row("dot first", "[.5]", "[]");
    row("dot last", "[1.]", "[]");
    row("number out of range", "[1, 1e400]", "[1]");
    row("NaN", "{\"a\": NaN", "{}");
    row("unknown escape", "{\"a\": \"b\", \"c\": \"\\x\"", R"({"a":"b"})");
    row("bad unicode escape", "[\"\\u12g4\"]", "[]");
    row("closing brace first", "}", "undefined");
    row("missing comma", "[1 2]", "[1]");
    row("wrong closer", "{\"a\": [1, }", R"({"a":[1]})");
    row("number as key", "{1: 2}", "{}");
    row("single quotes", "{'a': 1}", "{}");
    row("invalid UTF-8 byte", "{\"a\": \"b\", \"c\": \"\xff\"", R"({"a":"b"})");
    row("overlong UTF-8", "[\"\xc0\xaf\"]", "[]");
    row("UTF-8 surrogate", "[\"\xed\xa0\x80\"]", "[]");
    row("truncated UTF-8", "[\"ok\", \"\xc3\"]", R"(["ok"])");
    row("continuation without lead", "[\"\x80\"]", "[]");
}

void tst_PartialJson::invalidInput()
{
    QFETCH(QByteArray, input);
    QFETCH(QByteArray, expected);

    PartialJsonParser parser;
    parser.append(input);
    QVERIFY(parser.isInvalid());
    QVERIFY(!parser.isComplete());
    QCOMPARE(render(parser.value()), render(jsonValue(expected)));

    // More input cannot repair it, nor change what is known.
    parser.append("]}\"");
    QVERIFY(parser.isInvalid());
    QCOMPARE(render(parser.value()), render(jsonValue(expected)));

    PartialJsonParser bytewise;
    for (const char c : input)
        bytewise.append(QByteArrayView(&c, 1));
    QVERIFY(bytewise.isInvalid());
    QCOMPARE(render(bytewise.value()), render(jsonValue(expected)));
}

void tst_PartialJson::documents_data()
{
    QTest::addColumn<QByteArray>("document");

    const QByteArrayList documents = {
        R"({})",
        R"([])",
        R"({"file_path": "/home/user/project/src/main.cpp"})",
        R"({"command": "ls -la | grep foo", "timeout": 120000, "run_in_background": false})",
        R"({"file_path": "a.cpp", "old_string": "int main() {\n\treturn 0;\n}\n", "new_string": "int main()\n{\n    return \"\\\\\";\n}", "replace_all": true})",
        R"({"edits": [{"old_string": "a", "new_string": "b"}, {"old_string": "c\"d", "new_string": ""}]})",
        R"({"a": {"b": {"c": {"d": {"e": [[[[[]]]], {}]}}}}})",
        R"([1, -1, 0, -0, 3.25, -0.5, 1e10, 1E-7, 6.02e+23, 2.5E+2, 123456789012, 9223372036854775807])",
        R"([9223372036854775808, -9223372036854775809, 1e308, 4.9e-324, 0.1])",
        R"([true, false, null, [true], {"t": false, "n": null}])",
        R"({"escapes": "\" \\ \/ \b \f \n \r \t", "unicode": "\u00e9\u4e2d\u0000\u001f\uffff"})",
        R"({"emoji": "\ud83d\ude00 and \uD83C\uDF89", "lone high": "\ud800", "lone low": "x\udc00y"})",
        "{\"raw\": \"\xc3\xa9t\xc3\xa9 \xe4\xb8\xad\xe6\x96\x87 \xf0\x9f\x8e\x89 \xe2\x82\xac\"}",
        "{\"\xc3\xa9\\u00e9\": \"key with raw and escaped \xc3\xa9\"}",
        "  {\n  \"pretty\" : [ 1 , 2 ,\n\t3 ] ,\r\n \"x\" : { } }  ",
        R"({"empty": "", "emptyArray": [], "emptyObject": {}, "emptyKey": {"": ""}})",
        R"({"pattern": "^\\s*(foo|bar)\\d+$", "glob": "**/*.{cpp,h}", "path": "C:\\Users\\x"})",
        R"({"todos": [{"content": "Write tests", "status": "in_progress", "priority": 1}, {"content": "Ship", "status": "pending", "priority": 2.5}]})",
        R"({"html": "<div class=\"a\">&amp;</div>", "sql": "SELECT * FROM t WHERE a = 'b';"})",
        R"([[1, [2, [3, [4, [5, [6]]]]]], {"a": [{"b": [{"c": 1e-3}]}]}])",
        R"({"numbers": {"int": 42, "neg": -17, "frac": 0.000001, "exp": -1.5e-10, "big": 1.7976931348623157e308}})",
        R"({"mixed": [1, "two", 3.0, null, true, {"six": 6}, [7]]})",
        R"({"url": "https://example.com/a?b=c&d=e#f", "json": "{\"nested\": [1, 2]}"})",
        R"({"content": "line 1\nline 2\n\n\tindented \u2713\n// comment \\n not a newline\n"})",
        R"({"a":1,"b":[true,false],"c":{"d":null},"e":"f"})",
        R"({"keys with spaces": 1, "key\"quote": 2, "key\\backslash": 3, "key\nnewline": 4})",
        R"([{"id": 1}, {"id": 2}, {"id": 3}, {"id": 4}, {"id": 5}, {"id": 6}, {"id": 7}])",
        R"({"offset": 0, "limit": 2000, "negative_exp": 5e-1, "upper": 1E+2})",
        "{\"cjk\": \"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\", \"rtl\": "
        "\"\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d\", "
        "\"combining\": \"e\xcc\x81\"}",
        R"({"deep": [[[[[[[[[[[[[[[[[[[["bottom"]]]]]]]]]]]]]]]]]]]]})",
    };
    for (qsizetype i = 0; i < documents.size(); ++i)
        QTest::addRow("document %lld", qlonglong(i)) << documents.at(i);
}

void tst_PartialJson::documents()
{
    QFETCH(QByteArray, document);

    QJsonParseError error;
    const QJsonDocument reference = QJsonDocument::fromJson(document, &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    const QJsonValue expected = reference.isObject() ? QJsonValue(reference.object())
                                                     : QJsonValue(reference.array());

    QCOMPARE(PartialJsonParser::parse(document), expected);
    QCOMPARE(render(PartialJsonParser::parse(document)), render(expected));

    // Byte by byte: every snapshot is part of the end, and keeps what the earlier ones knew.
    // (Only the trailing number of a prefix like "[1" may vanish again, at "[1.".)
    PartialJsonParser parser;
    QJsonValue stable(QJsonValue::Undefined);
    qsizetype completeAt = document.size(); // the prefix length that closes the value
    while (completeAt > 0 && QByteArray(" \n\r\t").contains(document.at(completeAt - 1)))
        --completeAt;
    for (qsizetype i = 0; i < document.size(); ++i) {
        parser.append(QByteArrayView(document).sliced(i, 1));
        const QJsonValue snapshot = parser.value();
        QVERIFY2(!parser.isInvalid(), document.left(i + 1).constData());
        QVERIFY2(covers(stable, snapshot), document.left(i + 1).constData());
        QVERIFY2(covers(snapshot, expected), document.left(i + 1).constData());
        QCOMPARE(parser.isComplete(), i + 1 >= completeAt);
        if (!QByteArray("0123456789.eE+-").contains(document.at(i)))
            stable = snapshot;
    }
    QCOMPARE(parser.value(), expected);
    QCOMPARE(render(parser.value()), render(expected));

    // Random chunks, with snapshots taken in between (they must not disturb the parse).
    QRandomGenerator random(quint32(qHash(document)));
    for (int round = 0; round < 20; ++round) {
        PartialJsonParser chunkedParser;
        for (const QByteArray &chunk : chunked(document, random)) {
            chunkedParser.append(chunk);
            if (random.bounded(2) == 0)
                QVERIFY(covers(chunkedParser.value(), expected));
        }
        QVERIFY(chunkedParser.isComplete());
        QCOMPARE(render(chunkedParser.value()), render(expected));
    }
}

void tst_PartialJson::providerFixtures_data()
{
    QTest::addColumn<QString>("api");
    QTest::addColumn<QString>("name");

    const QString root = TestSupport::fixturesDir() + "/sse/"_L1;
    for (const QString &api : {u"anthropic"_s, u"openai-chat"_s}) {
        const QStringList names = QDir(root + api).entryList({u"*.sse"_s}, QDir::Files);
        for (const QString &name : names) {
            const QString expectedName = "sse/"_L1 + api + u'/' + name.chopped(4)
                                         + ".expected.json"_L1;
            if (readFixture(expectedName).contains("\"toolCall\""))
                QTest::addRow("%s/%s", qPrintable(api), qPrintable(name)) << api << name;
        }
    }
}

// The arguments of every recorded tool call, including the Anthropic stream cut off by
// max_tokens inside a string, are what the official SDKs assembled.
void tst_PartialJson::providerFixtures()
{
    QFETCH(QString, api);
    QFETCH(QString, name);

    const QByteArray sse = readFixture("sse/"_L1 + api + u'/' + name);
    const QString expectedName = name.chopped(4) + ".expected.json"_L1;
    const QJsonObject expected
        = QJsonDocument::fromJson(readFixture("sse/"_L1 + api + u'/' + expectedName)).object();
    QList<QJsonObject> expectedArguments;
    for (const QJsonValue &block : expected.value("content"_L1).toArray()) {
        if (block["type"_L1] == "toolCall"_L1)
            expectedArguments.append(block["arguments"_L1].toObject());
    }
    const QList<QByteArrayList> calls = toolArgumentFragments(api, sse);
    QVERIFY(!calls.isEmpty());
    QCOMPARE(calls.size(), expectedArguments.size());

    for (qsizetype i = 0; i < calls.size(); ++i) {
        PartialJsonParser parser;
        for (const QByteArray &fragment : calls.at(i)) {
            parser.append(fragment);
            QVERIFY(covers(parser.value(), expectedArguments.at(i)));
        }
        QVERIFY(!parser.isInvalid());
        QCOMPARE(parser.object(), expectedArguments.at(i));

        const QByteArray joined = calls.at(i).join();
        PartialJsonParser bytewise;
        for (const char c : joined)
            bytewise.append(QByteArrayView(&c, 1));
        QCOMPARE(bytewise.object(), expectedArguments.at(i));
    }
}

void tst_PartialJson::snapshotIsIndependentOfLaterInput()
{
    PartialJsonParser parser;
    parser.append(R"({"a": [1, {"b": "c"})");
    const QJsonValue early = parser.value();
    parser.append(R"(, 2], "d": {"e": [3)");
    const QJsonValue later = parser.value();
    parser.append("]}}");

    QCOMPARE(render(early), R"({"a":[1,{"b":"c"}]})");
    QCOMPARE(render(later), R"({"a":[1,{"b":"c"},2],"d":{"e":[3]}})");
    QCOMPARE(render(parser.value()), R"({"a":[1,{"b":"c"},2],"d":{"e":[3]}})");
    QVERIFY(parser.isComplete());
}

void tst_PartialJson::objectOfNonObjectIsEmpty()
{
    PartialJsonParser parser;
    QCOMPARE(parser.object(), QJsonObject());
    QVERIFY(parser.value().isUndefined());
    QVERIFY(!parser.isComplete());
    parser.append("[1, 2]");
    QCOMPARE(parser.object(), QJsonObject());
    QVERIFY(parser.value().isArray());
    QVERIFY(PartialJsonParser::parse("").isUndefined());
    QCOMPARE(PartialJsonParser::parse(R"({"a": "b)").toObject(), QJsonObject());
}

void tst_PartialJson::resetStartsOver()
{
    PartialJsonParser parser;
    parser.append("[1, }");
    QVERIFY(parser.isInvalid());
    parser.reset();
    QVERIFY(!parser.isInvalid());
    QVERIFY(parser.value().isUndefined());
    parser.append(R"({"a": "b"})");
    QVERIFY(parser.isComplete());
    QCOMPARE(parser.object(), QJsonObject({{"a"_L1, "b"_L1}}));
}

void tst_PartialJson::errorSaysWhere_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<qsizetype>("offset");
    QTest::addColumn<QByteArray>("excerpt");

    // Issue #14: an unquoted string value read as "/file_path is required".
    QTest::newRow("unquoted string") << QByteArray(R"({"file_path": README.md})") << qsizetype(14)
                                     << QByteArray(R"({"file_path": README.md})");
    QTest::newRow("trailing comma")
        << QByteArray(R"({"a": 1,})") << qsizetype(8) << QByteArray(R"({"a": 1,})");
    QTest::newRow("bad escape") << QByteArray(R"(["\x"])") << qsizetype(3)
                                << QByteArray(R"(["\x"])");
    QTest::newRow("leading zero") << QByteArray("[01]") << qsizetype(2) << QByteArray("[01]");
    // Found by tests/fuzz: the offset depended on where the appends cut the number.
    QTest::newRow("date as a number")
        << QByteArray(R"({"a":24-08-06})") << qsizetype(7) << QByteArray(R"({"a":24-08-06})");
    QTest::newRow("out of range number")
        << QByteArray("[1, 1e400]") << qsizetype(4) << QByteArray("[1, 1e400]");
    QTest::newRow("invalid UTF-8")
        << QByteArray("[\"a\xff\"]") << qsizetype(3) << QByteArray("[\"a\xff\"]");
    const QByteArray longText = "{\"content\": \"" + QByteArray(100, 'x') + "\", oops: 1}";
    QTest::newRow("long input: 20 bytes either side")
        << longText << qsizetype(116) << longText.mid(96, 41);
}

void tst_PartialJson::errorSaysWhere()
{
    QFETCH(QByteArray, input);
    QFETCH(qsizetype, offset);
    QFETCH(QByteArray, excerpt);

    PartialJsonParser whole;
    whole.append(input);
    QCOMPARE(whole.error(), PartialJsonParser::Error::Syntax);
    QCOMPARE(whole.errorOffset(), offset);
    QCOMPARE(whole.errorExcerpt(), excerpt);

    // Streamed in pieces the offset still counts all the input, and the excerpt still shows
    // what came before the error.
    PartialJsonParser bytewise;
    for (const char c : input)
        bytewise.append(QByteArrayView(&c, 1));
    QCOMPARE(bytewise.errorOffset(), offset);
    QVERIFY2(excerpt.startsWith(bytewise.errorExcerpt()), bytewise.errorExcerpt().constData());
    QVERIFY(bytewise.errorExcerpt().size() >= qMin<qsizetype>(offset, 20));

    PartialJsonParser valid;
    valid.append(R"({"a": [1, "b"]})");
    QCOMPARE(valid.error(), PartialJsonParser::Error::None);
    QCOMPARE(valid.errorOffset(), qsizetype(-1));
}

void tst_PartialJson::nestingIsCapped_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<bool>("tooDeep");
    QTest::addColumn<qsizetype>("errorOffset");

    constexpr int limit = PartialJsonParser::maxDepth;
    const auto nested = [](int depth, char open, char close, const QByteArray &inner) {
        QByteArray text;
        for (int i = 0; i < depth; ++i)
            text += open == '{' ? QByteArray("{\"k\":") : QByteArray(1, open);
        text += inner;
        for (int i = 0; i < depth; ++i)
            text += close;
        return text;
    };
    QTest::newRow("arrays at the limit") << nested(limit, '[', ']', "1") << false << qsizetype(-1);
    QTest::newRow("arrays past the limit")
        << nested(limit + 1, '[', ']', "1") << true << qsizetype(limit);
    QTest::newRow("objects at the limit") << nested(limit, '{', '}', "1") << false << qsizetype(-1);
    QTest::newRow("objects past the limit")
        << nested(limit + 1, '{', '}', "1") << true << qsizetype(limit * 5);
    // Issue #14: 60 KB that took the process down with SIGSEGV.
    QTest::newRow("60,000 open brackets in an object")
        << QByteArray(R"({"file_path":"README.md","x":)") + QByteArray(60'000, '[') << true
        << qsizetype(29 + limit - 1);
    QTest::newRow("60,000 open brackets, closed")
        << QByteArray(60'000, '[') + QByteArray(60'000, ']') << true << qsizetype(limit);
}

void tst_PartialJson::nestingIsCapped()
{
    QFETCH(QByteArray, input);
    QFETCH(bool, tooDeep);
    QFETCH(qsizetype, errorOffset);

    // QJsonDocument draws the line at the same depth.
    QJsonParseError qtError;
    QJsonDocument::fromJson(input, &qtError);
    if (input.endsWith(']') || input.endsWith('}'))
        QCOMPARE(qtError.error == QJsonParseError::DeepNesting, tooDeep);

    PartialJsonParser whole;
    whole.append(input);
    PartialJsonParser bytewise;
    for (const char c : input)
        bytewise.append(QByteArrayView(&c, 1));
    for (const PartialJsonParser *parser : {&whole, &bytewise}) {
        QCOMPARE(parser->isInvalid(), tooDeep);
        QCOMPARE(parser->isComplete(), !tooDeep);
        QCOMPARE(parser->error(),
                 tooDeep ? PartialJsonParser::Error::TooDeep : PartialJsonParser::Error::None);
        // The byte that would open level 1025 is the error; nothing deeper is built.
        QCOMPARE(parser->errorOffset(), errorOffset);
        // The value is built, copied, written and destroyed without running out of stack.
        const QJsonValue value = parser->value();
        QVERIFY(!value.isUndefined());
        QJsonValue copy = value;
        const QByteArray written = QJsonDocument(QJsonArray{copy}).toJson(QJsonDocument::Compact);
        QVERIFY(!written.isEmpty());
    }
}

AGENTDESK_GUILESS_TEST_MAIN(tst_PartialJson)

} // namespace tst_partialjson

#include "tst_partialjson.moc"
