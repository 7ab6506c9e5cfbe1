#include "jsonreader.h"

#include <QtEndian>

#ifdef __SSE2__
#    include <emmintrin.h>
#endif

#include <bit>
#include <cstring>
#include <limits>

namespace AgentCore {

namespace {

constexpr qsizetype nestingLimit = JsonReader::maxNesting;

constexpr quint64 repeated(quint8 byte)
{
    return 0x0101010101010101ULL * byte;
}

// Bit 7 of each byte of the result is set where \a word has \a byte; the lowest set bit is exact
// (borrows only propagate upwards), which is all a scan for the first match needs.
inline quint64 bytesEqual(quint64 word, quint8 byte)
{
    const quint64 x = word ^ repeated(byte);
    return (x - repeated(0x01)) & ~x & repeated(0x80);
}

inline bool isSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

inline const char *skipSpace(const char *p, const char *end)
{
    // Payloads are mostly compact: one test decides that there is nothing to skip.
    while (p < end && uchar(*p) <= ' ' && isSpace(*p))
        ++p;
    return p;
}

template<typename Word>
inline Word load(const char *p)
{
    Word word;
    std::memcpy(&word, p, sizeof(Word));
    return word;
}

// Keys and type names are short: word compares beat a call to memcmp. Every load stays inside
// [a, a + size) and [b, b + size); the last word may overlap the one before it.
inline bool sameBytes(const char *a, const char *b, quint32 size)
{
    if (size >= 8) {
        for (quint32 i = 0; i + 8 < size; i += 8) {
            if (load<quint64>(a + i) != load<quint64>(b + i))
                return false;
        }
        return load<quint64>(a + size - 8) == load<quint64>(b + size - 8);
    }
    if (size >= 4)
        return load<quint32>(a) == load<quint32>(b)
               && load<quint32>(a + size - 4) == load<quint32>(b + size - 4);
    for (quint32 i = 0; i < size; ++i) {
        if (a[i] != b[i])
            return false;
    }
    return true;
}

inline bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

inline bool isContinuation(uchar c)
{
    return (c & 0xC0) == 0x80;
}

// One strictly valid UTF-8 sequence starting at \a p (lead byte >= 0x80), as Qt's UTF-8 decoder
// checks it: no overlong forms, no surrogates, nothing above U+10FFFF. Returns its end or null.
const char *skipUtf8(const char *p, const char *end)
{
    const auto *s = reinterpret_cast<const uchar *>(p);
    const qsizetype available = end - p;
    const uchar lead = s[0];
    if (lead < 0xC2 || lead > 0xF4)
        return nullptr;
    if (lead < 0xE0)
        return available >= 2 && isContinuation(s[1]) ? p + 2 : nullptr;
    if (lead < 0xF0) {
        if (available < 3 || !isContinuation(s[1]) || !isContinuation(s[2]))
            return nullptr;
        if ((lead == 0xE0 && s[1] < 0xA0) || (lead == 0xED && s[1] >= 0xA0))
            return nullptr; // overlong, or a surrogate
        return p + 3;
    }
    if (available < 4 || !isContinuation(s[1]) || !isContinuation(s[2]) || !isContinuation(s[3]))
        return nullptr;
    if ((lead == 0xF0 && s[1] < 0x90) || (lead == 0xF4 && s[1] >= 0x90))
        return nullptr; // overlong, or above U+10FFFF
    return p + 4;
}

#ifdef __SSE2__
// Bit i is set where byte i of the 16 at \a p is a quote, a backslash or non-ASCII.
inline unsigned stopMask(const char *p)
{
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
    const __m128i stops = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('"')),
                                                    _mm_cmpeq_epi8(bytes, _mm_set1_epi8('\\'))),
                                       bytes); // bit 7: non-ASCII
    return unsigned(_mm_movemask_epi8(stops));
}
#endif

