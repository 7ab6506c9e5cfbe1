#include <ai/schemavalidator.h>
#include <loop/agentloop.h>
#include <testmain.h>

#include <scriptedmodel.h>
#include <testtools.h>
#include <toolprotocolcheck.h>

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QSemaphore>
#include <QTest>
#include <QWaitCondition>

#include <stdexcept>

Q_DECLARE_METATYPE(AgentCore::ExecutionMode)

using namespace AgentCore;
using namespace TestSupport;
using namespace Qt::StringLiterals;

namespace tst_toolbatch {

namespace {

using Type = AgentEvent::Type;

ContentBlock call(const QString &id, const QString &tool, const QJsonObject &arguments = {})
{
    return ContentBlock::makeToolCall(id, tool, arguments);
}

QJsonObject path(const QString &value)
{
    return QJsonObject{{u"path"_s, value}};
}

QList<AgentEvent> filtered(const QList<AgentEvent> &events, Type type)
{
    QList<AgentEvent> result;
    for (const AgentEvent &event : events) {
        if (event.type == type)
            result.append(event);
    }
    return result;
}

struct Run
{
    QList<Message> newMessages;
    QList<AgentEvent> events;
    std::shared_ptr<ScriptedModel> model;

    QList<Message> results() const
    {
        QList<Message> found;
        for (const Message &message : newMessages) {
            if (message.isToolResult())
                found.append(message);
        }
        return found;
    }
};

// One batch of \a calls, then a final answer.
Run runBatch(const QList<ContentBlock> &calls,
             const QList<AgentToolPtr> &tools,
             AgentLoopConfig config = {},
             const EventLog::Hook &hook = {},
             const AbortToken &abort = {})
{
    Run run;
    run.model = std::make_shared<ScriptedModel>(
        QList{ModelStep::toolCalls(calls), ModelStep::text(u"done"_s)});
    config.model = run.model;
    AgentContext context;
    context.tools = tools;
    EventLog log;
    run.newMessages = agentLoop({Message::makeUser(u"go"_s)}, context, config, abort, log.sink(hook));
    run.events = log.events();
    return run;
}

// Counts how many calls run at once: each call waits (bounded) for \a expected calls to be
// inside, so a parallel batch reaches it at once and a sequential one never does.
class OverlapProbe
{
public:
    explicit OverlapProbe(int expected)
        : m_expected(expected)
    {}

    FunctionTool::Body body()
    {
        return [this](const ToolCallContext &context) {
            QMutexLocker locker(&m_mutex);
            ++m_inside;
            m_maxInside = qMax(m_maxInside, m_inside);
            m_order << context.toolCallId;
            m_changed.wakeAll();
            QDeadlineTimer deadline(200);
            while (m_inside < m_expected && m_maxInside < m_expected) {
                if (!m_changed.wait(&m_mutex, deadline))
                    break;
            }
            --m_inside;
            return ToolResult::makeText(context.toolCallId);
        };
    }

    int maxInside() const
    {
        QMutexLocker locker(&m_mutex);
        return m_maxInside;
    }

