// A session on disk: what is appended comes back, a torn last line costs only itself, a
// file that is not a session is never written to, and only one window or process at a time
// adds to a session (the lock's holder is a real second process in one test).
#include <session/sessionlog.h>
#include <testmain.h>

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>
#include <QThread>

#include <atomic>
#include <memory>

using namespace AgentCore;

namespace tst_sessionlog {

namespace {

// Built once: messages carry the time they were made.
QList<Message> makeSampleMessages()
{
    Message assistant;
    assistant.role = Message::Role::Assistant;
    assistant.content = {ContentBlock::makeText(QStringLiteral("Reading it.")),
                         ContentBlock::makeToolCall(QStringLiteral("call_1"),
                                                    QStringLiteral("Read"),
                                                    {{"file_path", "loop.ts"}})};
    assistant.stopReason = StopReason::ToolUse;
    assistant.model = QStringLiteral("claude-sonnet-4-5");
    return {Message::makeUser(QStringLiteral("fix the crash in loop.ts")),
            assistant,
            Message::makeToolResult(QStringLiteral("call_1"),
                                    QStringLiteral("Read"),
                                    QStringLiteral("1\texport function loop() {}"),
                                    false)};
}

QList<Message> sampleMessages()
{
    static const QList<Message> messages = makeSampleMessages();
    return messages;
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeAll(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
           && file.write(bytes) == bytes.size();
}

} // namespace

class tst_SessionLog : public QObject
{
    Q_OBJECT

private slots:
    void appendedRecordsComeBack()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sessions/calc/first.jsonl"));
        QString error;
        auto log = SessionLog::open(path, {{"repository", "/src/calc"}}, &error);
        QVERIFY2(log, qPrintable(error));
        for (const Message &message : sampleMessages())
            QVERIFY(log->appendMessage(message, &error));
        QVERIFY(log->appendState({{"followUps", QJsonArray{"run the tests"}}}, &error));
        QVERIFY(log->appendState({{"followUps", QJsonArray{"commit it"}}}, &error));
        QVERIFY(log->sync(&error));
        log.reset();

        const auto contents = SessionLog::load(path, &error);
        QVERIFY2(contents, qPrintable(error));
        QCOMPARE(contents->header.value(u"repository").toString(), QStringLiteral("/src/calc"));
        QCOMPARE(contents->header.value(u"version").toInt(), SessionLog::version);
        QCOMPARE(contents->messages, sampleMessages());
        QCOMPARE(contents->state.value(u"followUps").toArray(), QJsonArray{"commit it"});
        QVERIFY(contents->warnings.isEmpty());
    }

    void reopeningAppendsAfterWhatIsThere()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.jsonl"));
        QString error;
        QVERIFY(SessionLog::open(path, {}, &error)->appendMessage(sampleMessages().at(0), &error));
        // Opened again (AgentDesk restarted): the header is not written twice.
        QVERIFY(SessionLog::open(path, {{"repository", "ignored"}}, &error)
                    ->appendMessage(sampleMessages().at(1), &error));
        const auto contents = SessionLog::load(path, &error);
        QVERIFY(contents);
        QCOMPARE(contents->messages, sampleMessages().mid(0, 2));
        QVERIFY(!contents->header.contains(u"repository"));
        QCOMPARE(readAll(path).count("\"type\":\"session\""), 1);
    }

    void tornLastLineCostsOnlyItself()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.jsonl"));
        QString error;
        {
            auto log = SessionLog::open(path, {}, &error);
            QVERIFY(log->appendMessage(sampleMessages().at(0), &error));
            QVERIFY(log->appendMessage(sampleMessages().at(1), &error));
        }
        // Killed while writing the third record.
        QVERIFY(writeAll(path, readAll(path) + "{\"type\":\"message\",\"message\":{\"role\":\"to"));

        auto contents = SessionLog::load(path, &error);
        QVERIFY2(contents, qPrintable(error));
        QCOMPARE(contents->messages, sampleMessages().mid(0, 2));
        QCOMPARE(contents->warnings.size(), 1);
        QVERIFY2(contents->warnings.constFirst().contains(QStringLiteral("cut off")),
                 qPrintable(contents->warnings.constFirst()));

