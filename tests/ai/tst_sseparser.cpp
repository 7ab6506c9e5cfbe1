#include "ai/sseparser.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>
#include <testmain.h>

#include <climits>
#include <ctime>
#include <limits>
#include <testpaths.h>

using namespace AgentCore;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(AgentCore::SseParser::Overflow)

namespace tst_sseparser {

namespace {

// One way of cutting a stream into reads.
struct Chunking
{
    QString name;
    QByteArrayList chunks;
};

// What a parser run produced, rendered as comparable lines; decoded from UTF-8 where the
// vectors give strings.
struct Outcome
{
    QStringList events;
    QString lastEventId;
    QString retry;

    bool operator==(const Outcome &other) const = default;
};

QString escaped(const QString &text)
{
    QString out;
    for (const QChar c : text) {
        if (c == u'\n')
            out += u"\\n"_s;
        else if (c == u'\r')
            out += u"\\r"_s;
        else if (c.unicode() < 0x20 || c.unicode() == 0xfeff)
            out += u"\\u%1"_s.arg(c.unicode(), 4, 16, QChar(u'0'));
        else
            out += c;
    }
    return out;
}

QString describeEvent(const QString &type, const QString &data, const QString &id)
{
    return u"event=[%1] data=[%2] id=[%3]"_s.arg(escaped(type), escaped(data), escaped(id));
}

QString describeEvent(const SseEvent &event)
{
    return describeEvent(QString::fromUtf8(event.type),
                         QString::fromUtf8(event.data),
                         QString::fromUtf8(event.id));
}

QString describeRetry(std::optional<int> retry)
{
    return retry ? QString::number(*retry) : u"none"_s;
}

QString describe(const Outcome &outcome)
{
    return outcome.events.join(u"\n    "_s)
           + u"\n    lastEventId=[%1] retry=%2"_s.arg(escaped(outcome.lastEventId), outcome.retry);
}

// Feeds \a chunks, then finishes.
Outcome parse(SseParser &parser, const QByteArrayList &chunks)
{
    Outcome outcome;
    const SseParser::Sink collect = [&outcome](const SseEvent &event) {
        outcome.events.append(describeEvent(event));
    };
    for (const QByteArray &chunk : chunks)
        parser.feed(chunk, collect);
    parser.finish();
    outcome.lastEventId = QString::fromUtf8(parser.lastEventId());
    outcome.retry = describeRetry(parser.retryMs());
    return outcome;
}

Outcome parse(const QByteArrayList &chunks)
{
    SseParser parser;
    return parse(parser, chunks);
}

Outcome expectedOutcome(const QJsonObject &vector)
{
    Outcome outcome;
    // JSON null (no type, no id) is an empty QString, as the parser reports absence.
    for (const QJsonValue &value : vector.value("expected"_L1).toArray()) {
        const QJsonObject event = value.toObject();
        outcome.events.append(describeEvent(event.value("event"_L1).toString(),
                                            event.value("data"_L1).toString(),
                                            event.value("id"_L1).toString()));
    }
    outcome.lastEventId = vector.value("expectedLastEventId"_L1).toString();
    const QJsonValue retry = vector.value("expectedRetry"_L1);
    outcome.retry = retry.isNull() ? u"none"_s : QString::number(retry.toInt());
    return outcome;
}

QByteArrayList chunksOf(const QJsonObject &vector)
{
    QByteArrayList chunks;
    if (vector.contains("chunks"_L1)) {
        for (const QJsonValue &chunk : vector.value("chunks"_L1).toArray())
            chunks.append(chunk.toString().toUtf8());
    } else {
        for (const QJsonValue &chunk : vector.value("chunksBase64"_L1).toArray())
            chunks.append(QByteArray::fromBase64(chunk.toString().toLatin1()));
    }
    return chunks;
}

QByteArrayList split(const QByteArray &bytes, const QList<qsizetype> &sizes)
{
    QByteArrayList chunks;
    qsizetype pos = 0;
    for (const qsizetype size : sizes) {
        chunks.append(bytes.mid(pos, size));
        pos += size;
    }
    chunks.append(bytes.mid(pos));
    return chunks;
}

constexpr int RandomSeeds = 20;

// As given, whole, byte by byte, every two-way split (including the empty ends) and random
// cuts; half of the random seeds use tiny pieces, empty ones included.
QList<Chunking> chunkingsOf(const QByteArrayList &given)
{
    const QByteArray whole = given.join();
    QList<Chunking> chunkings{{u"as given"_s, given}, {u"whole"_s, {whole}}};

    Chunking bytes{u"byte by byte"_s, {}};
    for (const char c : whole)
        bytes.chunks.append(QByteArray(1, c));
    chunkings.append(bytes);

    for (qsizetype at = 0; at <= whole.size(); ++at)
        chunkings.append({u"split at %1"_s.arg(at), split(whole, {at})});

    for (quint32 seed = 1; seed <= RandomSeeds; ++seed) {
        QRandomGenerator random(seed);
        const int maxPiece = seed % 2 ? 4 : qMax(1, int(whole.size() / 3));
        QList<qsizetype> sizes;
        for (qsizetype used = 0; used < whole.size();) {
            sizes.append(random.bounded(maxPiece + 1));
            used += sizes.back();
        }
        chunkings.append({u"random seed %1"_s.arg(seed), split(whole, sizes)});
    }
    return chunkings;
}

struct Edge
{
    const char *type;
    const char *data;
    const char *id;
};

QStringList eventsOf(std::initializer_list<Edge> edges)
{
    QStringList events;
    for (const Edge &edge : edges) {
        events.append(describeEvent(QString::fromUtf8(edge.type),
                                    QString::fromUtf8(edge.data),
                                    QString::fromUtf8(edge.id)));
    }
    return events;
}

// A typical LLM stream of \a targetSize bytes: a recorded fixture repeated.
QByteArray repeatedFixture(const QString &relativePath, qsizetype targetSize, int *events)
{
    QFile file(TestSupport::fixturesDir() + u"/sse/"_s + relativePath);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray one = file.readAll();
    const int perCopy = int(one.count("\n\n"));
    QByteArray stream;
    *events = 0;
    while (stream.size() < targetSize) {
        stream += one;
        *events += perCopy;
    }
    return stream;
}

} // namespace

class tst_SseParser final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void conformanceVectors_data();
    void conformanceVectors();
    void lineEndsAcrossChunks_data();
    void lineEndsAcrossChunks();
    void byteOrderMark_data();
    void byteOrderMark();
    void retryField_data();
    void retryField();
    void idField_data();
    void idField();
    void unterminatedEventDiscarded_data();
    void unterminatedEventDiscarded();
    void cleanEndDispatchesThePendingEvent_data();
    void cleanEndDispatchesThePendingEvent();
    void cleanEndAfterOverflowDispatchesNothing();
    void eventTypeResetWithoutDispatch();
    void finishStartsNewStream();
    void resetForgetsEverything_data();
    void resetForgetsEverything();
    void limitsStopTheParser_data();
    void limitsStopTheParser();
    void throughput_data();
    void throughput();
    void cleanupTestCase();

private:
    QJsonArray m_vectors;
    int m_chunkingsRun = 0;
};

