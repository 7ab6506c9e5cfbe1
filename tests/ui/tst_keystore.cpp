// Where API keys live: the private key file (0600 from creation, refused when others can read
// it), and the fallback from a keyring without backend to that file, with a warning.
#include "fakekeystore.h"

#include <keys/fallbackkeystore.h>
#include <keys/filekeystore.h>
#include <testmain.h>

#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

namespace tst_keystore {

using Ui::FallbackKeyStore;
using Ui::FileKeyStore;
using Ui::KeyResult;
using Ui::KeyStore;

namespace {

const QString secret = QStringLiteral("sk-ant-test-0123456789abcdef");

/// Runs one store operation and waits for its answer.
class Call
{
public:
    std::optional<KeyResult> result;

    KeyStore::Callback callback()
    {
        return [this](const KeyResult &answer) { result = answer; };
    }
    bool wait()
    {
        return QTest::qWaitFor([this] { return result.has_value(); }, 5000);
    }
};

KeyResult read(KeyStore &store, const QString &account)
{
    Call call;
    store.readKey(account, &store, call.callback());
    if (!call.wait())
        return {KeyResult::Status::Failed, {}, QStringLiteral("timed out")};
    return *call.result;
}

KeyResult write(KeyStore &store, const QString &account, const QString &key)
{
    Call call;
    store.writeKey(account, key, &store, call.callback());
    if (!call.wait())
        return {KeyResult::Status::Failed, {}, QStringLiteral("timed out")};
    return *call.result;
}

KeyResult remove(KeyStore &store, const QString &account)
{
    Call call;
    store.deleteKey(account, &store, call.callback());
    if (!call.wait())
        return {KeyResult::Status::Failed, {}, QStringLiteral("timed out")};
    return *call.result;
}

} // namespace

class tst_KeyStore : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();

    void fileRoundTrip();
    void fileIsCreatedPrivate();
    void noTemporaryLeftAndAllPrivate();
    void fileReadableByOthersIsRefused();
    void fileDelete();
    void fileAnswersAfterReturning();
    void defaultPathIsInTheConfigDir();

    void fallbackWhenKeyringUnavailable();
    void noFallbackWhenKeyringFails();
    void keyringUsedWhenAvailable();
    void callbackDroppedWithItsContext();
    void unavailableAfterTheKeyringWorkedIsAnError();
    void defaultStoreAnswersHere();

private:
    QString keyFile() const { return m_dir->filePath(QStringLiteral("config/api-keys.json")); }
    std::unique_ptr<QTemporaryDir> m_dir;
};

void tst_KeyStore::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_KeyStore::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void tst_KeyStore::fileRoundTrip()
{
    FileKeyStore store(keyFile());
    QCOMPARE(read(store, QStringLiteral("anthropic")).key, QString()); // no file yet: no key
    QVERIFY(write(store, QStringLiteral("anthropic"), secret).succeeded());
    QVERIFY(write(store, QStringLiteral("openai"), QStringLiteral("sk-openai")).succeeded());

    FileKeyStore reopened(keyFile());
    const KeyResult anthropic = read(reopened, QStringLiteral("anthropic"));
    QVERIFY2(anthropic.succeeded(), qPrintable(anthropic.error));
    QCOMPARE(anthropic.key, secret);
    QCOMPARE(read(reopened, QStringLiteral("openai")).key, QStringLiteral("sk-openai"));
    QCOMPARE(read(reopened, QStringLiteral("deepseek")).key, QString());
    QVERIFY(!reopened.isSecure());
    QVERIFY(reopened.locationText().contains(keyFile()));
}

void tst_KeyStore::fileIsCreatedPrivate()
{
    FileKeyStore store(keyFile());
    QVERIFY(write(store, QStringLiteral("anthropic"), secret).succeeded());
    const QFileDevice::Permissions permissions = QFile(keyFile()).permissions();
    QCOMPARE(permissions & ~(QFileDevice::ReadUser | QFileDevice::WriteUser),
             QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    // Rewriting keeps it private.
    QVERIFY(write(store, QStringLiteral("openai"), QStringLiteral("sk-2")).succeeded());
    QCOMPARE(QFile(keyFile()).permissions() & ~(QFileDevice::ReadUser | QFileDevice::WriteUser),
             QFileDevice::ReadOwner | QFileDevice::WriteOwner);
}

void tst_KeyStore::noTemporaryLeftAndAllPrivate()
{
    // Whatever the umask, no moment exists where the file is readable by others: every file
    // that appears in the folder during a write is private.
    FileKeyStore store(keyFile());
    QVERIFY(write(store, QStringLiteral("anthropic"), secret).succeeded());
    const QDir folder = QFileInfo(keyFile()).dir();
    const QFileInfoList files = folder.entryInfoList(QDir::Files | QDir::Hidden);
    QCOMPARE(files.size(), 1); // no temporary left behind
    for (const QFileInfo &file : files) {
        QVERIFY2(!(file.permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther)),
                 qPrintable(file.fileName()));
    }
}

