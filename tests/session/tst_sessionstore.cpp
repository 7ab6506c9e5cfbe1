#include <session/sessionlog.h>
#include <session/sessionstore.h>
#include <testmain.h>

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <testpaths.h>

using namespace AgentCore;

namespace tst_sessionstore {

class tst_SessionStore : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void listsNewestFirstWithTitles();
    void renameKeepsTheState();
    void unreadableSessionIsListedAndLeftAlone();
    void removeDeletesTheFile();
    void removeIsRefusedWhileAnotherWindowHasIt();
    void forkCopiesTheConversationWithoutTheQueuesOrTheRun();
    void partialAnswersAreNotCountedAsMessages();
    void theActiveBranchIsCounted();
    void foldersDifferForCheckoutsWithTheSameName();
    void titleFromTask_data();
    void titleFromTask();

private:
    static void writeSession(const QString &path, const QStringList &tasks, qint64 ageSeconds);
};

void tst_SessionStore::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_SessionStore::writeSession(const QString &path, const QStringList &tasks, qint64 ageSeconds)
{
    QString error;
    auto log = SessionLog::open(path, SessionStore::newHeader(QStringLiteral("/repo")), &error);
    QVERIFY2(log, qPrintable(error));
    for (const QString &task : tasks) {
        Message message;
        message.role = Message::Role::User;
        message.content.append(ContentBlock::makeText(task));
        QVERIFY(log->appendMessage(message, &error));
    }
    log.reset();
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadWrite));
    QVERIFY(file.setFileTime(QDateTime::currentDateTime().addSecs(-ageSeconds),
                             QFileDevice::FileModificationTime));
}

void tst_SessionStore::listsNewestFirstWithTitles()
{
    QTemporaryDir dir;
    SessionStore store(dir.path());
    writeSession(dir.filePath(QStringLiteral("a.jsonl")), {"Old task\nwith details", "more"}, 3600);
    writeSession(dir.filePath(QStringLiteral("b.jsonl")), {"Newest task"}, 10);
    writeSession(dir.filePath(QStringLiteral("c.jsonl")), {"Middle task"}, 600);
    QFile::copy(TestSupport::sourcePath(QStringLiteral("tests/session/tst_sessionstore.cpp")),
                dir.filePath(QStringLiteral("notes.txt")));

    const QList<SessionInfo> sessions = store.list();
    QCOMPARE(sessions.size(), 3); // only session files
    QCOMPARE(sessions.at(0).title, QStringLiteral("Newest task"));
    QCOMPARE(sessions.at(1).title, QStringLiteral("Middle task"));
    QCOMPARE(sessions.at(2).title, QStringLiteral("Old task"));
    QCOMPARE(sessions.at(2).messageCount, 2);
    QVERIFY(sessions.at(0).error.isEmpty());
    QVERIFY(sessions.at(0).created.isValid());
}

void tst_SessionStore::renameKeepsTheState()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("s.jsonl"));
    writeSession(path, {"Fix the parser"}, 0);
    QString error;
    {
        auto log = SessionLog::open(path, {}, &error);
        QVERIFY(
            log->appendState({{QStringLiteral("permissionMode"), QStringLiteral("plan")}}, &error));
    }
    QVERIFY2(SessionStore::rename(path, QStringLiteral("  Parser   fix "), &error),
             qPrintable(error));
    QCOMPARE(SessionStore::describe(path).title, QStringLiteral("Parser fix"));
    const auto contents = SessionLog::load(path, &error);
    QCOMPARE(contents->state.value(u"permissionMode").toString(), QStringLiteral("plan"));
    QCOMPARE(contents->messages.size(), 1);
}

void tst_SessionStore::unreadableSessionIsListedAndLeftAlone()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.jsonl"));
    const QByteArray bytes = "this is not a session\n";
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
    }
    const QList<SessionInfo> sessions = SessionStore(dir.path()).list();
    QCOMPARE(sessions.size(), 1);
    QVERIFY(!sessions.constFirst().error.isEmpty());

    QString error;
    QVERIFY(!SessionStore::rename(path, QStringLiteral("name"), &error));
    QVERIFY(!error.isEmpty());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), bytes); // never overwritten
}

void tst_SessionStore::removeDeletesTheFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("s.jsonl"));
    writeSession(path, {"task"}, 0);
    QString error;
    QVERIFY(SessionStore::remove(path, &error));
    QVERIFY(!QFile::exists(path));
    QVERIFY(!SessionStore::remove(path, &error));
    QVERIFY(error.contains(QStringLiteral("s.jsonl")));
}

void tst_SessionStore::foldersDifferForCheckoutsWithTheSameName()
{
    const QString one = SessionStore::defaultDirectory(QStringLiteral("/home/a/project"));
    const QString two = SessionStore::defaultDirectory(QStringLiteral("/home/b/project"));
    QVERIFY(one != two);
    QVERIFY(one.contains(QStringLiteral("/sessions/project-")));
    QCOMPARE(SessionStore::defaultDirectory(QStringLiteral("/home/a/project")), one);
    QVERIFY(!one.startsWith(QStringLiteral("/home/a/project"))); // never inside the repository
}

void tst_SessionStore::titleFromTask_data()
{
    QTest::addColumn<QString>("task");
    QTest::addColumn<QString>("title");
    QTest::newRow("first line") << "Fix the bug\nin parser.cpp"
                                << "Fix the bug";
    QTest::newRow("spaces") << "  Fix   the\tbug  "
                            << "Fix the bug";
    QTest::newRow("empty") << ""
                           << "New conversation";
    QTest::newRow("long") << QString(100, u'x') << QString(79, u'x') + QChar(0x2026);
}

