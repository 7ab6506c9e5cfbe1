#include "checkpointstore.h"

#include "checkpointrestorer.h"
#include "shadowgit.h"
#include "snapshotbase.h"
#include "snapshotwriter.h"
#include "storefiles.h"
#include "storesession.h"
#include "treediff.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>

#include <utility>

namespace AgentCore {

CheckpointStore::CheckpointStore(QString workTree, QString storeRoot, qint64 maxFileBytes)
    : m_workTree(QDir::cleanPath(std::move(workTree)))
    , m_maxFileBytes(maxFileBytes)
{
    const QString hash = QString::fromLatin1(
        QCryptographicHash::hash(m_workTree.toUtf8(), QCryptographicHash::Sha1).toHex().left(16));
    QString name = QFileInfo(m_workTree).fileName();
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9._-]"));
    name.replace(unsafe, QStringLiteral("_"));
    m_gitDir = QDir::cleanPath(storeRoot) + QLatin1Char('/') + name.left(40) + QLatin1Char('-')
               + hash + QStringLiteral(".git");
    if (!m_gitDir.startsWith(m_workTree + QLatin1Char('/')))
        m_base = std::make_unique<SnapshotBase>(m_workTree);
}

CheckpointStore::~CheckpointStore() = default;

QString CheckpointStore::defaultStoreRoot()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation)
           + QStringLiteral("/checkpoints");
}

CheckpointOutcome CheckpointStore::create(const Checkpoint &request)
{
    StoreSession session(*this);
    if (const QString problem = session.open(); !problem.isEmpty()) {
        CheckpointOutcome outcome;
        outcome.error = problem;
        return outcome;
    }
    CheckpointOutcome outcome = SnapshotWriter(session, m_base.get()).commit(request);
    outcome.repaired = session.repairs();
    return outcome;
}

QList<Checkpoint> CheckpointStore::list(const QString &sessionId) const
{
    QList<Checkpoint> checkpoints;
    if (!QFileInfo::exists(m_gitDir + QStringLiteral("/HEAD")))
        return checkpoints;
    const ShadowGit git(m_gitDir, m_workTree);
    const ShadowGit::Result log = git.run({QStringLiteral("log"),
                                           QStringLiteral("-z"),
                                           QStringLiteral("--format=%H %B"),
                                           StoreFiles::sessionRef(sessionId),
                                           QStringLiteral("--")});
    if (!log.ok())
        return checkpoints;
    for (const QByteArray &record : StoreFiles::splitNul(log.out)) {
        const qsizetype space = record.indexOf(' ');
        if (space < 0)
            continue;
        if (const std::optional<Checkpoint> checkpoint
            = StoreFiles::checkpointFromCommit(QString::fromLatin1(record.left(space)),
                                               record.mid(space + 1)))
            checkpoints.prepend(*checkpoint);
    }
    return checkpoints;
}

std::optional<Checkpoint> CheckpointStore::find(const QString &id) const
{
    if (!QFileInfo::exists(m_gitDir + QStringLiteral("/HEAD")))
        return std::nullopt;
    static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{4,40}$"));
    if (!hex.match(id).hasMatch())
        return std::nullopt;
    const ShadowGit git(m_gitDir, m_workTree);
    const ShadowGit::Result full = git.run({QStringLiteral("rev-parse"),
                                            QStringLiteral("-q"),
                                            QStringLiteral("--verify"),
                                            id + QStringLiteral("^{commit}")});
    if (!full.ok())
        return std::nullopt;
    const QString commit = QString::fromLatin1(full.out.trimmed());
    const ShadowGit::Result message = git.run(
        {QStringLiteral("log"), QStringLiteral("-1"), QStringLiteral("--format=%B"), commit});
    if (!message.ok())
        return std::nullopt;
    return StoreFiles::checkpointFromCommit(commit, message.out);
}

CheckpointDiff CheckpointStore::diff(const Checkpoint &checkpoint) const
{
    CheckpointDiff diff;
    StoreSession session(*this);
    if (const QString problem = session.open(); !problem.isEmpty()) {
        diff.error = problem;
        return diff;
    }
    const QString from = session.treeOf(checkpoint.id);
    if (from.isEmpty()) {
        diff.error = QStringLiteral("the checkpoint %1 is not in the store %2")
                         .arg(checkpoint.id, m_gitDir);
        return diff;
    }
    const Snapshot now = SnapshotWriter(session, m_base.get()).snapshot();
    if (!now.error.isEmpty()) {
        diff.error = now.error;
        return diff;
    }
    return TreeDiff(session).between(from,
                                     now.tree,
                                     StoreFiles::skippedPaths(checkpoint.skipped)
                                         + StoreFiles::skippedPaths(now.skipped));
}

QStringList CheckpointStore::changedPaths(const Checkpoint &from,
                                          const Checkpoint &to,
                                          QString *error) const
{
    QStringList paths;
    static const QRegularExpression oid(QStringLiteral("^[0-9a-f]{40}$"));
    if (!oid.match(from.id).hasMatch() || !oid.match(to.id).hasMatch()
        || !QFileInfo::exists(m_gitDir + QStringLiteral("/HEAD"))) {
        if (error)
            *error = QStringLiteral("the checkpoints %1 and %2 are not in the store %3")
                         .arg(from.id, to.id, m_gitDir);
        return paths;
    }
    // Two commits' trees: stored objects only, nothing of the working tree (as list()).
    const ShadowGit git(m_gitDir, m_workTree);
    const ShadowGit::Result names = git.run({QStringLiteral("diff-tree"),
                                             QStringLiteral("-r"),
                                             QStringLiteral("-z"),
                                             QStringLiteral("--name-only"),
                                             QStringLiteral("--no-renames"),
                                             from.id,
                                             to.id,
                                             QStringLiteral("--")});
    if (!names.ok()) {
        if (error)
            *error = names.problem();
        return paths;
    }
    for (const QByteArray &name : StoreFiles::splitNul(names.out))
        paths.append(QString::fromUtf8(name));
    return paths;
}

RestoreOutcome CheckpointStore::restore(const Checkpoint &checkpoint, const QSet<QString> &keep)
{
    StoreSession session(*this);
    if (const QString problem = session.open(); !problem.isEmpty()) {
        RestoreOutcome outcome;
        outcome.error = problem;
        return outcome;
    }
    return CheckpointRestorer(*this, session, m_base.get()).restore(checkpoint, keep);
}

QStringList CheckpointStore::recoverInterruptedRestore()
{
    StoreSession session(*this);
    QStringList recovered;
    session.open(&recovered);
    return recovered;
}

} // namespace AgentCore
