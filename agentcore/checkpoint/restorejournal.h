#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace AgentCore {

/// The planned file operations of one restore, kept on disk while they are carried out, and
/// the operations themselves: each file is written to a temporary file beside it (fsynced) and
/// renamed over the old one, so a kill -9 leaves every file either as before or as after; the
/// journal, replayed at the next start, finishes the rest. Nothing is written through a
/// symbolic link: a link on the way to a file is an error for that file. A value.
class RestoreJournal final
{
public:
    struct Entry
    {
        enum class Action { Write, Delete };
        Action action = Action::Write;
        QString path; ///< relative to the work tree
        QString blob; ///< Write: the shadow store's blob with the bytes
        int mode = 0; ///< Write: 0100644, 0100755 or 0120000 (a link; the bytes are its target)
        QString temp; ///< Write: the temporary file's path, relative; deterministic
    };

    RestoreJournal() = default;
    RestoreJournal(QString workTree, QList<Entry> entries);

    QString workTree() const { return m_workTree; }
    const QList<Entry> &entries() const { return m_entries; }

    /// Writes the journal durably to \a path (temp file, fsync, rename). False with \a error.
    bool save(const QString &path, QString *error) const;
    /// The journal at \a path; nullopt when there is none (or it is unreadable: a journal that
    /// was not completely written means the restore had not started).
    static std::optional<RestoreJournal> load(const QString &path);
    static bool remove(const QString &path);

    /// The temporary name of \a path: a hidden file in the same folder.
    static QString tempPathFor(const QString &path);

    /// Carries out one entry. \a bytes: the blob's content (Write). Idempotent, so a replay
    /// may do it twice. Returns an empty string on success, else why not (for people).
    QString apply(const Entry &entry, const QByteArray &bytes) const;
    /// Removes a folder left empty by a deletion, up to the work tree (not beyond).
    void removeEmptyParents(const QString &path) const;

    /// Called between writing an entry's temporary file and renaming it (tests only: the
    /// kill -9 test stops the process there).
    static void setTestHook(void (*hook)(const QString &path));

private:
    QString m_workTree;
    QList<Entry> m_entries;
};

} // namespace AgentCore
