#include "sessionpages.h"

#include "sessionpictures.h"

#include <ai/messagejson.h>

#include <QFile>
#include <QJsonDocument>
#include <QMutexLocker>

namespace AgentCore {

// The contract's version (pages-contract.md), enough for the window to be built against:
// no cache, the record read each time.
SessionPages::SessionPages(const QString &sessionFile, qint64 cacheBytes)
    : m_sessionFile(sessionFile)
    , m_cacheBytes(cacheBytes)
{}

QString SessionPages::sessionFile() const
{
    return m_sessionFile;
}

void SessionPages::add(const QString &toolCallId, qint64 offset, qint64 length)
{
    const QMutexLocker lock(&m_mutex);
    m_ranges.insert(toolCallId, {offset, length});
}

bool SessionPages::contains(const QString &toolCallId) const
{
    const QMutexLocker lock(&m_mutex);
    return m_ranges.contains(toolCallId);
}

std::optional<Message> SessionPages::load(const QString &toolCallId, QString *error) const
{
    Range range;
    {
        const QMutexLocker lock(&m_mutex);
        const auto it = m_ranges.constFind(toolCallId);
        if (it == m_ranges.cend()) {
            if (error)
                *error = QStringLiteral("The session file holds no output of %1.").arg(toolCallId);
            return std::nullopt;
        }
        range = *it;
    }
    QFile file(m_sessionFile);
    if (!file.open(QIODevice::ReadOnly) || !file.seek(range.offset)) {
        if (error)
            *error = QStringLiteral("The session file cannot be read: %1").arg(file.errorString());
        return std::nullopt;
    }
    const QByteArray bytes = file.read(range.length);
    const QJsonObject record = QJsonDocument::fromJson(bytes).object();
    Message message;
    QString problem;
    if (bytes.size() != range.length
        || !messageFromJson(SessionPictures::restored(record, m_sessionFile)
                                .value(QLatin1String("message"))
                                .toObject(),
                            &message,
                            &problem)
        || !message.isToolResult()) {
        if (error)
            *error = QStringLiteral("The session file no longer holds this output.");
        return std::nullopt;
    }
    message.toolCallId = toolCallId;
    return message;
}

Message SessionPages::stub(const Message &whole)
{
    if (!whole.isToolResult() || whole.isPaged())
        return whole;
    const QString text = whole.text();
    bool images = false;
    for (const ContentBlock &block : whole.content)
        images = images || block.isImage();
    if (text.size() <= pageAbove && !images)
        return whole;
    Message stub = whole;
    QString preview = text.left(previewChars);
    if (text.size() > previewChars) {
        const qsizetype cut = preview.lastIndexOf(QLatin1Char('\n'));
        if (cut > 0)
            preview.truncate(cut + 1);
    }
    stub.content = {ContentBlock::makeText(preview)};
    stub.pagedChars = text.size();
    return stub;
}

} // namespace AgentCore
