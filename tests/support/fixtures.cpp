#include "fixtures.h"
#include "testpaths.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>

#include <algorithm>

namespace TestSupport {

namespace {
QString fixturePath(const QString &provider, const QString &fileName)
{
    return fixturesDir() + QStringLiteral("/sse/") + provider + QLatin1Char('/') + fileName;
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

QString describe(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Undefined:
        return QStringLiteral("(missing)");
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double:
        return QString::number(value.toDouble(), 'g', 17);
    case QJsonValue::String:
        return QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact))
            .mid(1)
            .chopped(1);
    case QJsonValue::Array:
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    }
    return {};
}

QString difference(const QString &path, const QJsonValue &expected, const QJsonValue &actual)
{
    // QString, not auto: a QStringBuilder returned would point into destroyed temporaries.
    const auto mismatch = [&]() -> QString {
        return path + QStringLiteral(": expected ") + describe(expected) + QStringLiteral(", got ")
               + describe(actual);
    };
    if (expected.type() != actual.type())
        return mismatch();
    switch (expected.type()) {
    case QJsonValue::Array: {
        const QJsonArray a = expected.toArray();
        const QJsonArray b = actual.toArray();
        for (qsizetype i = 0; i < std::min(a.size(), b.size()); ++i) {
            const QString diff = difference(path + QStringLiteral("[%1]").arg(i), a.at(i), b.at(i));
            if (!diff.isEmpty())
                return diff;
        }
        if (a.size() != b.size()) {
            return path
                   + QStringLiteral(": expected %1 elements, got %2: ").arg(a.size()).arg(b.size())
                   + describe(actual);
        }
        return {};
    }
    case QJsonValue::Object: {
        const QJsonObject a = expected.toObject();
        const QJsonObject b = actual.toObject();
        QStringList keys = a.keys() + b.keys();
        keys.removeDuplicates();
        keys.sort();
        for (const QString &key : std::as_const(keys)) {
            if (key == QLatin1String("_note"))
                continue;
            const QString diff = difference(path + QLatin1Char('.') + key,
                                            a.value(key),
                                            b.value(key));
            if (!diff.isEmpty())
                return diff;
        }
        return {};
    }
    case QJsonValue::Double:
        return expected.toDouble() == actual.toDouble() ? QString() : mismatch();
    default:
        return expected == actual ? QString() : mismatch();
    }
}

// The positions just after the lead byte of each multi-byte UTF-8 sequence.
QList<qsizetype> utf8SplitOffsets(const QByteArray &bytes)
{
    QList<qsizetype> offsets;
    for (qsizetype i = 0; i + 1 < bytes.size(); ++i) {
        if ((uchar(bytes.at(i)) & 0xC0) == 0xC0)
            offsets.append(i + 1);
    }
    return offsets;
}

// The positions between CR and LF.
QList<qsizetype> crlfSplitOffsets(const QByteArray &bytes)
{
    QList<qsizetype> offsets;
    for (qsizetype at = bytes.indexOf("\r\n"); at >= 0; at = bytes.indexOf("\r\n", at + 2))
        offsets.append(at + 1);
    return offsets;
}
} // namespace

QStringList fixtureProviders()
{
    return {QStringLiteral("anthropic"),
            QStringLiteral("openai-chat"),
            QStringLiteral("openai-responses")};
}

QStringList fixtureNames(const QString &provider)
{
    const QDir dir(fixturePath(provider, {}));
    QStringList names;
    const QStringList files = dir.entryList({QStringLiteral("*.sse")}, QDir::Files, QDir::Name);
    for (const QString &file : files)
        names.append(file.chopped(4));
    names.sort();
    return names;
}

QByteArray readFixtureStream(const QString &provider, const QString &name)
{
    return readFile(fixturePath(provider, name + QStringLiteral(".sse")));
}

QJsonObject readFixtureExpected(const QString &provider, const QString &name)
{
    return QJsonDocument::fromJson(
               readFile(fixturePath(provider, name + QStringLiteral(".expected.json"))))
        .object();
}

QString jsonDifference(const QJsonValue &expected, const QJsonValue &actual)
{
    return difference(QStringLiteral("$"), expected, actual);
}

QList<QByteArray> splitBytes(const QByteArray &bytes, const ChunkStrategy &strategy)
{
    QList<QByteArray> chunks;
    switch (strategy.kind) {
    case ChunkStrategy::Kind::Whole:
        chunks.append(bytes);
        break;
    case ChunkStrategy::Kind::SingleBytes:
        for (const char c : bytes)
            chunks.append(QByteArray(1, c));
        break;
    case ChunkStrategy::Kind::FixedSize: {
        const qsizetype size = std::max(1, strategy.maxChunk);
        for (qsizetype at = 0; at < bytes.size(); at += size)
            chunks.append(bytes.mid(at, size));
        break;
    }
    case ChunkStrategy::Kind::Random: {
        QRandomGenerator random(strategy.seed);
        const int maxChunk = std::max(1, strategy.maxChunk);
        for (qsizetype at = 0; at < bytes.size();) {
            const qsizetype size = random.bounded(1, maxChunk + 1);
            chunks.append(bytes.mid(at, size));
            at += size;
        }
        break;
    }
    case ChunkStrategy::Kind::AtOffsets: {
        QList<qsizetype> offsets = strategy.offsets;
        std::sort(offsets.begin(), offsets.end());
        qsizetype at = 0;
        for (const qsizetype offset : std::as_const(offsets)) {
            if (offset <= at || offset >= bytes.size())
                continue;
            chunks.append(bytes.mid(at, offset - at));
            at = offset;
        }
        chunks.append(bytes.mid(at));
        break;
    }
    }
    return chunks;
}

QByteArray withCrlfLineEnds(const QByteArray &bytes)
{
    QByteArray result;
    result.reserve(bytes.size() + bytes.size() / 16);
    for (qsizetype i = 0; i < bytes.size(); ++i) {
        if (bytes.at(i) == '\n' && (i == 0 || bytes.at(i - 1) != '\r'))
            result += '\r';
        result += bytes.at(i);
    }
    return result;
}

QList<NamedChunks> standardChunkings(const QByteArray &bytes)
{
    QList<NamedChunks> result{
        {QStringLiteral("whole"), splitBytes(bytes, ChunkStrategy::whole())},
        {QStringLiteral("bytes"), splitBytes(bytes, ChunkStrategy::singleBytes())},
        {QStringLiteral("7-bytes"), splitBytes(bytes, ChunkStrategy::fixedSize(7))},
    };
    for (const quint32 seed : {1u, 2u, 3u}) {
        result.append({QStringLiteral("random-%1").arg(seed),
                       splitBytes(bytes, ChunkStrategy::random(seed))});
    }
    const QByteArray crlf = withCrlfLineEnds(bytes);
    const QList<qsizetype> lineEnds = crlfSplitOffsets(crlf);
    if (!lineEnds.isEmpty()) {
        result.append(
            {QStringLiteral("crlf-split"), splitBytes(crlf, ChunkStrategy::atOffsets(lineEnds))});
    }
    const QList<qsizetype> characters = utf8SplitOffsets(bytes);
    if (!characters.isEmpty()) {
        result.append({QStringLiteral("utf8-split"),
                       splitBytes(bytes, ChunkStrategy::atOffsets(characters))});
    }
    return result;
}

} // namespace TestSupport
