#include "jsonrpcframing.h"
#include "translation.h"

namespace AgentCore {

JsonRpcLineReader::JsonRpcLineReader(qsizetype maxLineBytes)
    : m_maxLineBytes(maxLineBytes)
{}

void JsonRpcLineReader::appendOverlong(const char *data, qsizetype size)
{
    m_dropped.size += size;
    m_dropped.tail.append(data, size);
    if (m_dropped.tail.size() > JsonRpcFrame::keptEdgeBytes)
        m_dropped.tail = m_dropped.tail.right(JsonRpcFrame::keptEdgeBytes);
}

QList<JsonRpcFrame> JsonRpcLineReader::feed(const QByteArray &data)
{
    QList<JsonRpcFrame> lines;
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
            m_dropped.head = QByteArray(
                                 m_buffer
                                 + QByteArray(chunk,
                                              std::min(chunkSize, JsonRpcFrame::keptEdgeBytes)))
                                 .left(JsonRpcFrame::keptEdgeBytes);
            m_dropped.size = m_buffer.size();
            m_dropped.tail = m_buffer.right(JsonRpcFrame::keptEdgeBytes);
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
                JsonRpcFrame line;
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

JsonRpcHeaderReader::JsonRpcHeaderReader(qsizetype maxBodyBytes)
    : m_maxBodyBytes(maxBodyBytes)
{}

QByteArray JsonRpcHeaderReader::frame(const QByteArray &message)
{
    return "Content-Length: " + QByteArray::number(message.size()) + "\r\n\r\n" + message;
}

bool JsonRpcHeaderReader::readHeader()
{
    const qsizetype end = m_buffer.indexOf("\r\n\r\n");
    if (end < 0) {
        if (m_buffer.size() > maxHeaderBytes)
            m_problem = JsonRpcTr::tr("a message header longer than %1 bytes").arg(maxHeaderBytes);
        return false;
    }
    qsizetype length = -1;
    const QList<QByteArray> fields = m_buffer.left(end).split('\n');
    for (const QByteArray &field : fields) {
        const qsizetype colon = field.indexOf(':');
        if (colon <= 0) {
            m_problem = JsonRpcTr::tr("a message header line without a name: \"%1\"")
                            .arg(QString::fromUtf8(field.trimmed().left(80)));
            return false;
        }
        if (field.left(colon).trimmed().compare("Content-Length", Qt::CaseInsensitive) != 0)
            continue; // Content-Type says UTF-8 JSON-RPC, which is all there is
        const QByteArray value = field.mid(colon + 1).trimmed();
        bool ok = !value.isEmpty() && value.size() <= 18;
        for (const char c : value)
            ok = ok && c >= '0' && c <= '9';
        if (!ok) {
            m_problem = JsonRpcTr::tr("a Content-Length that is not a number: \"%1\"")
                            .arg(QString::fromUtf8(value.left(40)));
            return false;
        }
        length = value.toLongLong();
    }
    if (length < 0) {
        m_problem = JsonRpcTr::tr("a message header without Content-Length");
        return false;
    }
    m_buffer.remove(0, end + 4);
    m_bodyBytes = length;
    return true;
}

QList<JsonRpcFrame> JsonRpcHeaderReader::feed(const QByteArray &data)
{
    QList<JsonRpcFrame> frames;
    if (!m_problem.isEmpty())
        return frames;
    qsizetype from = 0;
    if (m_skipping > 0) {
        // The rest of an overlong body: counted, its last bytes kept.
        const qsizetype take = std::min(m_skipping, data.size());
        m_dropped.tail = QByteArray(m_dropped.tail + data.left(take))
                             .right(JsonRpcFrame::keptEdgeBytes);
        m_skipping -= take;
        from = take;
        if (m_skipping > 0)
            return frames;
        frames.append(std::exchange(m_dropped, {}));
        m_bodyBytes = -1;
    }
    m_buffer.append(QByteArrayView(data).sliced(from));
    for (;;) {
        if (m_bodyBytes < 0 && !readHeader())
            return frames;
        if (m_bodyBytes > m_maxBodyBytes) {
            m_dropped = {};
            m_dropped.overlong = true;
            m_dropped.size = m_bodyBytes;
            m_dropped.head = m_buffer.left(JsonRpcFrame::keptEdgeBytes);
            const qsizetype take = std::min(m_bodyBytes, m_buffer.size());
            m_dropped.tail = m_buffer.left(take).right(JsonRpcFrame::keptEdgeBytes);
            m_skipping = m_bodyBytes - take;
            m_buffer.remove(0, take);
            if (m_skipping > 0) {
                m_buffer.squeeze();
                return frames;
            }
            frames.append(std::exchange(m_dropped, {}));
            m_bodyBytes = -1;
            continue;
        }
        if (m_buffer.size() < m_bodyBytes)
            return frames;
        JsonRpcFrame frame;
        frame.size = m_bodyBytes;
        frame.text = m_buffer.left(m_bodyBytes);
        m_buffer.remove(0, m_bodyBytes);
        m_bodyBytes = -1;
        frames.append(std::move(frame));
    }
}

} // namespace AgentCore
