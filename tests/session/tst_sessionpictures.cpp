// A session's pictures are kept beside its file, named by their hash, and the file only names
// them: every record that carries a picture (the message, the follow-up queue in the state)
// stays small. Loading brings them back; a missing one is a placeholder text, and a name that
// would leave the folder is never followed. Deleting the session deletes them; a copy of the
// session has its own.
#include <session/sessionlog.h>
#include <session/sessionpictures.h>
#include <session/sessionstore.h>

#include <ai/messagejson.h>

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>
#include <testmain.h>

using namespace AgentCore;

namespace tst_sessionpictures {

namespace {

// A picture's bytes: what the session keeps does not depend on them being a real PNG.
const QByteArray pictureBytes = QByteArrayLiteral("\x89PNG\r\n\x1a\n pretend picture bytes");

ContentBlock pictureBlock()
{
    return ContentBlock::makeImage(QStringLiteral("image/png"), pictureBytes.toBase64());
}

Message userWithPicture()
{
    Message user = Message::makeUser(QStringLiteral("what is wrong with this layout?"));
    user.content.prepend(pictureBlock());
    return user;
}

QString pictureName()
{
    return QString::fromLatin1(
               QCryptographicHash::hash(pictureBytes, QCryptographicHash::Sha256).toHex())
           + QStringLiteral(".png");
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class tst_SessionPictures : public QObject
{
    Q_OBJECT

private slots:
    void picturesAreKeptBesideTheFile();
    void aMissingPictureLoadsAsAPlaceholder();
    void aNameOutOfTheFolderIsNotFollowed();
    void deleteAndCopyTakeThePicturesAlong();
};

void tst_SessionPictures::picturesAreKeptBesideTheFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("20261207-120000-000-abcd.jsonl"));
    Message result = Message::makeToolResult("call_1", "Read", "shot.png: PNG", false);
    result.content.append(pictureBlock());
    const QList<Message> messages{userWithPicture(), result};
    {
        QString error;
        auto log = SessionLog::open(path, {}, &error);
        QVERIFY2(log, qPrintable(error));
        for (const Message &message : messages)
            QVERIFY(log->appendMessage(message, &error));
        // A queued follow-up with the picture, as the recorder writes the state.
        QVERIFY(log->appendState({{"followUps", QJsonArray{messageToJson(userWithPicture())}}},
                                 &error));
    }
    const QString folder = dir.filePath(QStringLiteral("20261207-120000-000-abcd.images"));
    QCOMPARE(SessionPictures::directoryOf(path), folder);
    QCOMPARE(QDir(folder).entryList(QDir::Files), QStringList{pictureName()});
    QCOMPARE(readFile(folder + u'/' + pictureName()), pictureBytes);
    const QByteArray file = readFile(path);
    QVERIFY2(!file.contains(pictureBytes.toBase64()), file.constData());
    QCOMPARE(file.count(pictureName().toLatin1()), 3);

    QString error;
    const std::optional<SessionLog::Contents> contents = SessionLog::load(path, &error);
    QVERIFY2(contents, qPrintable(error));
    QCOMPARE(contents->messages.size(), 2);
    QCOMPARE(contents->messages.at(0).content, messages.at(0).content);
    QCOMPARE(contents->messages.at(1).content, messages.at(1).content);
    Message queued;
    QVERIFY(messageFromJson(contents->state.value("followUps").toArray().at(0).toObject(), &queued));
    QCOMPARE(queued.content.at(0), pictureBlock());
    // The listing reads no picture and still finds the first task.
    QCOMPARE(SessionStore::describe(path).title, QStringLiteral("what is wrong with this layout?"));
}

void tst_SessionPictures::aMissingPictureLoadsAsAPlaceholder()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("s.jsonl"));
    {
        QString error;
        auto log = SessionLog::open(path, {}, &error);
        QVERIFY(log->appendMessage(userWithPicture(), &error));
    }
    QVERIFY(QDir(SessionPictures::directoryOf(path)).removeRecursively());
    QString error;
    const std::optional<SessionLog::Contents> contents = SessionLog::load(path, &error);
    QVERIFY2(contents, qPrintable(error));
    QCOMPARE(contents->messages.size(), 1); // the message stays, its text too
    const Message &user = contents->messages.at(0);
    QCOMPARE(user.content.size(), 2);
    QVERIFY(user.content.at(0).isText());
    QVERIFY2(user.content.at(0).text.contains(QStringLiteral("is missing")),
             qPrintable(user.content.at(0).text));
    QVERIFY(user.content.at(0).text.contains(pictureName()));
    QCOMPARE(user.content.at(1).text, QStringLiteral("what is wrong with this layout?"));
}

void tst_SessionPictures::aNameOutOfTheFolderIsNotFollowed()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("s.jsonl"));
    QFile secret(dir.filePath(QStringLiteral("secret.png")));
    QVERIFY(secret.open(QIODevice::WriteOnly));
    secret.write(pictureBytes);
    secret.close();
    QVERIFY(QDir().mkpath(SessionPictures::directoryOf(path)));
    const QJsonObject record{{"content",
                              QJsonArray{QJsonObject{{"type", "image"},
                                                     {"mimeType", "image/png"},
                                                     {"file", "../secret.png"}}}}};
    const QJsonObject restored = SessionPictures::restored(record, path);
    const QJsonObject block = restored.value("content").toArray().at(0).toObject();
    QCOMPARE(block.value("type").toString(), QStringLiteral("text"));
    QVERIFY(!block.contains("data"));
}

void tst_SessionPictures::deleteAndCopyTakeThePicturesAlong()
{
    QTemporaryDir dir;
    SessionStore store(dir.path());
    const QString path = store.newSessionPath();
    {
        QString error;
        auto log = SessionLog::open(path, SessionStore::newHeader(dir.path()), &error);
        QVERIFY(log->appendMessage(userWithPicture(), &error));
    }
    QString error;
    const QString copy = SessionStore::fork(path, &error);
    QVERIFY2(!copy.isEmpty(), qPrintable(error));
    QVERIFY(QFileInfo::exists(SessionPictures::directoryOf(copy) + u'/' + pictureName()));
    QVERIFY(SessionStore::remove(path, &error));
    QVERIFY(!QFileInfo::exists(SessionPictures::directoryOf(path)));
    const std::optional<SessionLog::Contents> contents = SessionLog::load(copy, &error);
    QVERIFY(contents);
    QCOMPARE(contents->messages.at(0).content.at(0), pictureBlock());
    QCOMPARE(store.list().size(), 1); // the folders beside the files are no sessions
}

AGENTDESK_GUILESS_TEST_MAIN(tst_SessionPictures)

} // namespace tst_sessionpictures

#include "tst_sessionpictures.moc"
