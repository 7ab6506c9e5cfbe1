#pragma once

#include "unifieddiff.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace AgentCore {

/// One path a shell command changed, as an overlay's upper layer shows it against the real
/// tree (ShellWrites::compute): what was there before and what the command left. A value.
struct ShellWrite
{
    enum class Type { None, File, Directory, Symlink, Other };
    enum class Kind { Added, Modified, Deleted, ModeChanged };

    QString path; ///< relative to the repository, '/'-separated
    Type oldType = Type::None;
    Type newType = Type::None;
    uint oldMode = 0; ///< permission bits (07777)
    uint newMode = 0;
    /// A file's bytes (only when it is text and small enough to review by hunk) or a symbolic
    /// link's target; empty otherwise.
    QByteArray oldBytes;
    QByteArray newBytes;
    /// The new file in the upper layer: where its bytes are copied from when they are not in
    /// newBytes (binary or large files).
    QString newSource;
    qint64 oldSize = 0;
    qint64 newSize = 0;
    /// The bytes (file) or target (symbolic link) differ; false for a change of mode only.
    bool contentChanged = true;
    /// Accepted or rejected as a whole, no hunks: a binary or large file, a symbolic link, a
    /// directory, or a change of type (a file that became a directory, ...).
    bool whole = true;
    /// oldBytes -> newBytes, decoded as UTF-8, when !whole. A partial accept splices exactly
    /// these hunks into the file's own bytes.
    UnifiedDiff diff;

    Kind kind() const;
    /// \a kind's one name ("added", "modified", "deleted", "mode"): how a writes review's
    /// result records it and FileChange::ofShellWrites reads it back. Not translated.
    static QString kindName(Kind kind);
    /// "added", "modified", "deleted", "mode 644 → 755", "directory added", ...: for the
    /// reviewer and the model.
    QString description() const;
};

} // namespace AgentCore
