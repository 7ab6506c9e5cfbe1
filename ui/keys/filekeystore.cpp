#include "filekeystore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>
#include <QStandardPaths>

namespace Ui {

namespace {

constexpr QFileDevice::Permissions ownerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
constexpr QFileDevice::Permissions groupOrOther = QFileDevice::ReadGroup | QFileDevice::WriteGroup
                                                  | QFileDevice::ExeGroup | QFileDevice::ReadOther
                                                  | QFileDevice::WriteOther | QFileDevice::ExeOther;

KeyResult failure(const QString &error)
{
    KeyResult result;
    result.status = KeyResult::Status::Failed;
    result.error = error;
    return result;
}

} // namespace

FileKeyStore::FileKeyStore(const QString &filePath, QObject *parent)
    : KeyStore(parent)
    , m_filePath(filePath)
{}

QString FileKeyStore::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation)
           + QStringLiteral("/api-keys.json");
}

void FileKeyStore::readKey(const QString &account, QObject *context, Callback done)
{
    QString error;
    const std::optional<QJsonObject> keys = load(&error);
    if (!keys) {
        finishLater(context, std::move(done), failure(error));
        return;
    }
    KeyResult result;
    result.key = keys->value(account).toString();
    finishLater(context, std::move(done), result);
}

void FileKeyStore::writeKey(const QString &account,
                            const QString &key,
                            QObject *context,
                            Callback done)
{
    finishLater(context, std::move(done), change(account, key));
}

void FileKeyStore::deleteKey(const QString &account, QObject *context, Callback done)
{
    finishLater(context, std::move(done), change(account, {}));
}

QString FileKeyStore::locationText() const
{
    // The home folder as "~": the note stays short enough to read at a glance.
    QString path = QDir::toNativeSeparators(m_filePath);
    const QString home = QDir::toNativeSeparators(QDir::homePath());
    if (path.startsWith(home + QDir::separator()))
        path.replace(0, home.size(), QStringLiteral("~"));
    return tr("No system keyring is available: keys are kept in %1, readable only by you.").arg(path);
}

KeyResult FileKeyStore::change(const QString &account, const QString &key)
{
    QString error;
    std::optional<QJsonObject> keys = load(&error);
    if (!keys)
        return failure(error);
    if (key.isEmpty()) {
        if (!keys->contains(account))
            return {};
        keys->remove(account);
    } else {
        keys->insert(account, key);
    }
    if (!store(*keys, &error))
        return failure(error);
    return {};
}

std::optional<QJsonObject> FileKeyStore::load(QString *error) const
{
    QFile file(m_filePath);
    if (!file.exists())
        return QJsonObject();
    const QString path = QDir::toNativeSeparators(m_filePath);
#ifdef Q_OS_UNIX
    if (file.permissions() & groupOrOther) {
        *error = tr("The key file %1 can be read by other users, so AgentDesk does not use it. "
                    "Make it private (chmod 600 \"%1\") and replace the keys it holds at your "
                    "providers: they may have been seen.")
                     .arg(path);
        return std::nullopt;
    }
#endif
    if (!file.open(QIODevice::ReadOnly)) {
        *error = tr("Cannot read the key file %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (!document.isObject()) {
        // The parser's message quotes no content, so no key can leak through it.
        *error = tr("The key file %1 is damaged (%2). Delete it and enter your keys again.")
                     .arg(path, parseError.errorString());
        return std::nullopt;
    }
    return document.object();
}

bool FileKeyStore::store(const QJsonObject &keys, QString *error) const
{
    const QString path = QDir::toNativeSeparators(m_filePath);
    const QFileInfo info(m_filePath);
    if (!QDir().mkpath(info.absolutePath())) {
        *error = tr("Cannot create the folder %1 for the key file.")
                     .arg(QDir::toNativeSeparators(info.absolutePath()));
        return false;
    }
    // Created private before a byte is written: QSaveFile then writes a private temporary file
    // (it copies the permissions of the file it replaces) and renames it over this one.
    if (!info.exists()) {
        QFile file(m_filePath);
        if (!file.open(QIODevice::WriteOnly | QIODevice::NewOnly, ownerOnly)) {
            *error = tr("Cannot create the key file %1: %2").arg(path, file.errorString());
            return false;
        }
    }
    QSaveFile file(m_filePath);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = tr("Cannot write the key file %1: %2").arg(path, file.errorString());
        return false;
    }
    file.write(QJsonDocument(keys).toJson(QJsonDocument::Indented));
    if (!file.commit()) {
        *error = tr("Cannot write the key file %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace Ui

#include "moc_filekeystore.cpp"
