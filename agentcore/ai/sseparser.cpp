#include "sseparser.h"

#include <climits>
#include <cstring>

namespace AgentCore {

namespace {

constexpr char ByteOrderMark[] = "\xEF\xBB\xBF";

// Points at the first CR or LF in [from, end), or at end. CRs are rare in real streams, so the
// positions of the next CR and next LF are cached and searched again only once passed: memchr
// scans every byte at most once for each of the two.
class LineEndFinder
{
public:
    LineEndFinder(const char *begin, const char *end)
        : m_end(end)
        , m_lf(find(begin, '\n'))
        , m_cr(find(begin, '\r'))
    {}

    const char *next(const char *from)
    {
        if (m_lf < from)
            m_lf = find(from, '\n');
        if (m_cr < from)
            m_cr = find(from, '\r');
        return m_lf < m_cr ? m_lf : m_cr;
    }

private:
    const char *find(const char *from, char c) const
    {
        const void *hit = std::memchr(from, c, size_t(m_end - from));
        return hit ? static_cast<const char *>(hit) : m_end;
    }

    const char *m_end;
    const char *m_lf;
    const char *m_cr;
};

bool isAsciiDigits(QByteArrayView value)
{
    if (value.isEmpty())
        return false;
    for (const char c : value) {
        if (c < '0' || c > '9')
            return false;
    }
    return true;
}

// The standard gives no upper bound; an absurd value saturates rather than wrapping.
int parseRetry(QByteArrayView digits)
{
    qint64 value = 0;
    for (const char c : digits) {
        value = value * 10 + (c - '0');
        if (value > INT_MAX)
            return INT_MAX;
    }
    return int(value);
}

void assign(QByteArray &target, QByteArrayView value)
{
    // resize(0) keeps the allocation when the buffer is not shared.
    target.resize(0);
    target.append(value);
}

} // namespace

void SseParser::setLimits(qsizetype maxLineBytes, qsizetype maxEventBytes)
{
    m_maxLineBytes = qMax<qsizetype>(0, maxLineBytes);
    m_maxEventBytes = qMax<qsizetype>(0, maxEventBytes);
}

bool SseParser::exceeds(qsizetype size, qsizetype limit, Overflow what)
{
    if (limit <= 0 || size <= limit)
        return false;
    m_overflow = what;
    // What was buffered is of no use any more; give the memory back at once.
    m_partialLine = QByteArray();
    m_event = SseEvent();
    return true;
}

void SseParser::feed(QByteArrayView bytes, const Sink &sink)
{
    if (bytes.isEmpty() || m_overflow != Overflow::None)
        return;
    if (m_bomBytesSeen >= 0) {
        bytes = bytes.sliced(skipByteOrderMark(bytes));
        if (bytes.isEmpty())
            return;
    }
    const char *p = bytes.data();
    const char *const end = p + bytes.size();
    if (m_skipLf) {
        m_skipLf = false;
        if (*p == '\n' && ++p == end)
            return;
    }

    LineEndFinder finder(p, end);
    while (p < end) {
        const char *lineEnd = finder.next(p);
        if (exceeds(m_partialLine.size() + (lineEnd - p), m_maxLineBytes, Overflow::Line))
            return;
        if (lineEnd == end) {
            m_partialLine.append(p, end - p);
            return;
        }
        if (m_partialLine.isEmpty()) {
            processLine(QByteArrayView(p, lineEnd), sink);
        } else {
            m_partialLine.append(p, lineEnd - p);
            processLine(m_partialLine, sink);
            m_partialLine.resize(0);
        }
        if (m_overflow != Overflow::None)
            return;
        p = lineEnd + 1;
        if (*lineEnd == '\r') {
            if (p == end)
                m_skipLf = true;
            else if (*p == '\n')
                ++p;
        }
    }
}

// Consumes the part of \a bytes that continues a byte order mark at the stream start.
qsizetype SseParser::skipByteOrderMark(QByteArrayView bytes)
{
    qsizetype consumed = 0;
    while (consumed < bytes.size() && m_bomBytesSeen < 3
           && bytes[consumed] == ByteOrderMark[m_bomBytesSeen]) {
        ++consumed;
        ++m_bomBytesSeen;
    }
    if (m_bomBytesSeen == 3) {
        m_bomBytesSeen = -1;
    } else if (consumed < bytes.size()) {
        // Not a byte order mark after all: what looked like one starts the first line.
        m_partialLine.append(QByteArrayView(ByteOrderMark, m_bomBytesSeen));
        m_bomBytesSeen = -1;
    }
    return consumed;
}

void SseParser::processLine(QByteArrayView line, const Sink &sink)
{
    if (line.isEmpty()) {
        dispatchEvent(sink);
        return;
    }
    if (line.front() == ':')
        return;
    const auto *colon = static_cast<const char *>(
        std::memchr(line.data(), ':', size_t(line.size())));
    if (!colon) {
        processField(line, {});
        return;
    }
    const qsizetype nameSize = colon - line.data();
    QByteArrayView value = line.sliced(nameSize + 1);
    if (!value.isEmpty() && value.front() == ' ')
        value = value.sliced(1);
    processField(line.first(nameSize), value);
}

void SseParser::processField(QByteArrayView name, QByteArrayView value)
{
    const auto is = [name](QByteArrayView field) {
        return std::memcmp(name.data(), field.data(), size_t(field.size())) == 0;
    };
    switch (name.size()) {
    case 4:
        if (is("data")) {
            if (exceeds(m_event.data.size() + value.size() + (m_hasData ? 1 : 0),
                        m_maxEventBytes,
                        Overflow::Event)) {
                return;
            }
            if (m_hasData)
                m_event.data.append('\n');
            m_event.data.append(value);
            m_hasData = true;
        }
        break;
    case 5:
        if (is("event"))
            assign(m_event.type, value);
        else if (is("retry") && isAsciiDigits(value))
            m_retryMs = parseRetry(value);
        break;
    case 2:
        if (is("id")
            && (value.isEmpty() || !std::memchr(value.data(), '\0', size_t(value.size())))) {
            assign(m_event.id, value);
            m_idChanged = true;
        }
        break;
    default:
        break;
    }
}

void SseParser::dispatchEvent(const Sink &sink)
{
    // The standard's "last event ID buffer" persists across events, so the last event ID only
    // changes at an empty line after a valid id field, which is also the block's own id.
    if (m_idChanged) {
        assign(m_lastEventId, m_event.id);
        m_idChanged = false;
    }
    if (m_hasData)
        sink(m_event);
    clearEvent();
}

void SseParser::clearEvent()
{
    // Most events have no id and many no type: skip the out-of-line calls for those.
    if (!m_event.type.isEmpty())
        m_event.type.resize(0);
    if (!m_event.data.isEmpty())
        m_event.data.resize(0);
    if (!m_event.id.isEmpty())
        m_event.id.resize(0);
    m_hasData = false;
}

void SseParser::finish()
{
    clearEvent();
    m_partialLine.resize(0);
    m_idChanged = false;
    m_bomBytesSeen = 0;
    m_skipLf = false;
    m_overflow = Overflow::None;
}

void SseParser::finishAtCleanEnd(const Sink &sink)
{
    if (m_overflow == Overflow::None && !m_partialLine.isEmpty()) {
        // A non-empty line never dispatches: it only adds its field to the pending event.
        processLine(m_partialLine, sink);
    }
    if (m_overflow == Overflow::None)
        dispatchEvent(sink);
    finish();
}

void SseParser::reset()
{
    finish();
    m_lastEventId.clear();
    m_retryMs.reset();
}

} // namespace AgentCore
