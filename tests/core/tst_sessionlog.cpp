// A session on disk: what is appended comes back, a torn last line costs only itself, and a
// file that is not a session is never written to.
#include <core/sessionlog.h>

#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace AgentCore;

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

    void missingFileIsAnError()
    {
        QTemporaryDir dir;
        QString error;
        QVERIFY(!SessionLog::load(dir.filePath(QStringLiteral("none.jsonl")), &error));
        QVERIFY2(error.startsWith(QStringLiteral("Cannot read the session")), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(tst_SessionLog)

#include "tst_sessionlog.moc"
