#pragma once

#include "keystore.h"

namespace Ui {

/// The keyring first; when its first answer says that there is no keyring at all
/// (KeyResult::Unavailable), every operation from then on goes to the file store, and
/// warning() says once where the keys are. Other keyring errors, and Unavailable after the
/// keyring once worked, are reported, not worked around: a locked or briefly unreachable
/// keyring must not send keys to a file.
class FallbackKeyStore final : public KeyStore
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FallbackKeyStore)
public:
    /// Takes ownership of both stores.
    FallbackKeyStore(KeyStore *keyring, KeyStore *fallback, QObject *parent = nullptr);

    void readKey(const QString &account, QObject *context, Callback done) override;
    void writeKey(const QString &account,
                  const QString &key,
                  QObject *context,
                  Callback done) override;
    void deleteKey(const QString &account, QObject *context, Callback done) override;
    bool isSecure() const override;
    QString locationText() const override;

    bool usesFallback() const { return m_usesFallback; }

private:
    using Operation = std::function<void(KeyStore *, Callback)>;
    void run(const Operation &operation, QObject *context, Callback done);
    void switchToFallback();

    KeyStore *m_keyring;
    KeyStore *m_fallback;
    bool m_usesFallback = false;
    bool m_keyringWorked = false;
};

} // namespace Ui