void tst_SseParser::initTestCase()
{
    QFile file(TestSupport::fixturesDir() + u"/sse-vectors.json"_s);
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    m_vectors = document.object().value("vectors"_L1).toArray();
    QVERIFY(!m_vectors.isEmpty());
}

void tst_SseParser::conformanceVectors_data()
{
    QTest::addColumn<QJsonObject>("vector");
    for (const QJsonValue &vector : std::as_const(m_vectors)) {
        const QJsonObject object = vector.toObject();
        QTest::newRow(qPrintable(object.value("name"_L1).toString())) << object;
    }
}

void tst_SseParser::conformanceVectors()
{
    QFETCH(QJsonObject, vector);
    QVERIFY(vector.contains("chunks"_L1) != vector.contains("chunksBase64"_L1));
    QVERIFY(vector.contains("expected"_L1));
    const QByteArrayList given = chunksOf(vector);
    const Outcome expected = expectedOutcome(vector);

    for (const Chunking &chunking : chunkingsOf(given)) {
        const Outcome actual = parse(chunking.chunks);
        ++m_chunkingsRun;
        QVERIFY2(actual == expected,
                 qPrintable(u"chunking \"%1\"\n  actual:\n    %2\n  expected:\n    %3"_s
                                .arg(chunking.name, describe(actual), describe(expected))));
    }
}

