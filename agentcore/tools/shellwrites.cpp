#include "shellwrites.h"
#include "shellwritefiles.h"
#include "translation.h"

#include "textfile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QSet>

#include <algorithm>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

namespace AgentCore {

namespace {

using ShellWriteFiles::encoded;
using ShellWriteFiles::linkTarget;
using ShellWriteFiles::readAll;

bool xattrIs(const QString &path, const char *suffix, char value)
{
    const QByteArray name = encoded(path);
    for (const char *space : {"trusted.", "user."}) {
        const QByteArray attribute = QByteArray(space) + suffix;
        char buffer[4] = {};
        const ssize_t n = ::lgetxattr(name.constData(),
                                      attribute.constData(),
                                      buffer,
                                      sizeof buffer);
        if (n >= 1 && buffer[0] == value)
            return true;
        if (n == 0 && value == 0)
            return true;
    }
    return false;
}

bool isWhiteout(const QString &path, const struct stat &info)
{
    if (S_ISCHR(info.st_mode) && major(info.st_rdev) == 0 && minor(info.st_rdev) == 0)
        return true;
    // Newer kernels can also mark a whiteout with an xattr on an empty regular file.
    return S_ISREG(info.st_mode) && info.st_size == 0 && xattrIs(path, "overlay.whiteout", 0);
}

bool isOpaque(const QString &path)
{
    return xattrIs(path, "overlay.opaque", 'y');
}

struct State
{
    ShellWrite::Type type = ShellWrite::Type::None;
    uint mode = 0;
    qint64 size = 0;
    QString path; ///< where it is (lower or upper)
};

State stateOf(const QString &path)
{
    struct stat info;
    if (::lstat(encoded(path).constData(), &info) != 0)
        return {};
    State state;
    state.path = path;
    state.mode = info.st_mode & 07777;
    state.size = info.st_size;
    if (S_ISREG(info.st_mode))
        state.type = ShellWrite::Type::File;
    else if (S_ISDIR(info.st_mode))
        state.type = ShellWrite::Type::Directory;
    else if (S_ISLNK(info.st_mode))
        state.type = ShellWrite::Type::Symlink;
    else
        state.type = ShellWrite::Type::Other;
    return state;
}

class Walker
{
public:
    Walker(QString root, QString upper)
        : m_root(std::move(root))
        , m_upper(std::move(upper))
    {}

    QString lower(const QString &relative) const { return m_root + QLatin1Char('/') + relative; }
    QString upperPath(const QString &relative) const
    {
        return m_upper + QLatin1Char('/') + relative;
    }

    // Every path the upper layer touches, and everything below a path it hides.
    bool collect(const QString &relative, QString *error)
    {
        const QString directory = relative.isEmpty() ? m_upper : upperPath(relative);
        QDir dir(directory);
        if (!dir.exists()) {
            *error = ToolsTr::tr("cannot read the overlay's upper layer %1").arg(directory);
            return false;
        }
        const QStringList names = dir.entryList(QDir::AllEntries | QDir::Hidden | QDir::System
                                                | QDir::NoDotAndDotDot);
        for (const QString &name : names) {
            const QString path = relative.isEmpty() ? name : relative + QLatin1Char('/') + name;
            const QString inUpper = upperPath(path);
            struct stat info;
            if (::lstat(encoded(inUpper).constData(), &info) != 0)
                continue;
            m_touched.insert(path);
            if (isWhiteout(inUpper, info)) {
                addLowerBelow(path);
                continue;
            }
            if (S_ISDIR(info.st_mode)) {
                if (isOpaque(inUpper) || stateOf(lower(path)).type != ShellWrite::Type::Directory)
                    addLowerBelow(path);
                if (!collect(path, error))
                    return false;
            } else if (stateOf(lower(path)).type == ShellWrite::Type::Directory) {
                addLowerBelow(path);
            }
        }
        return true;
    }

