#include "permissionsettings.h"
#include "translation.h"

#include <loop/toolkind.h>
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

const QLatin1String permissionsKey("permissions");

QLatin1String listKey(PermissionBehavior behavior)
{
    switch (behavior) {
    case PermissionBehavior::Allow:
        return QLatin1String("allow");
    case PermissionBehavior::Ask:
        return QLatin1String("ask");
    case PermissionBehavior::Deny:
        return QLatin1String("deny");
    }
    return QLatin1String("ask");
}

// The file's top-level object; nullopt with the error when the file exists but is not one.
// A missing file is an empty object.
std::optional<QJsonObject> readObject(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.exists())
        return QJsonObject();
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = PermissionsTr::tr("Cannot read %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    const QByteArray bytes = file.readAll();
    if (bytes.trimmed().isEmpty())
        return QJsonObject();
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        if (error) {
            *error = PermissionsTr::tr(
                         "%1 is not valid JSON (%2 at offset %3); fix it by hand, AgentDesk "
                         "does not change it.")
                         .arg(path, parseError.errorString())
                         .arg(parseError.offset);
        }
        return std::nullopt;
    }
    if (!document.isObject()) {
        if (error)
            *error = PermissionsTr::tr(
                         "%1 does not hold a JSON object; fix it by hand, AgentDesk does not "
                         "change it.")
                         .arg(path);
        return std::nullopt;
    }
    const QJsonValue permissions = document.object().value(permissionsKey);
    if (!permissions.isUndefined() && !permissions.isObject()) {
        if (error)
            *error = PermissionsTr::tr(
                         "\"permissions\" in %1 is not an object; fix it by hand, AgentDesk "
                         "does not change it.")
                         .arg(path);
        return std::nullopt;
    }
    return document.object();
}

// Relative additional directories are relative to the project (the folder holding
// .agentdesk/) or, for other files, to the file's folder.
QString resolveDirectory(const QString &settingsPath, const QString &directory)
{
    QString path = directory.trimmed();
    if (path == QLatin1String("~") || path.startsWith(QLatin1String("~/")))
        path = QDir::homePath() + path.mid(1);
    if (!QDir::isAbsolutePath(path)) {
        QDir base = QFileInfo(settingsPath).absoluteDir();
        if (base.dirName() == QLatin1String(".agentdesk"))
            base.cdUp();
        path = base.absoluteFilePath(path);
    }
    return ToolWorkspace::canonicalPath(path);
}

// \a entry absolute (`~/` expanded, relative to the file's folder), its links kept: the
// sandbox makes them again inside, so the path as written leads where it does outside.
QString expandedPath(const QString &settingsPath, const QString &entry)
{
    QString path = entry.trimmed();
    if (path == QLatin1String("~") || path.startsWith(QLatin1String("~/")))
        path = QDir::homePath() + path.mid(1);
    return QDir::cleanPath(QFileInfo(settingsPath).absoluteDir().absoluteFilePath(path));
}

void readRules(const QJsonObject &permissions,
               PermissionBehavior behavior,
               const QString &path,
               PermissionSettings &settings)
{
    const QJsonValue list = permissions.value(listKey(behavior));
    if (list.isUndefined())
        return;
    if (!list.isArray()) {
        settings.warnings.append(
            PermissionsTr::tr("\"permissions.%1\" in %2 is not a list; it was ignored.")
                .arg(listKey(behavior), path));
        return;
    }
    for (const QJsonValue &entry : list.toArray()) {
        QString error;
        const std::optional<PermissionRule> rule = entry.isString()
                                                       ? PermissionRule::parse(entry.toString(),
                                                                               behavior,
                                                                               &error)
                                                       : std::nullopt;
        if (!rule) {
            if (error.isEmpty())
                error = PermissionsTr::tr("an entry is not a string");
            settings.warnings.append(PermissionsTr::tr("%1: %2 (skipped)").arg(path, error));
            continue;
        }
        PermissionRule withSource = *rule;
        withSource.source = path;
        settings.rules.append(withSource);
    }
}
} // namespace

