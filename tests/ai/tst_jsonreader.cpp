#include "ai/jsonreader.h"
#include "fixtures.h"

#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTest>
#include <testmain.h>

#include <algorithm>
#include <limits>

using namespace AgentCore;

namespace tst_jsonreader {

namespace {

constexpr qint64 noInteger = std::numeric_limits<qint64>::min() + 7;

QList<std::pair<QString, QJsonValue>> sortedMembers(const QJsonObject &object)
{
    QList<std::pair<QString, QJsonValue>> members;
    for (auto it = object.begin(); it != object.end(); ++it)
        members.append({it.key(), it.value()});
    std::sort(members.begin(), members.end(), [](const auto &a, const auto &b) {
        return a.first < b.first;
    });
    return members;
}

// Stricter than QJsonValue::operator==: a number must also agree on being an integer, and a
// string on its exact UTF-16 and on being null. Returns the path of the first difference.
QString strictDifference(const QString &path, const QJsonValue &expected, const QJsonValue &actual)
{
    if (expected.type() != actual.type())
        return path + QStringLiteral(": type %1 vs %2").arg(expected.type()).arg(actual.type());
    switch (expected.type()) {
    case QJsonValue::Double:
        if (expected.toInteger(noInteger) != actual.toInteger(noInteger)
            || expected.toDouble() != actual.toDouble())
            return path
                   + QStringLiteral(": %1 vs %2")
                         .arg(expected.toDouble(), 0, 'g', 17)
                         .arg(actual.toDouble(), 0, 'g', 17);
        break;
    case QJsonValue::String:
        if (expected.toString() != actual.toString()
            || expected.toString().isNull() != actual.toString().isNull())
            return path
                   + QStringLiteral(": \"%1\" vs \"%2\"").arg(expected.toString(), actual.toString());
        break;
    case QJsonValue::Array: {
        const QJsonArray a = expected.toArray();
        const QJsonArray b = actual.toArray();
        if (a.size() != b.size())
            return path + QStringLiteral(": %1 vs %2 elements").arg(a.size()).arg(b.size());
        for (qsizetype i = 0; i < a.size(); ++i) {
            const QString difference = strictDifference(path + QStringLiteral("[%1]").arg(i),
                                                        a.at(i),
                                                        b.at(i));
            if (!difference.isEmpty())
                return difference;
        }
        break;
    }
    case QJsonValue::Object: {
        // By sorted key: QJsonObject's own order of non-ASCII keys differs between a parsed
        // object and one built with insert().
        const QList<std::pair<QString, QJsonValue>> a = sortedMembers(expected.toObject());
        const QList<std::pair<QString, QJsonValue>> b = sortedMembers(actual.toObject());
        if (a.size() != b.size())
            return path + QStringLiteral(": %1 vs %2 members").arg(a.size()).arg(b.size());
        for (qsizetype i = 0; i < a.size(); ++i) {
            if (a.at(i).first != b.at(i).first)
                return path
                       + QStringLiteral(": key \"%1\" vs \"%2\"").arg(a.at(i).first, b.at(i).first);
            const QString difference = strictDifference(path + u'.' + a.at(i).first,
                                                        a.at(i).second,
                                                        b.at(i).second);
            if (!difference.isEmpty())
                return difference;
        }
        break;
    }
    default:
        if (expected != actual)
            return path + QStringLiteral(": values differ");
        break;
    }
    return {};
}

// Empty when the reader agrees with QJsonDocument on \a json: same verdict, same value.
QString disagreement(JsonReader &reader, const QByteArray &json)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    const bool qtAccepts = error.error == QJsonParseError::NoError;
    const bool accepted = reader.parse(json);
    if (accepted != qtAccepts)
        return QStringLiteral("QJsonDocument %1 it (%2), the reader %3 it")
            .arg(qtAccepts ? QStringLiteral("accepts") : QStringLiteral("rejects"),
                 error.errorString(),
                 accepted ? QStringLiteral("accepts") : QStringLiteral("rejects"));
    if (!accepted)
        return reader.root().isUndefined() ? QString() : QStringLiteral("rejected but has a root");
    const QJsonValue expected = document.isObject() ? QJsonValue(document.object())
                                                    : QJsonValue(document.array());
    return strictDifference(QStringLiteral("$"), expected, reader.root().toJsonValue());
}

QString describe(const QByteArray &json)
{
    return QString::fromLatin1(json.left(200).toPercentEncoding(" {}[]:,\"'.-+_/"));
}

// The data payloads of every recorded fixture.
QList<QByteArray> fixturePayloads()
{
    QList<QByteArray> payloads;
    for (const QString &provider : TestSupport::fixtureProviders()) {
        for (const QString &name : TestSupport::fixtureNames(provider)) {
            const QByteArray stream = TestSupport::readFixtureStream(provider, name);
            for (const QByteArray &line : stream.split('\n')) {
                if (line.startsWith("data: ") && line.size() > 8)
                    payloads.append(line.mid(6));
            }
        }
    }
    return payloads;
}

QByteArray mutated(QByteArray json, QRandomGenerator &random)
{
    static const QByteArray interesting("\"\\{}[]:,.-+eE0123456789 \t\r\nutfnl/\x7f\x01");
    static const QList<QByteArray> sequences{"\xC3\xA9",
                                             "\xC3",
                                             "\xE2\x82\xAC",
                                             "\xED\xA0\x80",
                                             "\xF0\x9F\x98\x80",
                                             "\xF4\x90\x80\x80",
                                             "\xC0\xAF",
                                             "\\u",
                                             "\\ud83d",
                                             "\\ude00",
                                             "\\uZZ12",
                                             "1e999",
                                             "-0",
                                             "1.",
                                             ".5",
                                             "null",
                                             "true",
                                             "false",
                                             "\xEF\xBB\xBF"};
    const int edits = 1 + random.bounded(3);
    for (int i = 0; i < edits && !json.isEmpty(); ++i) {
        const qsizetype at = random.bounded(json.size());
        switch (random.bounded(6)) {
        case 0:
            json[at] = interesting.at(random.bounded(interesting.size()));
            break;
        case 1:
            json.insert(at, interesting.at(random.bounded(interesting.size())));
            break;
        case 2:
            json.remove(at, 1 + random.bounded(4));
            break;
        case 3:
            json.insert(at, sequences.at(random.bounded(sequences.size())));
            break;
        case 4:
            json.truncate(at);
            break;
        default:
            json[at] = char(random.bounded(256));
            break;
        }
    }
    return json;
}

} // namespace

