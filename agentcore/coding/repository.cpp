#include "repository.h"
#include "translation.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace AgentCore {

namespace {

QByteArray readSmallFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.read(4096).trimmed();
}

// A ".git" entry is a directory, or a file "gitdir: <path>" for worktrees and submodules.
QString resolveGitDir(const QString &dotGit)
{
    const QFileInfo info(dotGit);
    if (info.isDir())
        return info.canonicalFilePath();
    if (!info.isFile())
        return {};
    const QByteArray content = readSmallFile(dotGit);
    static constexpr char prefix[] = "gitdir:";
    if (!content.startsWith(prefix))
        return {};
    const QString target = QString::fromUtf8(content.mid(sizeof(prefix) - 1).trimmed());
    const QFileInfo targetInfo(QDir(info.absolutePath()), target);
    return targetInfo.isDir() ? targetInfo.canonicalFilePath() : QString();
}

} // namespace

QString Repository::name() const
{
    const QString fileName = QFileInfo(root).fileName();
    return fileName.isEmpty() ? root : fileName;
}

QString Repository::headDescription() const
{
    if (!branch.isEmpty())
        return branch;
    if (!detachedAt.isEmpty())
        return CodingTr::tr("detached at %1").arg(detachedAt);
    return {};
}

std::optional<Repository> Repository::open(const QString &path, QString *error)
{
    const QFileInfo info(path);
    if (!info.exists()) {
        if (error)
            *error = CodingTr::tr("%1 does not exist").arg(QDir::toNativeSeparators(path));
        return std::nullopt;
    }
    QString dir = info.isDir() ? info.canonicalFilePath() : info.canonicalPath();
    if (!QFileInfo(dir).isReadable()) {
        if (error)
            *error = CodingTr::tr("%1 is not readable").arg(QDir::toNativeSeparators(dir));
        return std::nullopt;
    }

    Repository repo;
    repo.root = dir;
    for (QDir probe(dir);;) {
        const QString gitDir = resolveGitDir(probe.filePath(QStringLiteral(".git")));
        if (!gitDir.isEmpty()) {
            repo.root = probe.absolutePath();
            repo.gitDir = gitDir;
            break;
        }
        if (!probe.cdUp())
            break;
    }
    if (!repo.isGit())
        return repo;

    const QByteArray head = readSmallFile(repo.gitDir + QStringLiteral("/HEAD"));
    static constexpr char refPrefix[] = "ref: refs/heads/";
    if (head.startsWith(refPrefix))
        repo.branch = QString::fromUtf8(head.mid(sizeof(refPrefix) - 1));
    else if (head.size() >= 7)
        repo.detachedAt = QString::fromLatin1(head.left(7));
    return repo;
}

} // namespace AgentCore
