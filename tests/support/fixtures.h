#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

/// Access to the recorded provider streams in shared/fixtures (AGENTDESK_FIXTURES_DIR; never
/// copied into the project) and the ways the tests cut them into reads. Pure functions.
namespace TestSupport {

/// The fixture provider directories: "anthropic", "openai-chat", "openai-responses".
QStringList fixtureProviders();

/// Base names (without ".sse") of the fixtures in sse/<provider>/, sorted.
QStringList fixtureNames(const QString &provider);

/// The raw bytes of sse/<provider>/<name>.sse; empty if it cannot be read.
QByteArray readFixtureStream(const QString &provider, const QString &name);

/// The parsed sse/<provider>/<name>.expected.json; empty if it cannot be read.
QJsonObject readFixtureExpected(const QString &provider, const QString &name);

/// Compares two JSON values structurally: key order is irrelevant, numbers compare by value,
/// "_note" keys are ignored at any depth. Returns an empty string when they are equal, else
/// the path of the first difference and both values, e.g.
/// `$.content[1].arguments.city: expected "Paris", got "Par"` (use with QVERIFY2).
QString jsonDifference(const QJsonValue &expected, const QJsonValue &actual);

/// How to cut a byte stream into reads.
struct ChunkStrategy
{
    enum class Kind {
        Whole,       ///< one read
        SingleBytes, ///< one byte per read
        FixedSize,   ///< maxChunk bytes per read (the last one may be shorter)
        Random,      ///< sizes 1..maxChunk drawn from QRandomGenerator(seed)
        AtOffsets,   ///< cut before each of offsets (out-of-range or repeated ones are skipped)
    };

    Kind kind = Kind::Whole;
    quint32 seed = 0;
    int maxChunk = 64;
    QList<qsizetype> offsets;

    static ChunkStrategy whole() { return {}; }
    static ChunkStrategy singleBytes() { return {Kind::SingleBytes, 0, 1, {}}; }
    static ChunkStrategy fixedSize(int bytes) { return {Kind::FixedSize, 0, bytes, {}}; }
    static ChunkStrategy random(quint32 seed, int maxChunk = 64)
    {
        return {Kind::Random, seed, maxChunk, {}};
    }
    static ChunkStrategy atOffsets(const QList<qsizetype> &offsets)
    {
        return {Kind::AtOffsets, 0, 0, offsets};
    }
};

/// \a bytes cut into reads; concatenated they give \a bytes back. Deterministic.
QList<QByteArray> splitBytes(const QByteArray &bytes, const ChunkStrategy &strategy);

/// \a bytes with every LF that is not already preceded by CR turned into CRLF.
QByteArray withCrlfLineEnds(const QByteArray &bytes);

/// One way to feed a stream: a name for test rows and the reads.
struct NamedChunks
{
    QString name;
    QList<QByteArray> chunks;
};

/// The chunkings every stream test runs over \a bytes: "whole", "bytes", "7-bytes" (as the
/// SDK results in shared/fixtures were checked), "random-1/2/3" (fixed seeds), "crlf-split" (the stream with CRLF line ends, cut between the CR and the LF of every
/// line end) and "utf8-split" (cut after the lead byte of every multi-byte UTF-8 character;
/// only when there is one). The CRLF variant changes the bytes, not the events they carry.
QList<NamedChunks> standardChunkings(const QByteArray &bytes);

} // namespace TestSupport
