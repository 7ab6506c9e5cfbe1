#include "sessionpages.h"
#include "sessionpictures.h"
#include "translation.h"

#include <ai/messagejson.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QMutexLocker>

namespace AgentCore {

namespace {

// What a cached message costs: its texts (UTF-16) and pictures (base64), roughly.
qint64 messageBytes(const Message &message)
{
    qint64 bytes = qint64(sizeof(Message));
    for (const ContentBlock &block : message.content)
        bytes += qint64(sizeof(ContentBlock)) + block.text.size() * 2 + block.data.size();
    return bytes;
}

} // namespace

QString SessionPages::preview(const QString &text)
{
    if (text.size() <= SessionPages::previewChars)
        return text;
    qsizetype cut = text.lastIndexOf(QLatin1Char('\n'), SessionPages::previewChars - 1);
    if (cut > 0)
        return text.left(cut + 1);
    cut = SessionPages::previewChars;
    if (text.at(cut - 1).isHighSurrogate())
        --cut; // never half a character
    return text.left(cut);
}

namespace {

// The id the conversation gives a result may be the file's made unique (ToolCallIds: "call_0"
// becomes "call_0_2"): either names the same record.
bool namesRecord(const QString &toolCallId, const QString &recorded)
{
    return toolCallId == recorded
           || (toolCallId.size() > recorded.size() && toolCallId.startsWith(recorded)
               && toolCallId.at(recorded.size()) == QLatin1Char('_'));
}

} // namespace

SessionPages::SessionPages(const QString &sessionFile, qint64 cacheBytes)
    : m_file(sessionFile)
    , m_cacheBytes(cacheBytes)
{}

QString SessionPages::sessionFile() const
{
    return m_file;
}

size_t SessionPages::digest(QByteArrayView record)
{
    const size_t hash = qHash(record, 0);
    return hash == 0 ? 1 : hash;
}

void SessionPages::add(const QString &toolCallId, qint64 offset, qint64 length, size_t digest)
{
    const QMutexLocker locker(&m_mutex);
    m_index.insert(toolCallId, {offset, length, digest});
    forget(toolCallId); // the id may name another branch's result now
}

bool SessionPages::contains(const QString &toolCallId) const
{
    const QMutexLocker locker(&m_mutex);
    return m_index.contains(toolCallId);
}

qsizetype SessionPages::size() const
{
    const QMutexLocker locker(&m_mutex);
    return m_index.size();
}

void SessionPages::addRecord(const QString &messageId, qint64 offset, qint64 length, size_t digest)
{
    const QMutexLocker locker(&m_mutex);
    m_records.insert(messageId, {offset, length, digest});
}

void SessionPages::indexBranch(const QStringList &messageIds, const QList<Message> &messages)
{
    const QMutexLocker locker(&m_mutex);
    for (qsizetype i = 0; i < messages.size() && i < messageIds.size(); ++i) {
        if (!messages.at(i).isToolResult())
            continue;
        const auto record = m_records.constFind(messageIds.at(i));
        if (record == m_records.constEnd())
            continue;
        m_index.insert(messages.at(i).toolCallId, *record);
        forget(messages.at(i).toolCallId);
    }
}

qint64 SessionPages::cachedBytes() const
{
    const QMutexLocker locker(&m_mutex);
    return m_cachedBytes;
}

std::optional<Message> SessionPages::load(const QString &toolCallId, QString *error) const
{
    Span span;
    {
        const QMutexLocker locker(&m_mutex);
        if (const auto cached = m_cached.constFind(toolCallId); cached != m_cached.constEnd()) {
            m_cache.splice(m_cache.begin(), m_cache, *cached); // the most recently used
            return (*cached)->message;
        }
        const auto found = m_index.constFind(toolCallId);
        if (found == m_index.constEnd()) {
            if (error)
                *error = SessionTr::tr("The session file %1 holds no output of the tool call %2.")
                             .arg(QDir::toNativeSeparators(m_file), toolCallId);
            return std::nullopt;
        }
        span = *found;
    }
    // Read outside the lock: other loads (the window's, the request's) need not wait for it.
    std::optional<Message> message = read(toolCallId, span, error);
    if (message)
        remember(toolCallId, *message);
    return message;
}

std::optional<Message> SessionPages::read(const QString &toolCallId, Span span, QString *error) const
{
    const auto fail = [&](const QString &why) {
        if (error)
            *error = SessionTr::tr("This output can no longer be read from the session file %1: "
                                   "%2")
                         .arg(QDir::toNativeSeparators(m_file), why);
        return std::nullopt;
    };
    QFile file(m_file);
    if (!file.open(QIODevice::ReadOnly))
        return fail(file.errorString());
    // The record with the newlines around it: a file rewritten or cut short behind AgentDesk's
    // back shows there, before anything is parsed.
    if (span.offset < 1 || !file.seek(span.offset - 1))
        return fail(SessionTr::tr("the file is shorter than it was."));
    QByteArray bytes = file.read(span.length + 2);
    // The last line of a file that was never opened for writing again may lack its newline.
    if (bytes.size() == span.length + 1 && file.atEnd())
        bytes.append('\n');
    if (bytes.size() != span.length + 2)
        return fail(SessionTr::tr("the file is shorter than it was."));
    if (bytes.front() != '\n' || bytes.back() != '\n'
        || (span.digest != 0
            && digest(QByteArrayView(bytes.constData() + 1, span.length)) != span.digest))
        return fail(SessionTr::tr("the file was changed since it was written."));
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromRawData(bytes.constData()
                                                                                       + 1,
                                                                                   span.length),
                                                           &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()
        || document.object().value(QLatin1String("type")).toString() != QLatin1String("message"))
        return fail(SessionTr::tr("the file was changed since it was written."));
    const QJsonObject record = SessionPictures::restored(document.object(), m_file);
    Message message;
    if (!messageFromJson(record.value(QLatin1String("message")).toObject(), &message)
        || !message.isToolResult() || message.isPaged()
        || !namesRecord(toolCallId, message.toolCallId))
        return fail(SessionTr::tr("the file was changed since it was written."));
    message.toolCallId = toolCallId; // as the conversation knows it
    return message;
}