void tst_KeyStore::fileReadableByOthersIsRefused()
{
    {
        FileKeyStore store(keyFile());
        QVERIFY(write(store, QStringLiteral("anthropic"), secret).succeeded());
    }
    QVERIFY(QFile::setPermissions(keyFile(),
                                  QFileDevice::ReadOwner | QFileDevice::WriteOwner
                                      | QFileDevice::ReadGroup | QFileDevice::ReadOther));
    FileKeyStore store(keyFile());
    const KeyResult result = read(store, QStringLiteral("anthropic"));
    QCOMPARE(result.status, KeyResult::Status::Failed);
    QCOMPARE(result.key, QString());
    QVERIFY2(result.error.contains(keyFile()), qPrintable(result.error));
    QVERIFY2(result.error.contains(QStringLiteral("other users")), qPrintable(result.error));
    QVERIFY2(result.error.contains(QStringLiteral("chmod 600")), qPrintable(result.error));
    QVERIFY(!result.error.contains(secret));
    // Nor is a new key added to a file others can read.
    QCOMPARE(write(store, QStringLiteral("openai"), QStringLiteral("sk-2")).status,
             KeyResult::Status::Failed);
    QFile file(keyFile());
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(!file.readAll().contains("sk-2"));
}

void tst_KeyStore::fileDelete()
{
    FileKeyStore store(keyFile());
    QVERIFY(write(store, QStringLiteral("anthropic"), secret).succeeded());
    QVERIFY(write(store, QStringLiteral("openai"), QStringLiteral("sk-openai")).succeeded());
    QVERIFY(remove(store, QStringLiteral("anthropic")).succeeded());
    QCOMPARE(read(store, QStringLiteral("anthropic")).key, QString());
    QCOMPARE(read(store, QStringLiteral("openai")).key, QStringLiteral("sk-openai"));
    QFile file(keyFile());
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(!file.readAll().contains(secret.toUtf8()));
    // Deleting what is not there is no error.
    QVERIFY(remove(store, QStringLiteral("anthropic")).succeeded());
    // Writing an empty key deletes too.
    QVERIFY(write(store, QStringLiteral("openai"), QString()).succeeded());
    QCOMPARE(read(store, QStringLiteral("openai")).key, QString());
}

void tst_KeyStore::fileAnswersAfterReturning()
{
    FileKeyStore store(keyFile());
    bool answered = false;
    store.readKey(QStringLiteral("anthropic"), &store, [&](const KeyResult &) { answered = true; });
    QVERIFY(!answered); // callers may set up state after the call
    QTRY_VERIFY(answered);
}

void tst_KeyStore::defaultPathIsInTheConfigDir()
{
    const QString config = QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation);
    QVERIFY(!config.isEmpty());
    QCOMPARE(QFileInfo(FileKeyStore::defaultPath()).absolutePath(),
             QFileInfo(config).absoluteFilePath());
}

void tst_KeyStore::fallbackWhenKeyringUnavailable()
{
    auto keyring = new FakeKeyStore;
    keyring->failWith = KeyResult::Status::Unavailable;
    auto file = new FileKeyStore(keyFile());
    FallbackKeyStore store(keyring, file);
    QSignalSpy warnings(&store, &KeyStore::warning);
    QSignalSpy locationChanged(&store, &KeyStore::locationChanged);
    QVERIFY(store.isSecure());

    const KeyResult written = write(store, QStringLiteral("anthropic"), secret);
    QVERIFY2(written.succeeded(), qPrintable(written.error));
    QVERIFY(store.usesFallback());
    QVERIFY(!store.isSecure());
    QCOMPARE(warnings.size(), 1);
    const QString warning = warnings.at(0).at(0).toString();
    QVERIFY2(warning.contains(keyFile()), qPrintable(warning));
    QVERIFY2(warning.contains(QStringLiteral("readable only by you")), qPrintable(warning));
    QCOMPARE(locationChanged.size(), 1);
    QCOMPARE(store.locationText(), warning);
    QVERIFY(QFile::exists(keyFile()));

    QCOMPARE(read(store, QStringLiteral("anthropic")).key, secret);
    QVERIFY(remove(store, QStringLiteral("anthropic")).succeeded());
    QCOMPARE(read(store, QStringLiteral("anthropic")).key, QString());
    QCOMPARE(warnings.size(), 1);     // once
    QCOMPARE(keyring->operations, 1); // not asked again once known to be missing
    QVERIFY(keyring->keys.isEmpty());
}