void tst_SseParser::lineEndsAcrossChunks_data()
{
    QTest::addColumn<QByteArrayList>("chunks");
    QTest::addColumn<QStringList>("events");

    QTest::newRow("CR | LF inside an event")
        << QByteArrayList{"data: a\r", "\ndata: b\n\n"} << eventsOf({{"", "a\nb", ""}});
    QTest::newRow("CR | empty chunk | LF")
        << QByteArrayList{"data: a\r", "", "\ndata: b\n\n"} << eventsOf({{"", "a\nb", ""}});
    QTest::newRow("CR | LF | CR | LF dispatches once")
        << QByteArrayList{"data: a\r", "\n", "\r", "\ndata: b\n\n"}
        << eventsOf({{"", "a", ""}, {"", "b", ""}});
    QTest::newRow("CR | CR is an empty line")
        << QByteArrayList{"data: a\r", "\rdata: b\r\r"} << eventsOf({{"", "a", ""}, {"", "b", ""}});
    QTest::newRow("CR | LF LF dispatches")
        << QByteArrayList{"data: a\r", "\n\n"} << eventsOf({{"", "a", ""}});
    QTest::newRow("LF | LF dispatches")
        << QByteArrayList{"data: a\n", "\n"} << eventsOf({{"", "a", ""}});
    QTest::newRow("line split before its CR")
        << QByteArrayList{"data: a", "b\r", "\r"} << eventsOf({{"", "ab", ""}});
}

void tst_SseParser::lineEndsAcrossChunks()
{
    QFETCH(QByteArrayList, chunks);
    QFETCH(QStringList, events);
    QCOMPARE(parse(chunks).events, events);
}

void tst_SseParser::byteOrderMark_data()
{
    QTest::addColumn<QByteArrayList>("chunks");
    QTest::addColumn<QStringList>("events");

    QTest::newRow("split across 3 chunks") << QByteArrayList{"\xEF",
                                                             "\xBB",
                                                             "\xBF"
                                                             "data: x\n\n"}
                                           << eventsOf({{"", "x", ""}});
    QTest::newRow("alone in 3 chunks, then the stream")
        << QByteArrayList{"\xEF", "\xBB", "\xBF", "data: x\n\n"} << eventsOf({{"", "x", ""}});
    QTest::newRow("empty chunks around it")
        << QByteArrayList{"", "\xEF\xBB", "", "\xBF", "", "data: x\n\n"}
        << eventsOf({{"", "x", ""}});
    // An incomplete mark is ordinary bytes: they join the field name, which becomes unknown.
    QTest::newRow("incomplete mark is kept")
        << QByteArrayList{"\xEF\xBB", "data: x\n\ndata: y\n\n"} << eventsOf({{"", "y", ""}});
    QTest::newRow("later mark inside a value is data")
        << QByteArrayList{"data: \xEF\xBB\xBFx\n\n"} << eventsOf({{"", "\xEF\xBB\xBFx", ""}});
    QTest::newRow("later mark at a line start is part of the field name")
        << QByteArrayList{"data: a\n\n\xEF\xBB\xBF"
                          "data: b\n\n"}
        << eventsOf({{"", "a", ""}});
    QTest::newRow("later mark split at a line start") << QByteArrayList{"data: a\n\n\xEF",
                                                                        "\xBB\xBF"
                                                                        "data: b\n\n"}
                                                      << eventsOf({{"", "a", ""}});
}

