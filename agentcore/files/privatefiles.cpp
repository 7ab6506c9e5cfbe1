#include "privatefiles.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>

#include <utility>

#ifdef Q_OS_UNIX
#    include <sys/stat.h>
#endif

namespace AgentCore {

namespace {

#ifdef Q_OS_UNIX
/// The mode of \a path itself (a link is not followed); -1 when it cannot be read.
int modeOf(const QByteArray &path)
{
    struct stat info
    {};
    if (::lstat(path.constData(), &info) != 0)
        return -1;
    return int(info.st_mode);
}
#endif

} // namespace

bool PrivateFiles::makePath(const QString &path)
{
    const QString clean = QDir::cleanPath(QDir(path).absolutePath());
    if (QFileInfo(clean).isDir())
        return true;
    // Made top down, each with its mode given at creation: never a moment readable by others.
    QStringList missing;
    QString folder = clean;
    while (!folder.isEmpty() && !QFileInfo::exists(folder)) {
        missing.prepend(folder);
        const QString parent = QFileInfo(folder).path();
        if (parent == folder)
            break;
        folder = parent;
    }
    for (const QString &create : std::as_const(missing)) {
        if (!QDir().mkdir(create, fileMode | QFileDevice::ExeOwner) && !QFileInfo(create).isDir())
            return false;
    }
    return QFileInfo(clean).isDir();
}

bool PrivateFiles::prepareFile(const QString &path)
{
    QFile file(path);
    if (file.open(QIODevice::WriteOnly | QIODevice::NewOnly, fileMode))
        return true;
    return QFileInfo::exists(path) &&restrict(path);
}

bool PrivateFiles::restrict(const QString &path)
{
#ifdef Q_OS_UNIX
    const QByteArray native = QFile::encodeName(path);
    const int mode = modeOf(native);
    if (mode < 0)
        return false;
    if (S_ISLNK(mode) || (mode & 077) == 0)
        return true;
    return ::chmod(native.constData(), mode_t(mode & 07700)) == 0;
#else
    Q_UNUSED(path)
    return true;
#endif
}

int PrivateFiles::tighten(const QString &root)
{
    int changed = 0;
#ifdef Q_OS_UNIX
    const auto one = [&changed](const QString &path) {
        const int mode = modeOf(QFile::encodeName(path));
        if (mode >= 0 && !S_ISLNK(mode) && (mode & 077) != 0 &&restrict(path))
            ++changed;
    };
    one(root);
    QDirIterator it(root,
                    QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        one(it.next());
#else
    Q_UNUSED(root)
#endif
    return changed;
}

bool PrivateFiles::secureFolder(const QString &root)
{
    if (root.isEmpty())
        return false;
    if (!QFileInfo(root).isDir())
        return makePath(root);
#ifdef Q_OS_UNIX
    const int mode = modeOf(QFile::encodeName(root));
    if (mode >= 0 && (mode & 077) != 0) {
        // The folder's own mode is the mark: once it is 0700, this was done (new files are
        // made private where they are written).
        tighten(root);
    }
    return (modeOf(QFile::encodeName(root)) & 077) == 0;
#else
    return true;
#endif
}

} // namespace AgentCore