    QStringList order() const
    {
        QMutexLocker locker(&m_mutex);
        return m_order;
    }

private:
    mutable QMutex m_mutex;
    QWaitCondition m_changed;
    int m_expected = 0;
    int m_inside = 0;
    int m_maxInside = 0;
    QStringList m_order;
};

} // namespace

class tst_ToolBatch : public QObject
{
    Q_OBJECT

private slots:
    void parallelBatchPublishesInRequestOrder()
    {
        // "first" only finishes once the loop reported "second" as ended: the calls run
        // concurrently, and the later call ends first.
        QSemaphore secondEnded;
        auto gate = FunctionTool::make(u"Gate"_s,
                                       {u"path"_s},
                                       ExecutionMode::Parallel,
                                       [&](const ToolCallContext &context) {
                                           if (context.arguments[u"path"].toString() == u"second"_s)
                                               return ToolResult::makeText(u"second ok"_s);
                                           if (!secondEnded.tryAcquire(1, 5000))
                                               return ToolResult::makeError(u"not concurrent"_s);
                                           return ToolResult::makeText(u"first ok"_s);
                                       });
        const auto releaseFirst = [&](const AgentEvent &event, int) {
            if (event.type == Type::ToolExecutionEnd && event.toolCallId == u"c2"_s)
                secondEnded.release();
        };
        const Run run = runBatch({call(u"c1"_s, u"Gate"_s, path(u"first"_s)),
                                  call(u"c2"_s, u"Gate"_s, path(u"second"_s))},
                                 {gate},
                                 {},
                                 releaseFirst);
        const QList<Message> results = run.results();
        QCOMPARE(results.size(), 2);
        QCOMPARE(results.at(0).toolCallId, u"c1"_s);
        QCOMPARE(results.at(0).text(), u"first ok"_s);
        QCOMPARE(results.at(1).toolCallId, u"c2"_s);
        const QList<AgentEvent> ends = filtered(run.events, Type::ToolExecutionEnd);
        QCOMPARE(ends.at(0).toolCallId, u"c2"_s); // tool_execution_end in completion order
        QCOMPARE(ends.at(1).toolCallId, u"c1"_s);
        // Both starts come before any end; results are published after the whole batch.
        QCOMPARE(filtered(run.events, Type::ToolExecutionStart).size(), 2);
        QCOMPARE(run.model->contexts().at(1).messages.mid(2), results);
    }

    void batchScheduling_data()
    {
        QTest::addColumn<bool>("withEdit");
        QTest::addColumn<bool>("configSequential");
        QTest::addColumn<int>("expectedOverlap");
        QTest::newRow("all parallel run together") << false << false << 3;
        QTest::newRow("one sequential tool makes the batch sequential") << true << false << 1;
        QTest::newRow("toolExecution Sequential forces it") << false << true << 1;
    }

    void batchScheduling()
    {
        QFETCH(bool, withEdit);
        QFETCH(bool, configSequential);
        QFETCH(int, expectedOverlap);
        OverlapProbe probe(3);
        auto read = FunctionTool::make(u"Read"_s,
                                       {u"path"_s},
                                       ExecutionMode::Parallel,
                                       probe.body());
        auto edit = FunctionTool::make(u"Edit"_s,
                                       {u"path"_s},
                                       ExecutionMode::Sequential,
                                       probe.body());
        AgentLoopConfig config;
        if (configSequential)
            config.toolExecution = ExecutionMode::Sequential;
        const Run run = runBatch({call(u"c1"_s, u"Read"_s, path(u"a"_s)),
                                  call(u"c2"_s, withEdit ? u"Edit"_s : u"Read"_s, path(u"b"_s)),
                                  call(u"c3"_s, u"Read"_s, path(u"c"_s))},
                                 {read, edit},
                                 config);
        QCOMPARE(probe.maxInside(), expectedOverlap);
        QStringList published;
        for (const Message &result : run.results())
            published << result.text();
        QCOMPARE(published, (QStringList{u"c1"_s, u"c2"_s, u"c3"_s}));
        if (expectedOverlap == 1) {
            QCOMPARE(probe.order(), (QStringList{u"c1"_s, u"c2"_s, u"c3"_s}));
            // Sequential: each call's result is published before the next call starts.
            QStringList types;
            for (const AgentEvent &event : run.events) {
                if (event.type == Type::ToolExecutionStart || event.type == Type::MessageEnd)
                    types << agentEventTypeName(event.type);
            }
            QCOMPARE(types.mid(2, 6),
                     (QStringList{u"tool_execution_start"_s,
                                  u"message_end"_s,
                                  u"tool_execution_start"_s,
                                  u"message_end"_s,
                                  u"tool_execution_start"_s,
                                  u"message_end"_s}));
        }
    }

    void toolErrorsBecomeErrorResults_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QJsonObject>("arguments");
        QTest::addColumn<QString>("expectedText");
        const QJsonObject noPath;
        const ToolDefinition readDefinition
            = FunctionTool::make(u"Read"_s, {u"path"_s}, ExecutionMode::Parallel, {})->definition();
        QTest::newRow("unknown tool")
            << u"Nope"_s << noPath
            << u"Tool Nope not found. Available tools: Block, Read, Throw."_s;
        QTest::newRow("invalid arguments")
            << u"Read"_s << noPath << validateToolArguments(readDefinition, noPath).error;
        QTest::newRow("tool throws")
            << u"Throw"_s << path(u"x"_s) << u"Tool Throw failed: disk on fire"_s;
        QTest::newRow("blocked by a middleware")
            << u"Block"_s << path(u"x"_s) << u"blocked by policy"_s;
    }

