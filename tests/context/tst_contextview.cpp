// What a request sees of a compacted, edited conversation: the summary first, the kept tail,
// what came after, dropped outputs as stubs, pinned messages verbatim; and that the session
// file keeps a compaction so a resumed session sees the same.
#include <context/compaction.h>
#include <context/contextview.h>
#include <testmain.h>

#include <ai/messagejson.h>
#include <ai/toolcallpairing.h>
#include <session/sessionlog.h>

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace AgentCore;

namespace tst_contextview {

namespace {

Message assistantText(const QString &text)
{
    Message message;
    message.role = Message::Role::Assistant;
    message.content = {ContentBlock::makeText(text)};
    return message;
}

Message call(const QString &id)
{
    Message message;
    message.role = Message::Role::Assistant;
    message.stopReason = StopReason::ToolUse;
    message.content = {ContentBlock::makeToolCall(id, "Read", {{"path", "big.log"}})};
    return message;
}

// u0 a0 u1 call(c1) result(c1) a1 | compaction covering [0, 3) | u2 a2
QList<Message> compacted()
{
    QList<Message> history{Message::makeUser("u0"),
                           assistantText("a0"),
                           Message::makeUser("u1"),
                           call("c1"),
                           Message::makeToolResult("c1", "Read", "huge output", false),
                           assistantText("a1")};
    Compaction compaction;
    compaction.summary = QStringLiteral("The user asked for u0 and u1.");
    compaction.coveredCount = 3;
    compaction.model = "m";
    compaction.usage.input = 900;
    compaction.usage.output = 50;
    history.append(compaction.toMessage());
    history.append(Message::makeUser("u2"));
    history.append(assistantText("a2"));
    return history;
}

QStringList texts(const QList<Message> &messages)
{
    QStringList out;
    for (const Message &message : messages)
        out.append(message.text());
    return out;
}

} // namespace

class TestContextView : public QObject
{
    Q_OBJECT
private slots:
    void withoutCompactionOrEditsTheConversationIsTheView();
    void summaryFirstThenTheKeptTailThenWhatCameAfter();
    void onlyTheLatestCompactionApplies();
    void compactionThatReachesPastItselfIsIgnored();
    void droppedOutputIsAStubUnderTheSameCall();
    void pinnedMessageInTheSummarisedPartIsQuotedVerbatim();
    void compactionSurvivesTheSessionFile();
    void editsSurviveJson();
    void resumedSessionAppliesTheCompaction();
};

void TestContextView::withoutCompactionOrEditsTheConversationIsTheView()
{
    const QList<Message> history{Message::makeUser("hi"), assistantText("hello")};
    const QList<Message> view = contextView(history);
    QCOMPARE(view, history);
    QCOMPARE(view.constData(), history.constData()); // no copy on the common path
}

void TestContextView::summaryFirstThenTheKeptTailThenWhatCameAfter()
{
    const QList<Message> history = compacted();
    const ContextView view = mapContextView(history);
    QCOMPARE(view.messages.size(), 6);
    QCOMPARE(view.sources, (QList<qsizetype>{-1, 3, 4, 5, 7, 8}));
    QCOMPARE(view.messages.first().role, Message::Role::Custom);
    QVERIFY(view.messages.first().text().contains("The user asked for u0 and u1."));
    QCOMPARE(texts(view.messages.mid(3)), (QStringList{"a1", "u2", "a2"}));
    QCOMPARE(pairToolCalls(view.messages), view.messages);
    QCOMPARE(contextView(history), view.messages);
}

void TestContextView::onlyTheLatestCompactionApplies()
{
    QList<Message> history = compacted();
    Compaction second;
    second.summary = "second";
    second.coveredCount = 8; // u0 .. u2, the first compaction included
    history.append(second.toMessage());
    history.append(Message::makeUser("u3"));
    const QList<Message> view = contextView(history);
    QCOMPARE(view.size(), 3);
    QVERIFY(view.first().text().endsWith("second"));
    QCOMPARE(texts(view.mid(1)), (QStringList{"a2", "u3"}));
}

void TestContextView::compactionThatReachesPastItselfIsIgnored()
{
    QList<Message> history{Message::makeUser("u0"), assistantText("a0")};
    Compaction broken;
    broken.summary = "broken";
    broken.coveredCount = 5;
    history.append(broken.toMessage());
    history.append(Message::makeUser("u1"));
    QCOMPARE(latestCompactionIndex(history), -1);
    QCOMPARE(texts(contextView(history)), (QStringList{"u0", "a0", "u1"}));
}

void TestContextView::droppedOutputIsAStubUnderTheSameCall()
{
    QList<Message> history{Message::makeUser("u0"),
                           call("c1"),
                           Message::makeToolResult("c1", "Read", "huge output", false),
                           assistantText("a1")};
    ContextEdits edits;
    edits.droppedToolOutputs.insert("c1");
    const QList<Message> view = contextView(history, edits);
    QCOMPARE(view.size(), 4);
    QCOMPARE(view.at(2).toolCallId, "c1");
    QCOMPARE(view.at(2).text(), droppedToolOutputText());
    QCOMPARE(pairToolCalls(view), view);
    QCOMPARE(history.at(2).text(), "huge output"); // the history itself is untouched

    edits.pinnedMessages.insert(2); // a pinned output is never dropped
    QCOMPARE(contextView(history, edits).at(2).text(), "huge output");
}

void TestContextView::pinnedMessageInTheSummarisedPartIsQuotedVerbatim()
{
    QList<Message> history = compacted();
    ContextEdits edits;
    edits.pinnedMessages = {1, 4}; // a0 (covered) and the tool output (in the kept tail)
    const QList<Message> view = contextView(history, edits);
    const QString summary = view.first().text();
    QVERIFY(summary.contains("Pinned, verbatim:"));
    QVERIFY(summary.contains("a0"));
    QVERIFY(!summary.contains("huge output")); // kept verbatim where it is
    QCOMPARE(view.at(2).text(), "huge output");
    QCOMPARE(view.size(), 6);
}

void TestContextView::compactionSurvivesTheSessionFile()
{
    const QList<Message> history = compacted();
    QList<Message> loaded;
    for (const Message &message : history) {
        Message back;
        QString error;
        QVERIFY2(messageFromJson(messageToJson(message), &back, &error), qPrintable(error));
        loaded.append(back);
    }
    QCOMPARE(loaded, history);
    const std::optional<Compaction> compaction = Compaction::of(loaded.at(6));
    QVERIFY(compaction);
    QCOMPARE(compaction->coveredCount, 3);
    QCOMPARE(compaction->model, "m");
    QCOMPARE(compaction->usage.input, 900);
    QCOMPARE(contextView(loaded), contextView(history));
}

void TestContextView::editsSurviveJson()
{
    ContextEdits edits;
    edits.droppedToolOutputs = {"b", "a"};
    edits.pinnedMessages = {7, 2};
    QCOMPARE(ContextEdits::fromJson(edits.toJson()), edits);
    QCOMPARE(edits.toJson().value("pinnedMessages").toArray().first().toInt(), 2);
}

void TestContextView::resumedSessionAppliesTheCompaction()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("session.jsonl");
    const QList<Message> history = compacted();
    {
        QString error;
        std::unique_ptr<SessionLog> log = SessionLog::open(path, {}, &error);
        QVERIFY2(log, qPrintable(error));
        for (const Message &message : history)
            QVERIFY2(log->appendMessage(message, &error), qPrintable(error));
    }
    QString error;
    const std::optional<SessionLog::Contents> contents = SessionLog::load(path, &error);
    QVERIFY2(contents, qPrintable(error));
    QCOMPARE(contents->messages.size(), history.size()); // the originals are all there
    QCOMPARE(contextView(contents->messages), contextView(history));
    QVERIFY(Compaction::of(contextView(contents->messages).first()));
}

AGENTDESK_GUILESS_TEST_MAIN(TestContextView)

} // namespace tst_contextview

#include "tst_contextview.moc"
