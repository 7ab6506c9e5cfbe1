#include "keychainkeystore.h"

#include <qt6keychain/keychain.h>

namespace Ui {

namespace {

QString serviceName()
{
    return QStringLiteral("AgentDesk");
}

// A desktop without Secret Service or KWallet: QtKeychain says NoBackendAvailable on some
// platforms, but through libsecret (0.13 to 0.15) only OtherError "Unknown error", with or
// without a session bus. FallbackKeyStore only believes it before the keyring ever worked.
bool meansNoKeyring(const QKeychain::Job &job)
{
    return job.error() == QKeychain::NoBackendAvailable || job.error() == QKeychain::NotImplemented
           || job.error() == QKeychain::OtherError;
}

KeyResult resultOf(const QKeychain::Job &job)
{
    KeyResult result;
    switch (job.error()) {
    case QKeychain::NoError:
        if (auto read = qobject_cast<const QKeychain::ReadPasswordJob *>(&job))
            result.key = read->textData();
        return result;
    case QKeychain::EntryNotFound:
        return result; // no key yet (read), or nothing to delete: both fine
    case QKeychain::AccessDenied:
    case QKeychain::AccessDeniedByUser:
        result.status = KeyResult::Status::Failed;
        result.error = KeychainKeyStore::tr("The system keyring refused access (%1). Unlock the "
                                            "keyring and try again.")
                           .arg(job.errorString());
        return result;
    default:
        break;
    }
    if (meansNoKeyring(job)) {
        result.status = KeyResult::Status::Unavailable;
        result.error = KeychainKeyStore::tr("No system keyring is available (%1).")
                           .arg(job.errorString());
    } else {
        result.status = KeyResult::Status::Failed;
        result.error = KeychainKeyStore::tr("The system keyring failed: %1").arg(job.errorString());
    }
    return result;
}

} // namespace

KeychainKeyStore::KeychainKeyStore(QObject *parent)
    : KeyStore(parent)
{}

void KeychainKeyStore::readKey(const QString &account, QObject *context, Callback done)
{
    auto job = new QKeychain::ReadPasswordJob(serviceName(), this);
    job->setKey(account);
    start(job, context, std::move(done));
}

void KeychainKeyStore::writeKey(const QString &account,
                                const QString &key,
                                QObject *context,
                                Callback done)
{
    if (key.isEmpty()) {
        deleteKey(account, context, std::move(done));
        return;
    }
    auto job = new QKeychain::WritePasswordJob(serviceName(), this);
    job->setKey(account);
    job->setTextData(key);
    start(job, context, std::move(done));
}

void KeychainKeyStore::deleteKey(const QString &account, QObject *context, Callback done)
{
    auto job = new QKeychain::DeletePasswordJob(serviceName(), this);
    job->setKey(account);
    start(job, context, std::move(done));
}

QString KeychainKeyStore::locationText() const
{
    return tr("Stored in the system keyring.");
}

void KeychainKeyStore::start(QKeychain::Job *job, QObject *context, Callback done)
{
    job->setAutoDelete(true);
    // Never QtKeychain's own plain-text fallback: FallbackKeyStore decides, and says so.
    job->setInsecureFallback(false);
    const QPointer<QObject> guard(context);
    // QtKeychain may finish a job inside start() when there is no backend: answer from the
    // event loop in every case.
    connect(job,
            &QKeychain::Job::finished,
            this,
            [this, guard, hasContext = context != nullptr, done = std::move(done)](
                QKeychain::Job *job) {
                if (hasContext && !guard)
                    return;
                finishLater(guard, done, resultOf(*job));
            });
    job->start();
}

} // namespace Ui

#include "moc_keychainkeystore.cpp"
