#include "toollogdirectory.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <cerrno>
#include <csignal>
#include <memory>

#include <unistd.h>

namespace AgentCore {

namespace {

// kill(pid, 0) fails with EPERM for another user's process: not an AgentDesk of ours.
bool isOwnProcessAlive(qint64 pid)
{
    return pid > 0 && ::kill(pid_t(pid), 0) == 0;
}

std::unique_ptr<QTemporaryDir> createProcessDirectory()
{
    const QString temp = QDir::tempPath();
    ToolLogDirectory::removeStale(temp);
    // QTemporaryDir makes the folder with mode 0700 and an unpredictable suffix; its
    // destructor (at exit, as a static) removes it with the logs.
    auto directory = std::make_unique<QTemporaryDir>(
        temp + QLatin1Char('/') + ToolLogDirectory::namePrefix()
        + QString::number(QCoreApplication::applicationPid()) + QStringLiteral("-XXXXXX"));
    if (!directory->isValid())
        return nullptr;
    return directory;
}

} // namespace

QString ToolLogDirectory::processDirectory()
{
    static const std::unique_ptr<QTemporaryDir> directory = createProcessDirectory();
    return directory ? directory->path() : QString();
}

QStringList ToolLogDirectory::removeStale(const QString &tempPath, const QString &own)
{
    static const QRegularExpression name(QRegularExpression::anchoredPattern(
        QRegularExpression::escape(namePrefix()) + QStringLiteral("(\\d+)(-[^/]*)?")));
    const qint64 self = QCoreApplication::applicationPid();
    const QString ownPath = QFileInfo(own).absoluteFilePath();
    QStringList removed;
    const QFileInfoList entries = QDir(tempPath).entryInfoList({namePrefix() + u'*'},
                                                               QDir::Dirs | QDir::NoDotAndDotDot
                                                                   | QDir::Hidden | QDir::System);
    for (const QFileInfo &entry : entries) {
        const QRegularExpressionMatch match = name.match(entry.fileName());
        if (!match.hasMatch())
            continue;
        // Never through a link, never another user's folder.
        if (entry.isSymLink() || !entry.isDir() || entry.ownerId() != ::getuid())
            continue;
        if (entry.absoluteFilePath() == ownPath)
            continue;
        const qint64 pid = match.captured(1).toLongLong();
        if (pid != self && isOwnProcessAlive(pid))
            continue;
        if (QDir(entry.absoluteFilePath()).removeRecursively())
            removed.append(entry.absoluteFilePath());
    }
    return removed;
}

} // namespace AgentCore
