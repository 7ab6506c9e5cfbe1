#include "ignorerules.h"

#include "storefiles.h"

#include <process/gitprocess.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QMutex>

namespace AgentCore::IgnoreRules {

QString userExcludeFile(const QString &workTree)
{
    const QString dotGit = workTree + QStringLiteral("/.git");
    const QFileInfo info(dotGit);
    QString gitDir;
    if (info.isDir()) {
        gitDir = dotGit;
    } else if (info.isFile()) {
        QFile file(dotGit);
        if (file.open(QIODevice::ReadOnly)) {
            const QString line = QString::fromUtf8(file.readLine()).trimmed();
            if (line.startsWith(QLatin1String("gitdir:")))
                gitDir = QDir(workTree).absoluteFilePath(line.mid(7).trimmed());
        }
        QFile common(gitDir + QStringLiteral("/commondir"));
        if (!gitDir.isEmpty() && common.open(QIODevice::ReadOnly))
            gitDir = QDir(gitDir).absoluteFilePath(QString::fromUtf8(common.readAll()).trimmed());
    }
    return gitDir.isEmpty() ? QString() : gitDir + QStringLiteral("/info/exclude");
}

// When core.excludesFile is not set, git (the shadow's too) reads $XDG_CONFIG_HOME/git/ignore
// by itself.
QString userGlobalExcludesFile(const QString &workTree)
{
    static QMutex mutex;
    static QHash<QString, QString> known;
    const QMutexLocker locker(&mutex);
    if (const auto it = known.constFind(workTree); it != known.cend())
        return *it;
    // Through GitProcess: the user's repository's configuration runs nothing.
    const GitProcess::Result excludes = GitProcess::run({QStringLiteral("config"),
                                                         QStringLiteral("--path"),
                                                         QStringLiteral("--get"),
                                                         QStringLiteral("core.excludesFile")},
                                                        workTree,
                                                        10000);
    QString path;
    if (excludes.ok())
        path = QDir(workTree).absoluteFilePath(QString::fromLocal8Bit(excludes.out.trimmed()));
    known.insert(workTree, path);
    return path;
}

QByteArray userExcludes(const QString &workTree)
{
    QByteArray excludes = StoreFiles::read(userExcludeFile(workTree));
    if (!excludes.isEmpty() && !excludes.endsWith('\n'))
        excludes += '\n';
    excludes += StoreFiles::read(userGlobalExcludesFile(workTree));
    if (!excludes.isEmpty() && !excludes.endsWith('\n'))
        excludes += '\n';
    return excludes;
}

QByteArray outsideRules(const QString &workTree)
{
    QString xdg = qEnvironmentVariable("XDG_CONFIG_HOME");
    if (xdg.isEmpty())
        xdg = QDir::homePath() + QStringLiteral("/.config");
    QFile info(userExcludeFile(workTree));
    QFile global(userGlobalExcludesFile(workTree));
    QFile fallback(xdg + QStringLiteral("/git/ignore"));
    QByteArray rules;
    for (QFile *file : {&info, &global, &fallback}) {
        rules += file->fileName().toUtf8() + '\0';
        if (!file->fileName().isEmpty() && file->open(QIODevice::ReadOnly))
            rules += file->readAll();
        rules += '\0';
    }
    return rules;
}

QByteArray excludePattern(const QString &path)
{
    QByteArray pattern = "/";
    for (const char c : path.toUtf8()) {
        if (c == '\\' || c == '*' || c == '?' || c == '[' || c == ']' || c == ' ' || c == '!'
            || c == '#')
            pattern += '\\';
        pattern += c;
    }
    return pattern;
}

} // namespace AgentCore::IgnoreRules
