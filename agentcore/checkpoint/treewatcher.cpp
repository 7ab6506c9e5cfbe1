#include "treewatcher.h"

#include <QFile>
#include <QStringList>

#ifdef Q_OS_LINUX
#    include <dirent.h>
#    include <fcntl.h>
#    include <sys/inotify.h>
#    include <sys/stat.h>
#    include <unistd.h>

#    include <atomic>
#    include <cerrno>
#    include <cstring>
#endif

#include <utility>

namespace AgentCore {

namespace {

#ifdef Q_OS_LINUX
// What changes a file or a folder in a way a snapshot stores: bytes, the executable bit, a
// link's target, its existence and its name. IN_ONLYDIR: a folder replaced by a file between
// the read and the watch is not watched as one; IN_DONT_FOLLOW: links are stored as links.
constexpr uint32_t watchMask = IN_CREATE | IN_DELETE | IN_MODIFY | IN_ATTRIB | IN_MOVED_FROM
                               | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR
                               | IN_DONT_FOLLOW;

// Entries whose change alters which files a snapshot covers, or that belong to a repository
// of their own: no path list can say what they changed.
bool unclassifiable(const QString &name)
{
    return name == QLatin1String(".git") || name == QLatin1String(".gitignore")
           || name == QLatin1String(".gitmodules");
}
#endif

QString join(const QString &folder, const QString &name)
{
    return folder.isEmpty() ? name : folder + QLatin1Char('/') + name;
}

} // namespace

TreeWatcher::TreeWatcher(QString root)
    : m_root(std::move(root))
{}

TreeWatcher::~TreeWatcher()
{
    stop(); // closing the descriptor takes every watch with it
}

bool TreeWatcher::start()
{
    const QMutexLocker locker(&m_mutex);
#ifdef Q_OS_LINUX
    if (m_fd >= 0)
        return true;
    if (m_gaveUp)
        return false;
    m_fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (m_fd < 0) {
        qWarning("checkpoints: cannot watch %s for changes (inotify_init1: %s); every snapshot "
                 "reads the whole tree",
                 qPrintable(m_root),
                 std::strerror(errno));
        return false;
    }
    m_sure = true;
    addTree(QString());
    if (m_gaveUp) {
        stop();
        return false;
    }
    // The first changes are relative to the pass the caller makes now.
    m_changed.clear();
    return true;
#else
    return false;
#endif
}

bool TreeWatcher::isWatching() const
{
    const QMutexLocker locker(&m_mutex);
    return m_fd >= 0;
}

int TreeWatcher::watchCount() const
{
    const QMutexLocker locker(&m_mutex);
    return int(m_pathOf.size());
}

TreeWatcher::Changes TreeWatcher::takeChanges()
{
    const QMutexLocker locker(&m_mutex);
    Changes changes;
    if (m_fd < 0)
        return changes;
    readEvents();
    if (m_gaveUp) {
        stop();
        return changes;
    }
    changes.sure = m_sure;
    changes.paths = std::exchange(m_changed, {});
    m_sure = true;
    return changes;
}

void TreeWatcher::markUnsure()
{
    const QMutexLocker locker(&m_mutex);
    m_sure = false;
}

void TreeWatcher::stop()
{
#ifdef Q_OS_LINUX
    if (m_fd >= 0)
        ::close(m_fd);
#endif
    m_fd = -1;
    m_sure = false;
    m_pathOf.clear();
    m_watchOf.clear();
    m_removed.clear();
    m_changed.clear();
}

// Watches \a relative and every folder below it (not `.git` folders), each watch added before
// its folder is read, so an entry made meanwhile is either read or reported. A watch that
// cannot be added for a reason other than the folder being gone makes the changes unsure;
// the limit of watches reached makes the watcher give up (m_gaveUp).
void TreeWatcher::addTree(const QString &relative)
{
#ifdef Q_OS_LINUX
    QStringList pending{relative};
    while (!pending.isEmpty()) {
        const QString folder = pending.takeLast();
        const QByteArray native = QFile::encodeName(join(m_root, folder));
        const int wd = ::inotify_add_watch(m_fd, native.constData(), watchMask);
        if (wd < 0) {
            if (errno == ENOENT || errno == ENOTDIR)
                continue; // gone, or not a folder: its parent's event names it
            if (errno == ENOSPC) {
                static std::atomic<bool> told = false;
                if (!told.exchange(true)) {
                    qWarning("checkpoints: the limit of inotify watches is reached "
                             "(fs.inotify.max_user_watches), so %s is not watched and every "
                             "snapshot reads the whole tree; raise the limit to make "
                             "snapshots of large trees faster",
                             qPrintable(m_root));
                }
                m_gaveUp = true;
                m_sure = false;
                return;
            }
            qWarning("checkpoints: cannot watch %s (%s); snapshots read the whole tree",
                     native.constData(),
                     std::strerror(errno));
            m_sure = false;
            continue;
        }
        // The same folder watched again (a move back) keeps its descriptor: the path is new.
        if (const auto old = m_pathOf.constFind(wd); old != m_pathOf.cend())
            m_watchOf.remove(*old);
        m_pathOf.insert(wd, folder);
        m_watchOf.insert(folder, wd);
        DIR *dir = ::opendir(native.constData());
        if (!dir) {
            if (errno != ENOENT && errno != ENOTDIR)
                m_sure = false; // unreadable: what is below it is not watched
            continue;
        }
        while (const dirent *entry = ::readdir(dir)) {
            const char *name = entry->d_name;
            if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0
                || std::strcmp(name, ".git") == 0)
                continue;
            bool isDir = entry->d_type == DT_DIR;
            if (entry->d_type == DT_UNKNOWN) {
                struct stat info;
                isDir = ::fstatat(::dirfd(dir), name, &info, AT_SYMLINK_NOFOLLOW) == 0
                        && S_ISDIR(info.st_mode);
            }
            if (isDir)
                pending.append(join(folder, QFile::decodeName(name)));
        }
        ::closedir(dir);
    }
#else
    Q_UNUSED(relative)
#endif
}

