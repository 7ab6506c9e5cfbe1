#include "mcplinereader.h"

namespace AgentCore {

McpLineReader::McpLineReader(qsizetype maxLineBytes)
    : m_maxLineBytes(maxLineBytes)
{}

void McpLineReader::appendOverlong(const char *data, qsizetype size)
{
    m_dropped.size += size;
    m_dropped.tail.append(data, size);
    if (m_dropped.tail.size() > keptEdgeBytes)
        m_dropped.tail = m_dropped.tail.right(keptEdgeBytes);
}

QList<McpLineReader::Line> McpLineReader::feed(const QByteArray &data)
{
    QList<Line> lines;
    qsizetype from = 0;
    while (from < data.size()) {
        const qsizetype newline = data.indexOf('\n', from);
        const qsizetype end = newline < 0 ? data.size() : newline;
        const char *chunk = data.constData() + from;
        const qsizetype chunkSize = end - from;
        if (m_overlong) {
            appendOverlong(chunk, chunkSize);
        } else if (m_buffer.size() + chunkSize > m_maxLineBytes) {
            // From here on the line is only counted: its head and tail are all that is kept.
            m_overlong = true;
            m_dropped = {};
            m_dropped.head = QByteArray(m_buffer
                                        + QByteArray(chunk, std::min(chunkSize, keptEdgeBytes)))
                                 .left(keptEdgeBytes);
            m_dropped.size = m_buffer.size();
            m_dropped.tail = m_buffer.right(keptEdgeBytes);
            m_buffer.clear();
            m_buffer.squeeze();
            appendOverlong(chunk, chunkSize);
        } else {
            m_buffer.append(chunk, chunkSize);
        }
        if (newline < 0)
            break;
        if (m_overlong) {
            m_dropped.overlong = true;
            lines.append(std::exchange(m_dropped, {}));
            m_overlong = false;
        } else {
            if (m_buffer.endsWith('\r'))
                m_buffer.chop(1);
            if (!m_buffer.trimmed().isEmpty()) {
                Line line;
                line.size = m_buffer.size();
                line.text = std::exchange(m_buffer, {});
                lines.append(std::move(line));
            }
            m_buffer.clear();
        }
        from = newline + 1;
    }
    return lines;
}

} // namespace AgentCore
