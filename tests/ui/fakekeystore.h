#pragma once

// An in-memory KeyStore for tests: answers from the event loop like the real ones, and can be
// told to fail (as a keyring without backend, or one that refuses).
#include <keys/keystore.h>

#include <QHash>

class FakeKeyStore final : public Ui::KeyStore
{
    Q_OBJECT
public:
    explicit FakeKeyStore(QObject *parent = nullptr)
        : Ui::KeyStore(parent)
    {}

    QHash<QString, QString> keys;
    /// Every operation ends with this status (and an error text) when not Ok.
    Ui::KeyResult::Status failWith = Ui::KeyResult::Status::Ok;
    bool secure = true;
    int operations = 0;

    void readKey(const QString &account, QObject *context, Callback done) override
    {
        Ui::KeyResult result = outcome();
        if (result.succeeded())
            result.key = keys.value(account);
        finishLater(context, std::move(done), result);
    }
    void writeKey(const QString &account,
                  const QString &key,
                  QObject *context,
                  Callback done) override
    {
        const Ui::KeyResult result = outcome();
        if (result.succeeded()) {
            if (key.isEmpty())
                keys.remove(account);
            else
                keys.insert(account, key);
        }
        finishLater(context, std::move(done), result);
    }
    void deleteKey(const QString &account, QObject *context, Callback done) override
    {
        writeKey(account, {}, context, std::move(done));
    }
    bool isSecure() const override { return secure; }
    QString locationText() const override
    {
        return secure ? QStringLiteral("Stored in the fake keyring.")
                      : QStringLiteral("Stored in a fake file.");
    }

private:
    Ui::KeyResult outcome()
    {
        ++operations;
        Ui::KeyResult result;
        result.status = failWith;
        if (failWith == Ui::KeyResult::Status::Unavailable)
            result.error = QStringLiteral("No keyring on this fake bus.");
        else if (failWith == Ui::KeyResult::Status::Failed)
            result.error = QStringLiteral("The fake keyring is locked.");
        return result;
    }
};
