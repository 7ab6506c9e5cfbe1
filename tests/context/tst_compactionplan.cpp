// Where a compaction cuts: never between a tool call and its result, never inside a turn,
// checked over thousands of random histories, and the most recent turns kept by budget.
#include <context/compaction.h>
#include <context/compactionplan.h>
#include <context/contextview.h>
#include <testmain.h>

#include <ai/toolcallpairing.h>

#include <QHash>
#include <QRandomGenerator>
#include <QSet>
#include <QTest>

using namespace AgentCore;

namespace tst_compactionplan {

namespace {

Message assistantText(const QString &text)
{
    Message message;
    message.role = Message::Role::Assistant;
    message.content = {ContentBlock::makeText(text)};
    return message;
}

Message user(const QString &text, MessageOrigin origin = MessageOrigin::Prompt)
{
    Message message = Message::makeUser(text);
    message.origin = origin;
    return message;
}

// A history as the loop and the session leave it: tasks of several turns, parallel calls,
// aborted replies whose calls never got a result, steering, follow-ups, reminders, results
// recorded late (after a steering message), and earlier compactions.
QList<Message> randomHistory(QRandomGenerator &random)
{
    QList<Message> history;
    int nextCall = 0;
    const int tasks = random.bounded(1, 8);
    for (int task = 0; task < tasks; ++task) {
        history.append(
            user(QStringLiteral("task %1").arg(task),
                 random.bounded(3) == 0 ? MessageOrigin::FollowUp : MessageOrigin::Prompt));
        const int turns = random.bounded(1, 6);
        for (int turn = 0; turn < turns; ++turn) {
            const int calls = random.bounded(4);
            if (calls == 0) {
                history.append(assistantText(QString(random.bounded(1, 400), u'a')));
                continue;
            }
            Message reply;
            reply.role = Message::Role::Assistant;
            reply.stopReason = StopReason::ToolUse;
            QList<ContentBlock> blocks;
            for (int c = 0; c < calls; ++c) {
                blocks.append(ContentBlock::makeToolCall(QStringLiteral("call_%1").arg(nextCall++),
                                                         QStringLiteral("Read"),
                                                         {{"path", "f.cpp"}}));
            }
            reply.content = blocks;
            const int kind = random.bounded(10);
            if (kind == 0) { // aborted: the calls never got a result
                reply.stopReason = StopReason::Aborted;
                history.append(reply);
                break;
            }
            history.append(reply);
            QList<Message> results;
            for (const ContentBlock &call : std::as_const(blocks)) {
                results.append(Message::makeToolResult(call.id,
                                                       call.name,
                                                       QString(random.bounded(1, 3000), u'o'),
                                                       false));
            }
            if (kind == 1) { // steering recorded before the last result
                history.append(results.mid(0, results.size() - 1));
                history.append(user(QStringLiteral("steer"), MessageOrigin::Steering));
                history.append(results.last());
            } else {
                history.append(results);
                if (kind == 2)
                    history.append(user(QStringLiteral("steer"), MessageOrigin::Steering));
            }
            if (random.bounded(8) == 0) {
                Message reminder;
                reminder.role = Message::Role::Custom;
                reminder.customType = QStringLiteral("reminder");
                reminder.content = {ContentBlock::makeText(QStringLiteral("remember"))};
                history.append(reminder);
            }
        }
        if (random.bounded(4) == 0) {
            if (const auto plan = planCompaction(history, {}, random.bounded(200, 3000))) {
                Compaction compaction;
                compaction.summary = QStringLiteral("summary of %1").arg(plan->coveredCount);
                compaction.coveredCount = plan->coveredCount;
                history.append(compaction.toMessage());
            }
        }
    }
    return history;
}

// The call ids answered by a result in \a messages, excluding results pairToolCalls made up.
QStringList resultIds(const QList<Message> &messages)
{
    QStringList ids;
    for (const Message &message : messages) {
        if (message.isToolResult() && !message.isError)
            ids.append(message.toolCallId);
    }
    return ids;
}

QSet<QString> callIds(const QList<Message> &messages)
{
    QSet<QString> ids;
    for (const Message &message : messages) {
        for (const ContentBlock &call : message.toolCalls())
            ids.insert(call.id);
    }
    return ids;
}

} // namespace

class TestCompactionPlan : public QObject
{
    Q_OBJECT
private slots:
    void cutNeverSeparatesACallFromItsResult();
    void keepsTheMostRecentTurnsWithinTheBudget();
    void cutsInsideOneLongTaskBetweenTurns();
    void nothingToSummariseIsNoPlan();
    void aSecondCompactionSummarisesTheFirst();
};

void TestCompactionPlan::cutNeverSeparatesACallFromItsResult()
{
    QRandomGenerator random(17);
    int planned = 0;
    for (int round = 0; round < 4000; ++round) {
        const QList<Message> history = randomHistory(random);
        const qint64 budget = random.bounded(0, 6000);
        const std::optional<CompactionPlan> plan = planCompaction(history, {}, budget);
        if (!plan)
            continue;
        ++planned;
        const QString where = QStringLiteral("round %1").arg(round);
        QVERIFY2(plan->coveredCount > 0 && plan->coveredCount <= history.size(), qPrintable(where));
        QVERIFY2(!plan->kept.isEmpty(), qPrintable(where));
        QVERIFY2(!plan->kept.first().isToolResult(), qPrintable(where));

        // Every call and its result on the same side of the cut.
        const QSet<QString> summarisedCalls = callIds(plan->summarised);
        const QSet<QString> keptCalls = callIds(plan->kept);
        for (const QString &id : resultIds(plan->summarised))
            QVERIFY2(!keptCalls.contains(id), qPrintable(where + " result " + id));
        for (const QString &id : resultIds(plan->kept))
            QVERIFY2(!summarisedCalls.contains(id), qPrintable(where + " result " + id));

        // Applied, the view is the summary and the kept part, and pairing it changes nothing
        // the kept part alone would not have: no result is lost, none is made up at the cut.
        Compaction compaction;
        compaction.summary = QStringLiteral("s");
        compaction.coveredCount = plan->coveredCount;
        const QList<Message> view = contextView(history + QList{compaction.toMessage()});
        QCOMPARE(view.mid(1), plan->kept);
        QVERIFY(isCompactionMessage(view.first()));
        const QList<Message> paired = pairToolCalls(view);
        QCOMPARE(paired.mid(1), pairToolCalls(plan->kept));
        QStringList before = resultIds(view);
        QStringList after = resultIds(paired);
        before.sort();
        after.sort();
        QCOMPARE(after, before);
    }
    QVERIFY(planned > 2000); // the property was checked on real cuts, not vacuously
}

void TestCompactionPlan::keepsTheMostRecentTurnsWithinTheBudget()
{
    QList<Message> history;
    for (int i = 0; i < 10; ++i) {
        history.append(user(QString(350, u'u'))); // about 100 tokens each
        history.append(assistantText(QString(350, u'a')));
    }
    const qint64 turn = 2 * (100 + 6); // text plus framing, two messages
    const auto plan = planCompaction(history, {}, 3 * turn);
    QVERIFY(plan);
    QCOMPARE(plan->kept.size(), 6);
    QVERIFY(plan->keptTokens <= 3 * turn);
    QCOMPARE(plan->coveredCount, 14);
    QCOMPARE(plan->summarised, history.mid(0, 14));

    // Nothing fits: the latest cut, so the latest turn (the last reply) stays.
    const auto tight = planCompaction(history, {}, 0);
    QVERIFY(tight);
    QCOMPARE(tight->kept, history.mid(19));
}

void TestCompactionPlan::cutsInsideOneLongTaskBetweenTurns()
{
    QList<Message> history{user("one long task")};
    for (int i = 0; i < 20; ++i) {
        Message reply;
        reply.role = Message::Role::Assistant;
        const QString id = QStringLiteral("c%1").arg(i);
        reply.content = {ContentBlock::makeToolCall(id, "Bash", {{"command", "make"}})};
        history.append(reply);
        history.append(Message::makeToolResult(id, "Bash", QString(700, u'x'), false));
    }
    const auto plan = planCompaction(history, {}, 1000);
    QVERIFY(plan);
    QVERIFY(plan->kept.first().isAssistant());
    QVERIFY(plan->kept.last().isToolResult());
    QVERIFY(plan->keptTokens <= 1000);
    QVERIFY(plan->kept.size() >= 2);
}

void TestCompactionPlan::nothingToSummariseIsNoPlan()
{
    QVERIFY(!planCompaction({}, {}, 0));
    QVERIFY(!planCompaction({user("only")}, {}, 0));
    QList<Message> history{user("a"), assistantText("b")};
    Compaction compaction;
    compaction.summary = "s";
    compaction.coveredCount = 1;
    history.append(compaction.toMessage());
    // The view is [summary, "b"]: cutting before "b" would summarise the summary alone.
    QVERIFY(!planCompaction(history, {}, 0));
    history.append(user("c"));
    const auto plan = planCompaction(history, {}, 0);
    QVERIFY(plan);
    QCOMPARE(plan->coveredCount, 3);
    QCOMPARE(plan->summarised.size(), 2); // the earlier summary and "b"
}

void TestCompactionPlan::aSecondCompactionSummarisesTheFirst()
{
    QList<Message> history;
    for (int i = 0; i < 6; ++i) {
        history.append(user(QStringLiteral("u%1").arg(i)));
        history.append(assistantText(QStringLiteral("a%1").arg(i)));
    }
    Compaction first;
    first.summary = "first";
    first.coveredCount = 4;
    history.append(first.toMessage()); // index 12; tail u2..a5
    history.append(user("u6"));
    history.append(assistantText("a6"));
    const auto plan = planCompaction(history, {}, 1);
    QVERIFY(plan);
    QVERIFY(Compaction::of(plan->summarised.first())); // the earlier summary leads
    QCOMPARE(plan->summarised.first().customData, history.at(12).customData);
    QCOMPARE(plan->kept, history.mid(14));
    QCOMPARE(plan->coveredCount, 14);
}

AGENTDESK_GUILESS_TEST_MAIN(TestCompactionPlan)

} // namespace tst_compactionplan

#include "tst_compactionplan.moc"