void tst_KeyStore::noFallbackWhenKeyringFails()
{
    auto keyring = new FakeKeyStore;
    keyring->failWith = KeyResult::Status::Failed;
    FallbackKeyStore store(keyring, new FileKeyStore(keyFile()));
    QSignalSpy warnings(&store, &KeyStore::warning);
    const KeyResult result = write(store, QStringLiteral("anthropic"), secret);
    QCOMPARE(result.status, KeyResult::Status::Failed);
    QCOMPARE(result.error, QStringLiteral("The fake keyring is locked."));
    QVERIFY(!store.usesFallback());
    QVERIFY(!QFile::exists(keyFile())); // a locked keyring never sends keys to the file
    QCOMPARE(warnings.size(), 0);
}

void tst_KeyStore::keyringUsedWhenAvailable()
{
    auto keyring = new FakeKeyStore;
    FallbackKeyStore store(keyring, new FileKeyStore(keyFile()));
    QSignalSpy warnings(&store, &KeyStore::warning);
    QVERIFY(write(store, QStringLiteral("anthropic"), secret).succeeded());
    QCOMPARE(keyring->keys.value(QStringLiteral("anthropic")), secret);
    QCOMPARE(read(store, QStringLiteral("anthropic")).key, secret);
    QVERIFY(!QFile::exists(keyFile()));
    QVERIFY(store.isSecure());
    QCOMPARE(store.locationText(), keyring->locationText());
    QCOMPARE(warnings.size(), 0);
}

void tst_KeyStore::callbackDroppedWithItsContext()
{
    auto keyring = new FakeKeyStore;
    keyring->failWith = KeyResult::Status::Unavailable;
    FallbackKeyStore store(keyring, new FileKeyStore(keyFile()));
    bool called = false;
    auto context = std::make_unique<QObject>();
    store.readKey(QStringLiteral("anthropic"), context.get(), [&](const KeyResult &) {
        called = true;
    });
    context.reset();
    // Answers come in order: once a later call is answered, the first one was dropped.
    QCOMPARE(read(store, QStringLiteral("anthropic")).status, KeyResult::Status::Ok);
    QVERIFY(!called);
}

void tst_KeyStore::unavailableAfterTheKeyringWorkedIsAnError()
{
    auto keyring = new FakeKeyStore;
    FallbackKeyStore store(keyring, new FileKeyStore(keyFile()));
    QVERIFY(write(store, QStringLiteral("anthropic"), secret).succeeded());
    keyring->failWith = KeyResult::Status::Unavailable; // the keyring daemon went away
    const KeyResult result = write(store, QStringLiteral("openai"), QStringLiteral("sk-2"));
    QCOMPARE(result.status, KeyResult::Status::Failed);
    QVERIFY(!result.error.isEmpty());
    QVERIFY(!store.usesFallback());
    QVERIFY(!QFile::exists(keyFile()));
}

void tst_KeyStore::defaultStoreAnswersHere()
{
    // The real keyring where there is one; offscreen and in CI there is none, and the file
    // beside the settings takes over, with the warning.
    KeyStore *store = KeyStore::createDefault(this);
    QSignalSpy warnings(store, &KeyStore::warning);
    const KeyResult result = read(*store, QStringLiteral("agentdesk-test-no-such-account"));
    QVERIFY2(result.succeeded(), qPrintable(result.error));
    QCOMPARE(result.key, QString());
    if (!store->isSecure()) {
        QCOMPARE(warnings.size(), 1);
        // Where the keys are, the home folder written as "~".
        const QString home = QDir::homePath() + u'/';
        QString shown = FileKeyStore::defaultPath();
        if (shown.startsWith(home))
            shown.replace(0, home.size() - 1, QStringLiteral("~"));
        QVERIFY2(warnings.at(0).at(0).toString().contains(shown),
                 qPrintable(warnings.at(0).at(0).toString()));
    } else {
        QCOMPARE(warnings.size(), 0);
    }
    delete store;
}

AGENTDESK_GUILESS_TEST_MAIN(tst_KeyStore)

} // namespace tst_keystore

#include "tst_keystore.moc"