void tst_SseParser::byteOrderMark()
{
    QFETCH(QByteArrayList, chunks);
    QFETCH(QStringList, events);
    QCOMPARE(parse(chunks).events, events);
}

void tst_SseParser::retryField_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<QString>("retry");

    QTest::newRow("digits") << "retry: 2500\n"_ba << u"2500"_s;
    QTest::newRow("zero") << "retry: 0\n"_ba << u"0"_s;
    QTest::newRow("trailing letter") << "retry: 12x\n"_ba << u"none"_s;
    QTest::newRow("sign") << "retry: +5\n"_ba << u"none"_s;
    QTest::newRow("inner space") << "retry: 1 0\n"_ba << u"none"_s;
    QTest::newRow("inner colon") << "retry: 1:0\n"_ba << u"none"_s;
    QTest::newRow("non-ASCII digit") << "retry: \xD9\xA3\n"_ba << u"none"_s;
    QTest::newRow("empty") << "retry:\n"_ba << u"none"_s;
    QTest::newRow("invalid keeps the last valid")
        << "retry: 700\nretry: 7e2\nretry: -1\n"_ba << u"700"_s;
    QTest::newRow("valid replaces valid") << "retry: 700\nretry: 800\n"_ba << u"800"_s;
    QTest::newRow("huge saturates")
        << "retry: 99999999999999999999\n"_ba << QString::number(INT_MAX);
}

void tst_SseParser::retryField()
{
    QFETCH(QByteArray, stream);
    QFETCH(QString, retry);
    QCOMPARE(parse({stream}).retry, retry);
}

void tst_SseParser::idField_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<QStringList>("events");
    QTest::addColumn<QString>("lastEventId");

    QTest::newRow("NUL ignored") << "id: 1\ndata: a\n\nid: 2\0003\ndata: b\n\n"_ba
                                 << eventsOf({{"", "a", "1"}, {"", "b", ""}}) << u"1"_s;
    QTest::newRow("NUL at the end ignored")
        << "id: 5\nid: 6\000\ndata: a\n\n"_ba << eventsOf({{"", "a", "5"}}) << u"5"_s;
    QTest::newRow("persists across events") << "id: 9\ndata: a\n\ndata: b\n\n"_ba
                                            << eventsOf({{"", "a", "9"}, {"", "b", ""}}) << u"9"_s;
    QTest::newRow("empty id clears it") << "id: 9\ndata: a\n\nid\ndata: b\n\n"_ba
                                        << eventsOf({{"", "a", "9"}, {"", "b", ""}}) << u""_s;
}

void tst_SseParser::idField()
{
    QFETCH(QByteArray, stream);
    QFETCH(QStringList, events);
    QFETCH(QString, lastEventId);
    const Outcome outcome = parse({stream});
    QCOMPARE(outcome.events, events);
    QCOMPARE(outcome.lastEventId, lastEventId);
}

void tst_SseParser::unterminatedEventDiscarded_data()
{
    QTest::addColumn<QByteArrayList>("chunks");

    QTest::newRow("no line end") << QByteArrayList{"data: a"};
    QTest::newRow("LF, no empty line") << QByteArrayList{"data: a\n"};
    QTest::newRow("CR, no empty line") << QByteArrayList{"data: a\r"};
    QTest::newRow("CRLF, no empty line") << QByteArrayList{"data: a\r", "\n"};
    QTest::newRow("several lines") << QByteArrayList{"event: e\nid: 4\ndata: a\n", "data: b\n"};
}

void tst_SseParser::unterminatedEventDiscarded()
{
    QFETCH(QByteArrayList, chunks);
    SseParser parser;
    QStringList events;
    const auto collect = [&events](const SseEvent &event) { events.append(describeEvent(event)); };
    parser.feed("data: first\n\n", collect);
    for (const QByteArray &chunk : std::as_const(chunks))
        parser.feed(chunk, collect);
    parser.finish();
    QCOMPARE(events, eventsOf({{"", "first", ""}}));
    QCOMPARE(parser.lastEventId(), QByteArray());
}

