#pragma once

#include <QByteArrayView>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <algorithm>
#include <vector>

namespace AgentCore {

/// A strict JSON reader for one UTF-8 document at a time (an SSE data payload), made for the
/// streaming hot path: parse() checks the whole document in one pass and indexes it into a flat
/// list of nodes that is reused by the next parse(), so reading a payload allocates nothing once
/// warmed up; strings are decoded only when asked for, numbers only when read.
///
/// It accepts exactly the documents QJsonDocument::fromJson accepts (an object or an array at
/// the top, at most 1024 levels deep, strict UTF-8; Qt's leniencies included: raw control
/// characters in strings, "\x" escapes of any other byte x, numbers such as "1." or ".5"), and
/// the values read equal QJsonDocument's: a duplicate key yields its last value, \uXXXX escapes
/// (lone surrogates too) are kept as UTF-16 code units, an integral number is an integer.
///
/// Values view the parsed bytes: the bytes must outlive them, and parse() invalidates every
/// Value of the previous document. Not thread-safe; never throws.
class JsonReader final
{
public:
    /// The deepest nesting of arrays and objects any JSON AgentDesk reads may have:
    /// QJsonDocument's limit (qjsonparser.cpp), here so that every reader of JSON (the
    /// providers' streams, PartialJsonParser, MCP messages) has the same one.
    static constexpr int maxNesting = 1024;

    enum class Type : quint8 { Undefined, Null, Bool, Number, String, Array, Object };

    class Value;
    class Iterator;
    class Children;

    /// Parses \a json; false when QJsonDocument::fromJson would report an error.
    bool parse(QByteArrayView json);
    /// The top-level array or object of the last successful parse(); undefined otherwise.
    Value root() const;

private:
    enum Flag : quint8 {
        Escaped = 1,      ///< a string with backslash escapes: decode before use
        Key = 2,          ///< a string that is a member name; the member's value is the next node
        True = 4,         ///< a Bool that is true
        PlainInteger = 8, ///< a Number of at most maxPlainDigits digits, no fraction or exponent
        NonAscii = 16,    ///< a String with UTF-8 sequences
    };
    enum class NumberKind : quint8 { Invalid, Integer, Double };
    static constexpr int maxPlainDigits = 18; // fits qint64 whatever the digits

    // A document is a flat list of nodes in document order; a container's members follow it
    // (objects: key node, value node, ...). For a value node, end is the index after its last
    // descendant: the next sibling of value node i is node i.end. An object's begin is the
    // index of its last key, and a key's end the index of the key before it (0: none; node 0 is
    // the root, never a key), so a lookup walks the keys backwards and stops at the first match,
    // which is the last one as QJsonDocument keeps it.
    struct Node
    {
        quint32 begin; ///< String: first byte after the quote; Number: first character
        quint32 size;  ///< String/Number: bytes; Array: elements; Object: members
        quint32 end;
        Type type;
        quint8 flags;
    };

    const char *parseString(const char *p, const char *end, quint8 flags);
    const char *parseStringTail(const char *begin, const char *p, const char *end, quint8 flags);
    const char *parseNumber(const char *p, const char *end);
    const char *parseLiteral(const char *p, const char *end);
    static NumberKind convertNumber(QByteArrayView text, qint64 *integer, double *number);
    Node &appendNode(quint32 begin, quint32 size, Type type, quint8 flags)
    {
        if (m_count == m_nodes.size())
            m_nodes.resize(std::max<size_t>(64, m_nodes.size() * 2));
        Node &node = m_nodes[m_count];
        node = {begin, size, quint32(m_count + 1), type, flags};
        ++m_count;
        return node;
    }

    std::vector<Node> m_nodes; ///< the first m_count are this document's; never shrinks
    size_t m_count = 0;
    std::vector<quint32> m_open; ///< indexes of the open containers (maxNesting of them)
    const char *m_data = nullptr;
    bool m_valid = false;
};

/// A cheap handle on one value of a JsonReader document (undefined when it refers to nothing).
/// Accessors mirror QJsonValue's: a wrong type yields the fallback, never an error.
class JsonReader::Value
{
public:
    Value() = default;