        // Resumed: the next record starts on a line of its own; nothing else is lost.
        QVERIFY(SessionLog::open(path, {}, &error)->appendMessage(sampleMessages().at(2), &error));
        contents = SessionLog::load(path, &error);
        QVERIFY(contents);
        QCOMPARE(contents->messages, sampleMessages());
        QCOMPARE(contents->warnings.size(), 1);
        QVERIFY(contents->warnings.constFirst().contains(QStringLiteral("Line 4")));
    }

    // A long file's halves are read at once (SessionLog::load): whatever stands where one
    // ends and the other begins, the file reads as it was written, in its order. Here a branch
    // back, a state, a line that cannot be read, and a torn last line.
    void aLongFileReadsInItsOrder_data()
    {
        QTest::addColumn<int>("at");
        for (const int at : {1, 27, 28, 29, 30, 31, 32, 58})
            QTest::addRow("after message %d", at) << at;
    }

    void aLongFileReadsInItsOrder()
    {
        QFETCH(int, at);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("long.jsonl"));
        QString error;
        QList<Message> branch; // the active one
        {
            const auto log = SessionLog::open(path, {}, &error);
            QVERIFY2(log, qPrintable(error));
            QString previous;
            for (int i = 0; i < 60; ++i) {
                // 40 KB each: the file is 2.4 MB.
                const Message message = Message::makeUser(
                    QStringLiteral("message %1 ").arg(i, 2).repeated(3'600));
                QString id;
                QVERIFY2(log->appendMessage(message, &error, &id), qPrintable(error));
                branch.append(message);
                if (i == at) {
                    // The user went back to the message before and on from there.
                    QVERIFY(log->appendBranch(previous, &error));
                    QVERIFY(log->appendState({{"draft", "half-way"}}, &error));
                    branch.removeLast();
                }
                previous = id;
            }
        }
        QByteArray bytes = readAll(path);
        QVERIFY(bytes.size() > 2 * 1024 * 1024);
        // Lines 1 (the header) to at + 2 (message at), the branch, the state, then this one.
        qsizetype lineEnd = -1;
        for (int line = 0; line < at + 4; ++line)
            lineEnd = bytes.indexOf('\n', lineEnd + 1);
        bytes.insert(lineEnd + 1, "{\"type\":\"message\",\"message\":{\"role\":\"nobody\"}}\n");
        bytes += "{\"type\":\"message\",\"message\":{\"role\":\"us"; // killed while writing
        QVERIFY(writeAll(path, bytes));

        for (const auto paging : {SessionLog::Paging::Whole, SessionLog::Paging::Paged}) {
            const auto contents = SessionLog::load(path, &error, paging);
            QVERIFY2(contents, qPrintable(error));
            QCOMPARE(contents->messages, branch);
            QCOMPARE(contents->tree.size(), 60);
            QCOMPARE(contents->state.value(u"draft").toString(), QStringLiteral("half-way"));
            QCOMPARE(contents->warnings.size(), 2);
            QVERIFY2(contents->warnings.at(0).startsWith(QStringLiteral("Line %1 ").arg(at + 5)),
                     qPrintable(contents->warnings.at(0)));
            QVERIFY2(contents->warnings.at(1).contains(QStringLiteral("cut off")),
                     qPrintable(contents->warnings.at(1)));
            QCOMPARE(contents->bytes, bytes.size());
            QVERIFY(!contents->endsWithNewline);
        }
    }

    void aFileThatIsNotASessionIsLeftAsItIs_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("notes") << QByteArray("my notes\nmore notes\n");
        QTest::newRow("other json") << QByteArray("{\"type\":\"message\"}\n");
        QTest::newRow("newer version") << QByteArray("{\"type\":\"session\",\"version\":99}\n");
        QTest::newRow("empty") << QByteArray();
    }

    void aFileThatIsNotASessionIsLeftAsItIs()
    {
        QFETCH(QByteArray, bytes);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.jsonl"));
        QVERIFY(writeAll(path, bytes));
        QString error;
        QVERIFY(!SessionLog::load(path, &error));
        QVERIFY2(error.contains(QStringLiteral("left as it is")), qPrintable(error));
        error.clear();
        QVERIFY(!SessionLog::open(path, {}, &error));
        QVERIFY(error.contains(QStringLiteral("left as it is")));
        QCOMPARE(readAll(path), bytes);
    }

    // A file written before every call got an id of its own, by a server that numbers calls
    // per reply: read back, each call has its own id and its own result; the file stays as
    // it was.
    void idsRepeatedAcrossRepliesComeBackApart()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("old.jsonl"));
        const auto call = [](const QString &name) {
            Message message;
            message.role = Message::Role::Assistant;
            message.content = {ContentBlock::makeToolCall(QStringLiteral("call_0"), name, {})};
            message.stopReason = StopReason::ToolUse;
            return message;
        };
        const QList<Message> written{
            Message::makeUser(QStringLiteral("what changed?")),
            call(QStringLiteral("Glob")),
            Message::makeToolResult(QStringLiteral("call_0"), QStringLiteral("Glob"), "a.txt", false),
            call(QStringLiteral("Bash")),
            Message::makeToolResult(QStringLiteral("call_0"),
                                    QStringLiteral("Bash"),
                                    QStringLiteral(" a.txt | 2 +-"),
                                    false),
        };
        QString error;
        auto log = SessionLog::open(path, {}, &error);
        QVERIFY2(log, qPrintable(error));
        for (const Message &message : written)
            QVERIFY(log->appendMessage(message, &error));
        log.reset();
        const QByteArray bytes = readAll(path);

        const auto contents = SessionLog::load(path, &error);
        QVERIFY2(contents, qPrintable(error));
        const QList<Message> &messages = contents->messages;
        QCOMPARE(messages.size(), written.size());
        const ContentBlock glob = messages.at(1).toolCalls().value(0);
        const ContentBlock bash = messages.at(3).toolCalls().value(0);
        QCOMPARE(glob.id, QStringLiteral("call_0"));
        QVERIFY(bash.id != glob.id);
        QCOMPARE(bash.providerId, QStringLiteral("call_0"));
        QCOMPARE(messages.at(2).toolCallId, glob.id);
        QCOMPARE(messages.at(4).toolCallId, bash.id);
        QCOMPARE(messages.at(4).text(), QStringLiteral(" a.txt | 2 +-"));
        QCOMPARE(readAll(path), bytes);
    }

    void oneWriterPerSession()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.jsonl"));
        QString error;
        auto first = SessionLog::open(path, {}, &error);
        QVERIFY2(first, qPrintable(error));
        QVERIFY(first->appendMessage(sampleMessages().at(0), &error));

        // A second window of the same process: refused, and told who has it.
        bool busy = false;
        QVERIFY(!SessionLog::open(path, {}, &error, &busy));
        QVERIFY(busy);
        QVERIFY2(error.contains(QStringLiteral("open in another AgentDesk window"))
                     && error.contains(QString::number(QCoreApplication::applicationPid())),
                 qPrintable(error));
        QVERIFY(SessionLog::isBusy(path));

        first.reset(); // the window closed: the session is free again
        QVERIFY(!SessionLog::isBusy(path));
        auto second = SessionLog::open(path, {}, &error, &busy);
        QVERIFY2(second, qPrintable(error));
        QVERIFY(!busy);
        QVERIFY(second->appendMessage(sampleMessages().at(1), &error));
        QCOMPARE(SessionLog::load(path, &error)->messages, sampleMessages().mid(0, 2));
    }

    // A window asking whether a session is free (the sessions list, a headless rewind) while
    // another opens it: the question never makes the open fail. isBusy() used to take the
    // lock for a moment to find out, and an open() in that moment was refused as "busy".
    void isBusyNeverMakesAnOpenFail()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.jsonl"));
        QString error;
        QVERIFY(SessionLog::open(path, {}, &error)->appendMessage(sampleMessages().at(0), &error));

        std::atomic<bool> stop = false;
        std::atomic<int> questions = 0;
        std::unique_ptr<QThread> asker(QThread::create([&] {
            while (!stop) {
                SessionLog::isBusy(path);
                ++questions;
            }
        }));
        asker->start();
        QTRY_VERIFY(questions > 0);
        int refused = 0;
        const int opens = 500;
        for (int i = 0; i < opens; ++i) {
            bool busy = false;
            if (!SessionLog::open(path, {}, &error, &busy)) {
                QVERIFY2(busy, qPrintable(error));
                ++refused;
            }
        }
        stop = true;
        asker->wait();
        QVERIFY(questions > 1);
        QVERIFY2(refused == 0,
                 qPrintable(QStringLiteral("%1 of %2 opens refused while another thread asked "
                                           "isBusy() %3 times")
                                .arg(refused)
                                .arg(opens)
                                .arg(questions.load())));
    }

    void anotherProcessHoldsTheSessionUntilItIsKilled()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.jsonl"));
        QString error;
        QVERIFY(SessionLog::open(path, {}, &error)->appendMessage(sampleMessages().at(0), &error));

        QProcess holder;
        holder.start(QCoreApplication::applicationFilePath(),
                     TestSupport::thisTestWith({QStringLiteral("--hold"), path}));
        QVERIFY(holder.waitForReadyRead(30'000));
        QCOMPARE(holder.readLine().trimmed(), QByteArray("held"));

        bool busy = false;
        QVERIFY(!SessionLog::open(path, {}, &error, &busy));
        QVERIFY(busy);
        QVERIFY2(error.contains(QString::number(holder.processId())), qPrintable(error));
        QString who;
        QVERIFY(SessionLog::isBusy(path, &who));
        QVERIFY2(who.contains(QString::number(holder.processId())), qPrintable(who));

        // SIGKILL leaves its lock file behind; the dead process no longer holds it.
        holder.kill();
        QVERIFY(holder.waitForFinished(30'000));
        QVERIFY(QFile::exists(path + QStringLiteral(".lock")));
        auto log = SessionLog::open(path, {}, &error, &busy);
        QVERIFY2(log, qPrintable(error));
        QVERIFY(!busy);
        QVERIFY(log->appendMessage(sampleMessages().at(1), &error));
        QCOMPARE(SessionLog::load(path, &error)->messages, sampleMessages().mid(0, 2));
    }

    void appendsLandAfterWhatAnotherWriterAdded()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.jsonl"));
        QString error;
        auto log = SessionLog::open(path, {}, &error);
        QVERIFY(log->appendMessage(sampleMessages().at(0), &error));
        {
            // A writer that knows nothing of the lock (an older AgentDesk) adds a record.
            QTemporaryDir otherDir;
            const QString otherPath = otherDir.filePath(QStringLiteral("o.jsonl"));
            QVERIFY(SessionLog::open(otherPath, {}, &error)
                        ->appendMessage(sampleMessages().at(1), &error));
            const QByteArray record = readAll(otherPath).split('\n').at(1) + '\n';
            QFile other(path);
            QVERIFY(other.open(QIODevice::Append));
            QCOMPARE(other.write(record), record.size());
        }
        QVERIFY(log->appendMessage(sampleMessages().at(2), &error));
        const auto contents = SessionLog::load(path, &error);
        QVERIFY2(contents, qPrintable(error));
        // Nothing overwritten, in file order. The other writer's record starts a branch of its
        // own (it names no parent of this file), which is where it stays.
        QList<Message> written;
        for (const SessionTree::Entry &entry : contents->tree.entries())
            written.append(entry.message);
        QCOMPARE(written, sampleMessages());
        QVERIFY(contents->warnings.isEmpty());
    }

    void partialAnswerLastsUntilItsMessageEnds()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.jsonl"));
        QString error;
        auto log = SessionLog::open(path, {}, &error);
        QVERIFY(log->appendMessage(sampleMessages().at(0), &error));
        Message partial;
        partial.role = Message::Role::Assistant;
        partial.content = {ContentBlock::makeText(QStringLiteral("Read"))};
        QVERIFY(log->appendPartial(partial, &error));
        partial.content = {ContentBlock::makeText(QStringLiteral("Reading it"))};
        QVERIFY(log->appendPartial(partial, &error));
        auto contents = SessionLog::load(path, &error);
        QVERIFY(contents && contents->partial);
        QCOMPARE(contents->partial->text(), QStringLiteral("Reading it")); // the last one
        QCOMPARE(contents->messages.size(), 1);

        QVERIFY(log->appendMessage(sampleMessages().at(1), &error));
        contents = SessionLog::load(path, &error);
        QVERIFY(contents && !contents->partial); // it ended

        QVERIFY(log->appendPartial(partial, &error));
        QVERIFY(log->appendPartial(std::nullopt, &error)); // withdrawn (discarded)
        contents = SessionLog::load(path, &error);
        QVERIFY(contents && !contents->partial);
        QVERIFY(contents->warnings.isEmpty());
    }

    // A long answer is saved every second by what is new: the records add up to the answer,
    // block by block, and a later full partial starts over.
    void partialMoreRecordsAddUp()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.jsonl"));
        QString error;
        auto log = SessionLog::open(path, {}, &error);
        Message partial;
        partial.role = Message::Role::Assistant;
        partial.content = {ContentBlock::makeThinking(QStringLiteral("Look at"))};
        QVERIFY(log->appendPartial(partial, &error));
        Message more = partial;
        more.content = {ContentBlock::makeThinking(QStringLiteral(" the loop."))};
        QVERIFY(log->appendPartialMore(more, &error));
        more.content = {ContentBlock::makeThinking(QString()),
                        ContentBlock::makeText(QStringLiteral("It reads"))};
        QVERIFY(log->appendPartialMore(more, &error));
        more.content = {ContentBlock::makeThinking(QString()),
                        ContentBlock::makeText(QStringLiteral(" loop.ts."))};
        QVERIFY(log->appendPartialMore(more, &error));

        auto contents = SessionLog::load(path, &error);
        QVERIFY2(contents && contents->partial, qPrintable(error));
        QCOMPARE(contents->partial->content.size(), 2);
        QCOMPARE(contents->partial->content.at(0).type, ContentBlock::Type::Thinking);
        QCOMPARE(contents->partial->content.at(0).text, QStringLiteral("Look at the loop."));
        QCOMPARE(contents->partial->text(), QStringLiteral("It reads loop.ts."));
        QCOMPARE(readAll(path).count("It reads"), 1); // written once, not once per save
        QVERIFY(contents->warnings.isEmpty());

        QVERIFY(log->appendPartial(partial, &error)); // the next answer
        contents = SessionLog::load(path, &error);
        QVERIFY(contents && contents->partial);
        QCOMPARE(contents->partial->content.size(), 1);
        QCOMPARE(contents->partial->content.at(0).text, QStringLiteral("Look at"));
    }

    void missingFileIsAnError()
    {
        QTemporaryDir dir;
        QString error;
        QVERIFY(!SessionLog::load(dir.filePath(QStringLiteral("none.jsonl")), &error));
        QVERIFY2(error.startsWith(QStringLiteral("Cannot read the session")), qPrintable(error));
    }
};

static int sessionLogMain(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    // The second process of anotherProcessHoldsTheSessionUntilItIsKilled: holds the session
    // until it is killed.
    if (argc == 3 && qstrcmp(argv[1], "--hold") == 0) {
        QString error;
        const auto log = SessionLog::open(QString::fromLocal8Bit(argv[2]), {}, &error);
        QTextStream(stdout) << (log ? QStringLiteral("held") : error) << Qt::endl;
        return log ? app.exec() : 1;
    }
    tst_SessionLog test;
    return QTest::qExec(&test, argc, argv);
}

AGENTDESK_TEST_ENTRY(sessionLogMain)

} // namespace tst_sessionlog

#include "tst_sessionlog.moc"