    // What the merged view shows at \a relative.
    State merged(const QString &relative) const
    {
        const QStringList parts = relative.split(QLatin1Char('/'));
        QString prefix;
        bool upperOnly = false;
        for (int i = 0; i < parts.size(); ++i) {
            prefix = i == 0 ? parts[0] : prefix + QLatin1Char('/') + parts[i];
            const bool last = i == parts.size() - 1;
            const QString inUpper = upperPath(prefix);
            struct stat info;
            if (::lstat(encoded(inUpper).constData(), &info) == 0) {
                if (isWhiteout(inUpper, info))
                    return {};
                if (last)
                    return stateOf(inUpper);
                if (!S_ISDIR(info.st_mode))
                    return {};
                if (isOpaque(inUpper) || stateOf(lower(prefix)).type != ShellWrite::Type::Directory)
                    upperOnly = true;
                continue;
            }
            if (upperOnly)
                return {};
            const State below = stateOf(lower(prefix));
            if (last)
                return below;
            if (below.type != ShellWrite::Type::Directory)
                return {};
        }
        return {};
    }

    QStringList touched() const
    {
        QStringList paths(m_touched.begin(), m_touched.end());
        // A directory before what it contains: compare with '/' sorting first.
        std::sort(paths.begin(), paths.end(), [](const QString &a, const QString &b) {
            return a.split(QLatin1Char('/')) < b.split(QLatin1Char('/'));
        });
        return paths;
    }

private:
    void addLowerBelow(const QString &relative)
    {
        const State state = stateOf(lower(relative));
        if (state.type != ShellWrite::Type::Directory)
            return;
        const QStringList names = QDir(lower(relative))
                                      .entryList(QDir::AllEntries | QDir::Hidden | QDir::System
                                                 | QDir::NoDotAndDotDot);
        for (const QString &name : names) {
            const QString path = relative + QLatin1Char('/') + name;
            m_touched.insert(path);
            addLowerBelow(path);
        }
    }

    QString m_root;
    QString m_upper;
    QSet<QString> m_touched;
};

bool sameFile(const State &a, const State &b)
{
    if (a.size != b.size)
        return false;
    QFile left(a.path);
    QFile right(b.path);
    if (!left.open(QIODevice::ReadOnly) || !right.open(QIODevice::ReadOnly))
        return false;
    while (!left.atEnd()) {
        if (left.read(1 << 16) != right.read(1 << 16))
            return false;
    }
    return true;
}

} // namespace

ShellWrites::Result ShellWrites::compute(const QString &root, const QString &upper)
{
    Result result;
    Walker walker(root, upper);
    if (!walker.collect({}, &result.error))
        return result;
    using Type = ShellWrite::Type;
    for (const QString &path : walker.touched()) {
        const State before = stateOf(walker.lower(path));
        const State after = walker.merged(path);
        if (before.type == Type::None && after.type == Type::None)
            continue;
        bool contentChanged = true;
        if (before.type == after.type) {
            contentChanged = (before.type == Type::Symlink
                              && linkTarget(before.path) != linkTarget(after.path))
                             || (before.type == Type::File && !sameFile(before, after));
            if (!contentChanged && before.mode == after.mode)
                continue;
        }
        ShellWrite change;
        change.contentChanged = contentChanged;
        change.path = path;
        change.oldType = before.type;
        change.newType = after.type;
        change.oldMode = before.mode;
        change.newMode = after.mode;
        change.oldSize = before.type == Type::File ? before.size : 0;
        change.newSize = after.type == Type::File ? after.size : 0;
        if (before.type == Type::Symlink)
            change.oldBytes = linkTarget(before.path);
        if (after.type == Type::Symlink)
            change.newBytes = linkTarget(after.path);
        if (after.type == Type::File)
            change.newSource = after.path;
        const bool text = (before.type == Type::File || before.type == Type::None)
                          && (after.type == Type::File || after.type == Type::None)
                          && before.size <= maxReviewBytes && after.size <= maxReviewBytes;
        if (text) {
            const QByteArray oldBytes = before.type == Type::File ? readAll(before.path)
                                                                  : QByteArray();
            const QByteArray newBytes = after.type == Type::File ? readAll(after.path)
                                                                 : QByteArray();
            if (!TextFile::looksBinary(oldBytes) && !TextFile::looksBinary(newBytes)) {
                change.oldBytes = oldBytes;
                change.newBytes = newBytes;
                change.newSource.clear();
                // Deleted and added files are whole too, but a diff shows what they held.
                change.whole = before.type != Type::File || after.type != Type::File;
                change.diff = UnifiedDiff::compute(QString::fromUtf8(oldBytes),
                                                   QString::fromUtf8(newBytes));
            }
        }
        result.changes.append(change);
    }
    return result;
}

} // namespace AgentCore
