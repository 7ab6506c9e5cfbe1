#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace AgentCore {

/// How one file differs between a checkpoint and the working tree now. Kind says what
/// happened SINCE the checkpoint; a restore undoes it (Added: deletes the file; Deleted:
/// writes it back; Modified: writes the old bytes and mode back). A value.
struct CheckpointFileChange
{
    enum class Kind { Added, Modified, Deleted };

    QString path; ///< relative to the working tree, '/' separated
    Kind kind = Kind::Modified;
    /// Git modes: 0100644 file, 0100755 executable, 0120000 symbolic link; 0 when the file is
    /// absent on that side.
    int oldMode = 0; ///< at the checkpoint
    int newMode = 0; ///< now
    /// The bytes at the checkpoint and now (empty on the absent side). For a symbolic link,
    /// its target as written in the link (never followed).
    QByteArray oldBytes;
    QByteArray newBytes;

    bool isSymlink() const { return oldMode == 0120000 || newMode == 0120000; }
    /// Either side contains a NUL byte in its first 8000 bytes (git's rule): the review shows
    /// no line diff for it.
    bool isBinary() const;
};

/// Everything a restore to one checkpoint would change, in path order.
struct CheckpointDiff
{
    QList<CheckpointFileChange> files;
    /// Files the checkpoint does not hold (over the size cap, unreadable then): a restore
    /// leaves them alone, the dialog says so.
    QStringList notCovered;
    QString error; ///< non-empty: the diff could not be made; files is empty

    bool ok() const { return error.isEmpty(); }
};

} // namespace AgentCore
