#include "partialjson.h"

#include <algorithm>
#include <cmath>

namespace AgentCore {

namespace {

enum class NumberStatus { Complete, Prefix, Invalid };

bool isAsciiDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isWhitespace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

bool isNumberChar(char c)
{
    return isAsciiDigit(c) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, or a prefix that can still become one.
// For Invalid, \a bad is the index of the first character no number can have there (the same
// wherever the text was cut into appends).
NumberStatus numberStatus(QByteArrayView text, qsizetype *bad)
{
    const qsizetype n = text.size();
    qsizetype i = 0;
    const auto digits = [&] {
        while (i < n && isAsciiDigit(text[i]))
            ++i;
    };
    const auto invalid = [&] {
        *bad = i;
        return NumberStatus::Invalid;
    };
    if (i < n && text[i] == '-')
        ++i;
    if (i == n)
        return NumberStatus::Prefix;
    if (text[i] == '0')
        ++i;
    else if (isAsciiDigit(text[i]))
        digits();
    else
        return invalid();
    if (i < n && text[i] == '.') {
        if (++i == n)
            return NumberStatus::Prefix;
        if (!isAsciiDigit(text[i]))
            return invalid();
        digits();
    }
    if (i < n && (text[i] == 'e' || text[i] == 'E')) {
        if (++i == n)
            return NumberStatus::Prefix;
        if (text[i] == '+' || text[i] == '-') {
            if (++i == n)
                return NumberStatus::Prefix;
        }
        if (!isAsciiDigit(text[i]))
            return invalid();
        digits();
    }
    return i == n ? NumberStatus::Complete : invalid();
}

int hexDigitValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// Sets up the continuation bytes a UTF-8 lead byte needs; false for bytes that cannot lead
// (continuations, overlong C0/C1, F5..FF). The ranges exclude overlongs, surrogates and
// code points above U+10FFFF, as the Unicode standard's table 3-7 does.
bool startUtf8Sequence(uchar lead, quint8 &need, quint8 &low, quint8 &high)
{
    low = 0x80;
    high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
        need = 1;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        need = 2;
        if (lead == 0xE0)
            low = 0xA0;
        else if (lead == 0xED)
            high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        need = 3;
        if (lead == 0xF0)
            low = 0x90;
        else if (lead == 0xF4)
            high = 0x8F;
    } else {
        return false;
    }
    return true;
}

void appendUtf8(QByteArray &out, char32_t cp)
{
    if (cp < 0x80) {
        out.append(char(cp));
    } else if (cp < 0x800) {
        const char bytes[] = {char(0xC0 | (cp >> 6)), char(0x80 | (cp & 0x3F))};
        out.append(bytes, 2);
    } else if (cp < 0x10000) {
        const char bytes[] = {char(0xE0 | (cp >> 12)),
                              char(0x80 | ((cp >> 6) & 0x3F)),
                              char(0x80 | (cp & 0x3F))};
        out.append(bytes, 3);
    } else {
        const char bytes[] = {char(0xF0 | (cp >> 18)),
                              char(0x80 | ((cp >> 12) & 0x3F)),
                              char(0x80 | ((cp >> 6) & 0x3F)),
                              char(0x80 | (cp & 0x3F))};
        out.append(bytes, 4);
    }
}

constexpr char trueText[] = "true";
constexpr char falseText[] = "false";
constexpr char nullText[] = "null";

} // namespace

void PartialJsonParser::append(QByteArrayView bytes)
{
    if (m_state == State::Invalid || bytes.isEmpty())
        return;
    const char *p = bytes.data();
    const char *const end = p + bytes.size();
    m_chunk = p;
    m_chunkEnd = end;
    while (p < end) {
        switch (m_state) {
        case State::String:
            p = scanString(p, end);
            break;
        case State::Number:
            p = scanNumber(p, end);
            break;
        case State::Literal:
            p = scanLiteral(p, end);
            break;
        case State::Invalid:
            p = end;
            break;
        default:
            p = scanStructure(p, end);
            break;
        }
    }
    m_consumed += bytes.size();
    // Only the excerpt of a later error needs earlier bytes, and only a few.
    if (bytes.size() >= excerptContext) {
        m_recent = bytes.last(excerptContext).toByteArray();
    } else {
        m_recent.append(bytes.data(), bytes.size());
        m_recent.remove(0, qMax<qsizetype>(0, m_recent.size() - excerptContext));
    }
    m_chunk = m_chunkEnd = nullptr;
}

void PartialJsonParser::reset()
{
    *this = PartialJsonParser(m_depthLimit);
}

QJsonValue PartialJsonParser::value() const
{
    if (m_snapshotValid)
        return m_snapshot;
    QJsonValue value = m_root;
    if (m_state == State::Number && m_numberComplete) {
        bool ok = false;
        const QJsonValue number = numberValue(&ok);
        if (ok)
            value = number;
    }
    // Closing the open containers from the innermost out copies each level once; the
    // complete members below it are shared, not copied.
    for (auto frame = m_stack.rbegin(); frame != m_stack.rend(); ++frame) {
        if (frame->isObject) {
            QJsonObject object = frame->object;
            if (!value.isUndefined())
                object.insert(frame->key, value);
            value = object;
        } else {
            QJsonArray array = frame->array;
            if (!value.isUndefined())
                array.append(value);
            value = array;
        }
    }
    m_snapshot = value;
    m_snapshotValid = true;
    return value;
}

QJsonObject PartialJsonParser::object() const
{
    return value().toObject();
}

bool PartialJsonParser::isComplete() const
{
    if (m_state == State::Done)
        return true;
    return m_state == State::Number && m_stack.empty() && m_numberComplete;
}

bool PartialJsonParser::isInvalid() const
{
    return m_state == State::Invalid;
}

QJsonValue PartialJsonParser::parse(QByteArrayView bytes)
{
    PartialJsonParser parser;
    parser.append(bytes);
    return parser.value();
}

const char *PartialJsonParser::scanStructure(const char *p, const char *end)
{
    while (p < end && isWhitespace(*p))
        ++p;
    if (p == end)
        return p;
    const char c = *p;
    switch (m_state) {
    case State::FirstValueOrEnd:
        if (c == ']') {
            closeContainer();
            return p + 1;
        }
        [[fallthrough]];
    case State::Value:
        if (c == '{' || c == '[') {
            openContainer(c == '{', p);
            return p + 1;
        }
        if (c == '"') {
            startString(false);
            return p + 1;
        }
        if (c == '-' || isAsciiDigit(c)) {
            m_numberOffset = m_consumed + (p - m_chunk);
            m_token.resize(0);
            m_numberComplete = false;
            m_state = State::Number;
            return p;
        }
        m_literal = c == 't' ? trueText : c == 'f' ? falseText : c == 'n' ? nullText : nullptr;
        if (!m_literal)
            break;
        m_literalPos = 0;
        m_state = State::Literal;
        return p;
    case State::FirstKeyOrEnd:
        if (c == '}') {
            closeContainer();
            return p + 1;
        }
        [[fallthrough]];
    case State::Key:
        if (c != '"')
            break;
        startString(true);
        return p + 1;
    case State::Colon:
        if (c != ':')
            break;
        m_state = State::Value;
        return p + 1;
    case State::CommaOrEnd: {
        const bool inObject = m_stack.back().isObject;
        if (c == ',') {
            m_state = inObject ? State::Key : State::Value;
            return p + 1;
        }
        if (c != (inObject ? '}' : ']'))
            break;
        closeContainer();
        return p + 1;
    }
    default: // Done: nothing but whitespace may follow
        break;
    }
    fail(p);
    return end;
}

void PartialJsonParser::startString(bool isKey)
{
    m_token.resize(0);
    m_tokenPrefix.clear();
    m_stringIsKey = isKey;
    m_stringIsAscii = true;
    m_escape = 0;
    m_highSurrogate = 0;
    m_utf8Need = 0;
    m_state = State::String;
}

const char *PartialJsonParser::scanString(const char *p, const char *end)
{
    while (p < end) {
        if (m_escape != 0) {
            p = scanEscape(p, end);
            if (m_state == State::Invalid)
                return end;
            continue;
        }
        // The hot loop: a run of plain bytes, validated as UTF-8 on the way. The decoder
        // state lives in locals because members would be reloaded after every char access.
        const char *const start = p;
        quint8 need = m_utf8Need;
        quint8 low = m_utf8Low;
        quint8 high = m_utf8High;
        bool badUtf8 = false;
        bool ascii = m_stringIsAscii;
        while (p < end) {
            const uchar c = uchar(*p);
            if (need != 0) {
                if (c < low || c > high) {
                    badUtf8 = true;
                    break;
                }
                low = 0x80;
                high = 0xBF;
                --need;
            } else if (c == '"' || c == '\\') {
                break;
            } else if (c >= 0x80) {
                ascii = false;
                if (!startUtf8Sequence(c, need, low, high)) {
                    badUtf8 = true;
                    break;
                }
            }
            ++p;
        }
        m_stringIsAscii = ascii;
        m_utf8Need = need;
        m_utf8Low = low;
        m_utf8High = high;
        if (badUtf8) {
            fail(p);
            return end;
        }
        if (p != start) {
            if (m_highSurrogate != 0)
                flushLoneSurrogate();
            m_token.append(start, p - start);
        }
        if (p == end)
            return p;
        if (*p == '\\') {
            m_escape = 1;
            ++p;
            continue;
        }
        finishString();
        return p + 1;
    }
    return p;
}

const char *PartialJsonParser::scanEscape(const char *p, const char *end)
{
    while (p < end && m_escape >= 2) {
        const int digit = hexDigitValue(*p++);
        if (digit < 0) {
            fail(p - 1);
            return end;
        }
        m_unit = char16_t(m_unit * 16 + digit);
        if (++m_escape == 6) {
            m_escape = 0;
            appendUnit(m_unit);
            return p;
        }
    }
    if (p == end || m_escape != 1)
        return p;
    const char c = *p++;
    char decoded = 0;
    switch (c) {
    case '"':
    case '\\':
    case '/':
        decoded = c;
        break;
    case 'b':
        decoded = '\b';
        break;
    case 'f':
        decoded = '\f';
        break;
    case 'n':
        decoded = '\n';
        break;
    case 'r':
        decoded = '\r';
        break;
    case 't':
        decoded = '\t';
        break;
    case 'u':
        m_escape = 2;
        m_unit = 0;
        return scanEscape(p, end);
    default:
        fail(p - 1);
        return end;
    }
    m_escape = 0;
    if (m_highSurrogate != 0)
        flushLoneSurrogate();
    m_token.append(decoded);
    return p;
}

void PartialJsonParser::appendUnit(char16_t unit)
{
    const bool isHigh = unit >= 0xD800 && unit <= 0xDBFF;
    const bool isLow = unit >= 0xDC00 && unit <= 0xDFFF;
    if (m_highSurrogate != 0) {
        if (isLow) {
            const char32_t cp = 0x10000 + ((char32_t(m_highSurrogate) - 0xD800) << 10)
                                + (char32_t(unit) - 0xDC00);
            m_highSurrogate = 0;
            m_stringIsAscii = false;
            appendUtf8(m_token, cp);
            return;
        }
        flushLoneSurrogate();
    }
    if (isHigh) {
        m_highSurrogate = unit; // its low half may be in the next append
        return;
    }
    if (isLow) {
        m_highSurrogate = unit;
        flushLoneSurrogate();
        return;
    }
    m_stringIsAscii = m_stringIsAscii && unit < 0x80;
    appendUtf8(m_token, unit);
}

// QJsonDocument keeps a lone surrogate as it is; UTF-8 cannot carry one, so the text so far
// moves to the QString prefix.
void PartialJsonParser::flushLoneSurrogate()
{
    m_tokenPrefix += QString::fromUtf8(m_token);
    m_tokenPrefix += QChar(m_highSurrogate);
    m_token.resize(0);
    m_highSurrogate = 0;
    m_stringIsAscii = false;
}

void PartialJsonParser::finishString()
{
    if (m_highSurrogate != 0)
        flushLoneSurrogate();
    if (m_stringIsAscii && !m_stringIsKey) {
        // Skips a UTF-16 copy of what is often a whole file's content.
        commit(QJsonValue(QLatin1StringView(m_token)));
        return;
    }
    QString text = m_stringIsAscii ? QString::fromLatin1(m_token) : QString::fromUtf8(m_token);
    if (!m_tokenPrefix.isEmpty()) {
        text.prepend(m_tokenPrefix);
        m_tokenPrefix.clear();
    }
    if (m_stringIsKey) {
        m_stack.back().key = std::move(text);
        m_state = State::Colon;
    } else {
        commit(QJsonValue(text));
    }
}

const char *PartialJsonParser::scanNumber(const char *p, const char *end)
{
    const char *const start = p;
    while (p < end && isNumberChar(*p))
        ++p;
    if (p != start) {
        m_token.append(start, p - start);
        m_snapshotValid = false;
    }
    qsizetype bad = 0;
    const NumberStatus status = numberStatus(m_token, &bad);
    m_numberComplete = status == NumberStatus::Complete;
    if (status == NumberStatus::Invalid) {
        failAt(m_numberOffset + bad, Error::Syntax);
        return end;
    }
    if (p < end && !m_numberComplete) {
        fail(p);
        return end;
    }
    if (p == end)
        return p; // more digits may follow
    bool ok = false;
    const QJsonValue number = numberValue(&ok);
    if (!ok) {
        // Out of range: the number as a whole is wrong, so point at its start.
        failAt(m_numberOffset, Error::Syntax);
        return end;
    }
    commit(number);
    return p;
}

// Like QJsonDocument: a number with an integral value that fits qint64 becomes an integer
// ("2.0" and "1e3" too), anything else a double; a number out of double range is an error.
QJsonValue PartialJsonParser::numberValue(bool *ok) const
{
    const qint64 integer = m_token.toLongLong(ok);
    if (*ok)
        return QJsonValue(integer);
    const double number = m_token.toDouble(ok);
    *ok = *ok && std::isfinite(number);
    constexpr double twoTo63 = 9223372036854775808.0;
    if (*ok && number >= -twoTo63 && number < twoTo63 && std::trunc(number) == number)
        return QJsonValue(qint64(number));
    return QJsonValue(number);
}

const char *PartialJsonParser::scanLiteral(const char *p, const char *end)
{
    while (p < end && m_literal[m_literalPos] != '\0') {
        if (*p != m_literal[m_literalPos]) {
            fail(p);
            return end;
        }
        ++p;
        ++m_literalPos;
    }
    if (m_literal[m_literalPos] != '\0')
        return p;
    commit(m_literal == nullText   ? QJsonValue(QJsonValue::Null)
           : m_literal == trueText ? QJsonValue(true)
                                   : QJsonValue(false));
    return p;
}

void PartialJsonParser::openContainer(bool isObject, const char *at)
{
    if (m_stack.size() >= size_t(m_depthLimit)) {
        fail(at, Error::TooDeep);
        return;
    }
    Frame frame;
    frame.isObject = isObject;
    m_stack.push_back(std::move(frame));
    m_state = isObject ? State::FirstKeyOrEnd : State::FirstValueOrEnd;
    m_snapshotValid = false;
}

void PartialJsonParser::closeContainer()
{
    const Frame frame = std::move(m_stack.back());
    m_stack.pop_back();
    if (frame.isObject)
        commit(QJsonValue(frame.object));
    else
        commit(QJsonValue(frame.array));
}

void PartialJsonParser::commit(const QJsonValue &value)
{
    m_snapshotValid = false;
    if (m_stack.empty()) {
        m_root = value;
        m_state = State::Done;
        return;
    }
    Frame &frame = m_stack.back();
    if (frame.isObject)
        frame.object.insert(frame.key, value);
    else
        frame.array.append(value);
    m_state = State::CommaOrEnd;
}

// The stack stays as it was before the offending byte, so value() keeps what was known.
// \a at points into the append() in progress.
void PartialJsonParser::fail(const char *at, Error error)
{
    failAt(m_consumed + (at - m_chunk), error);
}

// \a offset counts all the input; it may lie before the append() in progress (a number that
// began earlier).
void PartialJsonParser::failAt(qsizetype offset, Error error)
{
    m_state = State::Invalid;
    m_snapshotValid = false;
    m_error = error;
    m_errorOffset = offset;
    const qsizetype inChunk = offset - m_consumed;
    // The excerpt: context before the byte (from earlier appends when needed), the byte and
    // what follows it in this append.
    const qsizetype chunkSize = m_chunkEnd - m_chunk;
    const qsizetype beforeInChunk = std::clamp<qsizetype>(inChunk, 0, chunkSize);
    QByteArray excerpt;
    if (beforeInChunk < excerptContext) {
        const qsizetype fromRecent = qMin(m_recent.size(), excerptContext - beforeInChunk);
        excerpt = m_recent.right(fromRecent);
    }
    const qsizetype start = qMax<qsizetype>(0, beforeInChunk - excerptContext);
    const qsizetype stop = qMin<qsizetype>(chunkSize, beforeInChunk + excerptContext + 1);
    excerpt.append(m_chunk + start, stop - start);
    m_errorExcerpt = excerpt;
}

} // namespace AgentCore
