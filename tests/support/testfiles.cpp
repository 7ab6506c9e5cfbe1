#include "testfiles.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QProcess>

namespace TestSupport {

QByteArray fileBytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
}

QByteArray gitFolderSnapshot(const QString &gitDirectory)
{
    QByteArray snapshot = "config:" + fileBytes(gitDirectory + QStringLiteral("/config")) + '\n';
    for (const QString &folder : {QStringLiteral("/hooks"), QStringLiteral("/info")}) {
        QDirIterator it(gitDirectory + folder,
                        QDir::Files | QDir::Hidden,
                        QDirIterator::Subdirectories);
        QStringList files;
        while (it.hasNext())
            files.append(it.next());
        files.sort();
        for (const QString &path : std::as_const(files)) {
            snapshot += path.toUtf8() + ':' + fileBytes(path)
                        + QByteArray::number(QFileInfo(path).permissions().toInt()) + '\n';
        }
    }
    return snapshot;
}

bool gitInit(const QString &folder)
{
    if (!QDir().mkpath(folder))
        return false;
    QProcess git;
    git.setWorkingDirectory(folder);
    git.start(QStringLiteral("git"), {QStringLiteral("init"), QStringLiteral("-q")});
    return git.waitForFinished(30000) && git.exitCode() == 0;
}

} // namespace TestSupport
