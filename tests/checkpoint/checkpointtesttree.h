#pragma once

// Helpers of the checkpoint tests: a working tree on disk, the real git, and fingerprints of
// folders (every file's path, type, mode and bytes) to compare before and after.
#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QProcess>

#include <sys/stat.h>

namespace CheckpointTest {

inline bool writeFile(const QString &path, const QByteArray &content)
{
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return false;
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
           && file.write(content) == content.size();
}

inline QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
}

inline int run(const QString &directory, const QString &program, const QStringList &arguments)
{
    QProcess process;
    process.setWorkingDirectory(directory);
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process.start(program, arguments);
    if (!process.waitForFinished(60000) || process.exitStatus() != QProcess::NormalExit)
        return -1;
    return process.exitCode();
}

inline bool git(const QString &directory, const QStringList &arguments)
{
    return run(directory,
               QStringLiteral("git"),
               QStringList{QStringLiteral("-c"),
                           QStringLiteral("user.name=Test"),
                           QStringLiteral("-c"),
                           QStringLiteral("user.email=test@example.com")}
                   + arguments)
           == 0;
}

/// path -> "type mode sha1(bytes or link target)" of everything under \a root, links not
/// followed. \a skipGit leaves out the .git folder.
inline QMap<QString, QString> fingerprint(const QString &root, bool skipGit = false)
{
    QMap<QString, QString> files;
    QDirIterator it(root,
                    QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString relative = QDir(root).relativeFilePath(path);
        if (skipGit
            && (relative == QLatin1String(".git") || relative.startsWith(QLatin1String(".git/"))))
            continue;
        struct stat info;
        if (::lstat(QFile::encodeName(path).constData(), &info) != 0)
            continue;
        QByteArray content;
        QString type;
        if (S_ISLNK(info.st_mode)) {
            type = QStringLiteral("link");
            content = QFile::encodeName(QFileInfo(path).symLinkTarget());
            char buffer[4096];
            const ssize_t n = ::readlink(QFile::encodeName(path).constData(), buffer, sizeof buffer);
            content = QByteArray(buffer, n < 0 ? 0 : n);
        } else if (S_ISDIR(info.st_mode)) {
            type = QStringLiteral("dir");
        } else {
            type = QStringLiteral("file");
            content = readFile(path);
        }
        files.insert(relative,
                     QStringLiteral("%1 %2 %3")
                         .arg(type)
                         .arg(info.st_mode & 07777, 0, 8)
                         .arg(QString::fromLatin1(
                             QCryptographicHash::hash(content, QCryptographicHash::Sha1).toHex())));
    }
    return files;
}

} // namespace CheckpointTest
