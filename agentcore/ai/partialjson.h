#pragma once

#include "jsonreader.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <vector>

namespace AgentCore {

/// A tolerant parser for JSON that is still arriving (tool-call arguments while they stream).
/// append() consumes only the new bytes; value() builds a snapshot of what is known so far:
/// complete members are kept, an unterminated trailing string value is dropped (as the
/// Anthropic SDK's partial-JSON parser does), unfinished numbers/literals are dropped.
/// Not thread-safe; never throws.
///
/// Details: an unterminated key is dropped, and so is a key whose value is not known yet; open
/// arrays and objects are closed. A trailing number is kept while its text is a valid number
/// ("12", but not "-", "1." or "1e"), so it may still grow. Escapes, \uXXXX surrogate pairs and
/// UTF-8 sequences may be split anywhere between appends. Parsing is strict RFC 8259 JSON
/// (except that raw control characters inside strings are tolerated, as QJsonDocument does);
/// a top-level scalar is accepted. value() is cached until the next append() changes it, so
/// calling it per streamed delta of a long string costs nothing.
///
/// Nesting is capped at maxDepth open arrays/objects, as QJsonDocument and JsonReader cap it:
/// the byte that would open one more fails the parse (Error::TooDeep), so no value deeper than
/// that is ever built (Qt destroys and writes values recursively: 60,000 levels overflow the
/// stack). A failed parse says where: errorOffset() and errorExcerpt().
class PartialJsonParser final
{
public:
    /// The deepest nesting accepted: QJsonDocument's and JsonReader's limit.
    static constexpr int maxDepth = JsonReader::maxNesting;
    /// The limit for tool-call arguments: they travel one level down inside a session line and
    /// a request body, which add levels of their own and must stay readable below maxDepth.
    static constexpr int toolArgumentsMaxDepth = 512;

    /// \a depthLimit: at most maxDepth.
    explicit PartialJsonParser(int depthLimit = maxDepth)
        : m_depthLimit(qMin(depthLimit, maxDepth))
    {}
    int depthLimit() const { return m_depthLimit; }

    enum class Error : quint8 {
        None,    ///< valid so far (complete or not)
        Syntax,  ///< a byte that no JSON text can have there
        TooDeep, ///< more than depthLimit() arrays/objects open
    };

    void append(QByteArrayView bytes);
    void reset();

    /// The value so far (undefined when nothing is known yet).
    QJsonValue value() const;
    /// value() as an object; {} when the value is not an object.
    QJsonObject object() const;
    /// True when the input is one complete JSON value (whitespace aside).
    bool isComplete() const;
    /// True when the input can no longer become valid JSON.
    bool isInvalid() const;
    /// Why the input is invalid (None while it is not).
    Error error() const { return m_error; }
    /// The byte offset, in all the input appended, of the byte that made it invalid; -1 if none.
    qsizetype errorOffset() const { return m_errorOffset; }
    /// Up to excerptContext bytes either side of errorOffset() (as far as the input seen holds
    /// them; what follows it only from the same append()), for a message a model can act on.
    QByteArray errorExcerpt() const { return m_errorExcerpt; }
    static constexpr qsizetype excerptContext = 20;

    /// One-shot: the value of \a bytes as parsed by a fresh parser.
    static QJsonValue parse(QByteArrayView bytes);

private:
    enum class State : quint8 {
        Value,           // after ':' or ',' in an array, or at the start
        FirstValueOrEnd, // after '['
        FirstKeyOrEnd,   // after '{'
        Key,             // after ',' in an object
        Colon,           // after a key
        CommaOrEnd,      // after a member or element
        String,
        Number,
        Literal,
        Done, // a complete top-level value; only whitespace may follow
        Invalid,
    };

    // An open array or object with its complete members. key is the key of the member being
    // parsed (for an object).
    struct Frame
    {
        QJsonObject object;
        QJsonArray array;
        QString key;
        bool isObject = false;
    };

    const char *scanStructure(const char *p, const char *end);
    const char *scanString(const char *p, const char *end);
    const char *scanEscape(const char *p, const char *end);
    const char *scanNumber(const char *p, const char *end);
    const char *scanLiteral(const char *p, const char *end);
    void startString(bool isKey);
    void finishString();
    void appendUnit(char16_t unit);
    void flushLoneSurrogate();
    void openContainer(bool isObject, const char *at);
    void closeContainer();
    void commit(const QJsonValue &value);
    void fail(const char *at, Error error = Error::Syntax);
    void failAt(qsizetype offset, Error error);
    QJsonValue numberValue(bool *ok) const;

    std::vector<Frame> m_stack;
    QJsonValue m_root{QJsonValue::Undefined};
    QByteArray m_token;    // UTF-8 of the string being read, or the number's text
    QString m_tokenPrefix; // string text before a lone surrogate (rare; UTF-8 cannot hold it)
    const char *m_literal = nullptr;
    int m_literalPos = 0;
    State m_state = State::Value;
    bool m_stringIsKey = false;
    bool m_stringIsAscii = false; // the string so far is ASCII (no prefix)
    bool m_numberComplete = false;
    quint8 m_escape = 0; // 0 none, 1 after '\', 2..5 reading the hex digits of \u
    char16_t m_unit = 0; // \uXXXX being read
    char16_t m_highSurrogate = 0;
    quint8 m_utf8Need = 0;   // continuation bytes still expected
    quint8 m_utf8Low = 0x80; // allowed range of the next continuation byte
    quint8 m_utf8High = 0xBF;
    // Where the bytes of the append() in progress start, and what came before them: the
    // offsets and excerpt of an error.
    const char *m_chunk = nullptr;
    const char *m_chunkEnd = nullptr;
    qsizetype m_consumed = 0;
    QByteArray m_recent; // the last excerptContext bytes of earlier appends
    qsizetype m_numberOffset = 0;
    Error m_error = Error::None;
    qsizetype m_errorOffset = -1;
    int m_depthLimit = maxDepth;
    QByteArray m_errorExcerpt;
    mutable QJsonValue m_snapshot{QJsonValue::Undefined};
    mutable bool m_snapshotValid = true; // the default m_snapshot (undefined) is right at first
};

} // namespace AgentCore