    void toolErrorsBecomeErrorResults()
    {
        QFETCH(QString, tool);
        QFETCH(QJsonObject, arguments);
        QFETCH(QString, expectedText);
        auto read = FunctionTool::make(u"Read"_s, {u"path"_s}, ExecutionMode::Parallel, {});
        auto thrower = FunctionTool::make(u"Throw"_s,
                                          {u"path"_s},
                                          ExecutionMode::Parallel,
                                          [](const ToolCallContext &) -> ToolResult {
                                              throw std::runtime_error("disk on fire");
                                          });
        auto blocked = FunctionTool::make(u"Block"_s, {u"path"_s}, ExecutionMode::Parallel, {});
        AgentLoopConfig config;
        config.middlewares = {[](ToolCallContext &context, const ToolNext &next) {
            if (context.toolName == u"Block"_s)
                return ToolResult::makeError(u"blocked by policy"_s);
            return next(context);
        }};
        const Run run = runBatch({call(u"c1"_s, tool, arguments)}, {read, thrower, blocked}, config);
        QCOMPARE(run.results().size(), 1);
        const Message result = run.results().first();
        QVERIFY(result.isError);
        QCOMPARE(result.text(), expectedText);
        QVERIFY(!expectedText.isEmpty());
        QCOMPARE(read->calls() + blocked->calls(), 0);
        const QList<AgentEvent> ends = filtered(run.events, Type::ToolExecutionEnd);
        QCOMPARE(ends.size(), 1);
        QVERIFY(ends.first().isError);
        // The loop goes on: the model reads the error in its next request.
        QCOMPARE(run.model->callCount(), 2);
        QCOMPARE(run.model->contexts().at(1).messages.last(), result);
        QCOMPARE(run.newMessages.last().text(), u"done"_s);
    }

    // Issue #14: broken argument JSON was reported as a missing field; such a call is not
    // run, and the model reads why.
    void unreadableArgumentsAreReportedNotValidated()
    {
        auto read = FunctionTool::make(u"Read"_s, {u"path"_s}, ExecutionMode::Parallel, {});
        ContentBlock broken = call(u"c1"_s, u"Read"_s, path(u"a.txt"_s));
        broken.argumentsError = u"The arguments of this Read call are not valid JSON: it goes "
                                "wrong at byte 9, near `{\"path\": a.txt}`."_s;
        const Run run = runBatch({broken}, {read});
        QCOMPARE(run.results().size(), 1);
        const Message result = run.results().first();
        QVERIFY(result.isError);
        QCOMPARE(result.text(), broken.argumentsError);
        QCOMPARE(read->calls(), 0);
        QCOMPARE(run.model->callCount(), 2);
        QCOMPARE(run.newMessages.last().text(), u"done"_s);
    }

    void middlewaresWrapInOrderAndAfterPartsAlwaysRun_data()
    {
        QTest::addColumn<QString>("inner");
        QTest::addColumn<QStringList>("expectedLog");
        QTest::addColumn<bool>("isError");
        QTest::newRow("pass through")
            << u"pass"_s
            << QStringList{u"outer>"_s, u"inner>"_s, u"execute"_s, u"<inner"_s, u"<outer ok"_s}
            << false;
        QTest::newRow("inner short-circuits")
            << u"block"_s << QStringList{u"outer>"_s, u"inner>"_s, u"<outer error"_s} << true;
        QTest::newRow("tool throws")
            << u"pass"_s
            << QStringList{u"outer>"_s, u"inner>"_s, u"execute"_s, u"<inner"_s, u"<outer error"_s}
            << true;
        QTest::newRow("inner middleware throws")
            << u"throw"_s << QStringList{u"outer>"_s, u"inner>"_s, u"<outer error"_s} << true;
    }

