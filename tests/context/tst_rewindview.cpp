// What a request sees after "Rewind to here": the messages from the rewind's target on are gone
// from the view while the history (and the session file) keeps them; after a compaction, a
// rewind before the compaction brings the originals back; a rewind of a rewind undoes it; a
// resumed session sees the same view.
#include <context/compaction.h>
#include <context/contextview.h>
#include <context/rewind.h>
#include <testmain.h>

#include <ai/messagejson.h>
#include <ai/toolcallpairing.h>
#include <session/sessionlog.h>

#include <QTemporaryDir>
#include <QTest>

using namespace AgentCore;

namespace tst_rewindview {

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
    message.content = {ContentBlock::makeToolCall(id, "Edit", {{"path", "a.txt"}})};
    return message;
}

Message rewindTo(qsizetype index, Rewind::Scope scope = Rewind::Scope::Both)
{
    Rewind rewind;
    rewind.toIndex = index;
    rewind.scope = scope;
    if (rewind.restoresFiles()) {
        rewind.checkpoint = QStringLiteral("cp-before");
        rewind.undoCheckpoint = QStringLiteral("cp-undo");
        rewind.restoredFiles = {QStringLiteral("a.txt")};
        rewind.keptFiles = {QStringLiteral("notes.md")};
    }
    return rewind.toMessage();
}

Message compaction(qsizetype coveredCount, const QString &summary)
{
    Compaction compaction;
    compaction.summary = summary;
    compaction.coveredCount = coveredCount;
    return compaction.toMessage();
}

// u0 a0 u1 call(c1) result(c1) a1 u2 a2
QList<Message> exchanges()
{
    return {Message::makeUser("u0"),
            assistantText("a0"),
            Message::makeUser("u1"),
            call("c1"),
            Message::makeToolResult("c1", "Edit", "edited", false),
            assistantText("a1"),
            Message::makeUser("u2"),
            assistantText("a2")};
}

QStringList texts(const QList<Message> &messages)
{
    QStringList out;
    for (const Message &message : messages)
        out.append(message.text());
    return out;
}

QList<qsizetype> rewoundIndexes(const QList<Message> &conversation, qsizetype by)
{
    QList<qsizetype> out;
    const QList<qsizetype> rewoundBy = conversationFates(conversation).rewoundBy;
    for (qsizetype i = 0; i < rewoundBy.size(); ++i) {
        if (rewoundBy.at(i) == by)
            out.append(i);
    }
    return out;
}

} // namespace

class TestRewindView : public QObject
{
    Q_OBJECT
private slots:
    void rewindDropsItsTargetAndWhatCameAfter();
    void rewindToATurnKeepsItsUserMessage();
    void filesOnlyRewindTellsTheModelWhichFilesChanged();
    void rewindThatReachesPastItselfIsIgnored();
    void rewindBeforeACompactionBringsTheOriginalsBack();
    void rewindAfterACompactionKeepsTheSummary();
    void compactionAfterARewindLeavesTheRewoundOut();
    void rewindOfARewindUndoesIt();
    void rewindSurvivesJson();
    void sessionFileKeepsTheOriginalsAndResumesToTheSameView();
};

void TestRewindView::rewindDropsItsTargetAndWhatCameAfter()
{
    QList<Message> history = exchanges();
    history.append(rewindTo(2)); // back to right before u1
    history.append(Message::makeUser("u3"));
    const ContextView view = mapContextView(history);
    QCOMPARE(texts(view.messages), (QStringList{"u0", "a0", "u3"}));
    QCOMPARE(view.sources, (QList<qsizetype>{0, 1, 9}));
    QCOMPARE(contextView(history), view.messages);
    QCOMPARE(history.size(), 10); // the history keeps every original
    QCOMPARE(rewoundIndexes(history, 8), (QList<qsizetype>{2, 3, 4, 5, 6, 7}));
    QCOMPARE(rewoundIndexes(history, -1), (QList<qsizetype>{0, 1, 8, 9}));
    QCOMPARE(latestViewChangeIndex(history), 8);
}