class tst_JsonReader : public QObject
{
    Q_OBJECT

private slots:
    void agreesWithQJsonDocument_data();
    void agreesWithQJsonDocument();
    void nestingLimit_data();
    void nestingLimit();
    void memberLookup();
    void numbers_data();
    void numbers();
    void strings_data();
    void strings();
    void reuseAfterFailure();
    void fixturePayloads();
    void fuzz_data();
    void fuzz();
};

void tst_JsonReader::agreesWithQJsonDocument_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<bool>("valid"); // what QJsonDocument says (pinned, so a Qt change shows)

    const auto row = [](const char *name, const QByteArray &json, bool valid) {
        QTest::newRow(name) << json << valid;
    };
    row("empty object", "{}", true);
    row("empty array", "[]", true);
    row("spaced", " \t\r\n{ \"a\" : [ 1 , 2 ] , \"b\" : { } } \n", true);
    row("nested", R"({"a":{"b":[{"c":null},true,false,"x"]}})", true);
    row("duplicate keys", R"({"a":1,"b":2,"a":3})", true);
    row("escaped key", R"({"\u0061":1,"a":2,"\u0062":3})", true);
    row("byte order mark", "\xEF\xBB\xBF{}", true);
    row("byte order mark alone", "\xEF\xBB\xBF", false);
    row("empty", "", false);
    row("spaces only", "   ", false);
    row("scalar", "1", false);
    row("string scalar", "\"a\"", false);
    row("null scalar", "null", false);
    row("unterminated object", "{", false);
    row("unterminated array", "[1,2", false);
    row("trailing comma array", "[1,]", false);
    row("trailing comma object", R"({"a":1,})", false);
    row("leading comma", "[,1]", false);
    row("double comma", "[1,,2]", false);
    row("missing colon", R"({"a" 1})", false);
    row("missing value", R"({"a":})", false);
    row("missing comma", "[1 2]", false);
    row("unquoted key", "{a:1}", false);
    row("single quotes", "['a']", false);
    row("garbage at end", "{}x", false);
    row("two documents", "{}{}", false);
    row("nul after", QByteArray("{}\0", 3), false);
    row("literal typo", "[nul]", false);
    row("literal prefix", "[tru]", false);
    row("literal suffix", "[nullx]", false);
    row("capital literal", "[True]", false);
    row("numbers", "[0,-0,1,-1,12.5,1e3,1E+3,1e-3,-1.5e-7,0.0,1.0,123456789012345678]", true);
    row("big integers",
        "[9223372036854775807,-9223372036854775808,9223372036854775808,"
        "18446744073709551616,123456789012345678901234567890]",
        true);
    row("huge exponent", "[1e999]", false);
    row("tiny exponent", "[1e-999]", false); // Qt: underflow is an illegal number
    row("denormal", "[4.9e-324]", true);
    row("lone minus", "[-]", false);
    row("leading zero", "[01]", false);
    row("trailing point", "[1.]", true);
    row("leading point", "[.5]", true);
    row("minus point", "[-.5]", true);
    row("point alone", "[.]", false);
    row("exponent alone", "[1e]", false);
    row("exponent sign alone", "[1e+]", false);
    row("plus sign", "[+1]", false);
    row("hex", "[0x10]", false);
    row("infinity", "[Infinity]", false);
    row("number at end", "[1", false);
    row("escapes", R"(["\"\\\/\b\f\n\r\t"])", true);
    row("unicode escapes", R"(["\u00e9\u20AC\uD83D\uDE00"])", true);
    row("lone surrogates", R"(["\uD83D","\uDE00x","\udfff\ud800"])", true);
    row("escaped nul", R"(["a\u0000b"])", true);
    row("short unicode escape", R"(["\u12"])", false);
    row("bad unicode escape", R"(["\u12G4"])", false);
    row("lenient escape", R"(["\a\q\'"])", true);
    row("escaped high byte", "[\"\\\xC3\"]", true);
    row("escaped high byte then continuation", "[\"\\\xC3\xA9\"]", false);
    row("backslash at end", "[\"\\", false);
    row("raw control characters", "[\"a\tb\x01\x1f\"]", true);
    row("raw nul", QByteArray("[\"a\0b\"]", 7), true);
    row("utf8", "[\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\xEF\xBF\xBF\"]", true);
    row("overlong", "[\"\xC0\xAF\"]", false);
    row("overlong 3", "[\"\xE0\x80\xAF\"]", false);
    row("overlong 4", "[\"\xF0\x80\x80\xAF\"]", false);
    row("utf8 surrogate", "[\"\xED\xA0\x80\"]", false);
    row("above U+10FFFF", "[\"\xF4\x90\x80\x80\"]", false);
    row("lead F5", "[\"\xF5\x80\x80\x80\"]", false);
    row("lone continuation", "[\"\x80\"]", false);
    row("truncated sequence", "[\"\xE2\x82\"]", false);
    row("latin1 byte", "[\"caf\xE9\"]", false);
    row("unterminated string", "[\"abc", false);
    row("string ends the input", "[\"abc\"", false);
    row("long string", "[\"" + QByteArray(1000, 'x') + "\\n" + QByteArray(37, 'y') + "\"]", true);
    row("bad byte outside strings", "[1,\xC3\xA9]", false);
}

