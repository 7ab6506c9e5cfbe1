#pragma once

#include "checkpoint.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QSet>
#include <QString>

#include <sys/stat.h>

namespace AgentCore {

/// What the paths a TreeWatcher named are now, read from the tree without the shadow index:
/// the files and links to store (a folder that appeared is read whole), the paths gone, the
/// files left out. Nothing is followed through a link. When a path is something only the full
/// pass can judge (a file crossed the size cap either way or became readable or unreadable,
/// a nested `.git`, a pipe or device, too many paths), scan() says so and the incremental
/// snapshot gives way to the full pass.
class ChangedPathScan final
{
public:
    struct Entry
    {
        QByteArray path;
        int mode = 0; ///< 0100644, 0100755, 0120000
    };

    /// \a workTree ends in '/'. \a leftOut: the files the last snapshot left out.
    ChangedPathScan(QString workTree,
                    qint64 maxFileBytes,
                    QSet<QByteArray> leftOut,
                    qsizetype maxPaths);

    /// Reads each of \a named (relative paths); false: only the full pass can say.
    bool scan(const QList<QByteArray> &named);

    const QList<Entry> &entries() const { return m_entries; }
    /// Paths to delete from the previous tree (a folder's: its whole subtree).
    const QList<QByteArray> &deleted() const { return m_deleted; }
    const QList<SkippedFile> &skipped() const { return m_skipped; }

private:
    bool take(const QByteArray &path, bool named);
    bool takeFile(const QByteArray &path, const QByteArray &native, const struct ::stat &info);
    bool takeFolder(const QByteArray &path, const QByteArray &native, bool named);
    /// Every folder on \a path's way is a folder (not a link, not gone).
    bool reachable(const QByteArray &path);

    QString m_workTree;
    qint64 m_maxFileBytes;
    QSet<QByteArray> m_leftOut;
    qsizetype m_maxPaths;
    QList<QByteArray> m_deleted;
    QList<Entry> m_entries;
    QList<SkippedFile> m_skipped;
    QHash<QByteArray, bool> m_folderIsReal;
};

} // namespace AgentCore