void TestRewindView::rewindToATurnKeepsItsUserMessage()
{
    QList<Message> history = exchanges();
    history.append(rewindTo(3, Rewind::Scope::Conversation)); // right before the Edit call
    const QList<Message> view = contextView(history);
    QCOMPARE(texts(view), (QStringList{"u0", "a0", "u1"}));
    QCOMPARE(pairToolCalls(view), view);
}

void TestRewindView::filesOnlyRewindTellsTheModelWhichFilesChanged()
{
    QList<Message> history = exchanges();
    history.append(rewindTo(2, Rewind::Scope::Files));
    const QList<Message> view = contextView(history);
    QCOMPARE(view.size(), history.size()); // nothing of the conversation goes
    QCOMPARE(view.last().role, Message::Role::Custom);
    QVERIFY(view.last().text().contains("a.txt"));
    QVERIFY(conversationFates(history).rewoundBy.count(-1) == history.size());
    QCOMPARE(latestViewChangeIndex(history), -1);
}

void TestRewindView::rewindThatReachesPastItselfIsIgnored()
{
    QList<Message> history{Message::makeUser("u0"), assistantText("a0")};
    history.append(rewindTo(5));
    history.append(Message::makeUser("u1"));
    QCOMPARE(texts(contextView(history)), (QStringList{"u0", "a0", "u1"}));
    Message unreadable = rewindTo(0);
    unreadable.customData.remove(QStringLiteral("toIndex"));
    QVERIFY(!Rewind::of(unreadable));
    history.append(unreadable);
    QCOMPARE(texts(contextView(history)), (QStringList{"u0", "a0", "u1"}));
}

void TestRewindView::rewindBeforeACompactionBringsTheOriginalsBack()
{
    QList<Message> history = exchanges();     // 0..7
    history.append(compaction(6, "summary")); // 8: covers u0 .. a1, keeps u2 a2
    history.append(Message::makeUser("u3"));  // 9
    QVERIFY(contextView(history).first().text().contains("summary"));
    history.append(rewindTo(6));             // 10: back to right before u2
    history.append(Message::makeUser("u4")); // 11
    const ContextView view = mapContextView(history);
    // What the model saw before u2: the originals, since the summary came after.
    QCOMPARE(texts(view.messages), (QStringList{"u0", "a0", "u1", "", "edited", "a1", "u4"}));
    QCOMPARE(view.sources, (QList<qsizetype>{0, 1, 2, 3, 4, 5, 11}));
    const ConversationFates fates = conversationFates(history);
    QCOMPARE(fates.compaction, -1);
    QCOMPARE(rewoundIndexes(history, 10), (QList<qsizetype>{6, 7, 8, 9}));
}

void TestRewindView::rewindAfterACompactionKeepsTheSummary()
{
    QList<Message> history = exchanges();     // 0..7
    history.append(compaction(6, "summary")); // 8
    history.append(Message::makeUser("u3"));  // 9
    history.append(assistantText("a3"));      // 10
    history.append(rewindTo(9));              // 11: back to right before u3
    const ContextView view = mapContextView(history);
    QCOMPARE(view.sources, (QList<qsizetype>{-1, 6, 7}));
    QVERIFY(view.messages.first().text().contains("summary"));
    const ConversationFates fates = conversationFates(history);
    QCOMPARE(fates.compaction, 8);
    QCOMPARE(fates.coveredCount, 6);
    QCOMPARE(rewoundIndexes(history, 11), (QList<qsizetype>{9, 10}));

    // Back to before the compaction was written (right before a2): what the model saw then,
    // the originals.
    history.append(rewindTo(7)); // 12
    QCOMPARE(mapContextView(history).sources, (QList<qsizetype>{0, 1, 2, 3, 4, 5, 6}));
    QCOMPARE(conversationFates(history).compaction, -1);
}