void tst_SseParser::cleanEndDispatchesThePendingEvent_data()
{
    QTest::addColumn<QByteArrayList>("chunks");
    QTest::addColumn<QStringList>("pending");    // what the clean end dispatches
    QTest::addColumn<QByteArray>("lastEventId"); // after it

    // The unterminated events finish() discards (unterminatedEventDiscarded).
    QTest::newRow("no line end") << QByteArrayList{"data: a"} << eventsOf({{"", "a", ""}}) << ""_ba;
    QTest::newRow("LF, no empty line")
        << QByteArrayList{"data: a\n"} << eventsOf({{"", "a", ""}}) << ""_ba;
    QTest::newRow("CR, no empty line")
        << QByteArrayList{"data: a\r"} << eventsOf({{"", "a", ""}}) << ""_ba;
    QTest::newRow("CRLF, no empty line")
        << QByteArrayList{"data: a\r", "\n"} << eventsOf({{"", "a", ""}}) << ""_ba;
    QTest::newRow("several lines") << QByteArrayList{"event: e\nid: 4\ndata: a\n", "data: b"}
                                   << eventsOf({{"e", "a\nb", "4"}}) << "4"_ba;
    // As the recorded Anthropic streams end.
    const QByteArray messageStop = "event: message_stop\ndata: {\"type\":\"message_stop\"}"_ba;
    QTest::newRow("message_stop, one byte a read")
        << split(messageStop, QList<qsizetype>(messageStop.size() - 1, 1))
        << eventsOf({{"message_stop", "{\"type\":\"message_stop\"}", ""}}) << ""_ba;
    // Nothing pending: nothing more.
    QTest::newRow("ended with a blank line")
        << QByteArrayList{"data: b\n\n"} << eventsOf({{"", "b", ""}}) << ""_ba;
    QTest::newRow("no data field") << QByteArrayList{"event: e\nid: 7"} << QStringList() << "7"_ba;
    QTest::newRow("a comment") << QByteArrayList{": keep-alive"} << QStringList() << ""_ba;
    QTest::newRow("a field name cut short") << QByteArrayList{"da"} << QStringList() << ""_ba;
}

void tst_SseParser::cleanEndDispatchesThePendingEvent()
{
    QFETCH(QByteArrayList, chunks);
    QFETCH(QStringList, pending);
    QFETCH(QByteArray, lastEventId);
    SseParser parser;
    QStringList events;
    const auto collect = [&events](const SseEvent &event) { events.append(describeEvent(event)); };
    parser.feed("data: first\n\n", collect);
    for (const QByteArray &chunk : std::as_const(chunks))
        parser.feed(chunk, collect);
    parser.finishAtCleanEnd(collect);
    QCOMPARE(events, eventsOf({{"", "first", ""}}) + pending);
    QCOMPARE(parser.lastEventId(), lastEventId);

    // It finished the stream: the next one starts afresh.
    events.clear();
    parser.feed("data: next\n\n", collect);
    parser.finishAtCleanEnd(collect);
    QCOMPARE(events, eventsOf({{"", "next", ""}}));
}

void tst_SseParser::cleanEndAfterOverflowDispatchesNothing()
{
    SseParser parser;
    parser.setLimits(0, 4);
    QStringList events;
    const auto collect = [&events](const SseEvent &event) { events.append(describeEvent(event)); };
    parser.feed("data: 1234\n", collect);
    parser.feed("data: 5\n", collect);
    QCOMPARE(parser.overflow(), SseParser::Overflow::Event);
    parser.finishAtCleanEnd(collect);
    // The last line overflows only once the clean end reads it.
    parser.feed("data: 1234\ndata: 5", collect);
    QCOMPARE(parser.overflow(), SseParser::Overflow::None);
    parser.finishAtCleanEnd(collect);
    QCOMPARE(events, QStringList());
}

void tst_SseParser::eventTypeResetWithoutDispatch()
{
    // An empty line resets the type even when no data made an event to dispatch.
    QCOMPARE(parse({"event: ping\n\ndata: x\n\n"_ba}).events, eventsOf({{"", "x", ""}}));
}

