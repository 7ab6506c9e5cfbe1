#include "protocolviolation.h"
#include "translation.h"

#include "partialjson.h"

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QStringView>

namespace AgentCore {

namespace {

constexpr qsizetype maxNameLength = 128;
constexpr qsizetype maxPrefixLength = 32;
constexpr qsizetype maxSpecialTokenLength = 48;
// How far a <tool_call> JSON object is read, in growing steps: most candidates fail within
// a few characters, and text read as valid JSON is not scanned again, keeping this linear.
constexpr qsizetype maxToolCallJson = 64 * 1024;
constexpr qsizetype firstJsonChunk = 32;
constexpr qsizetype maxJsonChunk = 4096;

// Substrings without which no pattern can match: most messages are rejected by these
// vectorized searches alone.
constexpr QStringView markers[] = {
    u"invoke",
    u"function_calls",
    u"tool_call",
    u"tool\u2581call", // DeepSeek's <｜tool▁call▁begin｜>
    u"<function=",
    u"[TOOL_CALLS]",
};

bool isNameChar(QChar c)
{
    return c.isLetterOrNumber() || c == u'_' || c == u'-' || c == u'.';
}

bool isBlank(QStringView line)
{
    for (const QChar c : line) {
        if (!c.isSpace())
            return false;
    }
    return true;
}

struct Finding
{
    qsizetype position = -1;
    QString what;
};

// A Markdown code fence line: indentation, then 3+ backticks or tildes.
struct FenceLine
{
    QChar marker;
    qsizetype length = 0;
    bool bare = false; // nothing but whitespace after the marker run (can close a fence)
};

FenceLine fenceLine(QStringView line)
{
    qsizetype i = 0;
    while (i < line.size() && (line[i] == u' ' || line[i] == u'\t' || line[i] == u'>'))
        ++i;
    if (i == line.size() || (line[i] != u'`' && line[i] != u'~'))
        return {};
    const QChar marker = line[i];
    qsizetype length = 0;
    while (i < line.size() && line[i] == marker) {
        ++i;
        ++length;
    }
    if (length < 3)
        return {};
    const QStringView rest = line.mid(i);
    if (marker == u'`' && rest.contains(u'`'))
        return {}; // an inline code span, not a fence (CommonMark)
    return {marker, length, isBlank(rest)};
}

class Scanner
{
public:
    explicit Scanner(QStringView text)
        : m_text(text)
    {}

    void run();

    Finding first;
    int count = 0;

private:
    void scanParagraph(qsizetype begin, qsizetype end);
    void scanText(qsizetype begin, qsizetype end);
    // Each returns the position after what it matched, or -1.
    qsizetype matchTag(qsizetype at);
    qsizetype matchInvokeOrFunctionCalls(qsizetype at);
    qsizetype matchToolCall(qsizetype at);
    qsizetype matchFunctionEquals(qsizetype at, qsizetype tagAt);
    qsizetype matchSpecialToken(qsizetype at);
    void found(qsizetype position, const QString &what);

    bool startsWithAt(qsizetype at, QStringView what) const
    {
        return m_text.mid(at).startsWith(what);
    }
    qsizetype skipSpaces(qsizetype at) const
    {
        while (at < m_text.size() && m_text[at].isSpace())
            ++at;
        return at;
    }
    qsizetype skipName(qsizetype at) const
    {
        const qsizetype limit = qMin(m_text.size(), at + maxNameLength);
        while (at < limit && isNameChar(m_text[at]))
            ++at;
        return at;
    }

