#pragma once

#include <ai/types.h>

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace AgentCore {

/// The branches of one conversation: every message its session file holds, each with its id
/// and its parent's (the message it follows). The messages of one branch are the path from a
/// root to a leaf; "Edit and resend" and "Fork from here" start a new branch by giving the next
/// message a parent that already has a child. Nothing is ever removed: a branch left behind
/// stays in the file and can be switched back to. A value type; not thread-safe.
class SessionTree
{
public:
    struct Entry
    {
        QString id;
        QString parent; ///< empty: a first message (a root)
        Message message;
    };

    /// A fresh id for a message record: 12 hex digits, random (a file holds a few thousand).
    static QString newId();

    /// Adds \a message under \a parent (empty, or an id not in the tree: a root). An id already
    /// in the tree is ignored (false): the first record of an id wins.
    bool add(const QString &id, const QString &parent, const Message &message);

    bool isEmpty() const { return m_entries.isEmpty(); }
    qsizetype size() const { return m_entries.size(); }
    bool contains(const QString &id) const { return m_index.contains(id); }
    /// The entries in the order they were written.
    const QList<Entry> &entries() const { return m_entries; }
    /// The entry \a id; nullptr when there is none.
    const Entry *entry(const QString &id) const;

    /// The ids from a root down to \a leaf (empty for an empty leaf or an unknown id).
    QStringList pathTo(const QString &leaf) const;
    /// The messages of the branch that ends at \a leaf, oldest first.
    QList<Message> messagesTo(const QString &leaf) const;
    /// The messages that follow \a id directly (empty: the roots), in the order written.
    QStringList children(const QString &id) const { return m_children.value(id); }
    /// The leaf a switch to \a id leads to: \a id's latest child, its latest child, and so on.
    QString latestLeafUnder(const QString &id) const;
    /// Every leaf (a message nothing follows), in the order written.
    QStringList leaves() const;

private:
    QList<Entry> m_entries;
    QHash<QString, qsizetype> m_index;      // id -> index in m_entries
    QHash<QString, QStringList> m_children; // parent id ("" for roots) -> child ids
};

} // namespace AgentCore
