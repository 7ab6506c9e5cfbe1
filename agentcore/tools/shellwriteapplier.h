#pragma once

#include "shellwrite.h"

#include <QHash>
#include <QList>
#include <QString>

namespace AgentCore {

/// Brings the accepted part of a command's writes (ShellWrites::compute) into the real tree so
/// that a crash or kill -9 at any moment leaves each file either as it was or as accepted:
/// the review's verdicts become a set of changes for FileSetWriter (checkpoint/), the one
/// journalled writer, which stages, commits a journal and renames; replay(), at start,
/// finishes a committed journal or removes the temporary files of one that was not.
/// Blocking; applies of several agents or processes may share a journal directory (see
/// FileSetWriter). Symbolic links are written as links,
/// never followed, and nothing is written through one.
class ShellWriteApplier final
{
public:
    /// The reviewer's verdict on one change (by index into the changes).
    struct Choice
    {
        bool accepted = false;
        QList<int> rejectedHunks; ///< for a change with hunks: the ones left out
    };
    struct Outcome
    {
        QList<int> applied;         ///< indexes of the changes written (wholly or partly)
        QHash<int, QString> failed; ///< index -> why nothing of it was written
        QString error;              ///< nothing was written at all (journal not writable, ...)
    };

    /// \a journalDirectory: where the journals live (AgentDesk's data folder); created.
    explicit ShellWriteApplier(QString journalDirectory);

    /// Applies the accepted \a changes of \a choices (missing entries: rejected) to \a root.
    /// A change whose target is no longer as the command found it (edited since) is refused
    /// and reported in Outcome::failed. A deleted directory is removed only when everything
    /// in it went too.
    Outcome apply(const QString &root,
                  const QList<ShellWrite> &changes,
                  const QHash<int, Choice> &choices) const;

    /// Finishes (committed) or rolls back (not committed) every journal left in
    /// \a journalDirectory by an apply that did not end. Returns one line per journal
    /// replayed, for the log.
    static QStringList replay(const QString &journalDirectory);

    /// The bytes a change leaves with \a rejectedHunks left out: its own bytes with only the
    /// kept hunks spliced in.
    static QByteArray keptBytes(const ShellWrite &change, const QList<int> &rejectedHunks);

private:
    QString m_directory;
};

} // namespace AgentCore
