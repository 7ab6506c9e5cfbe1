#include "outputcapture.h"
#include "translation.h"

#include <QCoreApplication>

namespace AgentCore {

namespace {

bool isContinuation(char c)
{
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}
} // namespace

OutputCapture::OutputCapture(qsizetype headBytes, qsizetype tailBytes)
    : m_headLimit(headBytes)
    , m_tailLimit(tailBytes)
{}

OutputCapture::~OutputCapture()
{
    m_log.close();
}

bool OutputCapture::openLog(const QString &fileTemplate)
{
    m_log.setFileTemplate(fileTemplate);
    m_log.setAutoRemove(false); // a kept log outlives the capture; finishLog() decides
    return m_log.open();
}

void OutputCapture::append(const QByteArray &chunk)
{
    if (chunk.isEmpty())
        return;
    m_total += chunk.size();
    if (m_log.isOpen())
        m_log.write(chunk);
    qsizetype used = 0;
    if (m_head.size() < m_headLimit) {
        used = std::min(chunk.size(), m_headLimit - m_head.size());
        m_head += QByteArrayView(chunk).first(used);
    }
    if (used < chunk.size()) {
        m_tail += QByteArrayView(chunk).sliced(used);
        // Trimmed in batches so that a flood of small chunks stays linear.
        if (m_tail.size() > 2 * m_tailLimit)
            m_tail.remove(0, m_tail.size() - m_tailLimit);
    }
}

QString OutputCapture::text() const
{
    if (!isTruncated())
        return QString::fromUtf8(m_head + m_tail);
    // Cut on character boundaries so no replacement characters appear at the seams.
    qsizetype headEnd = m_head.size();
    qsizetype lead = headEnd;
    while (lead > 0 && headEnd - lead < 3 && isContinuation(m_head[lead - 1]))
        --lead;
    if (lead > 0) {
        const auto c = static_cast<unsigned char>(m_head[lead - 1]);
        const int length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
        if (lead - 1 + length > headEnd)
            headEnd = lead - 1;
    }
    qsizetype tailStart = m_tail.size() - m_tailLimit;
    while (tailStart < m_tail.size() && isContinuation(m_tail[tailStart]))
        ++tailStart;
    const qint64 omitted = m_total - headEnd - (m_tail.size() - tailStart);
    QString out = QString::fromUtf8(QByteArrayView(m_head).first(headEnd));
    if (!out.endsWith(QLatin1Char('\n')))
        out += QLatin1Char('\n');
    out += ToolsTr::tr("[... %1 bytes left out; all %2 bytes of output are in %3 ...]")
               .arg(omitted)
               .arg(m_total)
               .arg(m_log.fileName());
    out += QLatin1Char('\n');
    out += QString::fromUtf8(QByteArrayView(m_tail).sliced(tailStart));
    return out;
}

QString OutputCapture::finishLog(bool keep)
{
    if (!m_log.isOpen())
        return {};
    m_log.close();
    if (keep)
        return m_log.fileName();
    m_log.remove();
    return {};
}

} // namespace AgentCore
