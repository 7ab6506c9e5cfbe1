#pragma once

#include "shellwrite.h"

#include <QList>
#include <QString>

namespace AgentCore {

/// What a command run on an overlay of the repository (the real tree as the lower layer)
/// changed: read from the overlay's upper layer, where a whiteout (a character device 0:0, or
/// a file marked overlay.whiteout) is a deletion and an opaque directory (overlay.opaque "y",
/// trusted. or user. namespace) replaces the directory below it. Only paths the upper layer
/// touches are compared; a copied-up path that is unchanged (a directory only traversed, a
/// file rewritten with the same bytes and mode) is no change. Ignored files count like any
/// other. Reads files; writes nothing. Thread-safe (no state).
class ShellWrites final
{
public:
    /// Files larger than this are reviewed as a whole, their bytes not loaded.
    static constexpr qint64 maxReviewBytes = 1024 * 1024;

    struct Result
    {
        QList<ShellWrite> changes; ///< sorted by path; a directory before what it contains
        QString error;             ///< set when the upper layer could not be read
    };
    /// \a root: the real tree (the lower layer); \a upper: the overlay's upper directory.
    static Result compute(const QString &root, const QString &upper);
};

} // namespace AgentCore
