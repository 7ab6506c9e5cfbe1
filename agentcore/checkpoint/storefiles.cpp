#include "storefiles.h"

#include <files/privatefiles.h>

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace AgentCore::StoreFiles {

QString journalFolder(const QString &gitDir)
{
    return gitDir + QStringLiteral("/restore-journal");
}

QString leftOutList(const QString &gitDir)
{
    return gitDir + QStringLiteral("/agentdesk-left-out");
}

QString nestedList(const QString &gitDir)
{
    return gitDir + QStringLiteral("/agentdesk-nested");
}

QString excludeFile(const QString &gitDir)
{
    return gitDir + QStringLiteral("/info/exclude");
}

QString attributesFile(const QString &gitDir)
{
    return gitDir + QStringLiteral("/info/attributes");
}

QByteArray attributes()
{
    return "* -text !eol -filter -ident !working-tree-encoding\n";
}

QString sessionRef(const QString &sessionId)
{
    QString name = sessionId;
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9_-]"));
    name.replace(unsafe, QStringLiteral("_"));
    if (name.isEmpty())
        name = QStringLiteral("unsaved");
    return QStringLiteral("refs/agentdesk/%1/head").arg(name);
}

QByteArray commitMessage(const Checkpoint &checkpoint, const QString &workTree)
{
    QJsonObject message = checkpoint.toJson();
    message.remove(QStringLiteral("id"));
    message.insert(QStringLiteral("workTree"), workTree);
    return QJsonDocument(message).toJson(QJsonDocument::Compact) + '\n';
}

std::optional<Checkpoint> checkpointFromCommit(const QString &id, const QByteArray &message)
{
    QJsonObject object = QJsonDocument::fromJson(message.trimmed()).object();
    if (object.isEmpty())
        return std::nullopt; // not one of ours
    object.insert(QStringLiteral("id"), id);
    return Checkpoint::fromJson(object);
}

QStringList skippedPaths(const QList<SkippedFile> &files)
{
    QStringList paths;
    for (const SkippedFile &file : files)
        paths.append(file.path);
    return paths;
}

QList<QByteArray> splitNul(const QByteArray &bytes)
{
    QList<QByteArray> parts = bytes.split('\0');
    if (!parts.isEmpty() && parts.last().isEmpty())
        parts.removeLast();
    return parts;
}

QByteArray read(const QString &path)
{
    if (path.isEmpty())
        return {};
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool write(const QString &path, const QByteArray &bytes)
{
    if (read(path) == bytes && QFileInfo::exists(path))
        return true;
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate, PrivateFiles::fileMode)
           && file.write(bytes) == bytes.size();
}

} // namespace AgentCore::StoreFiles