void tst_JsonReader::agreesWithQJsonDocument()
{
    QFETCH(QByteArray, json);
    QFETCH(bool, valid);
    QJsonParseError error;
    QJsonDocument::fromJson(json, &error);
    QCOMPARE(error.error == QJsonParseError::NoError, valid);
    JsonReader reader;
    const QString difference = disagreement(reader, json);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
}

void tst_JsonReader::nestingLimit_data()
{
    QTest::addColumn<int>("depth");
    QTest::addColumn<bool>("objects");
    QTest::addColumn<bool>("valid");
    QTest::newRow("arrays 1024") << 1024 << false << true;
    QTest::newRow("arrays 1025") << 1025 << false << false;
    QTest::newRow("objects 1024") << 1024 << true << true;
    QTest::newRow("objects 1025") << 1025 << true << false;
}

void tst_JsonReader::nestingLimit()
{
    QFETCH(int, depth);
    QFETCH(bool, objects);
    QFETCH(bool, valid);
    QByteArray json;
    for (int i = 0; i < depth; ++i)
        json += objects && i % 2 ? "{\"k\":" : "[";
    json += '0';
    for (int i = depth - 1; i >= 0; --i)
        json += objects && i % 2 ? "}" : "]";
    JsonReader reader;
    QCOMPARE(reader.parse(json), valid);
    const QString difference = disagreement(reader, json);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
}

