#include "toolworkspace.h"
#include "translation.h"

#include "toollogdirectory.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMutexLocker>
#include <QSaveFile>

namespace AgentCore {

ToolWorkspace::ToolWorkspace(const QString &root, const QString &logDirectory)
    : m_root(canonicalPath(root))
    , m_logDirectory(logDirectory)
{}

QString ToolWorkspace::logDirectory() const
{
    if (m_logDirectory.isEmpty())
        return ToolLogDirectory::processDirectory();
    QDir().mkpath(m_logDirectory);
    return m_logDirectory;
}

CommandEnvironment ToolWorkspace::commandEnvironment() const
{
    QMutexLocker locker(&m_mutex);
    return m_commandEnvironment;
}

void ToolWorkspace::setCommandEnvironment(const CommandEnvironment &environment)
{
    QMutexLocker locker(&m_mutex);
    m_commandEnvironment = environment;
}

SandboxPolicy ToolWorkspace::sandboxPolicy() const
{
    QMutexLocker locker(&m_mutex);
    return m_sandboxPolicy;
}

void ToolWorkspace::setSandboxPolicy(const SandboxPolicy &policy)
{
    QMutexLocker locker(&m_mutex);
    m_sandboxPolicy = policy;
}

void ToolWorkspace::setPictures(PictureScaler scaler, const PictureLimits &limits)
{
    m_pictureScaler = std::move(scaler);
    m_pictureLimits = limits;
}

void ToolWorkspace::setSandboxNotice(std::function<void(const QString &)> notice)
{
    QMutexLocker locker(&m_mutex);
    m_sandboxNotice = std::move(notice);
}

void ToolWorkspace::noteSandboxUnavailable(const QString &message)
{
    std::function<void(const QString &)> notice;
    {
        QMutexLocker locker(&m_mutex);
        if (m_sandboxNoticeGiven)
            return;
        m_sandboxNoticeGiven = true;
        notice = m_sandboxNotice;
    }
    if (notice)
        notice(message);
}

void ToolWorkspace::setPathGuard(PathGuard guard)
{
    QMutexLocker locker(&m_mutex);
    m_guard = std::move(guard);
}

QString ToolWorkspace::defaultGuard(const QString &root, const ResolvedPath &path, PathAccess access)
{
    if (access == PathAccess::Read)
        return {};
    if (!path.insideRoot) {
        return ToolsTr::tr(
                   "%1 is outside the repository (%2); only files inside the repository can "
                   "be changed.")
            .arg(path.path, root);
    }
    if (path.relative == QLatin1String(".git") || path.relative.startsWith(QLatin1String(".git/")))
        return ToolsTr::tr("%1 is inside .git/; git's own files are never changed by tools.")
            .arg(path.relative);
    return {};
}

ResolvedPath ToolWorkspace::resolve(const QString &input, PathAccess access) const
{
    ResolvedPath result;
    QString path = input.trimmed();
    if (path.isEmpty()) {
        result.error = ToolsTr::tr("The path is empty.");
        return result;
    }
    if (path == QLatin1String("~") || path.startsWith(QLatin1String("~/")))
        path = QDir::homePath() + path.mid(1);
    const QString absolute = QDir::cleanPath(
        QDir::isAbsolutePath(path) ? path : m_root + QLatin1Char('/') + path);

    // Canonicalise the deepest part that exists, so a symlink anywhere on the way is followed
    // to where a write would really land.
    QString existing = absolute;
    QStringList missing;
    for (;;) {
        const QFileInfo info(existing);
        if (info.exists())
            break;
        if (info.isSymLink()) {
            result.error = ToolsTr::tr("%1 is a symbolic link to a missing target (%2).")
                               .arg(existing, info.symLinkTarget());
            return result;
        }
        const QString parent = info.path();
        if (parent == existing)
            break;
        missing.prepend(info.fileName());
        existing = parent;
    }
    QString canonical = QFileInfo(existing).canonicalFilePath();
    if (canonical.isEmpty())
        canonical = existing;
    result.exists = missing.isEmpty();
    if (!missing.isEmpty())
        canonical = QDir::cleanPath(canonical + QLatin1Char('/') + missing.join(QLatin1Char('/')));
    result.path = canonical;

    const QString prefix = m_root.endsWith(QLatin1Char('/')) ? m_root : m_root + QLatin1Char('/');
    if (canonical == m_root) {
        result.insideRoot = true;
    } else if (canonical.startsWith(prefix)) {
        result.insideRoot = true;
        result.relative = canonical.mid(prefix.size());
    }

    // A path in the repository that a symbolic link leads out of it: no tool follows it, in
    // any mode. Bypass skips the question a read outside asks; this is no question, so a
    // link the repository brought cannot hand its target to the model unasked.
    if (!result.insideRoot && (absolute == m_root || absolute.startsWith(prefix))) {
        result.error = ToolsTr::tr(
                           "%1 leads out of the repository through a symbolic link (to %2); "
                           "tools do not follow links out of the repository, in any mode. "
                           "Name %2 itself to use it (reading outside the repository asks).")
                           .arg(absolute.mid(prefix.size()), canonical);
        return result;
    }

    PathGuard guard;
    {
        QMutexLocker locker(&m_mutex);
        guard = m_guard;
    }
    result.error = guard ? guard(result, access) : defaultGuard(m_root, result, access);
    return result;
}

FileSnapshot ToolWorkspace::snapshotOf(const QByteArray &bytes, const QDateTime &modified)
{
    FileSnapshot snapshot;
    snapshot.size = bytes.size();
    snapshot.modified = modified;
    snapshot.hash = QCryptographicHash::hash(bytes, QCryptographicHash::Sha1);
    return snapshot;
}

QString ToolWorkspace::canonicalPath(const QString &path)
{
    const QString canonical = QFileInfo(path).canonicalFilePath();
    return canonical.isEmpty() ? QDir::cleanPath(QDir(path).absolutePath()) : canonical;
}

std::optional<FileSnapshot> ToolWorkspace::snapshot(const QString &absolutePath)
{
    QFile file(absolutePath);
    const QFileInfo info(absolutePath);
    if (!info.isFile() || !file.open(QIODevice::ReadOnly))
        return std::nullopt;
    return snapshotOf(file.readAll(), info.lastModified());
}

void ToolWorkspace::recordRead(const QString &absolutePath, const FileSnapshot &snapshot)
{
    QMutexLocker locker(&m_mutex);
    m_reads.insert(absolutePath, snapshot);
}

std::optional<FileSnapshot> ToolWorkspace::lastRead(const QString &absolutePath) const
{
    QMutexLocker locker(&m_mutex);
    const auto it = m_reads.constFind(absolutePath);
    if (it == m_reads.constEnd())
        return std::nullopt;
    return *it;
}

void ToolWorkspace::forget(const QString &absolutePath)
{
    QMutexLocker locker(&m_mutex);
    m_reads.remove(absolutePath);
}

QString ToolWorkspace::writeFile(const ResolvedPath &path, const QByteArray &bytes)
{
    // Before the write: whatever happens to it, no earlier Read shows the file as it is now.
    m_readLedger.forget(path.path);
    const QFileInfo info(path.path);
    if (!QDir().mkpath(info.path()))
        return ToolsTr::tr("Cannot create the directory %1.").arg(info.path());
    QSaveFile file(path.path);
    // A directory we may write files in but not create files in still gets the change.
    file.setDirectWriteFallback(true);
    if (!file.open(QIODevice::WriteOnly))
        return ToolsTr::tr("Cannot write %1: %2").arg(path.displayPath(), file.errorString());
    if (file.write(bytes) != bytes.size() || !file.commit())
        return ToolsTr::tr("Cannot write %1: %2").arg(path.displayPath(), file.errorString());
    recordRead(path.path, snapshotOf(bytes, QFileInfo(path.path).lastModified()));
    return {};
}

QString ToolWorkspace::checkFreshness(const ResolvedPath &path, const QByteArray &bytes) const
{
    if (!path.exists)
        return {};
    const std::optional<FileSnapshot> read = lastRead(path.path);
    if (!read) {
        return ToolsTr::tr(
                   "%1 has not been read in this session. Read it with the Read tool first, "
                   "then retry.")
            .arg(path.displayPath());
    }
    // The content decides: a touched but unchanged file is still safe to edit.
    if (read->size != bytes.size()
        || read->hash != QCryptographicHash::hash(bytes, QCryptographicHash::Sha1)) {
        return ToolsTr::tr(
                   "%1 has changed since you last read it (by a command, or outside AgentDesk). "
                   "Read it again, then retry.")
            .arg(path.displayPath());
    }
    return {};
}

} // namespace AgentCore
