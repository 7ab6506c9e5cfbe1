#pragma once

#include "keystore.h"

namespace QKeychain {
class Job;
}

namespace Ui {

/// Keys in the desktop's keyring (Secret Service, KWallet, macOS Keychain, Windows Credential
/// Store) through QtKeychain, under the service "AgentDesk". Reports KeyResult::Unavailable
/// when the desktop has no keyring.
class KeychainKeyStore final : public KeyStore
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KeychainKeyStore)
public:
    explicit KeychainKeyStore(QObject *parent = nullptr);

    void readKey(const QString &account, QObject *context, Callback done) override;
    void writeKey(const QString &account,
                  const QString &key,
                  QObject *context,
                  Callback done) override;
    void deleteKey(const QString &account, QObject *context, Callback done) override;
    bool isSecure() const override { return true; }
    QString locationText() const override;

private:
    void start(QKeychain::Job *job, QObject *context, Callback done);
};

} // namespace Ui