// The first quote, backslash or non-ASCII byte in [p, end) (or end). \a buffer is where the
// document starts: the last, partial block is read as the 16 bytes before end where it can be.
inline const char *findStringStop(const char *p, const char *end, const char *buffer)
{
#ifdef __SSE2__
    while (end - p >= 16) {
        if (const unsigned mask = stopMask(p))
            return p + std::countr_zero(mask);
        p += 16;
    }
    if (p < end && end - buffer >= 16) {
        const int skipped = 16 - int(end - p); // bytes before p in the block
        const unsigned mask = stopMask(end - 16) >> skipped;
        return mask ? p + std::countr_zero(mask) : end;
    }
#else
    Q_UNUSED(buffer);
#endif
    while (end - p >= 8) {
        quint64 word;
        std::memcpy(&word, p, 8);
        word = qFromLittleEndian(word);
        const quint64 stop = bytesEqual(word, '"') | bytesEqual(word, '\\')
                             | (word & repeated(0x80));
        if (stop)
            return p + std::countr_zero(stop) / 8;
        p += 8;
    }
    while (p < end && *p != '"' && *p != '\\' && uchar(*p) < 0x80)
        ++p;
    return p;
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// The UTF-16 of a string's bytes that parse() accepted (escapes included), as Qt decodes it.
QString decodeEscaped(QByteArrayView bytes)
{
    QString result(bytes.size(), Qt::Uninitialized); // never more units than bytes
    char16_t *out = reinterpret_cast<char16_t *>(result.data());
    char16_t *const start = out;
    const auto *s = reinterpret_cast<const uchar *>(bytes.data());
    const auto *const end = s + bytes.size();
    while (s < end) {
        const uchar c = *s;
        if (c == '\\') {
            const uchar escaped = s[1];
            s += 2;
            switch (escaped) {
            case 'b':
                *out++ = 0x08;
                break;
            case 'f':
                *out++ = 0x0C;
                break;
            case 'n':
                *out++ = 0x0A;
                break;
            case 'r':
                *out++ = 0x0D;
                break;
            case 't':
                *out++ = 0x09;
                break;
            case 'u': {
                char16_t unit = 0;
                for (int i = 0; i < 4; ++i)
                    unit = char16_t((unit << 4) | hexValue(char(s[i])));
                s += 4;
                *out++ = unit;
                break;
            }
            default: // '"', '\\', '/', and Qt's leniency: any other byte stands for itself
                *out++ = escaped;
                break;
            }
        } else if (c < 0x80) {
            *out++ = c;
            ++s;
        } else if (c < 0xE0) {
            *out++ = char16_t(((c & 0x1F) << 6) | (s[1] & 0x3F));
            s += 2;
        } else if (c < 0xF0) {
            *out++ = char16_t(((c & 0x0F) << 12) | ((s[1] & 0x3F) << 6) | (s[2] & 0x3F));
            s += 3;
        } else {
            const char32_t ucs4 = ((c & 0x07) << 18) | ((s[1] & 0x3F) << 12) | ((s[2] & 0x3F) << 6)
                                  | (s[3] & 0x3F);
            *out++ = QChar::highSurrogate(ucs4);
            *out++ = QChar::lowSurrogate(ucs4);
            s += 4;
        }
    }
    result.truncate(out - start);
    return result;
}

// QJsonDocument stores a double that holds an integer exactly as that integer.
bool integralDouble(double d, qint64 *integer)
{
    if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
        return false;
    *integer = qint64(d);
    return double(*integer) == d;
}

} // namespace

// Number text that is not a plain integer: QJsonDocument's own conversions decide. (Text with a
// fraction or an exponent never converts as an integer, so Qt's isInt shortcut changes nothing.)
JsonReader::NumberKind JsonReader::convertNumber(QByteArrayView text,
                                                 qint64 *integer,
                                                 double *number)
{
    const QByteArray bytes = QByteArray::fromRawData(text.data(), text.size());
    bool ok = false;
    *integer = bytes.toLongLong(&ok);
    if (ok)
        return NumberKind::Integer;
    *number = bytes.toDouble(&ok);
    if (!ok)
        return NumberKind::Invalid;
    return integralDouble(*number, integer) ? NumberKind::Integer : NumberKind::Double;
}