void tst_JsonReader::memberLookup()
{
    const QByteArray json = R"({"type":"a","n":{"x":[1,{"y":2}],"z":"w"},"type":"b","\u0074ag":7})";
    JsonReader reader;
    QVERIFY(reader.parse(json));
    const JsonReader::Value root = reader.root();
    QVERIFY(root.isObject());
    QCOMPARE(root.size(), 4);
    QCOMPARE(root.value("type").toString(), QStringLiteral("b")); // the last one wins
    QVERIFY(root["type"].equals("b"));
    QVERIFY(!root["type"].equals("a"));
    QCOMPARE(root["tag"].toInt(), 7); // the key was escaped
    QVERIFY(root["missing"].isUndefined());
    QVERIFY(root["n"]["x"]["y"].isUndefined()); // not an object
    QCOMPARE(root["n"]["z"].toString(), QStringLiteral("w"));

    QStringList keys;
    for (const JsonReader::Value member : root.members())
        keys.append(member.key().toString());
    QCOMPARE(keys, QStringList({"type", "n", "type", "tag"}));
    QVERIFY(!(root.elements().begin() != root.elements().end())); // not an array

    const JsonReader::Value array = root["n"]["x"];
    QCOMPARE(array.size(), 2);
    QList<JsonReader::Type> types;
    QVERIFY(!(array.members().begin() != array.members().end())); // not an object
    for (const JsonReader::Value element : array.elements()) {
        types.append(element.type());
        QVERIFY(element.key().isUndefined());
    }
    QCOMPARE(types, QList<JsonReader::Type>({JsonReader::Type::Number, JsonReader::Type::Object}));
    QCOMPARE(root["n"].toJsonObject(),
             QJsonDocument::fromJson(R"({"x":[1,{"y":2}],"z":"w"})").object());
    QVERIFY(root["type"].toJsonObject().isEmpty());
    QVERIFY(root["n"].toJsonArray().isEmpty());

    const JsonReader::Value scalar = root["tag"];
    QCOMPARE(scalar.size(), 0);
    QVERIFY(!(scalar.elements().begin() != scalar.elements().end()));
}

void tst_JsonReader::numbers_data()
{
    QTest::addColumn<QByteArray>("number");
    for (const char *number : {"0",
                               "-0",
                               "7",
                               "-7",
                               "2147483647",
                               "2147483648",
                               "-2147483648",
                               "-2147483649",
                               "123456789012345678",
                               "1234567890123456789",
                               "9223372036854775807",
                               "9223372036854775808",
                               "-9223372036854775808",
                               "-9223372036854775809",
                               "1e2",
                               "1.5",
                               "-0.0",
                               "1.0",
                               "2.50",
                               "1e-2",
                               "1E20",
                               "1e19",
                               "1.",
                               ".5",
                               "-.25",
                               "4.9e-324",
                               "1.7976931348623157e308"})
        QTest::newRow(number) << QByteArray(number);
}

void tst_JsonReader::numbers()
{
    QFETCH(QByteArray, number);
    const QByteArray json = "[" + number + "]";
    const QJsonValue expected = QJsonDocument::fromJson(json).array().at(0);
    QVERIFY(expected.isDouble());
    JsonReader reader;
    QVERIFY(reader.parse(json));
    const JsonReader::Value value = *reader.root().elements().begin();
    QVERIFY(value.isNumber());
    QCOMPARE(value.toInt(-3), expected.toInt(-3));
    QCOMPARE(value.toInteger(noInteger), expected.toInteger(noInteger));
    QCOMPARE(value.toDouble(-3), expected.toDouble(-3));
    QCOMPARE(value.toString(QStringLiteral("n")), QStringLiteral("n"));
    QCOMPARE(value.toBool(true), true);
    QVERIFY(!value.equals(number));
}

