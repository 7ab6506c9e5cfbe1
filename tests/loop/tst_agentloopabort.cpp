#include <loop/agentloop.h>
#include <loop/toolprotocol.h>
#include <testmain.h>

#include <eventstreamcheck.h>
#include <scriptedmodel.h>
#include <testtools.h>
#include <toolprotocolcheck.h>

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QSemaphore>
#include <QTest>
#include <QThread>
#include <loop/internal/toolrunner.h>

#include <atomic>

using namespace AgentCore;
using namespace TestSupport;
using namespace Qt::StringLiterals;

namespace tst_agentloopabort {

namespace {

using Type = AgentEvent::Type;

QJsonObject path(const QString &value)
{
    return QJsonObject{{u"path"_s, value}};
}

ContentBlock call(const QString &id, const QString &tool, const QString &file)
{
    return ContentBlock::makeToolCall(id, tool, path(file));
}

QString stoppedLine()
{
    return u"[Stopped by the user while still running; the output above is what the tool "
           "produced until then.]"_s;
}

// A tool that ignores the abort token: it sleeps until released (at most 10 s).
class HangingTool
{
public:
    std::shared_ptr<FunctionTool> tool(ExecutionMode mode = ExecutionMode::Sequential)
    {
        return FunctionTool::make(u"Hang"_s,
                                  {u"path"_s},
                                  mode,
                                  [this](const ToolCallContext &context) {
                                      started.release();
                                      context.onUpdate(ToolResult::makeText(u"working"_s));
                                      const QDeadlineTimer deadline(10'000);
                                      while (!released.load() && !deadline.hasExpired())
                                          QThread::msleep(2);
                                      // Late output and a late result: both must be dropped.
                                      context.onUpdate(ToolResult::makeText(u"late"_s));
                                      finished.release();
                                      return ToolResult::makeText(u"finished late"_s);
                                  });
    }

    QSemaphore started;
    QSemaphore finished;
    std::atomic_bool released = false;
};

struct Scenario
{
    std::shared_ptr<ScriptedModel> model;
    AgentContext context;
    AgentLoopConfig config;
};

// The seed's task over four turns: parallel reads, a sequential batch, a steering message, the
// final answer, and a follow-up task.
Scenario multiTurnScenario()
{
    Scenario s;
    s.model = std::make_shared<ScriptedModel>(QList{
        ModelStep::toolCalls({call(u"r1"_s, u"Read"_s, u"loop.ts"_s),
                              call(u"r2"_s, u"Read"_s, u"crash.log"_s)},
                             u"Let me look."_s),
        ModelStep::toolCalls(
            {call(u"e1"_s, u"Edit"_s, u"loop.ts"_s), call(u"r3"_s, u"Read"_s, u"loop.ts"_s)}),
        ModelStep::text(u"I fixed myself."_s),
        ModelStep::text(u"The tests pass."_s),
    });
    s.config.model = s.model;
    auto read = FunctionTool::make(u"Read"_s,
                                   {u"path"_s},
                                   ExecutionMode::Parallel,
                                   [](const ToolCallContext &context) {
                                       return ToolResult::makeText(
                                           u"contents of "_s
                                           + context.arguments[u"path"].toString());
                                   });
    auto edit = FunctionTool::make(u"Edit"_s,
                                   {u"path"_s},
                                   ExecutionMode::Sequential,
                                   [](const ToolCallContext &context) {
                                       context.onUpdate(ToolResult::makeText(u"applying"_s));
                                       return ToolResult::makeText(u"edited"_s);
                                   });
    s.context.systemPrompt = u"You are a coding agent."_s;
    s.context.tools = {read, edit};
    s.context.messages = {Message::makeUser(u"earlier question"_s),
                          ModelStep::text(u"earlier answer"_s).message};
    auto steering = std::make_shared<int>(0);
    s.config.getSteeringMessages = [steering] {
        return ++*steering == 2 ? QList{Message::makeUser(u"also check index.ts"_s)}
                                : QList<Message>{};
    };
    auto followUps = std::make_shared<int>(0);
    s.config.getFollowUpMessages = [followUps] {
        return ++*followUps == 1 ? QList{Message::makeUser(u"now run the tests"_s)}
                                 : QList<Message>{};
    };
    return s;
}

// Every call has exactly one result in \a messages (ids are unique in the scenario).
QString unansweredCalls(const QList<Message> &messages)
{
    QHash<QString, int> results;
    for (const Message &message : messages) {
        if (message.isToolResult())
            ++results[message.toolCallId];
    }
    for (const Message &message : messages) {
        for (const ContentBlock &toolCall : message.toolCalls()) {
            if (results.value(toolCall.id) != 1)
                return u"%1 has %2 results"_s.arg(toolCall.id).arg(results.value(toolCall.id));
        }
    }
    return {};
}

int countOf(const QList<AgentEvent> &events, Type type)
{
    return int(std::count_if(events.begin(), events.end(), [type](const AgentEvent &event) {
        return event.type == type;
    }));
}

} // namespace

class tst_AgentLoopAbort : public QObject
{
    Q_OBJECT

private slots:
    // raceAbort: a tool that ignores the token cannot hold the loop.
    void hangingToolCannotHoldTheLoop_data()
    {
        QTest::addColumn<bool>("fromOtherThread");
        QTest::addColumn<bool>("ownPool");
        QTest::newRow("abort from another thread") << true << true;
        QTest::newRow("abort from the event sink") << false << true;
        QTest::newRow("abort with a given runner") << true << false;
    }