    void middlewaresWrapInOrderAndAfterPartsAlwaysRun()
    {
        QFETCH(QString, inner);
        QFETCH(QStringList, expectedLog);
        QFETCH(bool, isError);
        const bool toolThrows = QByteArray(QTest::currentDataTag()) == "tool throws";
        QStringList log;
        QMutex mutex;
        const auto note = [&](const QString &entry) {
            QMutexLocker locker(&mutex);
            log << entry;
        };
        auto tool = FunctionTool::make(u"Read"_s,
                                       {u"path"_s},
                                       ExecutionMode::Parallel,
                                       [&](const ToolCallContext &) {
                                           note(u"execute"_s);
                                           if (toolThrows)
                                               throw std::runtime_error("read failed");
                                           return ToolResult::makeText(u"ok"_s);
                                       });
        AgentLoopConfig config;
        config.middlewares = {
            [&](ToolCallContext &context, const ToolNext &next) {
                note(u"outer>"_s);
                const ToolResult result = next(context);
                note(result.isError ? u"<outer error"_s : u"<outer ok"_s);
                return result;
            },
            [&](ToolCallContext &context, const ToolNext &next) {
                note(u"inner>"_s);
                if (inner == u"block"_s)
                    return ToolResult::makeError(u"denied by the user"_s);
                if (inner == u"throw"_s)
                    throw std::runtime_error("permission store unavailable");
                const ToolResult result = next(context);
                note(u"<inner"_s);
                return result;
            },
        };
        const Run run = runBatch({call(u"c1"_s, u"Read"_s, path(u"a"_s))}, {tool}, config);
        QCOMPARE(log, expectedLog);
        QCOMPARE(run.results().first().isError, isError);
    }

    void rewrittenArgumentsAreValidatedAgain_data()
    {
        QTest::addColumn<QJsonValue>("rewritten");
        QTest::addColumn<bool>("runs");
        QTest::newRow("valid rewrite reaches the tool") << QJsonValue(u"other.ts"_s) << true;
        QTest::newRow("bad type is a contract error") << QJsonValue(42) << false;
        QTest::newRow("removed required argument") << QJsonValue(QJsonValue::Undefined) << false;
    }

    void rewrittenArgumentsAreValidatedAgain()
    {
        QFETCH(QJsonValue, rewritten);
        QFETCH(bool, runs);
        QString seenPath;
        QJsonValue seenLimit;
        ToolDefinition definition;
        definition.name = u"Read"_s;
        definition.parameters = QJsonObject{{u"type"_s, u"object"_s},
                                            {u"properties"_s,
                                             QJsonObject{{u"path"_s,
                                                          QJsonObject{{u"type"_s, u"string"_s}}},
                                                         {u"limit"_s,
                                                          QJsonObject{{u"type"_s, u"integer"_s},
                                                                      {u"default"_s, 100}}}}},
                                            {u"required"_s, QJsonArray{u"path"_s}}};
        auto tool = std::make_shared<FunctionTool>(definition,
                                                   ExecutionMode::Parallel,
                                                   [&](const ToolCallContext &context) {
                                                       seenPath = context.arguments[u"path"]
                                                                      .toString();
                                                       seenLimit = context.arguments[u"limit"];
                                                       return ToolResult::makeText(u"ok"_s);
                                                   });
        AgentLoopConfig config;
        QJsonObject argumentsSeenByMiddleware;
        config.middlewares = {[&](ToolCallContext &context, const ToolNext &next) {
            argumentsSeenByMiddleware = context.arguments;
            QJsonObject changed = context.arguments;
            changed.remove(u"limit"_s);
            if (rewritten.isUndefined())
                changed.remove(u"path"_s);
            else
                changed.insert(u"path"_s, rewritten);
            context.arguments = changed;
            return next(context);
        }};
        const Run run = runBatch({call(u"c1"_s, u"Read"_s, path(u"a.ts"_s))}, {tool}, config);
        // Defaults were filled before the onion.
        QCOMPARE(argumentsSeenByMiddleware[u"limit"].toInt(), 100);
        const Message result = run.results().first();
        QCOMPARE(tool->calls(), runs ? 1 : 0);
        QCOMPARE(result.isError, !runs);
        if (runs) {
            QCOMPARE(seenPath, u"other.ts"_s);
            QCOMPARE(seenLimit.toInt(), 100); // defaults filled again after the rewrite
        } else {
            QVERIFY2(result.text().startsWith(u"Contract error"_s), qPrintable(result.text()));
            QVERIFY2(result.text().contains(u"path"_s), qPrintable(result.text()));
        }
    }