// Plain strings (no escapes, ASCII) take the inline path; the rest continues out of line.
inline const char *JsonReader::parseString(const char *p, const char *end, quint8 flags)
{
    const char *const stop = findStringStop(p, end, m_data);
    if (stop < end && *stop == '"') [[likely]] {
        appendNode(quint32(p - m_data), quint32(stop - p), Type::String, flags);
        return stop + 1;
    }
    return parseStringTail(p, stop, end, flags);
}

bool JsonReader::parse(QByteArrayView json)
{
    m_count = 0;
    m_valid = false;
    m_data = json.data();
    if (json.size() >= qsizetype(std::numeric_limits<quint32>::max()))
        return false;
    const char *p = json.data();
    const char *const end = p + json.size();
    if (end - p > 3 && uchar(p[0]) == 0xEF && uchar(p[1]) == 0xBB && uchar(p[2]) == 0xBF)
        p += 3;
    p = skipSpace(p, end);
    if (p == end || (*p != '{' && *p != '['))
        return false;
    if (m_open.empty())
        m_open.resize(nestingLimit);
    quint32 *const open = m_open.data();
    qsizetype depth = 0;
    bool inObject = *p == '{';
    bool first = true;
    open[depth++] = quint32(m_count);
    appendNode(0, 0, inObject ? Type::Object : Type::Array, 0);
    ++p;
    while (depth > 0) {
        p = skipSpace(p, end);
        if (p == end)
            return false;
        const char closer = inObject ? '}' : ']';
        if (*p == closer) {
            m_nodes[open[--depth]].end = quint32(m_count);
            if (depth > 0)
                inObject = m_nodes[open[depth - 1]].type == Type::Object;
            first = false;
            ++p;
            continue;
        }
        if (!first) {
            if (*p != ',')
                return false;
            p = skipSpace(p + 1, end);
            if (p == end || *p == closer)
                return false;
        }
        first = false;
        Node &container = m_nodes[open[depth - 1]];
        ++container.size;
        if (inObject) {
            if (*p != '"')
                return false;
            const quint32 previousKey = container.begin;
            container.begin = quint32(m_count); // container is invalid after the next append
            p = parseString(p + 1, end, Key);
            if (!p)
                return false;
            m_nodes[m_count - 1].end = previousKey;
            p = skipSpace(p, end);
            if (p == end || *p != ':')
                return false;
            p = skipSpace(p + 1, end);
            if (p == end)
                return false;
        }
        switch (*p) {
        case '{':
        case '[':
            if (depth == nestingLimit)
                return false;
            inObject = *p == '{';
            open[depth++] = quint32(m_count);
            appendNode(0, 0, inObject ? Type::Object : Type::Array, 0);
            first = true;
            ++p;
            continue;
        case '"':
            p = parseString(p + 1, end, 0);
            break;
        case 't':
        case 'f':
        case 'n':
            p = parseLiteral(p, end);
            break;
        default:
            p = parseNumber(p, end);
            break;
        }
        if (!p)
            return false;
    }
    p = skipSpace(p, end);
    m_valid = p == end;
    return m_valid;
}

const char *JsonReader::parseStringTail(const char *begin,
                                        const char *p,
                                        const char *end,
                                        quint8 flags)
{
    for (;;) {
        if (p == end)
            return nullptr;
        const uchar c = uchar(*p);
        if (c == '"')
            break;
        if (c == '\\') {
            flags |= Escaped;
            if (end - p < 2)
                return nullptr;
            if (p[1] == 'u') {
                if (end - p < 6)
                    return nullptr;
                for (int i = 2; i < 6; ++i) {
                    if (hexValue(p[i]) < 0)
                        return nullptr;
                }
                p += 6;
            } else {
                p += 2;
            }
        } else {
            flags |= NonAscii;
            p = skipUtf8(p, end);
            if (!p)
                return nullptr;
        }
        p = findStringStop(p, end, m_data);
    }
    appendNode(quint32(begin - m_data), quint32(p - begin), Type::String, flags);
    return p + 1;
}

