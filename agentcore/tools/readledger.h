#pragma once

#include <ai/types.h>

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QMutex>
#include <QSet>
#include <QString>

#include <optional>

namespace AgentCore {

/// Which lines of which file Read has put in front of the model, and how the file was then, so
/// a repeated Read of an unchanged file answers "unchanged" instead of sending the same text
/// again (ReadTool). One per conversation (its ToolWorkspace's); never persisted, so the first
/// Read after a session is resumed sends the text again.
///
/// A Read's output counts only once a request carried it in full: whoever builds the requests
/// calls retainShown() with each request's messages (CodingAgent, from the loop's contextView),
/// and every entry whose output that request no longer carries verbatim (compacted away,
/// dropped by the user, replaced history) is forgotten. Without that call nothing ever counts as
/// shown and every Read sends its text. Thread-safe.
class ReadLedger final
{
    Q_DISABLE_COPY_MOVE(ReadLedger)
public:
    /// One Read that returned lines [firstLine, lastLine] of a file with the given content.
    struct Entry
    {
        QString path; ///< absolute, canonical (ResolvedPath::path)
        int firstLine = 0;
        int lastLine = 0; ///< inclusive
        QByteArray hash;  ///< of the whole file's bytes then (FileSnapshot::hash)
        QString toolCallId;
        bool shown = false; ///< a request carried its output (retainShown)
    };

    ReadLedger() = default;

    /// The shown entry of \a path whose output holds lines [firstLine, lastLine] of the file as
    /// it is now (\a hash); nullopt when there is none.
    std::optional<Entry> findShown(const QString &path,
                                   const QByteArray &hash,
                                   int firstLine,
                                   int lastLine) const;
    /// A Read that returned text. Entries of the same file with another content go: the model's
    /// latest view of the file is this one.
    void record(const Entry &entry);
    /// The file was written (Edit, Write): no earlier Read of it is current.
    void forget(const QString &path);
    void clear();
    bool isEmpty() const;

    /// \a messages are what the next request carries (the raw view, before projection);
    /// \a hiddenOutputs the tool results in it whose text the model does not see (the user's
    /// dropped outputs). Keeps, and marks shown, the entries whose result is among \a messages
    /// and not hidden; forgets the others. O(messages) when anything is recorded, else O(1).
    void retainShown(const QList<Message> &messages, const QSet<QString> &hiddenOutputs = {});

private:
    mutable QMutex m_mutex;
    QHash<QString, QList<Entry>> m_entries; // by path
};

} // namespace AgentCore
