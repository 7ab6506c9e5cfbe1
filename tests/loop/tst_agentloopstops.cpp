// Where a run stops and where it goes on (issue #16, read against the seed's driveAgentLoop):
// the seed stops only on error, aborted and contextOverflow; a reply cut at the output limit
// is not one of them. And every message event of a run, on every path out of it, belongs to a
// turn.
#include <loop/agentloop.h>
#include <loop/toolprotocol.h>
#include <testmain.h>

#include <eventstreamcheck.h>
#include <scriptedmodel.h>
#include <testtools.h>
#include <toolprotocolcheck.h>

#include <QMutex>
#include <QTest>

#include <stdexcept>

using namespace AgentCore;
using namespace TestSupport;
using namespace Qt::StringLiterals;

namespace tst_agentloopstops {

namespace {

using Type = AgentEvent::Type;

ContentBlock readCall(const QString &id, const QString &path)
{
    return ContentBlock::makeToolCall(id, u"Read"_s, QJsonObject{{u"path"_s, path}});
}

std::shared_ptr<FunctionTool> readTool()
{
    return FunctionTool::make(u"Read"_s,
                              {u"path"_s},
                              ExecutionMode::Parallel,
                              [](const ToolCallContext &context) {
                                  return ToolResult::makeText(
                                      u"contents of "_s + context.arguments[u"path"].toString());
                              });
}

AgentContext contextWith(const QList<AgentToolPtr> &tools)
{
    AgentContext context;
    context.systemPrompt = u"You are a coding agent."_s;
    context.tools = tools;
    return context;
}

AgentLoopConfig configWith(const std::shared_ptr<ScriptedModel> &model)
{
    AgentLoopConfig config;
    config.model = model;
    return config;
}

QList<Message> promptOf(const QString &text)
{
    return {Message::makeUser(text)};
}

QList<Message> toolResults(const QList<Message> &messages)
{
    QList<Message> results;
    for (const Message &message : messages) {
        if (message.isToolResult())
            results.append(message);
    }
    return results;
}

bool anyRequestHas(const ScriptedModel &model, const QString &text)
{
    for (const Context &request : model.contexts()) {
        for (const Message &message : request.messages) {
            if (message.text() == text)
                return true;
        }
    }
    return false;
}

// The user's queue as the Agent keeps it: the loop takes what it pulls, the rest stays.
struct Queue
{
    std::function<QList<Message>()> getter()
    {
        return [this] {
            QMutexLocker locker(&mutex);
            return std::exchange(messages, {});
        };
    }
    void add(const Message &message)
    {
        QMutexLocker locker(&mutex);
        messages.append(message);
    }
    QList<Message> left() const
    {
        QMutexLocker locker(&mutex);
        return messages;
    }

    mutable QMutex mutex;
    QList<Message> messages;
};

const QString cutOffText = u"Skipped: your reply was cut off at the output token limit, so this "
                           "tool call may be incomplete and was not run. If it is still needed, "
                           "make it again with less in it (for example, write a large file in "
                           "several smaller steps)."_s;

} // namespace

class tst_AgentLoopStops : public QObject
{
    Q_OBJECT

private slots:
    // A reply cut at the output limit: its calls never run (the last one is surely cut), the
    // model reads why and gets one more turn to redo them.
    void truncatedToolCallsNeverRunAndTheModelMayRedoThem()
    {
        auto model = std::make_shared<ScriptedModel>(QList{
            ModelStep::failure(StopReason::Length,
                               {},
                               {readCall(u"r1"_s, u"a.ts"_s), readCall(u"r2"_s, u"b.ts"_s)}),
            ModelStep::toolCall(u"r3"_s, u"Read"_s, QJsonObject{{u"path"_s, u"a.ts"_s}}),
            ModelStep::text(u"done"_s),
        });
        auto read = readTool();
        EventLog log;
        const QList<Message> newMessages = agentLoop(promptOf(u"read both"_s),
                                                     contextWith({read}),
                                                     configWith(model),
                                                     AbortToken(),
                                                     log.sink());
        QCOMPARE(read->calls(), 1); // only r3, from the reply that was not cut
        QCOMPARE(model->callCount(), 3);
        const QList<Message> results = toolResults(newMessages);
        QCOMPARE(results.size(), 3);
        for (const Message &skipped : results.mid(0, 2)) {
            QVERIFY(skipped.isError);
            QCOMPARE(skipped.text(), cutOffText);
        }
        QCOMPARE(results.at(2).text(), u"contents of a.ts"_s);
        // The second request carries the truncated reply and why its calls did not run.
        const QList<Message> second = model->contexts().at(1).messages;
        QCOMPARE(second.last().text(), cutOffText);
        QCOMPARE(second.at(second.size() - 3).stopReason, StopReason::Length);
        QCOMPARE(newMessages.last().text(), u"done"_s);
        QCOMPARE(toolProtocolProblem(newMessages.mid(1)), QString());
        QCOMPARE(eventStreamProblem(log.events()), QString());
        const QList<AgentEvent> ends = [&] {
            QList<AgentEvent> found;
            for (const AgentEvent &event : log.events()) {
                if (event.type == Type::TurnEnd)
                    found.append(event);
            }
            return found;
        }();
        QCOMPARE(ends.first().hasMoreToolCalls, true);
        QCOMPARE(ends.first().toolResults, results.mid(0, 2));
    }