const char *JsonReader::parseLiteral(const char *p, const char *end)
{
    const qsizetype available = end - p;
    if (p[0] == 't' && available >= 4 && p[1] == 'r' && p[2] == 'u' && p[3] == 'e') {
        appendNode(0, 0, Type::Bool, True);
        return p + 4;
    }
    if (p[0] == 'n' && available >= 4 && p[1] == 'u' && p[2] == 'l' && p[3] == 'l') {
        appendNode(0, 0, Type::Null, 0);
        return p + 4;
    }
    if (p[0] == 'f' && available >= 5 && p[1] == 'a' && p[2] == 'l' && p[3] == 's' && p[4] == 'e') {
        appendNode(0, 0, Type::Bool, 0);
        return p + 5;
    }
    return nullptr;
}

const char *JsonReader::parseNumber(const char *p, const char *end)
{
    // The characters QJsonDocument takes as a number; converting them decides if they are one.
    const char *const begin = p;
    if (p < end && *p == '-')
        ++p;
    const char *const digits = p;
    if (p < end && *p == '0') {
        ++p;
    } else {
        while (p < end && isDigit(*p))
            ++p;
    }
    const char *const digitsEnd = p;
    if (p < end && *p == '.') {
        ++p;
        while (p < end && isDigit(*p))
            ++p;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        ++p;
        if (p < end && (*p == '-' || *p == '+'))
            ++p;
        while (p < end && isDigit(*p))
            ++p;
    }
    if (p == end)
        return nullptr;
    quint8 flags = 0;
    if (p == digitsEnd && digitsEnd > digits && digitsEnd - digits <= maxPlainDigits) {
        flags = PlainInteger;
    } else {
        qint64 integer = 0;
        double number = 0;
        if (convertNumber({begin, p - begin}, &integer, &number) == NumberKind::Invalid)
            return nullptr;
    }
    appendNode(quint32(begin - m_data), quint32(p - begin), Type::Number, flags);
    return p;
}

JsonReader::Value JsonReader::Value::value(QByteArrayView key) const
{
    if (!isObject())
        return {};
    const Node *nodes = m_reader->m_nodes.data();
    const char *const data = m_reader->m_data;
    const quint32 size = quint32(key.size());
    for (quint32 i = node().begin; i != 0; i = nodes[i].end) {
        const Node &name = nodes[i];
        if (name.flags & Escaped) [[unlikely]]
            return escapedKeyLookup(key);
        if (name.size == size && sameBytes(data + name.begin, key.data(), size))
            return {m_reader, i + 1};
    }
    return {};
}

// Out of line, so the common loop above stays a leaf: the keys are compared decoded.
Q_NEVER_INLINE JsonReader::Value JsonReader::Value::escapedKeyLookup(QByteArrayView key) const
{
    const Node *nodes = m_reader->m_nodes.data();
    for (quint32 i = node().begin; i != 0; i = nodes[i].end) {
        if (Value(m_reader, i).equals(key))
            return {m_reader, i + 1};
    }
    return {};
}

qsizetype JsonReader::Value::size() const
{
    const Type t = type();
    return t == Type::Array || t == Type::Object ? qsizetype(node().size) : 0;
}

JsonReader::Children JsonReader::Value::elements() const
{
    if (!isArray())
        return {Iterator(nullptr, 0, 0), Iterator(nullptr, 0, 0)};
    return {Iterator(m_reader, m_index + 1, 0), Iterator(m_reader, node().end, 0)};
}

