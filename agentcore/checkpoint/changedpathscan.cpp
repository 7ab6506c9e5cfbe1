#include "changedpathscan.h"

#include <QFile>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

namespace AgentCore {

ChangedPathScan::ChangedPathScan(QString workTree,
                                 qint64 maxFileBytes,
                                 QSet<QByteArray> leftOut,
                                 qsizetype maxPaths)
    : m_workTree(std::move(workTree))
    , m_maxFileBytes(maxFileBytes)
    , m_leftOut(std::move(leftOut))
    , m_maxPaths(maxPaths)
{}

bool ChangedPathScan::scan(const QList<QByteArray> &named)
{
    for (const QByteArray &path : named) {
        if (!take(path, true))
            return false;
    }
    return true;
}

// What one path is now; false: only the full pass can say. \a named: the watcher named it (not
// found in a folder that appeared).
bool ChangedPathScan::take(const QByteArray &path, bool named)
{
    const QByteArray native = QFile::encodeName(m_workTree + QString::fromUtf8(path));
    // Gone, or beyond what is no folder any more (a link to elsewhere is not followed).
    if (!reachable(path)) {
        if (named)
            m_deleted.append(path);
        return named;
    }
    struct stat info;
    if (::lstat(native.constData(), &info) != 0) {
        const bool gone = errno == ENOENT || errno == ENOTDIR;
        if (named && gone)
            m_deleted.append(path);
        return named && gone;
    }
    if (S_ISLNK(info.st_mode)) {
        m_entries.append({path, 0120000});
        return true;
    }
    if (S_ISREG(info.st_mode))
        return takeFile(path, native, info);
    if (!S_ISDIR(info.st_mode))
        return false; // a pipe, a socket, a device
    return takeFolder(path, native, named);
}

bool ChangedPathScan::takeFile(const QByteArray &path,
                               const QByteArray &native,
                               const struct ::stat &info)
{
    const bool fits = info.st_size <= m_maxFileBytes && ::access(native.constData(), R_OK) == 0;
    if (fits != !m_leftOut.contains(path))
        return false; // crossed the cap, or readable no more or again
    if (fits) {
        m_entries.append({path, (info.st_mode & S_IXUSR) ? 0100755 : 0100644});
        return true;
    }
    SkippedFile file;
    file.path = QString::fromUtf8(path);
    file.size = info.st_size;
    file.why = info.st_size > m_maxFileBytes ? SkippedFile::Why::OverSizeCap
                                             : SkippedFile::Why::Unreadable;
    m_skipped.append(file);
    // Not in the previous tree unless another store's full pass left it out after that tree
    // was made: then it leaves the tree as it left the index.
    m_deleted.append(path);
    return true;
}

// A folder that appeared (or changed its mode): its subtree is replaced by what is in it now.
bool ChangedPathScan::takeFolder(const QByteArray &path, const QByteArray &native, bool named)
{
    if (named)
        m_deleted.append(path);
    DIR *dir = ::opendir(native.constData());
    if (!dir)
        return false;
    bool ok = true;
    while (const dirent *entry = ::readdir(dir)) {
        const QByteArray name(entry->d_name);
        if (name == "." || name == "..")
            continue;
        if (name == ".git" || m_entries.size() > m_maxPaths) {
            ok = false;
            break;
        }
        if (!take(path + '/' + name, false)) {
            ok = false;
            break;
        }
    }
    ::closedir(dir);
    return ok;
}

bool ChangedPathScan::reachable(const QByteArray &path)
{
    for (qsizetype slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
        const QByteArray folder = path.left(slash);
        auto known = m_folderIsReal.constFind(folder);
        if (known == m_folderIsReal.cend()) {
            struct stat info;
            const bool real
                = ::lstat(QFile::encodeName(m_workTree + QString::fromUtf8(folder)).constData(),
                          &info)
                      == 0
                  && S_ISDIR(info.st_mode);
            known = m_folderIsReal.insert(folder, real);
        }
        if (!*known)
            return false;
    }
    return true;
}

} // namespace AgentCore
