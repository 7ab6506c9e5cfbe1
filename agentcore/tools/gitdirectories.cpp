#include "gitdirectories.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace AgentCore {

namespace {

// The first line of a small file (`.git`, `commondir`), or empty.
QString firstLine(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readLine(4096)).trimmed();
}

// \a path relative to \a base when it is not absolute, canonical; empty when missing.
QString existingFolder(const QString &base, const QString &path)
{
    if (path.isEmpty())
        return {};
    const QFileInfo info(QDir(base).absoluteFilePath(path));
    return info.isDir() ? info.canonicalFilePath() : QString();
}

} // namespace

GitDirectories GitDirectories::of(const QString &root)
{
    GitDirectories result;
    const QString dotGit = root + QStringLiteral("/.git");
    const QFileInfo info(dotGit);
    if (info.isDir()) {
        result.gitDirectory = info.canonicalFilePath();
    } else if (info.isFile()) {
        result.gitFile = info.canonicalFilePath();
        const QString line = firstLine(dotGit);
        if (line.startsWith(QLatin1String("gitdir:")))
            result.gitDirectory = existingFolder(root, line.mid(7).trimmed());
    }
    if (result.gitDirectory.isEmpty())
        return result;
    const QString common = firstLine(result.gitDirectory + QStringLiteral("/commondir"));
    result.commonDirectory = common.isEmpty() ? result.gitDirectory
                                              : existingFolder(result.gitDirectory, common);
    if (result.commonDirectory.isEmpty())
        result.commonDirectory = result.gitDirectory;
    return result;
}

QStringList GitDirectories::paths() const
{
    QStringList result;
    if (!gitDirectory.isEmpty())
        result.append(gitDirectory);
    if (!commonDirectory.isEmpty() && commonDirectory != gitDirectory)
        result.append(commonDirectory);
    if (!gitFile.isEmpty())
        result.append(gitFile);
    return result;
}

} // namespace AgentCore