JsonReader::Children JsonReader::Value::members() const
{
    if (!isObject())
        return {Iterator(nullptr, 0, 0), Iterator(nullptr, 0, 0)};
    return {Iterator(m_reader, m_index + 2, 1), Iterator(m_reader, node().end + 1, 1)};
}

JsonReader::Value JsonReader::Value::key() const
{
    if (!m_reader || m_index == 0 || !(m_reader->m_nodes[m_index - 1].flags & Key))
        return {};
    return {m_reader, m_index - 1};
}

QString JsonReader::Value::toString(const QString &fallback) const
{
    if (!isString())
        return fallback;
    const quint8 flags = node().flags;
    if (flags & Escaped)
        return decodeEscaped(raw());
    if (flags & NonAscii)
        return QString::fromUtf8(raw());
    const QByteArrayView bytes = raw();
    return QString::fromLatin1(bytes.data(), bytes.size()); // the same for ASCII, and faster
}

bool JsonReader::Value::equals(QByteArrayView utf8) const
{
    if (!isString())
        return false;
    if (node().flags & Escaped)
        return decodeEscaped(raw()) == QString::fromUtf8(utf8);
    const QByteArrayView bytes = raw();
    return bytes.size() == utf8.size()
           && sameBytes(bytes.data(), utf8.data(), quint32(bytes.size()));
}

bool JsonReader::Value::toBool(bool fallback) const
{
    return isBool() ? (node().flags & True) != 0 : fallback;
}

JsonReader::NumberKind JsonReader::Value::readNumber(qint64 *integer, double *number) const
{
    if (!isNumber())
        return NumberKind::Invalid;
    const QByteArrayView text = raw();
    if (!(node().flags & PlainInteger))
        return convertNumber(text, integer, number);
    const char *p = text.data();
    const char *const end = p + text.size();
    const bool negative = *p == '-';
    qint64 value = 0;
    for (p += negative ? 1 : 0; p < end; ++p)
        value = value * 10 + (*p - '0');
    *integer = negative ? -value : value;
    return NumberKind::Integer;
}

int JsonReader::Value::toInt(int fallback) const
{
    qint64 integer = 0;
    double number = 0;
    if (readNumber(&integer, &number) != NumberKind::Integer
        || integer < std::numeric_limits<int>::min() || integer > std::numeric_limits<int>::max())
        return fallback;
    return int(integer);
}

qint64 JsonReader::Value::toInteger(qint64 fallback) const
{
    qint64 integer = 0;
    double number = 0;
    return readNumber(&integer, &number) == NumberKind::Integer ? integer : fallback;
}

double JsonReader::Value::toDouble(double fallback) const
{
    qint64 integer = 0;
    double number = 0;
    switch (readNumber(&integer, &number)) {
    case NumberKind::Integer:
        return double(integer);
    case NumberKind::Double:
        return number;
    case NumberKind::Invalid:
        break;
    }
    return fallback;
}

QJsonValue JsonReader::Value::toJsonValue() const
{
    switch (type()) {
    case Type::Undefined:
        return QJsonValue(QJsonValue::Undefined);
    case Type::Null:
        return QJsonValue(QJsonValue::Null);
    case Type::Bool:
        return QJsonValue(toBool());
    case Type::Number: {
        qint64 integer = 0;
        double number = 0;
        return readNumber(&integer, &number) == NumberKind::Integer ? QJsonValue(integer)
                                                                    : QJsonValue(number);
    }
    case Type::String:
        return QJsonValue(toString());
    case Type::Array:
        return toJsonArray();
    case Type::Object:
        return toJsonObject();
    }
    return {};
}

QJsonObject JsonReader::Value::toJsonObject() const
{
    QJsonObject object;
    for (const Value member : members())
        object.insert(member.key().toString(), member.toJsonValue()); // the last one wins
    return object;
}

QJsonArray JsonReader::Value::toJsonArray() const
{
    QJsonArray array;
    for (const Value element : elements())
        array.append(element.toJsonValue());
    return array;
}

} // namespace AgentCore
