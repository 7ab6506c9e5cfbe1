#include "snapshotwriter.h"

#include "ignorerules.h"
#include "incrementalsnapshot.h"
#include "snapshotbase.h"
#include "storefiles.h"
#include "storesession.h"

namespace AgentCore {

SnapshotWriter::SnapshotWriter(StoreSession &session, SnapshotBase *base)
    : m_session(session)
    , m_base(base)
{}

Snapshot SnapshotWriter::snapshot()
{
    FullSnapshot full(m_session);
    if (!m_base)
        return full.take();
    {
        const QMutexLocker locker(&m_base->mutex);
        m_base->tree.clear();
        m_base->rules = IgnoreRules::outsideRules(m_session.store().workTree());
        if (m_base->watcher.start())
            m_base->watcher.takeChanges();
    }
    const Snapshot snapshot = full.take();
    const QMutexLocker locker(&m_base->mutex);
    if (snapshot.error.isEmpty() && !full.hasNestedRepositories())
        m_base->tree = snapshot.tree;
    return snapshot;
}

CheckpointOutcome SnapshotWriter::commit(Checkpoint checkpoint)
{
    if (m_base) {
        if (std::optional<CheckpointOutcome> quick = IncrementalSnapshot(m_session, *m_base)
                                                         .commit(checkpoint))
            return *quick;
    }
    const Snapshot snapshot = this->snapshot();
    if (!snapshot.error.isEmpty()) {
        CheckpointOutcome outcome;
        outcome.error = snapshot.error;
        return outcome;
    }
    return commitTree(checkpoint, snapshot);
}

// The session's chain moves on (only from the parent it was built on), and HEAD, the tree the
// next snapshot's status compares the index with, becomes this checkpoint.
CheckpointOutcome SnapshotWriter::commitTree(Checkpoint checkpoint, const Snapshot &snapshot)
{
    CheckpointOutcome outcome;
    checkpoint.time = QDateTime::currentDateTimeUtc();
    checkpoint.skipped = snapshot.skipped;
    const QString ref = StoreFiles::sessionRef(checkpoint.sessionId);
    const QString parentId = m_session.refTarget(ref);
    QStringList args{QStringLiteral("commit-tree"), snapshot.tree};
    if (!parentId.isEmpty())
        args << QStringLiteral("-p") << parentId;
    args << QStringLiteral("-F") << QStringLiteral("-");
    const ShadowGit &git = m_session.git();
    const ShadowGit::Result made = git.run(args,
                                           StoreFiles::commitMessage(checkpoint,
                                                                     m_session.store().workTree()));
    if (!made.ok()) {
        outcome.error = made.problem();
        return outcome;
    }
    checkpoint.id = QString::fromLatin1(made.out.trimmed());
    const QString expected = parentId.isEmpty() ? QString(checkpoint.id.size(), QLatin1Char('0'))
                                                : parentId;
    const QByteArray updates = QStringLiteral("update %1 %2 %3\noption no-deref\nupdate HEAD %2\n")
                                   .arg(ref, checkpoint.id, expected)
                                   .toUtf8();
    const ShadowGit::Result updated = git.run({QStringLiteral("update-ref"),
                                               QStringLiteral("--stdin")},
                                              updates);
    if (!updated.ok()) {
        outcome.error = updated.problem();
        return outcome;
    }
    outcome.checkpoint = checkpoint;
    return outcome;
}

} // namespace AgentCore
