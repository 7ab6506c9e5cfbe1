#pragma once

#include "checkpointstore.h"
#include "filesetwriter.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>

namespace AgentCore {

class StoreSession;
struct SnapshotBase;

/// Brings a working tree back to one of its checkpoints (CheckpointStore::restore): records
/// the state now first (the undo), then writes back every file that differs, except the ones
/// the caller keeps and the ones the checkpoint does not cover, through a FileSetWriter (a
/// journal in the store, replayed after a crash).
class CheckpointRestorer final
{
public:
    /// \a session: open. \a base: the store's (null: no watcher).
    CheckpointRestorer(const CheckpointStore &store, StoreSession &session, SnapshotBase *base);

    RestoreOutcome restore(const Checkpoint &checkpoint, const QSet<QString> &keep);

private:
    QList<SkippedFile> skippedAt(const Checkpoint &checkpoint) const;
    bool recordUndo(const QString &sessionId, RestoreOutcome *outcome);
    QHash<QString, QString> blobsAt(const QString &tree) const;
    QList<FileSetWriter::Change> plan(const CheckpointDiff &diff,
                                      const QHash<QString, QString> &blobOf,
                                      const QSet<QString> &keep,
                                      RestoreOutcome *outcome) const;
    bool fillContents(QList<FileSetWriter::Change> *changes, RestoreOutcome *outcome) const;
    void write(const QList<FileSetWriter::Change> &changes, RestoreOutcome *outcome) const;

    const CheckpointStore &m_store;
    StoreSession &m_session;
    SnapshotBase *m_base;
};

} // namespace AgentCore
