#include "restorejournal.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <utility>

namespace AgentCore {

namespace {

std::atomic<void (*)(const QString &)> testHook{nullptr};

QString systemError()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

bool writeAll(int fd, const QByteArray &bytes)
{
    qsizetype done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.constData() + done, size_t(bytes.size() - done));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        done += n;
    }
    return true;
}

void syncFolder(const QByteArray &folder)
{
    const int fd = ::open(folder.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

} // namespace

RestoreJournal::RestoreJournal(QString workTree, QList<Entry> entries)
    : m_workTree(std::move(workTree))
    , m_entries(std::move(entries))
{}

bool RestoreJournal::save(const QString &path, QString *error) const
{
    QJsonArray entries;
    for (const Entry &entry : m_entries) {
        QJsonObject object{{QStringLiteral("action"),
                            entry.action == Entry::Action::Write ? QStringLiteral("write")
                                                                 : QStringLiteral("delete")},
                           {QStringLiteral("path"), entry.path}};
        if (entry.action == Entry::Action::Write) {
            object.insert(QStringLiteral("blob"), entry.blob);
            object.insert(QStringLiteral("mode"), entry.mode);
            object.insert(QStringLiteral("temp"), entry.temp);
        }
        entries.append(object);
    }
    const QByteArray bytes = QJsonDocument(QJsonObject{{QStringLiteral("workTree"), m_workTree},
                                                       {QStringLiteral("entries"), entries}})
                                 .toJson(QJsonDocument::Compact);
    const QByteArray temp = QFile::encodeName(path + QStringLiteral(".tmp"));
    const int fd = ::open(temp.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0 || !writeAll(fd, bytes) || ::fsync(fd) != 0) {
        if (error)
            *error = systemError();
        if (fd >= 0)
            ::close(fd);
        ::unlink(temp.constData());
        return false;
    }
    ::close(fd);
    if (::rename(temp.constData(), QFile::encodeName(path).constData()) != 0) {
        if (error)
            *error = systemError();
        ::unlink(temp.constData());
        return false;
    }
    syncFolder(QFile::encodeName(QFileInfo(path).absolutePath()));
    return true;
}

std::optional<RestoreJournal> RestoreJournal::load(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonObject object = QJsonDocument::fromJson(file.readAll()).object();
    const QString workTree = object.value(QStringLiteral("workTree")).toString();
    if (workTree.isEmpty())
        return std::nullopt;
    QList<Entry> entries;
    for (const QJsonValue &value : object.value(QStringLiteral("entries")).toArray()) {
        const QJsonObject item = value.toObject();
        Entry entry;
        entry.action = item.value(QStringLiteral("action")).toString() == QLatin1String("delete")
                           ? Entry::Action::Delete
                           : Entry::Action::Write;
        entry.path = item.value(QStringLiteral("path")).toString();
        entry.blob = item.value(QStringLiteral("blob")).toString();
        entry.mode = item.value(QStringLiteral("mode")).toInt();
        entry.temp = item.value(QStringLiteral("temp")).toString();
        if (!entry.path.isEmpty())
            entries.append(entry);
    }
    return RestoreJournal(workTree, entries);
}

bool RestoreJournal::remove(const QString &path)
{
    return QFile::remove(path) || !QFile::exists(path);
}

QString RestoreJournal::tempPathFor(const QString &path)
{
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    const QString folder = slash < 0 ? QString() : path.left(slash + 1);
    // Short and fixed: a long file name plus a suffix could pass NAME_MAX.
    const QString hash = QString::fromLatin1(
        QCryptographicHash::hash(path.toUtf8(), QCryptographicHash::Sha1).toHex().left(16));
    return folder + QStringLiteral(".agentdesk-restore-") + hash;
}

void RestoreJournal::setTestHook(void (*hook)(const QString &path))
{
    testHook.store(hook);
}

QString RestoreJournal::apply(const Entry &entry, const QByteArray &bytes) const
{
    const QStringList parts = entry.path.split(QLatin1Char('/'));
    if (entry.path.isEmpty() || parts.contains(QStringLiteral("..")) || parts.contains(QString())
        || parts.contains(QStringLiteral(".")) || parts.first() == QLatin1String(".git")) {
        return QStringLiteral("not a path inside the working tree");
    }
    // Every folder on the way must be a real folder of the tree: a link there could lead the
    // write outside the repository.
    QString folder = m_workTree;
    for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
        folder += QLatin1Char('/') + parts.at(i);
        const QByteArray native = QFile::encodeName(folder);
        struct stat info;
        if (::lstat(native.constData(), &info) != 0) {
            if (entry.action == Entry::Action::Delete)
                return {}; // nothing there to delete
            if (::mkdir(native.constData(), 0777) != 0 && errno != EEXIST)
                return QStringLiteral("cannot create the folder %1: %2").arg(folder, systemError());
            continue;
        }
        if (S_ISLNK(info.st_mode))
            return QStringLiteral("%1 is a symbolic link; not followed").arg(folder);
        if (!S_ISDIR(info.st_mode))
            return QStringLiteral("%1 is not a folder").arg(folder);
    }

    const QByteArray target = QFile::encodeName(m_workTree + QLatin1Char('/') + entry.path);
    struct stat current;
    const bool exists = ::lstat(target.constData(), &current) == 0;
    if (entry.action == Entry::Action::Delete) {
        if (!exists)
            return {};
        if (S_ISDIR(current.st_mode) && !S_ISLNK(current.st_mode))
            return ::rmdir(target.constData()) == 0 ? QString() : systemError();
        return ::unlink(target.constData()) == 0 || errno == ENOENT ? QString() : systemError();
    }

    if (exists && S_ISDIR(current.st_mode) && ::rmdir(target.constData()) != 0)
        return QStringLiteral("a folder is in the way: %1").arg(systemError());
    const QByteArray temp = QFile::encodeName(m_workTree + QLatin1Char('/') + entry.temp);
    ::unlink(temp.constData());
    if (entry.mode == 0120000) {
        if (::symlink(bytes.constData(), temp.constData()) != 0)
            return systemError();
    } else {
        const bool executable = entry.mode == 0100755;
        const int fd = ::open(temp.constData(),
                              O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                              executable ? 0777 : 0666);
        if (fd < 0)
            return systemError();
        bool ok = writeAll(fd, bytes);
        // Keep the permissions the file has now (0600, 0664...), with git's executable bit.
        if (ok && exists && S_ISREG(current.st_mode)) {
            mode_t mode = current.st_mode & 07777;
            if (executable)
                mode |= (mode & 0444) >> 2;
            else
                mode &= ~mode_t(0111);
            ok = ::fchmod(fd, mode) == 0;
        }
        ok = ok && ::fsync(fd) == 0;
        const QString problem = ok ? QString() : systemError();
        ::close(fd);
        if (!ok) {
            ::unlink(temp.constData());
            return problem;
        }
    }
    if (auto hook = testHook.load())
        hook(entry.path);
    if (::rename(temp.constData(), target.constData()) != 0) {
        const QString problem = systemError();
        ::unlink(temp.constData());
        return problem;
    }
    return {};
}

void RestoreJournal::removeEmptyParents(const QString &path) const
{
    QString relative = path;
    for (qsizetype slash = relative.lastIndexOf(QLatin1Char('/')); slash > 0;
         slash = relative.lastIndexOf(QLatin1Char('/'))) {
        relative.truncate(slash);
        const QByteArray folder = QFile::encodeName(m_workTree + QLatin1Char('/') + relative);
        struct stat info;
        if (::lstat(folder.constData(), &info) != 0 || !S_ISDIR(info.st_mode)
            || ::rmdir(folder.constData()) != 0) {
            return;
        }
    }
}

} // namespace AgentCore