    void hangingToolCannotHoldTheLoop()
    {
        QFETCH(bool, fromOtherThread);
        QFETCH(bool, ownPool);
        HangingTool hanging;
        ToolRunner runner;
        auto model = std::make_shared<ScriptedModel>(
            QList{ModelStep::toolCall(u"h1"_s, u"Hang"_s, path(u"x"_s)),
                  ModelStep::text(u"never"_s)});
        AgentLoopConfig config;
        config.model = model;
        if (!ownPool)
            config.toolRunner = &runner;
        AgentContext context;
        context.tools = {hanging.tool()};

        AbortToken abort;
        QElapsedTimer clock;
        clock.start();
        std::atomic<qint64> abortedAt = -1;
        std::atomic<qint64> endedAt = -1;
        const auto abortNow = [&] {
            abortedAt = clock.nsecsElapsed();
            abort.abort();
        };
        std::unique_ptr<QThread> stopper;
        if (fromOtherThread) {
            stopper.reset(QThread::create([&] {
                if (hanging.started.tryAcquire(1, 5000))
                    abortNow();
            }));
            stopper->start();
        }
        EventLog log;
        const QList<Message> newMessages
            = agentLoop({Message::makeUser(u"go"_s)},
                        context,
                        config,
                        abort,
                        log.sink([&](const AgentEvent &event, int) {
                            if (!fromOtherThread && event.type == Type::ToolExecutionUpdate)
                                abortNow(); // the tool is running: it sent output
                            if (event.type == Type::AgentEnd)
                                endedAt = clock.nsecsElapsed();
                        }));
        if (stopper)
            QVERIFY(stopper->wait(5000));

        QVERIFY(abortedAt >= 0);
        QVERIFY(endedAt >= 0);
        const qint64 latencyMs = (endedAt - abortedAt) / 1'000'000;
        QVERIFY2(latencyMs < 100, qPrintable(u"agent_end %1 ms after abort()"_s.arg(latencyMs)));
        QCOMPARE(model->callCount(), 1);
        const Message result = newMessages.at(2);
        QVERIFY(result.isError);
        QVERIFY(result.details.aborted);
        // Aborted from the sink on the tool's output: that output is the result, marked.
        if (!fromOtherThread)
            QCOMPARE(result.text(), u"working\n"_s + stoppedLine());
        const QList<AgentEvent> events = log.events();
        QCOMPARE(events.last().type, Type::AgentEnd);

        // The abandoned tool finishes later; its output and result go nowhere.
        const int eventCount = log.count();
        hanging.released = true;
        QVERIFY(hanging.finished.tryAcquire(1, 5000));
        QCoreApplication::processEvents();
        QCOMPARE(log.count(), eventCount);
    }