    void sideEffectsRunBetweenEffectHooks()
    {
        QStringList log;
        QMutex mutex;
        const auto note = [&](const QString &entry) {
            QMutexLocker locker(&mutex);
            log << entry;
        };
        auto read = FunctionTool::make(u"Read"_s,
                                       {u"path"_s},
                                       ExecutionMode::Parallel,
                                       [&](const ToolCallContext &) {
                                           note(u"read"_s);
                                           return ToolResult::makeText(u"text"_s);
                                       });
        auto edit = FunctionTool::make(u"Edit"_s,
                                       {u"path"_s},
                                       ExecutionMode::Sequential,
                                       [&](const ToolCallContext &) {
                                           note(u"edit"_s);
                                           return ToolResult::makeText(u"edited"_s);
                                       });
        AgentLoopConfig config;
        config.effects.beforeEffect = [&](const ToolCallContext &context) {
            note(u"before %1 %2 %3"_s.arg(context.toolCallId,
                                          context.toolName,
                                          context.arguments[u"path"].toString()));
        };
        config.effects.afterEffect = [&](const ToolCallContext &context, const ToolResult &result) {
            note(u"after %1 %2"_s.arg(context.toolCallId, result.text()));
        };
        runBatch({call(u"c1"_s, u"Read"_s, path(u"a.ts"_s)),
                  call(u"c2"_s, u"Edit"_s, path(u"loop.ts"_s))},
                 {read, edit},
                 config);
        QCOMPARE(log,
                 (QStringList{u"read"_s,
                              u"before c2 Edit loop.ts"_s,
                              u"edit"_s,
                              u"after c2 edited"_s}));
    }

    // The edit was made before the hook ran: the model must not hear that it failed (it would
    // make it again), but must hear that the hook did.
    void afterEffectThatThrowsLeavesTheEffectSucceeded()
    {
        auto edit = FunctionTool::make(u"Edit"_s,
                                       {u"path"_s},
                                       ExecutionMode::Sequential,
                                       [](const ToolCallContext &) {
                                           return ToolResult::makeText(u"edited"_s);
                                       });
        AgentLoopConfig config;
        config.effects.afterEffect = [](const ToolCallContext &, const ToolResult &) {
            throw std::runtime_error("journal disk full");
        };
        const Run run = runBatch({call(u"c1"_s, u"Edit"_s, path(u"a.ts"_s))}, {edit}, config);
        QCOMPARE(edit->calls(), 1);
        const QList<Message> results = run.results();
        QCOMPARE(results.size(), 1);
        QVERIFY2(!results.first().isError, qPrintable(results.first().text()));
        QVERIFY2(results.first().text().startsWith(u"edited\n\n[Note: Edit finished"_s),
                 qPrintable(results.first().text()));
        QVERIFY2(results.first().text().contains(u"journal disk full"_s),
                 qPrintable(results.first().text()));
        const QList<AgentEvent> ends = filtered(run.events, Type::ToolExecutionEnd);
        QCOMPARE(ends.size(), 1);
        QVERIFY(!ends.first().isError);
    }

