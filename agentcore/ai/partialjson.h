#pragma once

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
class PartialJsonParser final
{
public:
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
    void openContainer(bool isObject);
    void closeContainer();
    void commit(const QJsonValue &value);
    void fail();
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
    mutable QJsonValue m_snapshot{QJsonValue::Undefined};
    mutable bool m_snapshotValid = true; // the default m_snapshot (undefined) is right at first
};

} // namespace AgentCore
