// Taking a session over (SessionResumption::takeOver) with the reading its caller made a moment
// before: used as it is when the file did not grow, read again when another writer added to it
// before letting go, and a torn last line is still said after the lock ended it.
#include <session/sessionresumption.h>
#include <testmain.h>

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace AgentCore;

namespace tst_sessionresumption {

namespace {

QStringList texts(const QList<Message> &messages)
{
    QStringList texts;
    for (const Message &message : messages)
        texts.append(message.text());
    return texts;
}

bool append(const QString &path, const QString &task)
{
    QString error;
    const std::unique_ptr<SessionLog> log = SessionLog::open(path, {}, &error);
    return log && log->appendMessage(Message::makeUser(task), &error);
}

} // namespace

class tst_SessionResumption : public QObject
{
    Q_OBJECT

private slots:
    void theCallersReadingStandsWhenNothingWasAdded()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.jsonl"));
        QVERIFY(append(path, QStringLiteral("first task")));
        QString error;
        const std::optional<SessionLog::Contents> read = SessionLog::load(path, &error);
        QVERIFY2(read, qPrintable(error));
        std::optional<SessionResumption> taken = SessionResumption::takeOver(path,
                                                                             &error,
                                                                             nullptr,
                                                                             &*read);
        QVERIFY2(taken, qPrintable(error));
        QCOMPARE(texts(taken->contents.messages), QStringList{QStringLiteral("first task")});
        QString other;
        QVERIFY(SessionLog::isBusy(path, &other)); // locked: nobody else adds to it now
    }

    void whatAnotherWriterAddedMeanwhileIsRead()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.jsonl"));
        QVERIFY(append(path, QStringLiteral("first task")));
        QString error;
        const std::optional<SessionLog::Contents> read = SessionLog::load(path, &error);
        QVERIFY2(read, qPrintable(error));
        // The window or headless run that held it wrote once more before it let go.
        QVERIFY(append(path, QStringLiteral("second task")));
        std::optional<SessionResumption> taken = SessionResumption::takeOver(path,
                                                                             &error,
                                                                             nullptr,
                                                                             &*read);
        QVERIFY2(taken, qPrintable(error));
        QCOMPARE(texts(taken->contents.messages),
                 (QStringList{QStringLiteral("first task"), QStringLiteral("second task")}));
    }

    void aTornLastLineIsStillSaidAndTheNextRecordIsWhole()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.jsonl"));
        QVERIFY(append(path, QStringLiteral("first task")));
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::Append));
            file.write(
                "{\"message\":{\"content\":[{\"text\":\"and th"); // moc misreads a raw string here
        }
        QString error;
        const std::optional<SessionLog::Contents> read = SessionLog::load(path, &error);
        QVERIFY2(read, qPrintable(error));
        QCOMPARE(read->warnings.size(), 1);
        QVERIFY(!read->endsWithNewline);
        {
            std::optional<SessionResumption> taken = SessionResumption::takeOver(path,
                                                                                 &error,
                                                                                 nullptr,
                                                                                 &*read);
            QVERIFY2(taken, qPrintable(error));
            QCOMPARE(texts(taken->contents.messages), QStringList{QStringLiteral("first task")});
            QCOMPARE(taken->contents.warnings, read->warnings);
            QVERIFY2(taken->contents.warnings.constFirst().contains(QStringLiteral("cut off")),
                     qPrintable(taken->contents.warnings.constFirst()));
            QVERIFY(taken->log->appendMessage(Message::makeUser(QStringLiteral("next")), &error));
        }
        const std::optional<SessionLog::Contents> after = SessionLog::load(path, &error);
        QVERIFY2(after, qPrintable(error));
        QCOMPARE(texts(after->messages),
                 (QStringList{QStringLiteral("first task"), QStringLiteral("next")}));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_SessionResumption)

} // namespace tst_sessionresumption

#include "tst_sessionresumption.moc"
