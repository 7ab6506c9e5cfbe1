#pragma once

#include "shadowgit.h"

#include <QHash>
#include <QLockFile>
#include <QString>
#include <QStringList>

namespace AgentCore {

class CheckpointStore;

/// One operation on a checkpoint store: open() creates the store when needed, takes its lock
/// file (held until the session ends) and finishes a restore a crash interrupted; then the
/// session runs the store's git and reads what the store holds. Every git run of the session
/// logs the stale locks it removed (repairs()).
class StoreSession final
{
public:
    explicit StoreSession(const CheckpointStore &store);
    StoreSession(const StoreSession &) = delete;
    StoreSession &operator=(const StoreSession &) = delete;

    /// Empty on success, else for people why the store cannot be used. \a recovered: the paths
    /// an interrupted restore's journal wrote or deleted.
    QString open(QStringList *recovered = nullptr);

    const CheckpointStore &store() const { return m_store; }
    /// The store's git, on the working tree and the shadow index.
    const ShadowGit &git() const { return m_git; }
    /// The store's git on another work tree or index file (a nested repository's), logging its
    /// repairs with the session's.
    ShadowGit gitFor(const QString &workTree, const QString &indexFile);
    /// The stale locks the session's git runs removed, for people.
    QString repairs() const { return m_repairs.join(QStringLiteral("; ")); }

    /// The commit \a ref points at, empty when there is none. Read from the store's files
    /// (a loose ref, else packed-refs): no process for each checkpoint.
    QString refTarget(const QString &ref) const;
    /// The tree of \a commit, empty when the store does not have it.
    QString treeOf(const QString &commit) const;
    /// The objects' contents through one `git cat-file --batch`; \a error set when it failed.
    QHash<QString, QByteArray> readBlobs(const QStringList &blobs, QString *error) const;

private:
    QString makeFolder() const;
    QString takeLock();
    QString makeRepository() const;
    QStringList finishInterruptedRestore() const;

    const CheckpointStore &m_store;
    ShadowGit m_git;
    QLockFile m_lock;
    QStringList m_repairs; ///< what the git runs repaired (stale locks removed)
};

} // namespace AgentCore