    QStringView m_text;
};

void Scanner::run()
{
    FenceLine fence;
    qsizetype paragraph = -1;
    qsizetype lineStart = 0;
    const qsizetype size = m_text.size();
    while (lineStart <= size) {
        qsizetype lineEnd = m_text.indexOf(u'\n', lineStart);
        if (lineEnd < 0)
            lineEnd = size;
        const QStringView line = m_text.mid(lineStart, lineEnd - lineStart);
        const FenceLine here = fenceLine(line);
        if (fence.length > 0) {
            if (here.marker == fence.marker && here.length >= fence.length && here.bare)
                fence = {};
        } else if (here.length > 0) {
            if (paragraph >= 0)
                scanParagraph(paragraph, lineStart);
            paragraph = -1;
            fence = here;
        } else if (isBlank(line)) {
            if (paragraph >= 0)
                scanParagraph(paragraph, lineStart);
            paragraph = -1;
        } else if (paragraph < 0) {
            paragraph = lineStart;
        }
        lineStart = lineEnd + 1;
    }
    if (paragraph >= 0) // an unclosed fence hides the rest, so paragraph is -1 then
        scanParagraph(paragraph, size);
}

// Inline code spans (CommonMark): a run of n backticks up to the next run of exactly n.
// A run without a partner is literal text. Paragraph-local, so a stray backtick cannot hide
// the rest of the message.
void Scanner::scanParagraph(qsizetype begin, qsizetype end)
{
    struct Run
    {
        qsizetype position;
        qsizetype length;
    };
    QList<Run> runs;
    for (qsizetype i = begin; i < end; ++i) {
        if (m_text[i] != u'`')
            continue;
        qsizetype j = i;
        while (j < end && m_text[j] == u'`')
            ++j;
        const bool escaped = i > begin && m_text[i - 1] == u'\\';
        if (j - i > (escaped ? 1 : 0))
            runs.append({escaped ? i + 1 : i, escaped ? j - i - 1 : j - i});
        i = j - 1;
    }
    if (runs.isEmpty()) {
        scanText(begin, end);
        return;
    }
    // partner[k]: the next run of the same length, found right to left in one pass.
    QList<qsizetype> partner(runs.size(), -1);
    QHash<qsizetype, qsizetype> nextOfLength;
    for (qsizetype k = runs.size() - 1; k >= 0; --k) {
        partner[k] = nextOfLength.value(runs.at(k).length, -1);
        nextOfLength.insert(runs.at(k).length, k);
    }
    qsizetype cursor = begin;
    for (qsizetype k = 0; k < runs.size(); ++k) {
        if (partner.at(k) < 0)
            continue;
        scanText(cursor, runs.at(k).position);
        const Run &closer = runs.at(partner.at(k));
        cursor = closer.position + closer.length;
        k = partner.at(k);
    }
    scanText(cursor, end);
}

void Scanner::scanText(qsizetype begin, qsizetype end)
{
    static constexpr QStringView mistralTag = u"[TOOL_CALLS]";
    for (qsizetype i = begin; i < end; ++i) {
        qsizetype after = -1;
        if (m_text[i] == u'<') {
            after = matchTag(i);
        } else if (m_text[i] == u'[' && startsWithAt(i, mistralTag)) {
            found(i, mistralTag.toString());
            after = i + mistralTag.size();
        }
        if (after > i)
            i = after - 1;
    }
}

qsizetype Scanner::matchTag(qsizetype at)
{
    if (startsWithAt(at, u"<tool_call>"))
        return matchToolCall(at);
    if (startsWithAt(at, u"<function="))
        return matchFunctionEquals(at, -1);
    if (at + 1 < m_text.size() && (m_text[at + 1] == u'|' || m_text[at + 1] == u'\uff5c'))
        return matchSpecialToken(at);
    return matchInvokeOrFunctionCalls(at);
}

// <invoke name="X"> and <function_calls>, also with a namespace prefix (<ns:invoke ...>).
qsizetype Scanner::matchInvokeOrFunctionCalls(qsizetype at)
{
    qsizetype i = at + 1;
    const qsizetype prefixEnd = skipName(i);
    if (prefixEnd < m_text.size() && m_text[prefixEnd] == u':' && prefixEnd > i
        && prefixEnd - i <= maxPrefixLength)
        i = prefixEnd + 1;
    const QStringView prefix = m_text.mid(at + 1, i - at - 1);
    if (startsWithAt(i, u"function_calls>")) {
        found(at, QStringLiteral("<%1function_calls>").arg(prefix));
        return i + 15;
    }
    if (!startsWithAt(i, u"invoke") || i + 6 >= m_text.size() || !m_text[i + 6].isSpace())
        return -1;
    qsizetype j = skipSpaces(i + 6);
    if (!startsWithAt(j, u"name"))
        return -1;
    j = skipSpaces(j + 4);
    if (j >= m_text.size() || m_text[j] != u'=')
        return -1;
    j = skipSpaces(j + 1);
    if (j >= m_text.size() || (m_text[j] != u'"' && m_text[j] != u'\''))
        return -1;
    const QChar quote = m_text[j];
    const qsizetype nameStart = j + 1;
    const qsizetype limit = qMin(m_text.size(), nameStart + maxNameLength);
    qsizetype nameEnd = nameStart;
    while (nameEnd < limit && m_text[nameEnd] != quote && m_text[nameEnd] != u'\n'
           && m_text[nameEnd] != u'<' && m_text[nameEnd] != u'>')
        ++nameEnd;
    if (nameEnd == limit || m_text[nameEnd] != quote)
        return -1;
    const QString name = m_text.mid(nameStart, nameEnd - nameStart).toString();
    found(at, QStringLiteral("<%1invoke name=\"%2\">").arg(prefix.toString(), name));
    return nameEnd + 1;
}

// Hermes/Qwen: <tool_call>{"name": ...}; Qwen3-Coder: <tool_call><function=X>;
// GLM: <tool_call>X<arg_key>. The closing tag is optional (the message may be cut off).
qsizetype Scanner::matchToolCall(qsizetype at)
{
    const qsizetype body = skipSpaces(at + 11);
    if (body >= m_text.size())
        return -1;
    if (startsWithAt(body, u"<function="))
        return matchFunctionEquals(body, at);
    if (m_text[body] != u'{') {
        const qsizetype nameEnd = skipName(body);
        if (nameEnd > body && startsWithAt(skipSpaces(nameEnd), u"<arg_key>")) {
            found(at, QStringLiteral("<tool_call>%1").arg(m_text.mid(body, nameEnd - body)));
            return nameEnd;
        }
        return -1;
    }
    PartialJsonParser parser;
    qsizetype consumed = body; // end of the chunks that were all valid JSON
    const qsizetype limit = qMin(m_text.size(), body + maxToolCallJson);
    qsizetype step = firstJsonChunk;
    while (consumed < limit && !parser.isInvalid() && !parser.isComplete()) {
        const qsizetype chunk = qMin(step, limit - consumed);
        parser.append(m_text.mid(consumed, chunk).toUtf8());
        if (!parser.isInvalid())
            consumed += chunk;
        step = qMin(step * 2, maxJsonChunk);
    }
    const QJsonValue name = parser.object().value(QLatin1String("name"));
    if (name.isUndefined())
        return consumed > body ? consumed : -1;
    const QString shown = name.isString() ? name.toString().left(maxNameLength)
                                          : AiTr::tr("(no name)");
    found(at, QStringLiteral("<tool_call> {\"name\": \"%1\", ...}").arg(shown));
    return consumed > body ? consumed : body + 1;
}

// Qwen3-Coder's XML call format: <function=X>, inside a <tool_call> at \a tagAt, or on its
// own (tagAt -1) when a <parameter=...> follows.
qsizetype Scanner::matchFunctionEquals(qsizetype at, qsizetype tagAt)
{
    const qsizetype nameStart = at + 10;
    const qsizetype nameEnd = skipName(nameStart);
    if (nameEnd == nameStart || nameEnd >= m_text.size() || m_text[nameEnd] != u'>')
        return -1;
    if (tagAt < 0 && !startsWithAt(skipSpaces(nameEnd + 1), u"<parameter="))
        return -1;
    const QStringView function = m_text.mid(at, nameEnd + 1 - at);
    if (tagAt < 0)
        found(at, function.toString());
    else
        found(tagAt, QStringLiteral("<tool_call>%1").arg(function));
    return nameEnd + 1;
}

// Chat-template tokens that mean a tool call and nothing else: <|tool_call|>,
// <|tool_calls_section_begin|> (Kimi), <｜tool▁calls▁begin｜> (DeepSeek), ...
qsizetype Scanner::matchSpecialToken(qsizetype at)
{
    const QChar bar = m_text[at + 1];
    const qsizetype nameStart = at + 2;
    const qsizetype limit = qMin(m_text.size(), nameStart + maxSpecialTokenLength);
    qsizetype i = nameStart;
    while (i < limit
           && (m_text[i].isLetterOrNumber() || m_text[i] == u'_' || m_text[i] == u'\u2581'))
        ++i;
    if (i + 1 >= m_text.size() || m_text[i] != bar || m_text[i + 1] != u'>')
        return -1;
    QString name = m_text.mid(nameStart, i - nameStart).toString();
    name.replace(u'\u2581', u'_');
    if (!name.contains(QLatin1String("tool_call")))
        return -1;
    found(at, m_text.mid(at, i + 2 - at).toString());
    return i + 2;
}

void Scanner::found(qsizetype position, const QString &what)
{
    if (count++ == 0)
        first = {position, what};
}

} // namespace

ProtocolViolation detectFakeToolCalls(const QString &text)
{
    bool candidate = false;
    for (const QStringView marker : markers)
        candidate = candidate || text.contains(marker);
    if (!candidate)
        return {};

    Scanner scanner(text);
    scanner.run();
    if (scanner.count == 0)
        return {};
    const qsizetype line = QStringView(text).left(scanner.first.position).count(u'\n') + 1;
    ProtocolViolation violation;
    violation.found = true;
    violation.detail = scanner.count == 1
                           ? AiTr::tr("%1 in text at line %2").arg(scanner.first.what).arg(line)
                           : AiTr::tr("%1 in text at line %2 (and %3 more)")
                                 .arg(scanner.first.what)
                                 .arg(line)
                                 .arg(scanner.count - 1);
    return violation;
}

} // namespace AgentCore
