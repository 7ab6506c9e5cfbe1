#pragma once

#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>

namespace Ui {

/// The outcome of one KeyStore operation.
struct KeyResult
{
    enum class Status {
        Ok,          ///< done; a read of an account with no key gives Ok and an empty key
        Unavailable, ///< the store has no backend at all (no keyring on the session bus)
        Failed,      ///< the backend refused or broke: error says what and what to do
    };
    Status status = Status::Ok;
    QString key;   ///< read: the key, empty when none is stored
    QString error; ///< translated, for the user; never contains the key

    bool succeeded() const { return status == Status::Ok; }
};

/// Where AgentDesk keeps API keys, one per account (ModelSelection::keyAccount()).
/// Asynchronous: every operation returns at once and calls \a done later from the event loop,
/// on the thread of the store (the GUI thread), never before returning. \a done is dropped
/// when \a context is destroyed first. Keys are never logged, never put in QSettings and never
/// in error texts.
class KeyStore : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KeyStore)
public:
    using Callback = std::function<void(const KeyResult &)>;

    explicit KeyStore(QObject *parent = nullptr);

    virtual void readKey(const QString &account, QObject *context, Callback done) = 0;
    /// An empty \a key deletes the account's key.
    virtual void writeKey(const QString &account,
                          const QString &key,
                          QObject *context,
                          Callback done)
        = 0;
    virtual void deleteKey(const QString &account, QObject *context, Callback done) = 0;

    /// True when keys are encrypted by the desktop's keyring, false for a plain file.
    virtual bool isSecure() const = 0;
    /// One translated sentence for the settings dialog: where keys are kept.
    virtual QString locationText() const = 0;

    /// The keyring with a fallback to a file beside the settings when there is no keyring
    /// (warning() says so once). Owned by \a parent.
    static KeyStore *createDefault(QObject *parent);

signals:
    /// Something the user should know about where their keys are (shown in the window).
    void warning(const QString &message);
    /// isSecure() or locationText() changed (the fallback took over).
    void locationChanged();

protected:
    /// Calls \a done with \a result from the event loop, unless \a context is gone by then.
    void finishLater(QObject *context, Callback done, const KeyResult &result);
};

} // namespace Ui