std::optional<PermissionSettings> PermissionSettings::load(const QString &path, QString *error)
{
    const std::optional<QJsonObject> root = readObject(path, error);
    if (!root)
        return std::nullopt;
    PermissionSettings settings;
    const QJsonObject permissions = root->value(permissionsKey).toObject();
    for (const PermissionBehavior behavior :
         {PermissionBehavior::Deny, PermissionBehavior::Ask, PermissionBehavior::Allow})
        readRules(permissions, behavior, path, settings);

    const QJsonValue mode = permissions.value(QLatin1String("defaultMode"));
    if (mode.isString()) {
        settings.defaultMode = parsePermissionMode(mode.toString());
        if (!settings.defaultMode) {
            settings.warnings.append(
                PermissionsTr::tr("%1: unknown defaultMode \"%2\" (use default, "
                                  "acceptEdits, plan or bypass); ignored.")
                    .arg(path, mode.toString()));
        }
    } else if (!mode.isUndefined()) {
        settings.warnings.append(
            PermissionsTr::tr("%1: defaultMode is not a string; ignored.").arg(path));
    }

    const QJsonValue network = permissions.value(QLatin1String("network"));
    if (!network.isUndefined() && !network.isArray()) {
        settings.warnings.append(
            PermissionsTr::tr("\"permissions.network\" in %1 is not a list; it was ignored.")
                .arg(path));
    }
    for (const QJsonValue &entry : network.toArray()) {
        QString error;
        std::optional<PermissionRule> rule = entry.isString()
                                                 ? PermissionRule::parse(entry.toString(),
                                                                         PermissionBehavior::Allow,
                                                                         &error)
                                                 : std::nullopt;
        if (rule && toolKind(rule->toolName) != ToolKind::Bash) {
            error = PermissionsTr::tr(
                        "%1: network rules are about Bash commands, like Bash(npm install:*)")
                        .arg(rule->toString());
            rule.reset();
        }
        if (!rule) {
            if (error.isEmpty())
                error = PermissionsTr::tr("a network entry is not a string");
            settings.warnings.append(PermissionsTr::tr("%1: %2 (skipped)").arg(path, error));
            continue;
        }
        rule->source = path;
        settings.networkRules.append(*rule);
    }

    const QJsonValue readable = permissions.value(QLatin1String("sandboxReadable"));
    for (const QJsonValue &entry : readable.toArray()) {
        if (entry.isString() && !entry.toString().trimmed().isEmpty())
            settings.sandboxReadable.append(expandedPath(path, entry.toString()));
        else
            settings.warnings.append(
                PermissionsTr::tr("%1: a sandboxReadable entry is not a path; skipped.").arg(path));
    }
    if (!readable.isUndefined() && !readable.isArray()) {
        settings.warnings.append(
            PermissionsTr::tr("%1: sandboxReadable is not a list; ignored.").arg(path));
    }

    const QJsonValue directories = permissions.value(QLatin1String("additionalDirectories"));
    for (const QJsonValue &directory : directories.toArray()) {
        if (directory.isString() && !directory.toString().trimmed().isEmpty())
            settings.additionalDirectories.append(resolveDirectory(path, directory.toString()));
        else
            settings.warnings.append(
                PermissionsTr::tr("%1: an additionalDirectories entry is not a path; skipped.")
                    .arg(path));
    }
    if (!directories.isUndefined() && !directories.isArray()) {
        settings.warnings.append(
            PermissionsTr::tr("%1: additionalDirectories is not a list; ignored.").arg(path));
    }
    return settings;
}

bool PermissionSettings::appendRule(const QString &path, const PermissionRule &rule, QString *error)
{
    // Read, add, write: two sessions of one process answering "always" at the same moment
    // (the approval inbox answers several at once) must not each write the file without the
    // other's addition. Rare and quick, so one lock for every file.
    static QMutex mutex;
    const QMutexLocker locker(&mutex);
    std::optional<QJsonObject> root = readObject(path, error);
    if (!root)
        return false;
    QJsonObject permissions = root->value(permissionsKey).toObject();
    const QLatin1String key = listKey(rule.behavior);
    QJsonValue listValue = permissions.value(key);
    if (!listValue.isUndefined() && !listValue.isArray()) {
        if (error)
            *error = PermissionsTr::tr(
                         "\"permissions.%1\" in %2 is not a list; fix it by hand, AgentDesk "
                         "does not change it.")
                         .arg(key, path);
        return false;
    }
    QJsonArray list = listValue.toArray();
    const QString text = rule.toString();
    for (const QJsonValue &entry : std::as_const(list)) {
        const std::optional<PermissionRule> existing = PermissionRule::parse(entry.toString(),
                                                                             rule.behavior);
        if (existing && *existing == rule)
            return true;
    }
    list.append(text);
    permissions.insert(key, list);
    root->insert(permissionsKey, permissions);

    if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
        if (error)
            *error = PermissionsTr::tr("Cannot create the folder of %1.").arg(path);
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = PermissionsTr::tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    const QByteArray bytes = QJsonDocument(*root).toJson(QJsonDocument::Indented);
    if (file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = PermissionsTr::tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

QString PermissionSettings::userSettingsPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation)
           + QStringLiteral("/agentdesk/settings.json");
}

QString PermissionSettings::projectSettingsPath(const QString &repoRoot)
{
    return QDir(repoRoot).filePath(QStringLiteral(".agentdesk/settings.json"));
}

QString PermissionSettings::projectLocalSettingsPath(const QString &repoRoot)
{
    return QDir(repoRoot).filePath(QStringLiteral(".agentdesk/settings.local.json"));
}

} // namespace AgentCore