    void abortKeepsFinishedResultsOfAParallelBatch()
    {
        HangingTool hanging;
        auto read = FunctionTool::make(u"Read"_s, {u"path"_s}, ExecutionMode::Parallel, {});
        auto model = std::make_shared<ScriptedModel>(QList{ModelStep::toolCalls(
            {call(u"r1"_s, u"Read"_s, u"a"_s), call(u"h1"_s, u"Hang"_s, u"b"_s)})});
        AgentLoopConfig config;
        config.model = model;
        AgentContext context;
        context.tools = {read, hanging.tool(ExecutionMode::Parallel)};
        AbortToken abort;
        bool readEnded = false;
        bool hangUpdated = false;
        const QList<Message> newMessages
            = agentLoop({Message::makeUser(u"go"_s)},
                        context,
                        config,
                        abort,
                        EventLog().sink([&](const AgentEvent &event, int) {
                            readEnded |= event.type == Type::ToolExecutionEnd
                                         && event.toolCallId == u"r1"_s;
                            hangUpdated |= event.type == Type::ToolExecutionUpdate;
                            if (readEnded && hangUpdated)
                                abort.abort();
                        }));
        QCOMPARE(newMessages.size(), 4);
        QCOMPARE(newMessages.at(2).toolCallId, u"r1"_s);
        QVERIFY(!newMessages.at(2).isError);
        QCOMPARE(newMessages.at(3).toolCallId, u"h1"_s);
        QCOMPARE(newMessages.at(3).text(), u"working\n"_s + stoppedLine());
        hanging.released = true;
        QVERIFY(hanging.finished.tryAcquire(1, 5000));
    }