    // Continue once: a model that overruns again does not loop on it.
    void aSecondTruncatedReplyInARowEndsTheTask()
    {
        auto model = std::make_shared<ScriptedModel>(QList{
            ModelStep::failure(StopReason::Length, {}, {readCall(u"r1"_s, u"a.ts"_s)}),
            ModelStep::failure(StopReason::Length, {}, {readCall(u"r2"_s, u"a.ts"_s)}),
            ModelStep::text(u"never asked"_s),
        });
        auto read = readTool();
        EventLog log;
        const QList<Message> newMessages = agentLoop(promptOf(u"read it"_s),
                                                     contextWith({read}),
                                                     configWith(model),
                                                     AbortToken(),
                                                     log.sink());
        QCOMPARE(read->calls(), 0);
        QCOMPARE(model->callCount(), 2);
        QCOMPARE(toolResults(newMessages).size(), 2);
        QCOMPARE(newMessages.last().text(), cutOffText);
        QCOMPARE(toolProtocolProblem(newMessages.mid(1)), QString());
        QCOMPARE(eventStreamProblem(log.events()), QString());
    }

    // A text answer cut at the output limit ends its task like any answer: what the user
    // queued meanwhile goes on at once instead of waiting for the next prompt.
    void truncatedTextEndsTheTaskAndQueuedMessagesGoOn_data()
    {
        QTest::addColumn<bool>("steering");
        QTest::newRow("steering") << true;
        QTest::newRow("follow-up") << false;
    }

    void truncatedTextEndsTheTaskAndQueuedMessagesGoOn()
    {
        QFETCH(bool, steering);
        auto model = std::make_shared<ScriptedModel>(QList{
            ModelStep::text(u"The answer is long and"_s).withStopReason(StopReason::Length),
            ModelStep::text(u"the tests pass"_s),
        });
        Queue queue;
        AgentLoopConfig config = configWith(model);
        if (steering)
            config.getSteeringMessages = queue.getter();
        else
            config.getFollowUpMessages = queue.getter();
        const Message queued = Message::makeUser(u"then run the tests"_s);
        EventLog log;
        const QList<Message> newMessages = agentLoop(promptOf(u"explain"_s),
                                                     contextWith({}),
                                                     config,
                                                     AbortToken(),
                                                     log.sink([&](const AgentEvent &event, int) {
                                                         // Typed while the first answer streams.
                                                         if (event.type == Type::MessageStart
                                                             && event.message.isAssistant()
                                                             && model->callCount() == 1)
                                                             queue.add(queued);
                                                     }));
        QCOMPARE(model->callCount(), 2);
        QVERIFY(queue.left().isEmpty());
        QCOMPARE(newMessages.size(), 4);
        QCOMPARE(newMessages.at(1).stopReason, StopReason::Length);
        QCOMPARE(newMessages.at(2).text(), queued.text());
        QCOMPARE(newMessages.at(3).text(), u"the tests pass"_s);
        QCOMPARE(eventStreamProblem(log.events()), QString());
    }

    // The seed's stop-and-return: after an error or a context overflow the run ends at once,
    // and what the user queued meanwhile stays queued: not lost, and not sent to the model.
    void stopLeavesQueuedSteeringAndFollowUpsQueued_data()
    {
        QTest::addColumn<StopReason>("reason");
        QTest::newRow("error") << StopReason::Error;
        QTest::newRow("contextOverflow") << StopReason::ContextOverflow;
    }