    void abortStopsASequentialBatchBetweenTools()
    {
        auto edit = FunctionTool::make(u"Edit"_s,
                                       {u"path"_s},
                                       ExecutionMode::Sequential,
                                       [](const ToolCallContext &) {
                                           return ToolResult::makeText(u"edited"_s);
                                       });
        AbortToken abort;
        // The user presses Stop as the first edit's result appears.
        const auto stop = [&](const AgentEvent &event, int) {
            if (event.type == Type::MessageEnd && event.message.isToolResult())
                abort.abort();
        };
        const Run run = runBatch({call(u"c1"_s, u"Edit"_s, path(u"a"_s)),
                                  call(u"c2"_s, u"Edit"_s, path(u"b"_s)),
                                  call(u"c3"_s, u"Edit"_s, path(u"c"_s))},
                                 {edit},
                                 {},
                                 stop,
                                 abort);
        QCOMPARE(edit->calls(), 1);
        const QList<Message> results = run.results();
        QCOMPARE(results.size(), 3);
        QCOMPARE(results.at(0).text(), u"edited"_s);
        QVERIFY(!results.at(0).isError);
        for (const Message &skipped : results.mid(1)) {
            QVERIFY(skipped.isError);
            QCOMPARE(skipped.text(),
                     u"Skipped: the run was stopped before this tool call started."_s);
            QVERIFY(skipped.details.aborted);
        }
        // Every call has its card: started and ended, also the ones the abort reached first.
        QCOMPARE(filtered(run.events, Type::ToolExecutionStart).size(), 3);
        QCOMPARE(filtered(run.events, Type::ToolExecutionEnd).size(), 3);
        QCOMPARE(run.model->callCount(), 1); // no further turn
        QCOMPARE(run.events.last().type, Type::AgentEnd);
        QCOMPARE(toolProtocolProblem(run.newMessages.mid(1)), QString());
    }

    // Issue #16: an abort that reaches the calls before they start gave "Skipped..." without
    // tool events in a sequential batch, but start/end events and "Tool execution aborted." in
    // a parallel one. One shape for both: what the user and the model see does not depend on
    // how the batch was scheduled.
    void abortBeforeTheCallsStartLooksTheSameInBothKindsOfBatch_data()
    {
        QTest::addColumn<ExecutionMode>("mode");
        QTest::newRow("sequential") << ExecutionMode::Sequential;
        QTest::newRow("parallel") << ExecutionMode::Parallel;
    }

    void abortBeforeTheCallsStartLooksTheSameInBothKindsOfBatch()
    {
        QFETCH(ExecutionMode, mode);
        auto tool = FunctionTool::make(u"Touch"_s, {u"path"_s}, mode, [](const ToolCallContext &) {
            return ToolResult::makeText(u"touched"_s);
        });
        AbortToken abort;
        // The user presses Stop as the first call's card appears.
        const auto stop = [&](const AgentEvent &event, int) {
            if (event.type == Type::ToolExecutionStart)
                abort.abort();
        };
        const Run run = runBatch({call(u"c1"_s, u"Touch"_s, path(u"a"_s)),
                                  call(u"c2"_s, u"Touch"_s, path(u"b"_s))},
                                 {tool},
                                 {},
                                 stop,
                                 abort);
        QCOMPARE(tool->calls(), 0);
        const QList<Message> results = run.results();
        QCOMPARE(results.size(), 2);
        QStringList shape;
        for (const AgentEvent &event : run.events) {
            if (event.type == Type::ToolExecutionStart)
                shape << u"start "_s + event.toolCallId;
            else if (event.type == Type::ToolExecutionEnd)
                shape << u"end "_s + event.toolCallId + u": "_s + event.result.text()
                             + (event.result.details.aborted ? u" (aborted)"_s : QString());
            else if (event.type == Type::MessageEnd && event.message.isToolResult())
                shape << u"result "_s + event.message.toolCallId;
        }
        const QString skipped
            = u"Skipped: the run was stopped before this tool call started. (aborted)"_s;
        if (mode == ExecutionMode::Sequential) {
            QCOMPARE(shape,
                     (QStringList{u"start c1"_s,
                                  u"end c1: "_s + skipped,
                                  u"result c1"_s,
                                  u"start c2"_s,
                                  u"end c2: "_s + skipped,
                                  u"result c2"_s}));
        } else {
            QCOMPARE(shape,
                     (QStringList{u"start c1"_s,
                                  u"start c2"_s,
                                  u"end c1: "_s + skipped,
                                  u"end c2: "_s + skipped,
                                  u"result c1"_s,
                                  u"result c2"_s}));
        }
        for (const Message &result : results) {
            QVERIFY(result.isError);
            QVERIFY(result.details.aborted);
        }
        QCOMPARE(run.model->callCount(), 1);
        QCOMPARE(toolProtocolProblem(run.newMessages.mid(1)), QString());
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_ToolBatch)

} // namespace tst_toolbatch

#include "tst_toolbatch.moc"
