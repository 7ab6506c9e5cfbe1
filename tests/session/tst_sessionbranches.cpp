// The branches of a session file (SessionTree): each message record names its own id and its
// parent's, the file only grows, a file written before branches loads as one straight branch
// (and goes on as one), and the active branch is the one the last message or branch record
// names.
#include <session/sessionlog.h>
#include <session/sessionresumption.h>
#include <testmain.h>

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace AgentCore;
using namespace Qt::StringLiterals;

namespace tst_sessionbranches {

namespace {

QStringList textsOf(const QList<Message> &messages)
{
    QStringList texts;
    for (const Message &message : messages)
        texts.append(message.text());
    return texts;
}

QList<QJsonObject> recordsOf(const QString &path)
{
    QList<QJsonObject> records;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return records;
    for (const QByteArray &line : file.readAll().split('\n')) {
        if (!line.trimmed().isEmpty())
            records.append(QJsonDocument::fromJson(line).object());
    }
    return records;
}

Message answer(const QString &text)
{
    Message message;
    message.role = Message::Role::Assistant;
    message.content = {ContentBlock::makeText(text)};
    return message;
}

} // namespace

class tst_SessionBranches : public QObject
{
    Q_OBJECT

private slots:
    // A new file: every message record has an id and its parent's; a branch record moves the
    // leaf back, the next message follows it, and nothing already written changes.
    void appendOnlyWithParentPointers()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"s.jsonl"_s);
        QString error;
        QString first, second, third;
        {
            auto log = SessionLog::open(path, {}, &error);
            QVERIFY2(log, qPrintable(error));
            QCOMPARE(log->leaf(), std::optional<QString>(QString()));
            QVERIFY(log->appendMessage(Message::makeUser(u"fix it"_s), &error, &first));
            QVERIFY(log->appendMessage(answer(u"done A"_s), &error, &second));
            const QByteArray before = [&] {
                QFile file(path);
                return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
            }();
            QVERIFY(log->appendBranch(first, &error));
            QVERIFY(log->appendMessage(answer(u"done B"_s), &error, &third));
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            QVERIFY(file.readAll().startsWith(before)); // append-only
        }
        const QList<QJsonObject> records = recordsOf(path);
        QCOMPARE(records.size(), 5);
        QCOMPARE(records.at(1).value(u"id"_s).toString(), first);
        QCOMPARE(records.at(1).value(u"parent"_s).toString(), QString());
        QCOMPARE(records.at(2).value(u"parent"_s).toString(), first);
        QCOMPARE(records.at(3).value(u"type"_s).toString(), u"branch"_s);
        QCOMPARE(records.at(4).value(u"parent"_s).toString(), first);

        const std::optional<SessionLog::Contents> contents = SessionLog::load(path, &error);
        QVERIFY2(contents, qPrintable(error));
        QCOMPARE(contents->tree.size(), 3);
        QCOMPARE(contents->activeLeaf, third);
        QCOMPARE(textsOf(contents->messages), (QStringList{u"fix it"_s, u"done B"_s}));
        QCOMPARE(contents->tree.children(first), (QStringList{second, third}));
        QCOMPARE(textsOf(contents->tree.messagesTo(second)),
                 (QStringList{u"fix it"_s, u"done A"_s}));
        QCOMPARE(contents->tree.leaves(), (QStringList{second, third}));
    }

    // A file written before branches: message records without ids are one straight branch,
    // and a writer that resumes it goes on at its end with parent pointers.
    void oldFileLoadsAsOneBranch()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"old.jsonl"_s);
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(R"({"type":"session","version":1}
{"type":"message","message":{"role":"user","content":[{"type":"text","text":"one"}],"timestamp":1}}
{"type":"state","model":"x"}
{"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"two"}],"timestamp":2}}
{"type":"message","message":{"role":"user","content":[{"type":"text","text":"three"}],"timestamp":3}}
)");
        }
        QString error;
        std::optional<SessionLog::Contents> contents = SessionLog::load(path, &error);
        QVERIFY2(contents, qPrintable(error));
        QCOMPARE(textsOf(contents->messages), (QStringList{u"one"_s, u"two"_s, u"three"_s}));
        QCOMPARE(contents->tree.leaves().size(), 1);
        QCOMPARE(contents->activeLeaf, u"#3"_s);

        std::optional<SessionResumption> resumption = SessionResumption::takeOver(path, &error);
        QVERIFY2(resumption, qPrintable(error));
        QCOMPARE(resumption->log->leaf(), std::optional<QString>(u"#3"_s));
        QVERIFY(resumption->log->appendMessage(answer(u"four"_s), &error));
        QVERIFY(resumption->log->appendBranch(u"#1"_s, &error)); // fork after "one"
        QVERIFY(resumption->log->appendMessage(answer(u"two again"_s), &error));
        resumption.reset();
        contents = SessionLog::load(path, &error);
        QVERIFY2(contents, qPrintable(error));
        QCOMPARE(textsOf(contents->messages), (QStringList{u"one"_s, u"two again"_s}));
        QCOMPARE(contents->tree.leaves().size(), 2);
        QCOMPARE(textsOf(contents->tree.messagesTo(contents->tree.leaves().first())),
                 (QStringList{u"one"_s, u"two"_s, u"three"_s, u"four"_s}));
    }

    // The active branch is the last one named: a branch record with no message after it
    // (switched, then closed) still decides; "" is an empty branch; an unknown leaf is ignored.
    void activeBranchIsTheLastNamed()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"s.jsonl"_s);
        QString error;
        QString first, second;
        {
            auto log = SessionLog::open(path, {}, &error);
            QVERIFY(log->appendMessage(Message::makeUser(u"a"_s), &error, &first));
            QVERIFY(log->appendMessage(answer(u"b"_s), &error, &second));
            QVERIFY(log->appendBranch(first, &error));
        }
        std::optional<SessionLog::Contents> contents = SessionLog::load(path, &error);
        QCOMPARE(contents->activeLeaf, first);
        QCOMPARE(textsOf(contents->messages), QStringList{u"a"_s});
        {
            auto log = SessionLog::open(path, {}, &error);
            QVERIFY(log->appendBranch(u"no-such-id"_s, &error));
        }
        contents = SessionLog::load(path, &error);
        QCOMPARE(contents->activeLeaf, first);
        {
            auto log = SessionLog::open(path, {}, &error);
            QVERIFY(log->appendBranch(QString(), &error));
        }
        contents = SessionLog::load(path, &error);
        QCOMPARE(contents->activeLeaf, QString());
        QVERIFY(contents->messages.isEmpty());
        QCOMPARE(contents->tree.size(), 2);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_SessionBranches)

} // namespace tst_sessionbranches

#include "tst_sessionbranches.moc"