// Takes the watches off \a relative and everything below it (moved away: the descriptors
// would go on naming the old paths).
void TreeWatcher::removeTree(const QString &relative)
{
#ifdef Q_OS_LINUX
    const QString prefix = relative + QLatin1Char('/');
    for (auto it = m_watchOf.begin(); it != m_watchOf.end();) {
        if (it.key() == relative || it.key().startsWith(prefix)) {
            ::inotify_rm_watch(m_fd, it.value());
            m_removed.insert(it.value());
            m_pathOf.remove(it.value());
            it = m_watchOf.erase(it);
        } else {
            ++it;
        }
    }
#else
    Q_UNUSED(relative)
#endif
}

void TreeWatcher::readEvents()
{
#ifdef Q_OS_LINUX
    alignas(inotify_event) char buffer[64 * 1024];
    for (;;) {
        const ssize_t got = ::read(m_fd, buffer, sizeof buffer);
        if (got <= 0) {
            if (got < 0 && errno == EINTR)
                continue;
            if (got < 0 && errno != EAGAIN)
                m_sure = false;
            return;
        }
        for (ssize_t at = 0; at < got;) {
            const auto *event = reinterpret_cast<const inotify_event *>(buffer + at);
            at += ssize_t(sizeof(inotify_event)) + event->len;
            if (event->mask & (IN_Q_OVERFLOW | IN_UNMOUNT)) {
                m_sure = false;
                continue;
            }
            if (event->mask & IN_IGNORED) { // the folder is gone, or we took the watch off
                if (const auto gone = m_pathOf.constFind(event->wd); gone != m_pathOf.cend()) {
                    m_watchOf.remove(*gone);
                    m_pathOf.erase(gone);
                }
                m_removed.remove(event->wd);
                continue;
            }
            const auto folder = m_pathOf.constFind(event->wd);
            if (folder == m_pathOf.cend()) {
                if (!m_removed.contains(event->wd))
                    m_sure = false;
                continue;
            }
            if (event->len == 0) { // the watched folder itself
                if (folder->isEmpty() && (event->mask & (IN_DELETE_SELF | IN_MOVE_SELF)))
                    m_sure = false; // the whole tree moved or went away
                else if (!folder->isEmpty())
                    m_changed.insert(*folder);
                continue;
            }
            const QByteArray rawName(event->name);
            const QString name = QFile::decodeName(rawName);
            if (QFile::encodeName(name) != rawName || unclassifiable(name)) {
                m_sure = false;
                continue;
            }
            const QString path = join(*folder, name);
            m_changed.insert(path);
            if (!(event->mask & IN_ISDIR))
                continue;
            if (event->mask & IN_MOVED_FROM)
                removeTree(path);
            else if (event->mask & (IN_CREATE | IN_MOVED_TO | IN_ATTRIB))
                addTree(path); // a folder made readable again is watched again too
        }
    }
#endif
}

} // namespace AgentCore