void tst_JsonReader::strings_data()
{
    QTest::addColumn<QByteArray>("literal"); // a JSON string literal
    QTest::newRow("empty") << QByteArray(R"("")");
    QTest::newRow("ascii") << QByteArray(R"("hello world")");
    QTest::newRow("utf8") << QByteArray("\"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\"");
    QTest::newRow("escapes") << QByteArray(R"("a\"b\\c\/d\be\ff\ng\rh\ti")");
    QTest::newRow("pair") << QByteArray(R"("\ud83d\ude00!")");
    QTest::newRow("lone high") << QByteArray(R"("x\ud83d")");
    QTest::newRow("lone low") << QByteArray(R"("\ude00x")");
    QTest::newRow("mixed") << QByteArray("\"\xC3\xA9\\u00e9\\n\xF0\x9F\x98\x80\\\\\"");
    QTest::newRow("lenient") << QByteArray(R"("\x\'")");
    QTest::newRow("long") << "\"" + QByteArray(300, 'a') + "\\t" + QByteArray(300, 'b') + "\"";
}

void tst_JsonReader::strings()
{
    QFETCH(QByteArray, literal);
    const QByteArray json = "{\"k\":" + literal + "}";
    const QJsonValue expected = QJsonDocument::fromJson(json).object().value(u"k");
    QVERIFY(expected.isString());
    JsonReader reader;
    QVERIFY(reader.parse(json));
    const JsonReader::Value value = reader.root()["k"];
    QVERIFY(value.isString());
    QCOMPARE(value.toString(), expected.toString());
    QCOMPARE(value.toString().isNull(), expected.toString().isNull());
    QCOMPARE(value.isEmptyString(), expected.toString().isEmpty());
    if (QString::fromUtf8(expected.toString().toUtf8()) == expected.toString()) // no lone surrogate
        QVERIFY(value.equals(expected.toString().toUtf8()));
    QVERIFY(!value.equals(QByteArray(expected.toString().toUtf8() + "x")));
    QCOMPARE(value.toInt(5), 5);
    QVERIFY(value.toJsonValue() == expected);
    // The key of a member written with escapes is found by its decoded name.
    QJsonObject object;
    object.insert(expected.toString(), 1);
    const QByteArray keyed = "{" + literal + ":1}";
    QVERIFY(reader.parse(keyed));
    QCOMPARE(reader.root().toJsonObject(), object);
}

void tst_JsonReader::reuseAfterFailure()
{
    JsonReader reader;
    QVERIFY(reader.parse(R"({"a":[1,2,3],"b":"long string value"})"));
    QVERIFY(!reader.parse(R"({"a":[1,2)"));
    QVERIFY(reader.root().isUndefined());
    QVERIFY(reader.root()["a"].isUndefined());
    QVERIFY(reader.parse(R"(["x"])"));
    QCOMPARE(reader.root().toJsonValue(), QJsonValue(QJsonArray{QStringLiteral("x")}));
}

void tst_JsonReader::fixturePayloads()
{
    const QList<QByteArray> payloads = tst_jsonreader::fixturePayloads();
    QVERIFY(payloads.size() > 200);
    JsonReader reader;
    int accepted = 0;
    for (const QByteArray &payload : payloads) {
        const QString difference = disagreement(reader, payload);
        QVERIFY2(difference.isEmpty(), qPrintable(describe(payload) + u": " + difference));
        accepted += reader.root().isUndefined() ? 0 : 1;
    }
    QVERIFY(accepted > 200); // all but "[DONE]" and the like
}

void tst_JsonReader::fuzz_data()
{
    QTest::addColumn<quint32>("seed");
    for (quint32 seed : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u})
        QTest::newRow(qPrintable(QStringLiteral("seed %1").arg(seed))) << seed;
}

void tst_JsonReader::fuzz()
{
    QFETCH(quint32, seed);
    QList<QByteArray> sources = tst_jsonreader::fixturePayloads();
    sources.append(R"({"s":"a\"b\\c\u00e9\ud83d\ude00","n":[-1.5e3,0,1e2,true,false,null],"o":{}})");
    sources.append("[\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\",[[[]]],{\"\":-0}]");
    QRandomGenerator random(seed);
    JsonReader reader;
    int accepted = 0;
    constexpr int rounds = 4000;
    for (int i = 0; i < rounds; ++i) {
        const QByteArray json = mutated(sources.at(random.bounded(sources.size())), random);
        const QString difference = disagreement(reader, json);
        QVERIFY2(difference.isEmpty(), qPrintable(describe(json) + u": " + difference));
        accepted += reader.root().isUndefined() ? 0 : 1;
    }
    // Both verdicts must be exercised, or the mutations test nothing.
    QVERIFY2(accepted > rounds / 20 && accepted < rounds * 19 / 20,
             qPrintable(QString::number(accepted)));
}

AGENTDESK_GUILESS_TEST_MAIN(tst_JsonReader)

} // namespace tst_jsonreader

#include "tst_jsonreader.moc"
