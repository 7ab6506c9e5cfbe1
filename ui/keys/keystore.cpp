#include "keystore.h"

#include "fallbackkeystore.h"
#include "filekeystore.h"
#include "keychainkeystore.h"

namespace Ui {

KeyStore::KeyStore(QObject *parent)
    : QObject(parent)
{}

KeyStore *KeyStore::createDefault(QObject *parent)
{
    return new FallbackKeyStore(new KeychainKeyStore,
                                new FileKeyStore(FileKeyStore::defaultPath()),
                                parent);
}

void KeyStore::finishLater(QObject *context, Callback done, const KeyResult &result)
{
    const QPointer<QObject> guard(context);
    QMetaObject::invokeMethod(
        this,
        [guard, hasContext = context != nullptr, done = std::move(done), result] {
            if (done && (!hasContext || guard))
                done(result);
        },
        Qt::QueuedConnection);
}

} // namespace Ui

#include "moc_keystore.cpp"
