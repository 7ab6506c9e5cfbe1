#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace AgentCore {

/// Writes a set of changes into a folder so that a crash or kill -9 at any moment leaves each
/// file either as it was or as it was meant to be, never half written: the one journalled
/// writer of AgentDesk (a rewind's restore, CheckpointStore::restore, and the accepted part of
/// a command's writes, ShellWriteApplier, both go through it).
///
/// How: the temporary names are listed in a journal first; every new content is written to a
/// hidden temporary file beside its target (with its mode, fsynced); then the journal is
/// committed with every step (written to a temporary name, fsynced, renamed); then the steps
/// run, each one atomic and safe to repeat (removals deepest first, new folders shallowest
/// first, renames of the temporary files over their targets, modes, folders left empty); and
/// the journal goes. replay(), at the next start, finishes a committed journal or removes the
/// temporary files of one that was not committed.
///
/// Nothing is written through a symbolic link: a folder on the way to a target that is a link
/// (or not a folder) is an error for that change, checked when each step runs. Symbolic links
/// are written as links. Blocking. Agents of one process or of several may share a journal
/// folder: each write holds a lock on its journal (an flock, gone with its process), and
/// replay() leaves the journals of writes still going on alone. A value.
class FileSetWriter final
{
public:
    struct Change
    {
        enum class Kind {
            File,   ///< bytes (or the file at source) with mode
            Link,   ///< a symbolic link to bytes
            Delete, ///< a file or link; a folder only when empty
            Folder, ///< a folder with mode (created, or its mode set)
            Mode,   ///< only the mode of what is there
        };
        Kind kind = Kind::File;
        QString path;     ///< relative to the root, '/'-separated, no "." or ".." parts
        QByteArray bytes; ///< File: the content (unless source); Link: the target
        QString source;   ///< File: copy the content from this file (large files)
        uint mode = 0644; ///< File, Folder, Mode: permission bits (07777)
        /// File: only mode's executable bit counts; the other bits are those of the file there
        /// now (a 0600 file stays 0600), or the umask's for a new file. What git keeps.
        bool likeExisting = false;
        /// Delete: the folders it leaves empty go too, up to the root (not the root).
        bool removeEmptyParents = false;
    };

    struct Outcome
    {
        QHash<int, QString> failed; ///< change index -> why (for people); the others were done
        QString error;              ///< non-empty: nothing was changed (journal not writable)
    };

    /// What replay() found for one journal.
    struct Replayed
    {
        QString root;
        bool committed = false; ///< finished (true) or rolled back (false)
        QStringList paths;      ///< committed: the targets of its steps, relative
    };

    /// \a journalFolder: where the journals live while a write runs; created when needed.
    explicit FileSetWriter(QString journalFolder);

    /// Writes \a changes into \a root (an existing folder). Changes that cannot be staged are
    /// in Outcome::failed and nothing of them is written; the others are.
    Outcome write(const QString &root, const QList<Change> &changes) const;

    /// Finishes (committed) or rolls back (not committed) every journal in \a journalFolder a
    /// write that did not end left behind.
    static QList<Replayed> replay(const QString &journalFolder);

    /// Called before each temporary file is renamed over its target, with the target's path
    /// (tests only: the kill -9 tests stop the process there).
    static void setTestHook(void (*hook)(const QString &path));

private:
    QString m_journalFolder;
};

} // namespace AgentCore