    // Stop keeps what a running tool showed: its output until then, marked as stopped, is the
    // result the model gets next, the same as the card showed.
    void stopKeepsTheOutputSoFar()
    {
        // Shared with the tool, which outlives a failed test: it runs until released.
        struct Gate
        {
            std::atomic_bool released = false;
            QSemaphore finished;
        };
        const auto gate = std::make_shared<Gate>();
        auto ticker = FunctionTool::make(u"Tick"_s,
                                         {u"path"_s},
                                         ExecutionMode::Sequential,
                                         [gate](const ToolCallContext &context) {
                                             QString output;
                                             ToolDetails details;
                                             details.other.insert(u"pid"_s, 42);
                                             for (int i = 1; i <= 4; ++i) {
                                                 output += u"tick %1\n"_s.arg(i);
                                                 context.onUpdate(
                                                     ToolResult::makeText(output, details));
                                             }
                                             const QDeadlineTimer deadline(10'000);
                                             while (!gate->released.load() && !deadline.hasExpired())
                                                 QThread::msleep(2);
                                             gate->finished.release();
                                             return ToolResult::makeText(u"finished late"_s);
                                         });
        auto model = std::make_shared<ScriptedModel>(
            QList{ModelStep::toolCall(u"t1"_s, u"Tick"_s, path(u"x"_s)),
                  ModelStep::text(u"never"_s)});
        AgentLoopConfig config;
        config.model = model;
        AgentContext context;
        context.tools = {ticker};
        AbortToken abort;
        ToolResult ended;
        int updates = 0;
        const QList<Message> newMessages
            = agentLoop({Message::makeUser(u"go"_s)},
                        context,
                        config,
                        abort,
                        EventLog().sink([&](const AgentEvent &event, int) {
                            if (event.type == Type::ToolExecutionUpdate && ++updates == 4)
                                abort.abort(); // the card shows "tick 1" to "tick 4"
                            if (event.type == Type::ToolExecutionEnd)
                                ended = event.result;
                        }));
        QCOMPARE(newMessages.size(), 3);
        const Message result = newMessages.at(2);
        QCOMPARE(result.toolCallId, u"t1"_s);
        QVERIFY(result.isError);
        const QString expected = u"tick 1\ntick 2\ntick 3\ntick 4\n"_s + stoppedLine();
        QCOMPARE(result.text(), expected);
        QCOMPARE(result.details.aborted, true);
        QCOMPARE(result.details.other[u"pid"].toInt(), 42); // the partial's details are kept
        QCOMPARE(ended.text(), expected);                   // the card's last word: the same
        QVERIFY(ended.isError);
        gate->released = true;
        QVERIFY(gate->finished.tryAcquire(1, 5000));
    }

    void abortDuringStreamingStopsTheRun()
    {
        auto model = std::make_shared<ScriptedModel>(
            QList{ModelStep::waitForAbort(), ModelStep::text(u"never"_s)});
        AgentLoopConfig config;
        config.model = model;
        AbortToken abort;
        EventLog log;
        const QList<Message> newMessages = agentLoop({Message::makeUser(u"go"_s)},
                                                     AgentContext(),
                                                     config,
                                                     abort,
                                                     log.sink([&](const AgentEvent &event, int) {
                                                         if (event.type == Type::MessageStart
                                                             && event.message.isAssistant())
                                                             abort.abort();
                                                     }));
        QCOMPARE(model->callCount(), 1);
        QCOMPARE(newMessages.last().stopReason, StopReason::Aborted);
        QCOMPARE(log.events().last().type, Type::AgentEnd);
    }

    // Abort at every event index of a multi-turn run.
    void abortAtEveryEvent()
    {
        int total = 0;
        {
            Scenario dry = multiTurnScenario();
            EventLog log;
            const QList<Message> all = agentLoop({Message::makeUser(u"fix the loop"_s)},
                                                 dry.context,
                                                 dry.config,
                                                 AbortToken(),
                                                 log.sink());
            total = log.count();
            QCOMPARE(dry.model->callCount(), 4);
            QCOMPARE(all.last().text(), u"The tests pass."_s);
            QVERIFY(total > 40);
        }

        for (int k = 0; k < total; ++k) {
            const QString at = u"abort at event %1"_s.arg(k);
            Scenario s = multiTurnScenario();
            const QList<Message> historyBefore = s.context.messages;
            AbortToken abort;
            int abortIndex = -1;
            int modelCallsAtAbort = -1;
            EventLog log;
            const QList<Message> newMessages
                = agentLoop({Message::makeUser(u"fix the loop"_s)},
                            s.context,
                            s.config,
                            abort,
                            log.sink([&](const AgentEvent &, int index) {
                                if (index == k) {
                                    abortIndex = index;
                                    modelCallsAtAbort = s.model->callCount();
                                    abort.abort();
                                }
                            }));
            const QList<AgentEvent> events = log.events();
            QVERIFY2(abortIndex == k, qPrintable(at));
            QVERIFY2(events.first().type == Type::AgentStart, qPrintable(at));
            QVERIFY2(events.last().type == Type::AgentEnd, qPrintable(at));
            QVERIFY2(countOf(events, Type::AgentEnd) == 1, qPrintable(at));
            QVERIFY2(events.last().newMessages == newMessages, qPrintable(at));
            QVERIFY2(s.context.messages == historyBefore, qPrintable(at));

            // The next request, built from history + newMessages, is valid; so was every one.
            const QString next = toolProtocolProblem(
                projectToolCallProtocol(historyBefore + newMessages));
            QVERIFY2(next.isEmpty(), qPrintable(at + u": "_s + next));
            const QString unanswered = unansweredCalls(newMessages);
            QVERIFY2(unanswered.isEmpty(), qPrintable(at + u": "_s + unanswered));
            for (const Context &request : s.model->contexts())
                QVERIFY2(toolProtocolProblem(request.messages).isEmpty(), qPrintable(at));

            // Nothing new starts after the abort, and every started thing ended.
            QVERIFY2(s.model->callCount() == modelCallsAtAbort, qPrintable(at));
            // A turn that starts after the abort (Stop before the first turn) only holds the
            // prompt and ends with the "aborted" reply made without calling the model.
            bool turnStartedAfterAbort = false;
            for (int i = k + 1; i < events.size(); ++i) {
                if (events.at(i).type == Type::TurnStart)
                    turnStartedAfterAbort = true;
                if (events.at(i).type == Type::TurnEnd && turnStartedAfterAbort) {
                    QVERIFY2(events.at(i).message.stopReason == StopReason::Aborted, qPrintable(at));
                }
            }
            const QString shape = eventStreamProblem(events);
            QVERIFY2(shape.isEmpty(), qPrintable(at + u": "_s + shape));
            QVERIFY2(countOf(events, Type::TurnStart) == countOf(events, Type::TurnEnd),
                     qPrintable(at));
            QVERIFY2(countOf(events, Type::MessageStart)
                         == countOf(events, Type::MessageEnd)
                                + countOf(events, Type::MessageDiscard),
                     qPrintable(at));
            QVERIFY2(countOf(events, Type::ToolExecutionStart)
                         == countOf(events, Type::ToolExecutionEnd),
                     qPrintable(at));
        }
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_AgentLoopAbort)

} // namespace tst_agentloopabort

#include "tst_agentloopabort.moc"
