#include "readledger.h"

#include <QMutexLocker>

namespace AgentCore {

std::optional<ReadLedger::Entry> ReadLedger::findShown(const QString &path,
                                                       const QByteArray &hash,
                                                       int firstLine,
                                                       int lastLine) const
{
    QMutexLocker locker(&m_mutex);
    const auto it = m_entries.constFind(path);
    if (it == m_entries.constEnd())
        return std::nullopt;
    for (const Entry &entry : *it) {
        if (entry.shown && entry.hash == hash && entry.firstLine <= firstLine
            && entry.lastLine >= lastLine)
            return entry;
    }
    return std::nullopt;
}

void ReadLedger::record(const Entry &entry)
{
    QMutexLocker locker(&m_mutex);
    QList<Entry> &entries = m_entries[entry.path];
    entries.removeIf([&entry](const Entry &old) { return old.hash != entry.hash; });
    entries.append(entry);
}

void ReadLedger::forget(const QString &path)
{
    QMutexLocker locker(&m_mutex);
    m_entries.remove(path);
}

void ReadLedger::clear()
{
    QMutexLocker locker(&m_mutex);
    m_entries.clear();
}

bool ReadLedger::isEmpty() const
{
    QMutexLocker locker(&m_mutex);
    return m_entries.isEmpty();
}

void ReadLedger::retainShown(const QList<Message> &messages, const QSet<QString> &hiddenOutputs)
{
    QMutexLocker locker(&m_mutex);
    if (m_entries.isEmpty())
        return;
    QSet<QString> wanted;
    for (const QList<Entry> &entries : std::as_const(m_entries)) {
        for (const Entry &entry : entries)
            wanted.insert(entry.toolCallId);
    }
    QSet<QString> carried;
    for (const Message &message : messages) {
        if (message.role == Message::Role::ToolResult && wanted.contains(message.toolCallId)
            && !hiddenOutputs.contains(message.toolCallId))
            carried.insert(message.toolCallId);
    }
    for (auto it = m_entries.begin(); it != m_entries.end();) {
        it->removeIf([&carried](const Entry &entry) { return !carried.contains(entry.toolCallId); });
        for (Entry &entry : *it)
            entry.shown = true;
        it = it->isEmpty() ? m_entries.erase(it) : std::next(it);
    }
}

} // namespace AgentCore
