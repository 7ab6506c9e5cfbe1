#pragma once

#include <QHash>
#include <QMutex>
#include <QSet>
#include <QString>

namespace AgentCore {

/// Which paths of a working tree changed since the last time it was asked, from Linux's
/// inotify: a watch on every folder of the tree (not the insides of `.git` folders; links are
/// not followed), so a checkpoint of a large tree need not stat every file (issue #18).
///
/// It only ever errs towards "not sure": an overflow of the kernel's event queue, a watch
/// that could not be added (max_user_watches, said once in the log), an event for a `.git`,
/// `.gitignore` or `.gitmodules` entry, a name that is not valid in the local encoding, the
/// tree's top folder moved or deleted. Then the caller takes the full `git status` pass.
/// A folder that appears gets its watches (its whole subtree, watch first, then read), and
/// is named as changed itself: what it held before its watch is the caller's to read.
///
/// No thread of its own: the kernel queues the events and takeChanges() reads them. Thread-
/// safe. Not on Linux: never sure.
class TreeWatcher final
{
public:
    struct Changes
    {
        bool sure = false;
        /// Relative to the root ("a/b.txt"), files and folders: created, deleted, written,
        /// their mode changed, moved from or to.
        QSet<QString> paths;
    };

    explicit TreeWatcher(QString root);
    ~TreeWatcher();
    TreeWatcher(const TreeWatcher &) = delete;
    TreeWatcher &operator=(const TreeWatcher &) = delete;

    /// Watches every folder of the tree. Call it before the pass that takes the state the
    /// changes are relative to: nothing in between is lost. False: it cannot watch (the
    /// reason is in the log), and every takeChanges() is unsure.
    bool start();
    bool isWatching() const;

    /// The paths changed since start() or the previous call, forgotten once returned.
    Changes takeChanges();
    /// The next takeChanges() is unsure (a snapshot that took the changes and then failed).
    void markUnsure();

    /// How many folders are watched (tests, the benchmark).
    int watchCount() const;

private:
    void stop();
    void addTree(const QString &relative);
    void removeTree(const QString &relative);
    void readEvents();

    mutable QMutex m_mutex;
    QString m_root;
    int m_fd = -1;
    bool m_sure = false;
    bool m_gaveUp = false;        ///< the limit of watches was reached: not tried again
    QHash<int, QString> m_pathOf; ///< watch descriptor -> folder ("" for the root)
    QHash<QString, int> m_watchOf;
    QSet<int> m_removed; ///< watches taken off by us: their last events mean nothing
    QSet<QString> m_changed;
};

} // namespace AgentCore
