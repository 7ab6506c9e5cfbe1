#pragma once

#include "keystore.h"

#include <QJsonObject>

#include <optional>

namespace Ui {

/// Keys in a JSON file only the user can read: the fallback when the desktop has no keyring.
/// The file is created with permissions 0600 (never widened, never chmod-ed later) and is not
/// read, nor written, while group or others can read it: then every operation fails and says
/// how to fix it. Small and local, so the work is done at once; results still arrive from the
/// event loop like every KeyStore's.
class FileKeyStore final : public KeyStore
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FileKeyStore)
public:
    explicit FileKeyStore(const QString &filePath, QObject *parent = nullptr);

    /// "<AppConfigLocation>/api-keys.json"
    static QString defaultPath();
    QString filePath() const { return m_filePath; }

    void readKey(const QString &account, QObject *context, Callback done) override;
    void writeKey(const QString &account,
                  const QString &key,
                  QObject *context,
                  Callback done) override;
    void deleteKey(const QString &account, QObject *context, Callback done) override;
    bool isSecure() const override { return false; }
    QString locationText() const override;

private:
    /// The accounts in the file (empty when there is no file), or nullopt and \a error.
    std::optional<QJsonObject> load(QString *error) const;
    bool store(const QJsonObject &keys, QString *error) const;
    KeyResult change(const QString &account, const QString &key);

    QString m_filePath;
};

} // namespace Ui
