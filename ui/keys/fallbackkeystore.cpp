#include "fallbackkeystore.h"

namespace Ui {

FallbackKeyStore::FallbackKeyStore(KeyStore *keyring, KeyStore *fallback, QObject *parent)
    : KeyStore(parent)
    , m_keyring(keyring)
    , m_fallback(fallback)
{
    m_keyring->setParent(this);
    m_fallback->setParent(this);
    for (KeyStore *store : {m_keyring, m_fallback})
        connect(store, &KeyStore::warning, this, &KeyStore::warning);
}

void FallbackKeyStore::readKey(const QString &account, QObject *context, Callback done)
{
    run([account](KeyStore *store, Callback next) { store->readKey(account, store, next); },
        context,
        std::move(done));
}

void FallbackKeyStore::writeKey(const QString &account,
                                const QString &key,
                                QObject *context,
                                Callback done)
{
    run([account, key](KeyStore *store,
                       Callback next) { store->writeKey(account, key, store, next); },
        context,
        std::move(done));
}

void FallbackKeyStore::deleteKey(const QString &account, QObject *context, Callback done)
{
    run([account](KeyStore *store, Callback next) { store->deleteKey(account, store, next); },
        context,
        std::move(done));
}

bool FallbackKeyStore::isSecure() const
{
    return m_usesFallback ? m_fallback->isSecure() : m_keyring->isSecure();
}

QString FallbackKeyStore::locationText() const
{
    return m_usesFallback ? m_fallback->locationText() : m_keyring->locationText();
}

void FallbackKeyStore::run(const Operation &operation, QObject *context, Callback done)
{
    const QPointer<QObject> guard(context);
    const bool hasContext = context != nullptr;
    auto finish = [guard, hasContext, done](const KeyResult &result) {
        if (done && (!hasContext || guard))
            done(result);
    };
    if (m_usesFallback) {
        operation(m_fallback, finish);
        return;
    }
    operation(m_keyring, [this, operation, finish](const KeyResult &result) {
        if (result.status != KeyResult::Status::Unavailable) {
            m_keyringWorked = m_keyringWorked || result.succeeded();
            finish(result);
            return;
        }
        if (m_keyringWorked) {
            finish({KeyResult::Status::Failed, {}, result.error});
            return;
        }
        switchToFallback();
        operation(m_fallback, finish);
    });
}

void FallbackKeyStore::switchToFallback()
{
    if (m_usesFallback)
        return;
    m_usesFallback = true;
    emit warning(m_fallback->locationText());
    emit locationChanged();
}

} // namespace Ui

#include "moc_fallbackkeystore.cpp"
