#include "projecttrust.h"
#include "translation.h"

#include <files/privatefiles.h>
#include <tools/toolworkspace.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QSaveFile>
#include <QStandardPaths>

namespace AgentCore {

namespace {

// The store's object; nullopt when the file exists but is not a JSON object.
std::optional<QJsonObject> readStore(const QString &path)
{
    QFile file(path);
    if (!file.exists())
        return QJsonObject();
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray bytes = file.readAll();
    if (bytes.trimmed().isEmpty())
        return QJsonObject();
    const QJsonDocument document = QJsonDocument::fromJson(bytes);
    if (!document.isObject())
        return std::nullopt;
    return document.object();
}

QString key(const QString &repositoryRoot)
{
    return ToolWorkspace::canonicalPath(repositoryRoot);
}

} // namespace

ProjectTrust ProjectTrust::everything()
{
    ProjectTrust trust;
    trust.m_everything = true;
    return trust;
}

ProjectTrust ProjectTrust::of(const QStringList &grants)
{
    ProjectTrust trust;
    trust.m_grants = grants;
    return trust;
}

ProjectTrust ProjectTrust::load(const QString &storePath, const QString &repositoryRoot)
{
    ProjectTrust trust;
    if (storePath.isEmpty())
        return trust;
    const std::optional<QJsonObject> store = readStore(storePath);
    if (!store)
        return trust;
    for (const QJsonValue &grant : store->value(key(repositoryRoot)).toArray()) {
        if (grant.isString())
            trust.m_grants.append(grant.toString());
    }
    return trust;
}

bool ProjectTrust::remember(const QString &storePath,
                            const QString &repositoryRoot,
                            const QStringList &grants,
                            QString *error)
{
    // Read, add, write: two sessions of one process answering "always" at the same moment
    // (the approval inbox answers several at once) must not each write the file without the
    // other's addition. Rare and quick, so one lock for every file.
    static QMutex mutex;
    const QMutexLocker locker(&mutex);
    std::optional<QJsonObject> store = readStore(storePath);
    if (!store) {
        if (error)
            *error = PermissionsTr::tr(
                         "%1 is not valid JSON; fix or remove it by hand, AgentDesk does not "
                         "change it.")
                         .arg(storePath);
        return false;
    }
    const QString repository = key(repositoryRoot);
    QJsonArray accepted = store->value(repository).toArray();
    for (const QString &grant : grants) {
        if (!accepted.contains(grant))
            accepted.append(grant);
    }
    store->insert(repository, accepted);

    // The user's config: private, as all AgentDesk writes (QSaveFile keeps the file's mode).
    if (!PrivateFiles::makePath(QFileInfo(storePath).absolutePath())) {
        if (error)
            *error = PermissionsTr::tr("Cannot create the folder of %1.").arg(storePath);
        return false;
    }
    PrivateFiles::prepareFile(storePath);
    QSaveFile file(storePath);
    const QByteArray bytes = QJsonDocument(*store).toJson(QJsonDocument::Indented);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = PermissionsTr::tr("Cannot write %1: %2").arg(storePath, file.errorString());
        return false;
    }
    return true;
}

QString ProjectTrust::defaultStorePath()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation)
           + QStringLiteral("/agentdesk/trusted-projects.json");
}

bool ProjectTrust::trusts(const QString &grant) const
{
    return m_everything || m_grants.contains(grant);
}

QString ProjectTrust::modeGrant(PermissionMode mode)
{
    return QStringLiteral("defaultMode: ") + permissionModeName(mode);
}

QString ProjectTrust::ruleGrant(const PermissionRule &rule)
{
    return QStringLiteral("allow: ") + rule.toString();
}

QString ProjectTrust::networkGrant(const PermissionRule &rule)
{
    return QStringLiteral("network: ") + rule.toString();
}

QString ProjectTrust::directoryGrant(const QString &directory)
{
    return QStringLiteral("additionalDirectories: ") + directory;
}

bool ProjectTrust::modeNeedsTrust(PermissionMode mode)
{
    return mode == PermissionMode::AcceptEdits || mode == PermissionMode::Bypass;
}

} // namespace AgentCore