    Type type() const { return m_reader ? node().type : Type::Undefined; }
    bool isUndefined() const { return !m_reader; }
    bool isNull() const { return type() == Type::Null; }
    bool isBool() const { return type() == Type::Bool; }
    bool isNumber() const { return type() == Type::Number; }
    bool isString() const { return type() == Type::String; }
    bool isArray() const { return type() == Type::Array; }
    bool isObject() const { return type() == Type::Object; }

    /// Object member \a key (UTF-8; the last one when repeated); undefined when absent or when
    /// this is not an object.
    Value value(QByteArrayView key) const;
    Value operator[](QByteArrayView key) const { return value(key); }
    /// Number of elements of an array or members of an object; 0 for anything else.
    qsizetype size() const;
    /// The elements of an array in order; nothing when this is not an array.
    Children elements() const;
    /// The member values of an object in document order (key() gives their keys); nothing when
    /// this is not an object.
    Children members() const;
    /// For a member value reached through members(): its key; undefined otherwise.
    Value key() const;

    /// The string (decoding escapes), or \a fallback when this is not a string.
    QString toString(const QString &fallback = {}) const;
    /// True when this is a string equal to \a utf8.
    bool equals(QByteArrayView utf8) const;
    /// True when this is a string of no characters.
    bool isEmptyString() const { return isString() && node().size == 0; }

    bool toBool(bool fallback = false) const;
    /// The number if it is an integer that fits, else \a fallback (as QJsonValue::toInt).
    int toInt(int fallback = 0) const;
    /// The number if it is an integer, else \a fallback (as QJsonValue::toInteger).
    qint64 toInteger(qint64 fallback = 0) const;
    double toDouble(double fallback = 0) const;

    /// This value as QJsonValue (Undefined when undefined): for rare paths; it allocates.
    QJsonValue toJsonValue() const;
    QJsonObject toJsonObject() const; ///< {} when this is not an object
    QJsonArray toJsonArray() const;   ///< [] when this is not an array

private:
    friend class JsonReader;
    friend class Iterator;
    Value(const JsonReader *reader, quint32 index)
        : m_reader(reader)
        , m_index(index)
    {}
    const Node &node() const { return m_reader->m_nodes[m_index]; }
    QByteArrayView raw() const { return {m_reader->m_data + node().begin, node().size}; }
    NumberKind readNumber(qint64 *integer, double *number) const;
    Value escapedKeyLookup(QByteArrayView key) const;

    const JsonReader *m_reader = nullptr;
    quint32 m_index = 0;
};

/// Forward iterator over Value::elements() and Value::members().
class JsonReader::Iterator
{
public:
    Value operator*() const { return {m_reader, m_index}; }
    Iterator &operator++()
    {
        m_index = m_reader->m_nodes[m_index].end + m_stride;
        return *this;
    }
    bool operator!=(const Iterator &other) const { return m_index != other.m_index; }

private:
    friend class Value;
    Iterator(const JsonReader *reader, quint32 index, quint32 stride)
        : m_reader(reader)
        , m_index(index)
        , m_stride(stride)
    {}
    const JsonReader *m_reader = nullptr;
    quint32 m_index = 0;
    quint32 m_stride = 0; ///< 1 in objects: the key node before each value
};

/// The range Value::elements() and Value::members() return.
class JsonReader::Children
{
public:
    Iterator begin() const { return m_begin; }
    Iterator end() const { return m_end; }

private:
    friend class Value;
    Children(Iterator begin, Iterator end)
        : m_begin(begin)
        , m_end(end)
    {}
    Iterator m_begin;
    Iterator m_end;
};

inline JsonReader::Value JsonReader::root() const
{
    return m_valid ? Value(this, 0) : Value();
}

} // namespace AgentCore