void SessionPages::remember(const QString &toolCallId, const Message &message) const
{
    const qint64 bytes = messageBytes(message);
    if (bytes > m_cacheBytes)
        return; // it would push out everything else, and then itself
    const QMutexLocker locker(&m_mutex);
    if (!m_index.contains(toolCallId))
        return; // forgotten meanwhile
    // Only the cached whole it replaces: the stub the histories share stays theirs.
    uncache(toolCallId);
    m_cache.push_front({toolCallId, message, bytes});
    m_cached.insert(toolCallId, m_cache.begin());
    m_cachedBytes += bytes;
    while (m_cachedBytes > m_cacheBytes && !m_cache.empty()) {
        m_cachedBytes -= m_cache.back().bytes;
        m_cached.remove(m_cache.back().toolCallId);
        m_cache.pop_back();
    }
}

void SessionPages::forget(const QString &toolCallId) const
{
    m_stubs.remove(toolCallId);
    uncache(toolCallId);
}

void SessionPages::uncache(const QString &toolCallId) const
{
    const auto cached = m_cached.constFind(toolCallId);
    if (cached == m_cached.constEnd())
        return;
    m_cachedBytes -= (*cached)->bytes;
    m_cache.erase(*cached);
    m_cached.erase(cached);
}

bool SessionPages::isPageable(const Message &message)
{
    if (!message.isToolResult() || message.isPaged())
        return false;
    qsizetype chars = 0;
    for (const ContentBlock &block : message.content) {
        if (block.isImage())
            return true;
        chars += block.text.size();
    }
    return chars >= pageAbove;
}

Message SessionPages::stub(const Message &whole)
{
    if (!isPageable(whole))
        return whole;
    Message stub = whole;
    const QString text = whole.text();
    stub.content = {ContentBlock::makeText(preview(text))};
    stub.pagedChars = text.size();
    return stub;
}

QList<Message> SessionPages::pagedOut(const QList<Message> &messages) const
{
    QList<Message> result;
    bool changed = false;
    {
        const QMutexLocker locker(&m_mutex);
        for (qsizetype i = 0; i < messages.size(); ++i) {
            const Message &message = messages.at(i);
            if (!isPageable(message) || !m_index.contains(message.toolCallId))
                continue;
            if (!changed) {
                result = messages;
                changed = true;
            }
            result[i] = sharedStub(message);
        }
    }
    return changed ? result : messages;
}

Message SessionPages::stubOf(const Message &whole) const
{
    const QMutexLocker locker(&m_mutex);
    return sharedStub(whole);
}

Message SessionPages::sharedStub(const Message &whole) const
{
    if (!isPageable(whole) || !m_index.contains(whole.toolCallId))
        return stub(whole);
    auto found = m_stubs.constFind(whole.toolCallId);
    if (found == m_stubs.constEnd())
        found = m_stubs.insert(whole.toolCallId, stub(whole));
    return *found;
}

} // namespace AgentCore
