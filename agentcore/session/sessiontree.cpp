#include "sessiontree.h"

#include <QUuid>

#include <algorithm>

namespace AgentCore {

QString SessionTree::newId()
{
    return QUuid::createUuid().toString(QUuid::Id128).left(12);
}

bool SessionTree::add(const QString &id, const QString &parent, const Message &message)
{
    if (id.isEmpty() || m_index.contains(id))
        return false;
    // A parent the tree does not hold (a line that could not be read) makes a root: the message
    // is kept and shown rather than lost.
    const QString known = m_index.contains(parent) ? parent : QString();
    m_index.insert(id, m_entries.size());
    m_entries.append({id, known, message});
    m_children[known].append(id);
    return true;
}

const SessionTree::Entry *SessionTree::entry(const QString &id) const
{
    const auto it = m_index.constFind(id);
    return it == m_index.cend() ? nullptr : &m_entries.at(*it);
}

QStringList SessionTree::pathTo(const QString &leaf) const
{
    QStringList path;
    for (const Entry *at = entry(leaf); at; at = entry(at->parent))
        path.append(at->id);
    std::reverse(path.begin(), path.end());
    return path;
}

QList<Message> SessionTree::messagesTo(const QString &leaf) const
{
    QList<Message> messages;
    const QStringList path = pathTo(leaf);
    messages.reserve(path.size());
    for (const QString &id : path)
        messages.append(entry(id)->message);
    return messages;
}

QString SessionTree::latestLeafUnder(const QString &id) const
{
    QString leaf = id;
    for (QStringList next = children(leaf); !next.isEmpty(); next = children(leaf))
        leaf = next.constLast();
    return leaf;
}

QStringList SessionTree::leaves() const
{
    QStringList leaves;
    for (const Entry &entry : m_entries) {
        if (!m_children.contains(entry.id))
            leaves.append(entry.id);
    }
    return leaves;
}

} // namespace AgentCore
