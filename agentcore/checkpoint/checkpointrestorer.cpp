#include "checkpointrestorer.h"

#include "snapshotwriter.h"
#include "storefiles.h"
#include "storesession.h"
#include "treediff.h"

#include <utility>

namespace AgentCore {

CheckpointRestorer::CheckpointRestorer(const CheckpointStore &store,
                                       StoreSession &session,
                                       SnapshotBase *base)
    : m_store(store)
    , m_session(session)
    , m_base(base)
{}

RestoreOutcome CheckpointRestorer::restore(const Checkpoint &checkpoint, const QSet<QString> &keep)
{
    RestoreOutcome outcome;
    const QString from = m_session.treeOf(checkpoint.id);
    if (from.isEmpty()) {
        outcome.error = QStringLiteral("the checkpoint %1 is not in the store %2")
                            .arg(checkpoint.id, m_store.gitDir());
        return outcome;
    }
    const QList<SkippedFile> checkpointSkipped = skippedAt(checkpoint);
    if (!recordUndo(checkpoint.sessionId, &outcome))
        return outcome;
    const CheckpointDiff diff = TreeDiff(m_session)
                                    .between(from,
                                             m_session.treeOf(outcome.undo.id),
                                             StoreFiles::skippedPaths(checkpointSkipped)
                                                 + StoreFiles::skippedPaths(outcome.undo.skipped));
    if (!diff.ok()) {
        outcome.error = diff.error;
        return outcome;
    }
    QList<FileSetWriter::Change> changes = plan(diff, blobsAt(from), keep, &outcome);
    if (changes.isEmpty() || !fillContents(&changes, &outcome))
        return outcome;
    write(changes, &outcome);
    return outcome;
}

// The stored checkpoint knows which files it left out; the caller's copy may not.
QList<SkippedFile> CheckpointRestorer::skippedAt(const Checkpoint &checkpoint) const
{
    if (const std::optional<Checkpoint> stored = m_store.find(checkpoint.id))
        return stored->skipped;
    return checkpoint.skipped;
}

// The state before the restore, as a checkpoint of the session: restoring it undoes the
// restore. Without it nothing is changed.
bool CheckpointRestorer::recordUndo(const QString &sessionId, RestoreOutcome *outcome)
{
    Checkpoint undoRequest;
    undoRequest.sessionId = sessionId;
    undoRequest.reason = Checkpoint::Reason::BeforeRestore;
    const CheckpointOutcome undo = SnapshotWriter(m_session, m_base).commit(undoRequest);
    if (!undo.ok()) {
        outcome->error = QStringLiteral("could not record the state before the rewind, so "
                                        "nothing was changed: %1")
                             .arg(undo.error);
        return false;
    }
    outcome->undo = *undo.checkpoint;
    return true;
}

// Path -> blob of every file in \a tree.
QHash<QString, QString> CheckpointRestorer::blobsAt(const QString &tree) const
{
    const ShadowGit::Result listed = m_session.git().run({QStringLiteral("ls-tree"),
                                                          QStringLiteral("-r"),
                                                          QStringLiteral("-z"),
                                                          QStringLiteral("--full-tree"),
                                                          tree});
    QHash<QString, QString> blobOf;
    for (const QByteArray &line : StoreFiles::splitNul(listed.out)) {
        const qsizetype tab = line.indexOf('\t');
        const QList<QByteArray> fields = line.left(tab).split(' ');
        if (tab > 0 && fields.size() == 3)
            blobOf.insert(QString::fromUtf8(line.mid(tab + 1)), QString::fromLatin1(fields.at(2)));
    }
    return blobOf;
}

// One change for each file of \a diff to write back or delete; a write's source is its blob
// until fillContents() puts the bytes in. The files kept, and the ones that cannot be
// restored, go to \a outcome.
QList<FileSetWriter::Change> CheckpointRestorer::plan(const CheckpointDiff &diff,
                                                      const QHash<QString, QString> &blobOf,
                                                      const QSet<QString> &keep,
                                                      RestoreOutcome *outcome) const
{
    QList<FileSetWriter::Change> changes;
    for (const CheckpointFileChange &change : diff.files) {
        if (keep.contains(change.path)) {
            outcome->kept.append(change.path);
            continue;
        }
        if (change.path.section(QLatin1Char('/'), 0, 0) == QLatin1String(".git")) {
            outcome->failed.append(
                QStringLiteral("%1: not a path inside the working tree").arg(change.path));
            continue;
        }
        FileSetWriter::Change write;
        write.path = change.path;
        if (change.kind == CheckpointFileChange::Kind::Added) {
            write.kind = FileSetWriter::Change::Kind::Delete;
            write.removeEmptyParents = true;
        } else {
            const QString blob = blobOf.value(change.path);
            if (blob.isEmpty()) {
                outcome->failed.append(
                    QStringLiteral("%1: not found in the checkpoint").arg(change.path));
                continue;
            }
            write.kind = change.oldMode == 0120000 ? FileSetWriter::Change::Kind::Link
                                                   : FileSetWriter::Change::Kind::File;
            write.mode = change.oldMode == 0100755 ? 0755 : 0644;
            write.likeExisting = true; // git keeps only the executable bit
            write.source = blob;       // replaced by the bytes in fillContents()
        }
        changes.append(write);
    }
    return changes;
}

// The checkpoint's bytes for every write, through one `git cat-file --batch`.
bool CheckpointRestorer::fillContents(QList<FileSetWriter::Change> *changes,
                                      RestoreOutcome *outcome) const
{
    QStringList blobs;
    for (const FileSetWriter::Change &change : std::as_const(*changes)) {
        if (change.kind != FileSetWriter::Change::Kind::Delete)
            blobs.append(change.source);
    }
    QString problem;
    const QHash<QString, QByteArray> contents = m_session.readBlobs(blobs, &problem);
    if (!problem.isEmpty()) {
        outcome->error = QStringLiteral("could not read the checkpoint's files, so nothing was "
                                        "changed: %1")
                             .arg(problem);
        return false;
    }
    for (FileSetWriter::Change &change : *changes) {
        if (change.kind != FileSetWriter::Change::Kind::Delete)
            change.bytes = contents.value(std::exchange(change.source, QString()));
    }
    return true;
}

void CheckpointRestorer::write(const QList<FileSetWriter::Change> &changes,
                               RestoreOutcome *outcome) const
{
    const FileSetWriter::Outcome written = FileSetWriter(StoreFiles::journalFolder(m_store.gitDir()))
                                               .write(m_store.workTree(), changes);
    if (!written.error.isEmpty()) {
        outcome->error = QStringLiteral("could not write the restore's journal, so nothing was "
                                        "changed: %1")
                             .arg(written.error);
        return;
    }
    for (int i = 0; i < changes.size(); ++i) {
        const FileSetWriter::Change &change = changes.at(i);
        if (written.failed.contains(i))
            outcome->failed.append(
                QStringLiteral("%1: %2").arg(change.path, written.failed.value(i)));
        else if (change.kind == FileSetWriter::Change::Kind::Delete)
            outcome->deleted.append(change.path);
        else
            outcome->written.append(change.path);
    }
}

} // namespace AgentCore