void tst_SessionStore::titleFromTask()
{
    QFETCH(QString, task);
    QFETCH(QString, title);
    QCOMPARE(SessionStore::titleFromTask(task), title);
}

void tst_SessionStore::removeIsRefusedWhileAnotherWindowHasIt()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("open.jsonl"));
    writeSession(path, {QStringLiteral("fix it")}, 0);
    QString error;
    {
        auto log = SessionLog::open(path, {}, &error);
        QVERIFY(log);
        QVERIFY(!SessionStore::remove(path, &error));
        QVERIFY2(error.contains(QStringLiteral("open in another AgentDesk window")),
                 qPrintable(error));
        QVERIFY(QFile::exists(path));
    }
    QVERIFY2(SessionStore::remove(path, &error), qPrintable(error));
    QVERIFY(!QFile::exists(path));
    QVERIFY(!QFile::exists(path + QStringLiteral(".lock")));
}

void tst_SessionStore::forkCopiesTheConversationWithoutTheQueuesOrTheRun()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("20250101-000000-000-0001.jsonl"));
    writeSession(path, {QStringLiteral("fix the overflow"), QStringLiteral("and test it")}, 0);
    QString error;
    auto log = SessionLog::open(path, {}, &error); // the window that has it
    QVERIFY(log);
    QVERIFY(log->appendState({{"followUps", QJsonArray{QStringLiteral("commit")}},
                              {"steering", QJsonArray{QStringLiteral("use index.ts")}},
                              {"leftoverSteering", QJsonArray{QStringLiteral("and the docs")}},
                              {"runInProgress", true},
                              {"permissionMode", QStringLiteral("acceptEdits")}},
                             &error));

    const QString copy = SessionStore::fork(path, &error);
    QVERIFY2(!copy.isEmpty(), qPrintable(error));
    QCOMPARE(QFileInfo(copy).absolutePath(), QFileInfo(path).absolutePath());
    QVERIFY(!SessionLog::isBusy(copy)); // the copy is free to be written
    const auto original = SessionLog::load(path, &error);
    const auto forked = SessionLog::load(copy, &error);
    QVERIFY2(forked, qPrintable(error));
    QCOMPARE(forked->messages, original->messages);
    QCOMPARE(forked->header.value(u"forkedFrom").toString(), path);
    QCOMPARE(forked->state.value(u"permissionMode").toString(), QStringLiteral("acceptEdits"));
    QVERIFY(!forked->state.contains(u"followUps"));
    QVERIFY(!forked->state.contains(u"steering"));
    QVERIFY(!forked->state.contains(u"leftoverSteering"));
    // The original's run goes on in its window: the copy was not interrupted.
    QVERIFY(!forked->state.contains(u"runInProgress"));
    QCOMPARE(SessionStore::describe(copy).title, QStringLiteral("fix the overflow (copy)"));
}

void tst_SessionStore::partialAnswersAreNotCountedAsMessages()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("streaming.jsonl"));
    writeSession(path, {QStringLiteral("explain it")}, 0);
    QString error;
    auto log = SessionLog::open(path, {}, &error);
    Message partial;
    partial.role = Message::Role::Assistant;
    partial.content = {ContentBlock::makeText(QStringLiteral("It starts"))};
    QVERIFY(log->appendPartial(partial, &error));
    QVERIFY(log->appendPartial(std::nullopt, &error));
    QCOMPARE(SessionStore::describe(path).messageCount, 1);
}

// "Edit and resend" at the second message leaves the first branch in the file: the list says
// how long the conversation the user resumes is, not how many messages the file holds.
void tst_SessionStore::theActiveBranchIsCounted()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("branches.jsonl"));
    QString error;
    auto log = SessionLog::open(path, SessionStore::newHeader(QStringLiteral("/repo")), &error);
    QVERIFY2(log, qPrintable(error));
    QStringList ids;
    const auto append = [&](const QString &text) {
        QString id;
        Message message = Message::makeUser(text);
        // a tool call's arguments may hold a key "parent": not the record's
        if (text.startsWith(u'c'))
            message.content.append(
                ContentBlock::makeToolCall(QStringLiteral("call_1"),
                                           QStringLiteral("Read"),
                                           {{QStringLiteral("parent"), QStringLiteral("x")}}));
        QVERIFY(log->appendMessage(message, &error, &id));
        ids.append(id);
    };
    append(QStringLiteral("first"));
    append(QStringLiteral("second"));
    append(QStringLiteral("call third"));
    QCOMPARE(SessionStore::describe(path).messageCount, 3);

    QVERIFY(log->appendBranch(ids.at(0), &error)); // back to the first message
    append(QStringLiteral("second, edited"));
    QCOMPARE(SessionStore::describe(path).messageCount, 2);
    QVERIFY(log->appendBranch(ids.at(2), &error)); // switched back
    QCOMPARE(SessionStore::describe(path).messageCount, 3);
    log.reset();
    const std::optional<SessionLog::Contents> contents = SessionLog::load(path, &error);
    QVERIFY(contents);
    QCOMPARE(contents->messages.size(), 3);
}

AGENTDESK_GUILESS_TEST_MAIN(tst_SessionStore)

} // namespace tst_sessionstore

#include "tst_sessionstore.moc"