    void stopLeavesQueuedSteeringAndFollowUpsQueued()
    {
        QFETCH(StopReason, reason);
        auto model = std::make_shared<ScriptedModel>(QList{
            ModelStep::toolCall(u"r1"_s, u"Read"_s, QJsonObject{{u"path"_s, u"a.ts"_s}}),
            ModelStep::failure(reason, u"it broke"_s, {readCall(u"r2"_s, u"b.ts"_s)}),
            ModelStep::text(u"never asked"_s),
        });
        Queue steering;
        Queue followUps;
        AgentLoopConfig config = configWith(model);
        config.getSteeringMessages = steering.getter();
        config.getFollowUpMessages = followUps.getter();
        const Message steer = Message::makeUser(u"use index.ts"_s);
        const Message followUp = Message::makeUser(u"then commit"_s);
        auto read = readTool();
        EventLog log;
        const QList<Message> newMessages = agentLoop(promptOf(u"fix it"_s),
                                                     contextWith({read}),
                                                     config,
                                                     AbortToken(),
                                                     log.sink([&](const AgentEvent &event, int) {
                                                         // Both typed while the failing second reply streams.
                                                         if (event.type == Type::MessageStart
                                                             && event.message.isAssistant()
                                                             && model->callCount() == 2) {
                                                             steering.add(steer);
                                                             followUps.add(followUp);
                                                         }
                                                     }));
        QCOMPARE(model->callCount(), 2);
        QCOMPARE(read->calls(), 1);
        QCOMPARE(steering.left(), QList{steer});
        QCOMPARE(followUps.left(), QList{followUp});
        QVERIFY(!anyRequestHas(*model, steer.text()));
        QVERIFY(!anyRequestHas(*model, followUp.text()));
        for (const Message &message : newMessages) {
            QVERIFY(message.text() != steer.text());
            QVERIFY(message.text() != followUp.text());
        }
        QCOMPARE(newMessages.last().text().startsWith(u"Skipped"_s), true);
        QCOMPARE(toolProtocolProblem(newMessages.mid(1)), QString());
        QCOMPARE(eventStreamProblem(log.events()), QString());
    }

    // Every message event belongs to a turn, on the paths that leave the loop early too.
    void everyMessageEventBelongsToATurn_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("turn limit after a tool turn") << u"limit"_s;
        QTest::newRow("turn limit with steering pending") << u"limit with steering"_s;
        QTest::newRow("abort before the first turn") << u"abort at top"_s;
        QTest::newRow("internal error inside a turn") << u"error in turn"_s;
        QTest::newRow("internal error between turns") << u"error between turns"_s;
    }

    void everyMessageEventBelongsToATurn()
    {
        QFETCH(QString, path);
        auto model = std::make_shared<ScriptedModel>(QList{
            ModelStep::toolCall(u"r1"_s, u"Read"_s, QJsonObject{{u"path"_s, u"a.ts"_s}}),
            ModelStep::toolCall(u"r2"_s, u"Read"_s, QJsonObject{{u"path"_s, u"b.ts"_s}}),
            ModelStep::text(u"done"_s),
        });
        AgentLoopConfig config = configWith(model);
        AbortToken abort;
        const Message steer = Message::makeUser(u"also c.ts"_s);
        if (path == u"limit"_s) {
            config.maxTurns = 1;
        } else if (path == u"limit with steering"_s) {
            config.maxTurns = 1;
            // Typed during turn 1, pulled after it.
            config.getSteeringMessages = [&, given = false]() mutable {
                if (model->callCount() != 1 || std::exchange(given, true))
                    return QList<Message>{};
                return QList{steer};
            };
        } else if (path == u"abort at top"_s) {
            abort.abort();
        } else if (path == u"error in turn"_s) {
            int requests = 0;
            config.prepareContext = [requests](const Context &context) mutable {
                if (++requests == 2)
                    throw std::runtime_error("prepareContext failed");
                return context;
            };
        } else if (path == u"error between turns"_s) {
            config.getSteeringMessages = [&]() -> QList<Message> {
                if (model->callCount() == 1)
                    throw std::runtime_error("the queue failed");
                return {};
            };
        }
        EventLog log;
        const QList<Message> newMessages = agentLoop(promptOf(u"read them"_s),
                                                     contextWith({readTool()}),
                                                     config,
                                                     abort,
                                                     log.sink());
        const QList<AgentEvent> events = log.events();
        QCOMPARE(eventStreamProblem(events), QString());
        QCOMPARE(events.last().newMessages, newMessages);
        // What the user wrote stays in the conversation, and the last message says why the
        // run ended.
        QCOMPARE(newMessages.first().text(), u"read them"_s);
        const Message &last = newMessages.last();
        QVERIFY(last.isAssistant());
        if (path.startsWith(u"limit"_s)) {
            QCOMPARE(model->callCount(), 1);
            QCOMPARE(last.stopReason, StopReason::TurnLimit);
            if (path == u"limit with steering"_s) {
                const Message &steered = newMessages.at(newMessages.size() - 2);
                QCOMPARE(steered.text(), steer.text());
                QCOMPARE(steered.origin, MessageOrigin::Steering);
            }
        } else if (path == u"abort at top"_s) {
            QCOMPARE(model->callCount(), 0);
            QCOMPARE(last.stopReason, StopReason::Aborted);
            QCOMPARE(log.types(),
                     (QStringList{u"agent_start"_s,
                                  u"turn_start"_s,
                                  u"message_start"_s,
                                  u"message_end"_s,
                                  u"message_start"_s,
                                  u"message_end"_s,
                                  u"turn_end"_s,
                                  u"agent_end"_s}));
        } else {
            QCOMPARE(last.stopReason, StopReason::Error);
            QVERIFY2(last.errorMessage.contains(u"internal error"_s), qPrintable(last.errorMessage));
            QVERIFY2(last.errorMessage.contains(u"failed"_s), qPrintable(last.errorMessage));
            QCOMPARE(model->callCount(), 1);
        }
        QCOMPARE(toolProtocolProblem(projectToolCallProtocol(newMessages)), QString());
    }

