#include <ai/schemavalidator.h>
#include <loop/agentloop.h>
#include <loop/toolprotocol.h>
#include <testmain.h>

#include <scriptedmodel.h>
#include <testtools.h>
#include <toolprotocolcheck.h>

#include <QTest>
#include <QThread>

Q_DECLARE_METATYPE(TestSupport::ModelStep)

using namespace AgentCore;
using namespace TestSupport;
using namespace Qt::StringLiterals;

namespace tst_agentloop {

namespace {

using Type = AgentEvent::Type;

QJsonObject args(const QString &key, const QString &value)
{
    return QJsonObject{{key, value}};
}

ContentBlock readCall(const QString &id, const QString &path)
{
    return ContentBlock::makeToolCall(id, u"Read"_s, args(u"path"_s, path));
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

std::shared_ptr<FunctionTool> editTool()
{
    return FunctionTool::make(u"Edit"_s,
                              {u"path"_s, u"old_string"_s, u"new_string"_s},
                              ExecutionMode::Sequential,
                              [](const ToolCallContext &) {
                                  return ToolResult::makeText(u"edited"_s);
                              });
}

AgentContext contextWith(const QList<AgentToolPtr> &tools, const QList<Message> &history = {})
{
    AgentContext context;
    context.systemPrompt = u"You are a coding agent."_s;
    context.tools = tools;
    context.messages = history;
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

QList<Message> eventsOf(const QList<AgentEvent> &events, Type type)
{
    QList<Message> messages;
    for (const AgentEvent &event : events) {
        if (event.type == type)
            messages.append(event.message);
    }
    return messages;
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

// Returns a getter that hands out the given batches, one per call, then nothing.
std::function<QList<Message>()> queueOf(QList<QList<Message>> batches, int *calls = nullptr)
{
    auto shared = std::make_shared<QList<QList<Message>>>(std::move(batches));
    return [shared, calls] {
        if (calls)
            ++*calls;
        return shared->isEmpty() ? QList<Message>{} : shared->takeFirst();
    };
}

} // namespace

class tst_AgentLoop : public QObject
{
    Q_OBJECT

private slots:
    // The seed's task, "read loop.ts and crash.log, then fix it", with DESIGN.md section 1's
    // exact event order.
    void seedRunEmitsTheDesignedEventSequence()
    {
        auto model = std::make_shared<ScriptedModel>(QList{
            ModelStep::toolCalls(
                {readCall(u"r1"_s, u"loop.ts"_s), readCall(u"r2"_s, u"crash.log"_s)}),
            ModelStep::toolCall(u"e1"_s,
                                u"Edit"_s,
                                {{u"path"_s, u"loop.ts"_s},
                                 {u"old_string"_s, u"while (true)"_s},
                                 {u"new_string"_s, u"while (turns < max)"_s}}),
            ModelStep::text(u"I fixed myself."_s),
        });
        AgentLoopConfig config = configWith(model);
        QStringList permissionLog;
        QMutex permissionMutex;
        config.middlewares = {[&](ToolCallContext &context, const ToolNext &next) {
            QMutexLocker locker(&permissionMutex);
            permissionLog << context.toolName;
            locker.unlock();
            return next(context);
        }};
        EventLog log;
        const QList<Message> newMessages
            = agentLoop(promptOf(
                            u"Read loop.ts and crash.log, see why you looped, and fix the bug."_s),
                        contextWith({readTool(), editTool()}),
                        config,
                        AbortToken(),
                        log.sink());

        const QStringList expected = {
            u"agent_start"_s,
            u"turn_start"_s,
            u"message_start"_s,
            u"message_end"_s, // the prompt
            u"message_start"_s,
            u"message_update*"_s,
            u"message_end"_s, // two Read calls
            u"tool_execution_start"_s,
            u"tool_execution_start"_s,
            u"tool_execution_end"_s,
            u"tool_execution_end"_s,
            u"message_start"_s,
            u"message_end"_s,
            u"message_start"_s,
            u"message_end"_s,
            u"turn_end"_s,
            u"turn_start"_s,
            u"message_start"_s,
            u"message_update*"_s,
            u"message_end"_s, // Edit
            u"tool_execution_start"_s,
            u"tool_execution_end"_s,
            u"message_start"_s,
            u"message_end"_s,
            u"turn_end"_s,
            u"turn_start"_s,
            u"message_start"_s,
            u"message_update*"_s,
            u"message_end"_s, // final text
            u"turn_end"_s,
            u"agent_end"_s,
        };
        QCOMPARE(log.types(), expected);

        const QList<AgentEvent> events = log.events();
        const QList<Message> ends = eventsOf(events, Type::MessageEnd);
        QCOMPARE(ends.size(), 7);
        QVERIFY(ends.at(0).isUser());
        QCOMPARE(ends.at(1).stopReason, StopReason::ToolUse);
        QCOMPARE(ends.at(2).toolCallId, u"r1"_s); // results in request order
        QCOMPARE(ends.at(3).toolCallId, u"r2"_s);
        QCOMPARE(ends.at(3).text(), u"contents of crash.log"_s);
        QCOMPARE(ends.at(4).toolCalls().first().name, u"Edit"_s);
        QCOMPARE(ends.at(5).toolCallId, u"e1"_s);
        QCOMPARE(ends.at(6).stopReason, StopReason::Stop);
        QCOMPARE(ends.at(6).text(), u"I fixed myself."_s);

        bool sawToolCallDelta = false;
        for (const AgentEvent &event : filtered(events, Type::MessageUpdate))
            sawToolCallDelta |= event.streamEvent.type == StreamEvent::Type::ToolCallDelta;
        QVERIFY(sawToolCallDelta);

        const QList<AgentEvent> starts = filtered(events, Type::ToolExecutionStart);
        QCOMPARE(starts.at(0).toolCallId, u"r1"_s);
        QCOMPARE(starts.at(1).toolCallId, u"r2"_s);
        QCOMPARE(starts.at(2).toolName, u"Edit"_s);
        QCOMPARE(starts.at(0).arguments, args(u"path"_s, u"loop.ts"_s));
        QStringList ended;
        for (const AgentEvent &event : filtered(events, Type::ToolExecutionEnd))
            ended << event.toolCallId;
        QCOMPARE(QSet<QString>(ended.begin(), ended.begin() + 2), (QSet<QString>{u"r1"_s, u"r2"_s}));

        const QList<AgentEvent> turnEnds = filtered(events, Type::TurnEnd);
        QCOMPARE(turnEnds.at(0).hasMoreToolCalls, true);
        QCOMPARE(turnEnds.at(0).toolResults.size(), 2);
        QCOMPARE(turnEnds.at(1).hasMoreToolCalls, true);
        QCOMPARE(turnEnds.at(2).hasMoreToolCalls, false);
        QCOMPARE(turnEnds.at(2).message.text(), u"I fixed myself."_s);

        QCOMPARE(events.last().newMessages, newMessages);
        QCOMPARE(newMessages, ends);
        QCOMPARE(permissionLog.size(), 3);
        QCOMPARE(model->callCount(), 3);
        QCOMPARE(toolProtocolProblem(newMessages.mid(1)), QString());
    }

    // OpenAI-compatible servers that number calls per reply send call_0 again in every reply,
    // here after a resumed history that already has one. Each call keeps an id of its own in
    // the messages, the stream, the tool events and the next request; the provider's is kept.
    void idsRepeatedAcrossRepliesStayApart()
    {
        auto model = std::make_shared<ScriptedModel>(QList{
            ModelStep::toolCall(u"r"_s, u"Read"_s, args(u"path"_s, u"loop.ts"_s)),
            ModelStep::toolCall(u"e"_s,
                                u"Edit"_s,
                                {{u"path"_s, u"loop.ts"_s},
                                 {u"old_string"_s, u"while (true)"_s},
                                 {u"new_string"_s, u"while (turns < max)"_s}}),
            ModelStep::text(u"Fixed."_s),
        });
        model->setPerResponseToolCallIds(true);
        const QList<Message> history = {
            Message::makeUser(u"look around"_s),
            ModelStep::toolCall(u"call_0"_s, u"Read"_s, args(u"path"_s, u"README"_s)).message,
            Message::makeToolResult(u"call_0"_s, u"Read"_s, u"contents of README"_s, false),
        };
        EventLog log;
        const QList<Message> newMessages = agentLoop(promptOf(u"fix loop.ts"_s),
                                                     contextWith({readTool(), editTool()}, history),
                                                     configWith(model),
                                                     AbortToken(),
                                                     log.sink());

        QCOMPARE(newMessages.size(), 6); // prompt, Read, its result, Edit, its result, answer
        const ContentBlock read = newMessages.at(1).toolCalls().value(0);
        const ContentBlock edit = newMessages.at(3).toolCalls().value(0);
        QCOMPARE((QSet<QString>{u"call_0"_s, read.id, edit.id}).size(), 3);
        QCOMPARE(read.providerId, u"call_0"_s);
        QCOMPARE(edit.providerId, u"call_0"_s);
        QCOMPARE(newMessages.at(2).toolCallId, read.id);
        QCOMPARE(newMessages.at(2).text(), u"contents of loop.ts"_s);
        QCOMPARE(newMessages.at(4).toolCallId, edit.id);
        QCOMPARE(newMessages.at(4).text(), u"edited"_s);

        QStringList streamed;
        for (const AgentEvent &event : filtered(log.events(), Type::MessageUpdate)) {
            if (event.streamEvent.type == StreamEvent::Type::ToolCallStart)
                streamed << event.streamEvent.toolCallId;
        }
        QCOMPARE(streamed, (QStringList{read.id, edit.id}));
        QStringList started;
        for (const AgentEvent &event : filtered(log.events(), Type::ToolExecutionStart))
            started << event.toolCallId + u' ' + event.toolName;
        QCOMPARE(started, (QStringList{read.id + u" Read"_s, edit.id + u" Edit"_s}));
        QStringList ended;
        for (const AgentEvent &event : filtered(log.events(), Type::ToolExecutionEnd))
            ended << event.toolCallId + u' ' + event.result.text();
        QCOMPARE(ended, (QStringList{read.id + u" contents of loop.ts"_s, edit.id + u" edited"_s}));

        const Context last = model->contexts().constLast();
        QCOMPARE(last.messages, history + newMessages.mid(0, 5));
        QCOMPARE(toolProtocolProblem(last.messages), QString());
    }

    void callerContextIsNeverChanged_data()
    {
        QTest::addColumn<ModelStep>("step");
        QTest::newRow("natural end") << ModelStep::text(u"done"_s);
        QTest::newRow("model error")
            << ModelStep::failure(StopReason::Error, u"HTTP 500"_s, {readCall(u"r"_s, u"a"_s)});
        QTest::newRow("throwing tool") << ModelStep::toolCall(u"t"_s, u"Boom"_s, {});
    }

    void callerContextIsNeverChanged()
    {
        QFETCH(ModelStep, step);
        auto model = std::make_shared<ScriptedModel>(QList{step, ModelStep::text(u"ok"_s)});
        auto boom = FunctionTool::make(u"Boom"_s,
                                       {},
                                       ExecutionMode::Parallel,
                                       [](const ToolCallContext &) -> ToolResult {
                                           throw std::runtime_error("kaboom");
                                       });
        const QList<Message> history = {Message::makeUser(u"earlier"_s),
                                        ModelStep::text(u"earlier answer"_s).message};
        const AgentContext context = contextWith({readTool(), boom}, history);
        const AgentContext before = context;
        EventLog log;
        const QList<Message> newMessages = agentLoop(promptOf(u"go"_s),
                                                     context,
                                                     configWith(model),
                                                     AbortToken(),
                                                     log.sink());
        QCOMPARE(context.messages, before.messages);
        QVERIFY(context.tools == before.tools);
        QCOMPARE(context.systemPrompt, before.systemPrompt);
        QVERIFY(!newMessages.isEmpty());
        QCOMPARE(newMessages.first().text(), u"go"_s);
        QCOMPARE(log.events().last().type, Type::AgentEnd);
        QCOMPARE(log.events().last().newMessages, newMessages);
        QCOMPARE(toolProtocolProblem(projectToolCallProtocol(history + newMessages)), QString());
    }

    void prepareContextChangesOnlyThatRequest()
    {
        auto model = std::make_shared<ScriptedModel>(QList{
            ModelStep::toolCall(u"r1"_s, u"Read"_s, args(u"path"_s, u"a.ts"_s)),
            ModelStep::text(u"done"_s),
        });
        AgentLoopConfig config = configWith(model);
        QList<Context> inputs;
        config.prepareContext = [&](Context context) {
            inputs.append(context);
            if (inputs.size() == 1) {
                // Plan mode for one turn, plus a crude window that keeps the last message.
                context.tools.removeIf(
                    [](const ToolDefinition &tool) { return tool.name == u"Edit"_s; });
                context.messages = context.messages.mid(context.messages.size() - 1);
                context.systemPrompt += u" Plan only."_s;
            }
            return context;
        };
        const QList<Message> history = {Message::makeUser(u"old question"_s),
                                        ModelStep::text(u"old answer"_s).message};
        const QList<Message> newMessages = agentLoop(promptOf(u"new question"_s),
                                                     contextWith({readTool(), editTool()}, history),
                                                     config,
                                                     AbortToken(),
                                                     {});
        const QList<Context> requests = model->contexts();
        QCOMPARE(requests.size(), 2);
        QCOMPARE(requests.at(0).messages.size(), 1);
        QCOMPARE(requests.at(0).tools.size(), 1);
        QVERIFY(requests.at(0).systemPrompt.endsWith(u"Plan only."_s));
        // The second request sees everything again: nothing was removed for real.
        QCOMPARE(requests.at(1).tools.size(), 2);
        QCOMPARE(requests.at(1).systemPrompt, u"You are a coding agent."_s);
        QCOMPARE(requests.at(1).messages.size(), 5);
        QCOMPARE(requests.at(1).messages.first().text(), u"old question"_s);
        QCOMPARE(inputs.at(1).messages, requests.at(1).messages);
        QCOMPARE(newMessages.size(), 4);
    }

    // Before every request: the history is projected (empty assistants, orphans, missing
    // results fixed) and the model never sees a broken history.
    void everyRequestIsTheProjectedHistory()
    {
        Message emptyAborted = ModelStep::failure(StopReason::Aborted, u"aborted"_s).message;
        Message dangling = ModelStep::toolCall(u"d1"_s, u"Read"_s, args(u"path"_s, u"x"_s)).message;
        const QList<Message> history = {
            Message::makeUser(u"first"_s),
            emptyAborted,
            Message::makeToolResult(u"orphan"_s, u"Read"_s, u"lost"_s, false),
            dangling,
        };
        auto model = std::make_shared<ScriptedModel>(QList{
            ModelStep::toolCall(u"r1"_s, u"Read"_s, args(u"path"_s, u"a"_s)),
            ModelStep::text(u"done"_s),
        });
        const QList<Message> newMessages = agentLoop(promptOf(u"again"_s),
                                                     contextWith({readTool()}, history),
                                                     configWith(model),
                                                     AbortToken(),
                                                     {});
        const QList<Context> requests = model->contexts();
        QCOMPARE(requests.size(), 2);
        QCOMPARE(requests.at(0).messages, projectToolCallProtocol(history + newMessages.mid(0, 1)));
        QCOMPARE(requests.at(1).messages, projectToolCallProtocol(history + newMessages.mid(0, 3)));
        for (const Context &request : requests)
            QCOMPARE(toolProtocolProblem(request.messages), QString());
    }

    void steeringGoesInBeforeTheNextModelCall()
    {
        auto model = std::make_shared<ScriptedModel>(QList{
            ModelStep::toolCall(u"r1"_s, u"Read"_s, args(u"path"_s, u"loop.ts"_s)),
            ModelStep::text(u"editing index.ts instead"_s),
        });
        AgentLoopConfig config = configWith(model);
        int pulls = 0;
        const Message steer = Message::makeUser(u"stop, edit index.ts instead"_s);
        config.getSteeringMessages = queueOf({{}, {steer}}, &pulls);
        EventLog log;
        const QList<Message> newMessages = agentLoop(promptOf(u"fix loop.ts"_s),
                                                     contextWith({readTool()}),
                                                     config,
                                                     AbortToken(),
                                                     log.sink());
        const QList<Context> requests = model->contexts();
        QCOMPARE(requests.size(), 2);
        QVERIFY(!requests.at(0).messages.contains(steer));
        // After the tool result of turn 1, before the second model call.
        Message taken = steer;
        taken.origin = MessageOrigin::Steering;
        QCOMPARE(requests.at(1).messages.last(), taken);
        QVERIFY(requests.at(1).messages.at(requests.at(1).messages.size() - 2).isToolResult());
        QCOMPARE(newMessages.at(3), taken);
        QCOMPARE(pulls, 3); // before turn 1, after turn 1, after turn 2
        // Published inside turn 2, right after its turn_start.
        const QStringList types = log.types();
        const qsizetype secondTurn = types.indexOf(u"turn_start"_s, 2);
        QCOMPARE(types.mid(secondTurn, 3),
                 (QStringList{u"turn_start"_s, u"message_start"_s, u"message_end"_s}));
    }

    void steeringAfterTheLastTurnKeepsTheTaskGoing()
    {
        auto model = std::make_shared<ScriptedModel>(
            QList{ModelStep::text(u"done"_s), ModelStep::text(u"sure, also that"_s)});
        AgentLoopConfig config = configWith(model);
        config.getSteeringMessages = queueOf({{}, {Message::makeUser(u"and also this"_s)}});
        const QList<Message> newMessages = agentLoop(promptOf(u"task"_s),
                                                     contextWith({}),
                                                     config,
                                                     AbortToken(),
                                                     {});
        QCOMPARE(model->callCount(), 2);
        QCOMPARE(newMessages.size(), 4);
        QCOMPARE(newMessages.at(2).text(), u"and also this"_s);
    }

    void followUpsRunAfterTheNaturalEndInOrder()
    {
        auto model = std::make_shared<ScriptedModel>(QList{
            ModelStep::toolCall(u"r1"_s, u"Read"_s, args(u"path"_s, u"loop.ts"_s)),
            ModelStep::text(u"fixed"_s),
            ModelStep::text(u"tests pass"_s),
            ModelStep::text(u"committed"_s),
        });
        AgentLoopConfig config = configWith(model);
        int pulls = 0;
        config.getFollowUpMessages = queueOf({{Message::makeUser(u"then run the tests"_s)},
                                              {Message::makeUser(u"then commit"_s)}},
                                             &pulls);
        const QList<Message> newMessages = agentLoop(promptOf(u"fix it"_s),
                                                     contextWith({readTool()}),
                                                     config,
                                                     AbortToken(),
                                                     {});
        QCOMPARE(model->callCount(), 4);
        // Pulled only at natural ends (after "fixed", "tests pass", "committed").
        QCOMPARE(pulls, 3);
        const QList<Context> requests = model->contexts();
        QCOMPARE(requests.at(2).messages.last().text(), u"then run the tests"_s);
        QCOMPARE(requests.at(2).messages.at(requests.at(2).messages.size() - 2).text(), u"fixed"_s);
        QCOMPARE(requests.at(3).messages.last().text(), u"then commit"_s);
        QStringList texts;
        for (const Message &message : newMessages)
            texts << message.text();
        QCOMPARE(texts.mid(4),
                 (QStringList{u"then run the tests"_s,
                              u"tests pass"_s,
                              u"then commit"_s,
                              u"committed"_s}));
    }

    // The UI captions a user message by where it came from; only the loop knows, so it marks
    // each message with the queue it took it from, in the run's messages and in its events.
    void messagesSayWhichQueueTheyCameFrom()
    {
        auto model = std::make_shared<ScriptedModel>(QList{
            ModelStep::toolCall(u"r1"_s, u"Read"_s, args(u"path"_s, u"loop.ts"_s)),
            ModelStep::text(u"fixed"_s),
            ModelStep::text(u"tests pass"_s),
            ModelStep::text(u"tabs kept"_s),
        });
        AgentLoopConfig config = configWith(model);
        config.getSteeringMessages = queueOf({{}, {Message::makeUser(u"use tabs"_s)}});
        // An Agent hands steering that came after the last turn through the follow-up getter,
        // already marked: it stays steering.
        Message lateSteering = Message::makeUser(u"keep the tabs"_s);
        lateSteering.origin = MessageOrigin::Steering;
        config.getFollowUpMessages = queueOf(
            {{Message::makeUser(u"run the tests"_s)}, {lateSteering}});
        EventLog log;
        const QList<Message> newMessages = agentLoop(promptOf(u"fix loop.ts"_s),
                                                     contextWith({readTool()}),
                                                     config,
                                                     AbortToken(),
                                                     log.sink());
        QCOMPARE(model->callCount(), 4);
        const auto originsOf = [](const QList<Message> &messages) {
            QStringList origins;
            for (const Message &message : messages) {
                if (message.isUser())
                    origins << message.text() + u": "_s + messageOriginName(message.origin);
            }
            return origins;
        };
        const QStringList expected{u"fix loop.ts: prompt"_s,
                                   u"use tabs: steering"_s,
                                   u"run the tests: followUp"_s,
                                   u"keep the tabs: steering"_s};
        QCOMPARE(originsOf(newMessages), expected);
        QCOMPARE(originsOf(eventsOf(log.events(), Type::MessageStart)), expected);
        QCOMPARE(originsOf(eventsOf(log.events(), Type::MessageEnd)), expected);
    }

    void maxTurnsAppendsATurnLimitMessage()
    {
        auto model = std::make_shared<ScriptedModel>();
        for (int i = 0; i < 5; ++i)
            model->enqueue(ModelStep::toolCall(u"r%1"_s.arg(i), u"Read"_s, args(u"path"_s, u"x"_s)));
        AgentLoopConfig config = configWith(model);
        config.maxTurns = 2;
        EventLog log;
        const QList<Message> newMessages = agentLoop(promptOf(u"loop forever"_s),
                                                     contextWith({readTool()}),
                                                     config,
                                                     AbortToken(),
                                                     log.sink());
        QCOMPARE(model->callCount(), 2);
        const Message &last = newMessages.last();
        QVERIFY(last.isAssistant());
        QCOMPARE(last.stopReason, StopReason::TurnLimit);
        QVERIFY(last.text().contains(u"2"_s));
        QVERIFY2(last.text().contains(u"turn limit"_s), qPrintable(last.text())); // as --max-turns
        QVERIFY(last.timestamp > 0);
        // The note comes in a turn of its own, without a model call.
        QCOMPARE(log.types().mid(log.types().size() - 6),
                 (QStringList{u"turn_end"_s,
                              u"turn_start"_s,
                              u"message_start"_s,
                              u"message_end"_s,
                              u"turn_end"_s,
                              u"agent_end"_s}));
        QCOMPARE(log.events().at(log.count() - 2).message, last);
        QCOMPARE(toolProtocolProblem(newMessages.mid(1)), QString());
    }

    void stoppedMessagesNeverRunTheirToolCalls_data()
    {
        QTest::addColumn<StopReason>("reason");
        QTest::newRow("error") << StopReason::Error;
        QTest::newRow("aborted") << StopReason::Aborted;
        QTest::newRow("contextOverflow") << StopReason::ContextOverflow;
    }

    void stoppedMessagesNeverRunTheirToolCalls()
    {
        QFETCH(StopReason, reason);
        auto model = std::make_shared<ScriptedModel>(QList{
            ModelStep::failure(reason,
                               u"cut off"_s,
                               {readCall(u"r1"_s, u"a.ts"_s), readCall(u"r2"_s, u"b.ts"_s)}),
            ModelStep::text(u"never reached"_s),
        });
        auto read = readTool();
        EventLog log;
        const QList<Message> newMessages = agentLoop(promptOf(u"go"_s),
                                                     contextWith({read}),
                                                     configWith(model),
                                                     AbortToken(),
                                                     log.sink());
        QCOMPARE(read->calls(), 0);
        QCOMPARE(model->callCount(), 1);
        QCOMPARE(newMessages.size(), 4);
        QCOMPARE(newMessages.at(1).stopReason, reason);
        for (const Message &result : newMessages.mid(2)) {
            QVERIFY(result.isToolResult());
            QVERIFY(result.isError);
            QVERIFY(result.text().startsWith(u"Skipped"_s));
        }
        QCOMPARE(filtered(log.events(), Type::ToolExecutionStart).size(), 0);
        const QList<AgentEvent> turnEnds = filtered(log.events(), Type::TurnEnd);
        QCOMPARE(turnEnds.size(), 1);
        QCOMPARE(turnEnds.first().hasMoreToolCalls, false);
        QCOMPARE(turnEnds.first().toolResults, newMessages.mid(2));
        QCOMPARE(toolProtocolProblem(newMessages.mid(1)), QString());
    }

    void protocolViolationIsDiscardedAndRetriedOnce()
    {
        auto model = std::make_shared<ScriptedModel>(QList{
            ModelStep::fakeToolCall(),
            ModelStep::toolCall(u"r1"_s, u"Read"_s, args(u"path"_s, u"loop.ts"_s)),
            ModelStep::text(u"done"_s),
        });
        EventLog log;
        const QList<Message> newMessages = agentLoop(promptOf(u"read loop.ts"_s),
                                                     contextWith({readTool()}),
                                                     configWith(model),
                                                     AbortToken(),
                                                     log.sink());
        const QStringList types = log.types();
        QCOMPARE(types.mid(0, 9),
                 (QStringList{u"agent_start"_s,
                              u"turn_start"_s,
                              u"message_start"_s,
                              u"message_end"_s,
                              u"message_start"_s,
                              u"message_update*"_s,
                              u"message_discard"_s,
                              u"message_start"_s,
                              u"message_update*"_s}));
        QCOMPARE(types.count(u"message_discard"_s), 1);
        QCOMPARE(model->callCount(), 3);
        // The retry saw the directive, after the unchanged history; history never holds it.
        const QList<Context> requests = model->contexts();
        const Message directive = requests.at(1).messages.last();
        QVERIFY(directive.isUser());
        QVERIFY(directive.text().contains(u"native"_s));
        QCOMPARE(requests.at(1).messages.mid(0, requests.at(1).messages.size() - 1),
                 requests.at(0).messages);
        QVERIFY(!requests.at(2).messages.contains(directive));
        QVERIFY(!newMessages.contains(directive));
        for (const Message &message : newMessages)
            QVERIFY(!message.protocolViolation && !message.text().contains(u"<invoke"_s));
        QCOMPARE(newMessages.size(), 4); // prompt, Read call, its result, final answer
    }

    void protocolViolationRetryUsesOnModelErrorContext()
    {
        auto model = std::make_shared<ScriptedModel>(
            QList{ModelStep::fakeToolCall(), ModelStep::text(u"done"_s)});
        AgentLoopConfig config = configWith(model);
        int calls = 0;
        config.onModelError = [&](const Message &violating, const Context &attempt) {
            ++calls;
            [&] { QVERIFY(violating.protocolViolation); }();
            Context replaced = attempt;
            replaced.systemPrompt += u" Use native tools."_s;
            return std::optional<Context>(replaced);
        };
        agentLoop(promptOf(u"go"_s), contextWith({}), config, AbortToken(), {});
        QCOMPARE(calls, 1);
        const Context retry = model->contexts().at(1);
        QVERIFY(retry.systemPrompt.endsWith(u"Use native tools."_s));
        QVERIFY(retry.messages.last().text().contains(u"native"_s));
    }

    void secondProtocolViolationEndsTheTurnFlagged()
    {
        auto model = std::make_shared<ScriptedModel>(QList{ModelStep::fakeToolCall(),
                                                           ModelStep::fakeToolCall(),
                                                           ModelStep::text(u"never"_s)});
        EventLog log;
        const QList<Message> newMessages = agentLoop(promptOf(u"go"_s),
                                                     contextWith({}),
                                                     configWith(model),
                                                     AbortToken(),
                                                     log.sink());
        QCOMPARE(model->callCount(), 2);
        QCOMPARE(newMessages.size(), 2);
        QVERIFY(newMessages.last().protocolViolation);
        QCOMPARE(log.types().count(u"message_discard"_s), 1);
        QCOMPARE(filtered(log.events(), Type::TurnEnd).last().hasMoreToolCalls, false);
    }

    void protocolViolationWithoutStreamedDraftIsNotDiscarded()
    {
        auto model = std::make_shared<ScriptedModel>(
            QList{ModelStep::fakeToolCall().silently(), ModelStep::text(u"done"_s)});
        EventLog log;
        agentLoop(promptOf(u"go"_s), contextWith({}), configWith(model), AbortToken(), log.sink());
        QCOMPARE(model->callCount(), 2);
        QCOMPARE(log.types().count(u"message_discard"_s), 0);
        QCOMPARE(log.types().count(u"message_start"_s), 2); // prompt, the retry's answer
    }

    void failedRequestStillEmitsItsMessage()
    {
        auto model = std::make_shared<ScriptedModel>(
            QList{ModelStep::failure(StopReason::Error, u"connection refused"_s).silently()});
        EventLog log;
        const QList<Message> newMessages = agentLoop(promptOf(u"go"_s),
                                                     contextWith({}),
                                                     configWith(model),
                                                     AbortToken(),
                                                     log.sink());
        QCOMPARE(log.types(),
                 (QStringList{u"agent_start"_s,
                              u"turn_start"_s,
                              u"message_start"_s,
                              u"message_end"_s,
                              u"message_start"_s,
                              u"message_end"_s,
                              u"turn_end"_s,
                              u"agent_end"_s}));
        QCOMPARE(newMessages.last().errorMessage, u"connection refused"_s);
    }

    void messagesGetTimestampsAndCustomMessagesPassThrough()
    {
        auto model = std::make_shared<ScriptedModel>(
            QList{ModelStep::toolCall(u"r1"_s, u"Read"_s, args(u"path"_s, u"a"_s)),
                  ModelStep::text(u"done"_s)});
        Message prompt;
        prompt.content.append(ContentBlock::makeText(u"no timestamp"_s));
        Message reminder;
        reminder.role = Message::Role::Custom;
        reminder.customType = u"system-reminder"_s;
        reminder.content.append(ContentBlock::makeText(u"the tests are slow"_s));
        const qint64 before = QDateTime::currentMSecsSinceEpoch();
        const QList<Message> newMessages = agentLoop({prompt, reminder},
                                                     contextWith({readTool()}),
                                                     configWith(model),
                                                     AbortToken(),
                                                     {});
        QCOMPARE(newMessages.size(), 5);
        for (const Message &message : newMessages)
            QVERIFY2(message.timestamp >= before, qPrintable(message.text()));
        QCOMPARE(newMessages.at(1).role, Message::Role::Custom);
        QCOMPARE(newMessages.at(1).customType, u"system-reminder"_s);
        QCOMPARE(model->contexts().at(0).messages.last().customType, u"system-reminder"_s);
    }

    void eventsComeFromTheLoopThread()
    {
        auto model = std::make_shared<ScriptedModel>(
            QList{ModelStep::toolCall(u"b1"_s, u"Bash"_s, args(u"command"_s, u"make"_s)),
                  ModelStep::text(u"built"_s)});
        auto bash = FunctionTool::make(u"Bash"_s,
                                       {u"command"_s},
                                       ExecutionMode::Sequential,
                                       [](const ToolCallContext &context) {
                                           context.onUpdate(ToolResult::makeText(u"[1/2]"_s));
                                           context.onUpdate(ToolResult::makeText(u"[2/2]"_s));
                                           return ToolResult::makeText(u"built"_s);
                                       });
        EventLog log;
        QThread *loopThread = QThread::create([&] {
            agentLoop(promptOf(u"build"_s),
                      contextWith({bash}),
                      configWith(model),
                      AbortToken(),
                      log.sink());
        });
        loopThread->start();
        QVERIFY(loopThread->wait(10'000));
        QCOMPARE(log.threads(), QList<QThread *>{loopThread});
        delete loopThread;
        const QStringList types = log.types();
        const qsizetype start = types.indexOf(u"tool_execution_start"_s);
        QCOMPARE(types.mid(start, 4),
                 (QStringList{u"tool_execution_start"_s,
                              u"tool_execution_update"_s,
                              u"tool_execution_update"_s,
                              u"tool_execution_end"_s}));
        const QList<AgentEvent> updates = filtered(log.events(), Type::ToolExecutionUpdate);
        QCOMPARE(updates.at(0).result.text(), u"[1/2]"_s);
        QCOMPARE(updates.at(1).result.text(), u"[2/2]"_s);
        QCOMPARE(updates.at(1).toolCallId, u"b1"_s);
    }

    void missingModelIsAnError()
    {
        EventLog log;
        const QList<Message> newMessages = agentLoop(promptOf(u"go"_s),
                                                     contextWith({}),
                                                     AgentLoopConfig(),
                                                     AbortToken(),
                                                     log.sink());
        QCOMPARE(newMessages.size(), 2);
        QCOMPARE(newMessages.last().stopReason, StopReason::Error);
        QCOMPARE(log.events().last().type, Type::AgentEnd);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_AgentLoop)

} // namespace tst_agentloop

#include "tst_agentloop.moc"
