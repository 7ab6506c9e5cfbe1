// The estimate the context manager makes before every request, kept turn after turn: it must
// equal estimating the whole request again, through growth, compaction, edits, a changed tool
// list; and adding a turn to a long history must not estimate the history again.
#include <context/compaction.h>
#include <context/contextview.h>
#include <context/runningestimate.h>
#include <context/tokenestimate.h>
#include <testmain.h>

#include <QTest>

using namespace AgentCore;

namespace tst_runningestimate {

namespace {

Message call(const QString &id, const QString &path)
{
    Message message;
    message.role = Message::Role::Assistant;
    message.stopReason = StopReason::ToolUse;
    message.content = {ContentBlock::makeToolCall(id, "Read", {{"path", path}})};
    return message;
}

void appendTurn(QList<Message> &history, int turn)
{
    const QString id = QStringLiteral("c%1").arg(turn);
    history.append(Message::makeUser(QStringLiteral("step %1").arg(turn)));
    history.append(call(id, QStringLiteral("src/file%1.cpp").arg(turn)));
    history.append(Message::makeToolResult(id, "Read", QString(40 * turn, u'x'), false));
}

Context requestOf(const QList<Message> &history, const ContextEdits &edits)
{
    Context request;
    request.systemPrompt = QStringLiteral("You are a coding agent.");
    request.tools = {ToolDefinition{"Read", "Reads a file.", {{"type", "object"}}}};
    request.messages = contextView(history, edits);
    return request;
}

} // namespace

class tst_RunningEstimate : public QObject
{
    Q_OBJECT

private slots:
    void equalsTheWholeEstimateTurnAfterTurn()
    {
        RunningEstimate running;
        QList<Message> history;
        ContextEdits edits;
        for (int turn = 1; turn <= 30; ++turn) {
            appendTurn(history, turn);
            if (turn == 10) {
                Compaction compaction;
                compaction.summary = QStringLiteral("Turns 1 to 8 read eight files.");
                compaction.coveredCount = 24;
                history.append(compaction.toMessage());
            }
            if (turn == 15) // the user drops an output the view already showed in full
                edits.droppedToolOutputs.insert(QStringLiteral("c12"));
            if (turn == 20)
                edits = {};
            Context request = requestOf(history, edits);
            if (turn >= 25) // a tool list that changed (an MCP server's, later)
                request.tools.append(ToolDefinition{"Grep", "Searches.", {{"type", "object"}}});
            QCOMPARE(running.estimate(request, history, edits), estimateTokens(request));
        }
    }

    void aNewTurnIsEstimatedAloneOnAGrowingHistory()
    {
        // Messages the running sum already holds are not looked at again: a history whose
        // earlier messages the estimate would count differently now keeps the old sum.
        RunningEstimate running;
        QList<Message> history;
        for (int turn = 1; turn <= 5; ++turn)
            appendTurn(history, turn);
        const qint64 before = running.estimate(requestOf(history, {}), history, {});
        QList<Message> changed = history;
        changed[2].content = {ContentBlock::makeText(QString(10000, u'y'))};
        appendTurn(changed, 6);
        QList<Message> grown = history;
        appendTurn(grown, 6);
        const Context request = requestOf(changed, {});
        const qint64 added = estimateTokens(requestOf(grown, {}))
                             - estimateTokens(requestOf(history, {}));
        QCOMPARE(running.estimate(request, changed, {}), before + added);
    }
};

AGENTDESK_APPLESS_TEST_MAIN(tst_RunningEstimate)

} // namespace tst_runningestimate

#include "tst_runningestimate.moc"