void tst_SseParser::finishStartsNewStream()
{
    SseParser parser;
    QCOMPARE(parse(parser, {"retry: 40\nid: 3\ndata: a\n\nevent: e\ndata: lost\n"}).events,
             eventsOf({{"", "a", "3"}}));
    // Nothing of the discarded event survives; the id and retry do; a new stream may start
    // with a byte order mark again.
    const Outcome next = parse(parser,
                               {"\n\xEF\xBB\xBF"
                                "data: b\n\n"});
    QCOMPARE(next.events, QStringList());
    QCOMPARE(parse(parser,
                   {"\xEF\xBB\xBF"
                    "data: b\n\n"})
                 .events,
             eventsOf({{"", "b", ""}}));
    QCOMPARE(parser.lastEventId(), "3"_ba);
    QCOMPARE(parser.retryMs().value_or(-1), 40);
}

void tst_SseParser::resetForgetsEverything_data()
{
    QTest::addColumn<QByteArray>("before");
    QTest::addColumn<QByteArray>("after");
    QTest::addColumn<QStringList>("events");

    QTest::newRow("partial line") << "data: a"_ba
                                  << "data: b\n\n"_ba << eventsOf({{"", "b", ""}});
    QTest::newRow("pending event") << "event: e\nid: 1\ndata: a\n"_ba
                                   << "data: b\n\n"_ba << eventsOf({{"", "b", ""}});
    QTest::newRow("pending CR") << "data: a\r"_ba
                                << "\ndata: b\n\n"_ba << eventsOf({{"", "b", ""}});
    QTest::newRow("byte order mark check rearmed") << "data: a\n\n"_ba
                                                   << "\xEF\xBB\xBF"
                                                      "data: b\n\n"_ba
                                                   << eventsOf({{"", "b", ""}});
    QTest::newRow("half a byte order mark") << "\xEF\xBB"_ba
                                            << "data: b\n\n"_ba << eventsOf({{"", "b", ""}});
}

void tst_SseParser::resetForgetsEverything()
{
    QFETCH(QByteArray, before);
    QFETCH(QByteArray, after);
    QFETCH(QStringList, events);

    SseParser parser;
    parser.feed("retry: 10\nid: 7\ndata: x\n\n", [](const SseEvent &) {});
    parser.feed(before, [](const SseEvent &) {});
    parser.reset();
    QCOMPARE(parser.lastEventId(), QByteArray());
    QVERIFY(!parser.retryMs().has_value());

    QStringList actual;
    parser.feed(after, [&actual](const SseEvent &event) { actual.append(describeEvent(event)); });
    QCOMPARE(actual, events);
    // The id from before the reset must not come back at the next empty line.
    parser.feed("\n", [](const SseEvent &) {});
    QCOMPARE(parser.lastEventId(), QByteArray());
}

void tst_SseParser::limitsStopTheParser_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<qsizetype>("maxLine");
    QTest::addColumn<qsizetype>("maxEvent");
    QTest::addColumn<QStringList>("expected");
    QTest::addColumn<SseParser::Overflow>("overflow");
    using O = SseParser::Overflow;
    // "data: 12345678" is 14 bytes; the line break does not count.
    QTest::newRow("line at the limit") << "data: 12345678\r\n\n"_ba << qsizetype(14) << qsizetype(0)
                                       << eventsOf({{"", "12345678", ""}}) << O::None;
    QTest::newRow("line over the limit")
        << "data: a\n\ndata: 123456789\n\ndata: b\n\n"_ba << qsizetype(14) << qsizetype(0)
        << eventsOf({{"", "a", ""}}) << O::Line;
    QTest::newRow("comment over the limit") << ": 1234567890123\ndata: b\n\n"_ba << qsizetype(14)
                                            << qsizetype(0) << QStringList() << O::Line;
    QTest::newRow("line without an end") << "data: a\n\n"_ba + QByteArray(100, 'x') << qsizetype(50)
                                         << qsizetype(0) << eventsOf({{"", "a", ""}}) << O::Line;
    QTest::newRow("event at the limit")
        << "data: 123\ndata: 5678\n\n"_ba << qsizetype(0) << qsizetype(8)
        << eventsOf({{"", "123\n5678", ""}}) << O::None;
    QTest::newRow("event over the limit")
        << "data: a\n\ndata: 1234\ndata: 5678\n\ndata: b\n\n"_ba << qsizetype(0) << qsizetype(8)
        << eventsOf({{"", "a", ""}}) << O::Event;
    QTest::newRow("no limits") << "data: "_ba + QByteArray(4096, 'y') + "\n\n"
                               << qsizetype(0) << qsizetype(0)
                               << QStringList{describeEvent({}, QString(4096, u'y'), {})}
                               << O::None;
}