    // The first argument validation comes before the onion: a middleware (an extension, the
    // permission review) is never consulted about a call whose arguments are invalid, so the
    // user is never asked to approve a call that cannot run.
    void invalidArgumentsNeverReachTheMiddlewares()
    {
        auto model = std::make_shared<ScriptedModel>(QList{
            ModelStep::toolCall(u"r1"_s, u"Read"_s, QJsonObject{{u"file"_s, u"a.ts"_s}}),
            ModelStep::text(u"done"_s),
        });
        AgentLoopConfig config = configWith(model);
        QStringList consulted;
        config.middlewares = {[&](ToolCallContext &context, const ToolNext &next) {
            consulted << context.toolCallId;
            return next(context);
        }};
        auto read = readTool();
        const QList<Message> newMessages = agentLoop(promptOf(u"read a.ts"_s),
                                                     contextWith({read}),
                                                     config,
                                                     AbortToken(),
                                                     {});
        QCOMPARE(consulted, QStringList());
        QCOMPARE(read->calls(), 0);
        const QList<Message> results = toolResults(newMessages);
        QCOMPARE(results.size(), 1);
        QVERIFY(results.first().isError);
        QVERIFY2(results.first().text().contains(u"path"_s), qPrintable(results.first().text()));
        QCOMPARE(model->callCount(), 2); // the model reads why and goes on
    }

    // Stop around a protocol-violation retry: the withdrawn draft stays withdrawn, nothing new
    // is sent once Stop was pressed, and the stream stays well formed.
    void abortAroundAMessageDiscard_data()
    {
        QTest::addColumn<QString>("when");
        QTest::addColumn<int>("modelCalls");
        QTest::newRow("during the fake tool call") << u"first"_s << 1;
        QTest::newRow("at the discard") << u"discard"_s << 1;
        QTest::newRow("during the retry") << u"retry"_s << 2;
    }

    void abortAroundAMessageDiscard()
    {
        QFETCH(QString, when);
        QFETCH(int, modelCalls);
        auto model = std::make_shared<ScriptedModel>(QList{
            ModelStep::fakeToolCall(),
            ModelStep::text(u"Reading loop.ts with the Read tool now, as asked."_s),
            ModelStep::text(u"never asked"_s),
        });
        AbortToken abort;
        bool discarded = false;
        EventLog log;
        const QList<Message> newMessages
            = agentLoop(promptOf(u"read loop.ts"_s),
                        contextWith({readTool()}),
                        configWith(model),
                        abort,
                        log.sink([&](const AgentEvent &event, int) {
                            if (event.type == Type::MessageDiscard)
                                discarded = true;
                            // Stop as some text of the reply is on screen.
                            const bool text = event.type == Type::MessageUpdate
                                              && event.streamEvent.type
                                                     == StreamEvent::Type::TextDelta;
                            if ((when == u"first"_s && text && !discarded)
                                || (when == u"discard"_s && event.type == Type::MessageDiscard)
                                || (when == u"retry"_s && text && discarded))
                                abort.abort();
                        }));
        QCOMPARE(model->callCount(), modelCalls);
        QCOMPARE(eventStreamProblem(log.events()), QString());
        QCOMPARE(log.types().count(u"message_discard"_s), when == u"first"_s ? 0 : 1);
        QCOMPARE(newMessages.size(), 2);
        const Message &last = newMessages.last();
        QCOMPARE(last.stopReason, StopReason::Aborted);
        if (when == u"first"_s) {
            // Stopped before the violation was known: what the user saw stays, flagged.
            QVERIFY(last.text().contains(u"<invoke"_s));
        } else {
            // The withdrawn draft is in no message; the retry's text so far stays.
            QVERIFY(!last.text().contains(u"<invoke"_s));
        }
        if (when == u"retry"_s)
            QVERIFY(!last.text().isEmpty());
        QCOMPARE(toolProtocolProblem(projectToolCallProtocol(newMessages)), QString());
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_AgentLoopStops)

} // namespace tst_agentloopstops

#include "tst_agentloopstops.moc"