void TestRewindView::compactionAfterARewindLeavesTheRewoundOut()
{
    QList<Message> history = exchanges(); // 0..7
    history.append(rewindTo(6));          // 8: u2 a2 rewound
    history.append(Message::makeUser("u3"));
    history.append(assistantText("a3"));
    history.append(Message::makeUser("u4"));
    history.append(assistantText("a4")); // 12
    ContextEdits edits;
    edits.pinnedMessages = {1, 7}; // a0 and the rewound a2
    QCOMPARE(mapContextView(history, edits).sources,
             (QList<qsizetype>{0, 1, 2, 3, 4, 5, 9, 10, 11, 12}));
    history.append(compaction(11, "summary")); // 13: cut before u4
    const ContextView view = mapContextView(history, edits);
    QCOMPARE(view.sources, (QList<qsizetype>{-1, 11, 12}));
    const QString summary = view.messages.first().text();
    QVERIFY(summary.contains("Pinned, verbatim:"));
    QVERIFY(summary.contains("a0"));
    QVERIFY(!summary.contains("a2")); // rewound: the model goes on as if it was never said
}

void TestRewindView::rewindOfARewindUndoesIt()
{
    QList<Message> history = exchanges(); // 0..7
    history.append(rewindTo(2));          // 8
    history.append(Message::makeUser("u3"));
    QCOMPARE(texts(contextView(history)), (QStringList{"u0", "a0", "u3"}));

    // Undo: a rewind to right before the first rewind (what "Undo rewind" appends).
    history.append(rewindTo(8)); // 10
    const ContextView undone = mapContextView(history);
    QCOMPARE(undone.sources, (QList<qsizetype>{0, 1, 2, 3, 4, 5, 6, 7}));
    QCOMPARE(rewoundIndexes(history, 10), (QList<qsizetype>{8, 9}));
    QCOMPARE(rewoundIndexes(history, 8), QList<qsizetype>{}); // undone: its range is back
    QCOMPARE(pairToolCalls(undone.messages), undone.messages);

    // And a rewind further back rewinds everything after its target, both rewinds included.
    history.append(Message::makeUser("u4")); // 11
    history.append(rewindTo(1));             // 12
    QCOMPARE(texts(contextView(history)), (QStringList{"u0"}));
    QCOMPARE(rewoundIndexes(history, 12).size(), 11);

    // Undoing the undo brings back what the first rewind left.
    QList<Message> again = history.mid(0, 11);
    again.append(rewindTo(10)); // right before the undo
    QCOMPARE(texts(contextView(again)), (QStringList{"u0", "a0", "u3"}));
}

void TestRewindView::rewindSurvivesJson()
{
    Rewind rewind;
    rewind.toIndex = 4;
    rewind.scope = Rewind::Scope::Files;
    rewind.checkpoint = "c1";
    rewind.undoCheckpoint = "c2";
    rewind.restoredFiles = {"a.txt", "sub/b.txt"};
    rewind.keptFiles = {"c.txt"};
    rewind.timestamp = 1234;
    const Message message = rewind.toMessage();
    Message back;
    QString error;
    QVERIFY2(messageFromJson(messageToJson(message), &back, &error), qPrintable(error));
    QCOMPARE(back, message);
    QCOMPARE(Rewind::of(back), std::optional<Rewind>(rewind));
    QVERIFY(!Rewind::of(Message::makeUser("rewind")));
}

void TestRewindView::sessionFileKeepsTheOriginalsAndResumesToTheSameView()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("session.jsonl");
    QList<Message> history = exchanges();
    history.append(compaction(6, "summary"));
    history.append(Message::makeUser("u3"));
    history.append(rewindTo(9));
    history.append(Message::makeUser("u4"));
    {
        QString error;
        std::unique_ptr<SessionLog> log = SessionLog::open(path, {}, &error);
        QVERIFY2(log, qPrintable(error));
        for (const Message &message : std::as_const(history))
            QVERIFY2(log->appendMessage(message, &error), qPrintable(error));
    }
    QString error;
    const std::optional<SessionLog::Contents> contents = SessionLog::load(path, &error);
    QVERIFY2(contents, qPrintable(error));
    QCOMPARE(contents->messages, history); // the rewound u3 is still in the file
    QCOMPARE(contents->messages.at(9).text(), "u3");
    QCOMPARE(contextView(contents->messages), contextView(history));
    QCOMPARE(mapContextView(contents->messages).sources, (QList<qsizetype>{-1, 6, 7, 11}));
    QCOMPARE(conversationFates(contents->messages).rewoundBy.at(9), 10);
}

AGENTDESK_GUILESS_TEST_MAIN(TestRewindView)

} // namespace tst_rewindview

#include "tst_rewindview.moc"