void tst_SseParser::limitsStopTheParser()
{
    QFETCH(QByteArray, input);
    QFETCH(qsizetype, maxLine);
    QFETCH(qsizetype, maxEvent);
    QFETCH(QStringList, expected);
    QFETCH(SseParser::Overflow, overflow);
    for (const Chunking &chunking : chunkingsOf({input})) {
        SseParser parser;
        parser.setLimits(maxLine, maxEvent);
        QStringList events;
        const SseParser::Sink collect = [&events](const SseEvent &event) {
            events.append(describeEvent(event));
        };
        for (const QByteArray &chunk : std::as_const(chunking.chunks))
            parser.feed(chunk, collect);
        QVERIFY2(parser.overflow() == overflow, qPrintable(chunking.name));
        QVERIFY2(events == expected, qPrintable(chunking.name + u": "_s + events.join(u", "_s)));
        // A new stream starts afresh.
        parser.finish();
        QCOMPARE(parser.overflow(), SseParser::Overflow::None);
    }
}

void tst_SseParser::throughput_data()
{
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<int>("readSize");

    QTest::newRow("openai-chat, 16 KiB reads") << u"openai-chat/gpt4o-text-weather.sse"_s << 16384;
    QTest::newRow("anthropic, 16 KiB reads") << u"anthropic/sonnet45-text.sse"_s << 16384;
    QTest::newRow("anthropic, 1 KiB reads") << u"anthropic/sonnet45-text.sse"_s << 1024;
}

// Reports MB/s of CPU time (the machine may be busy); fails only if events are lost, since
// timing is no verdict.
void tst_SseParser::throughput()
{
    QFETCH(QString, fixture);
    QFETCH(int, readSize);
    int expectedEvents = 0;
    const QByteArray stream = repeatedFixture(fixture, 8 * 1024 * 1024, &expectedEvents);
    QVERIFY(!stream.isEmpty());

    const QByteArrayView all(stream);
    std::clock_t best = std::numeric_limits<std::clock_t>::max();
    for (int round = 0; round < 3; ++round) {
        SseParser parser;
        int events = 0;
        qsizetype bytes = 0;
        const std::clock_t start = std::clock();
        for (qsizetype pos = 0; pos < all.size(); pos += readSize) {
            parser.feed(all.sliced(pos, qMin<qsizetype>(readSize, all.size() - pos)),
                        [&](const SseEvent &event) {
                            ++events;
                            bytes += event.data.size();
                        });
        }
        parser.finish();
        best = qMin(best, std::clock() - start);
        QCOMPARE(events, expectedEvents);
        QVERIFY(bytes > 0);
    }
    qInfo("%.0f MB/s (%lld bytes, best of 3)",
          double(stream.size()) * CLOCKS_PER_SEC / 1e6 / double(qMax<std::clock_t>(best, 1)),
          qint64(stream.size()));
}

void tst_SseParser::cleanupTestCase()
{
    qInfo("%lld conformance vectors, %d chunkings run", qint64(m_vectors.size()), m_chunkingsRun);
}

AGENTDESK_GUILESS_TEST_MAIN(tst_SseParser)

} // namespace tst_sseparser

#include "tst_sseparser.moc"
