// The Agent facade: a run on the worker thread, its events delivered on the Agent's thread in
// order, the queues, abort and destruction mid-run. The model is scripted.
#include <loop/agent.h>
#include <testmain.h>

#include <scriptedmodel.h>

#include <QElapsedTimer>
#include <QPointer>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>

using namespace AgentCore;
Q_DECLARE_METATYPE(QList<TestSupport::ModelStep>)

namespace tst_agent {

using TestSupport::ModelStep;
using TestSupport::ScriptedModel;

namespace {

QJsonObject pathSchema()
{
    return {{QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"),
             QJsonObject{{QStringLiteral("path"),
                          QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}}}};
}

QJsonObject pathArgs(const QString &path)
{
    return {{QStringLiteral("path"), path}};
}

/// Answers at once with the content of "path".
class ReadTool final : public AgentTool
{
public:
    ToolDefinition definition() const override
    {
        return {QStringLiteral("Read"), QStringLiteral("Reads a file."), pathSchema()};
    }
    ToolResult execute(const ToolCallContext &context) override
    {
        return ToolResult::makeText(QStringLiteral("content of ")
                                    + context.arguments.value(QStringLiteral("path")).toString());
    }
};

/// Blocks until the test opens it (or 10 s pass), ignoring the abort token on purpose.
class GateTool final : public AgentTool
{
public:
    explicit GateTool(QString name)
        : m_name(std::move(name))
    {}
    ToolDefinition definition() const override
    {
        return {m_name, QStringLiteral("Waits."), pathSchema()};
    }
    ToolResult execute(const ToolCallContext &) override
    {
        ++m_entered;
        const bool opened = m_gate.tryAcquire(1, 10'000);
        return ToolResult::makeText(opened ? QStringLiteral("opened") : QStringLiteral("slept"));
    }
    void open(int times = 1) { m_gate.release(times); }
    int entered() const { return m_entered.load(); }

private:
    QString m_name;
    QSemaphore m_gate;
    std::atomic_int m_entered = 0;
};

/// Records what the Agent emits, on which thread, and when.
class Recorder final : public QObject
{
public:
    explicit Recorder(Agent *agent)
    {
        connect(agent, &Agent::eventEmitted, this, [this](const AgentEvent &event) {
            onUiThread = onUiThread && QThread::currentThread() == thread();
            events.append(event);
            log.append(agentEventTypeName(event.type));
            if (event.type == AgentEvent::Type::AgentEnd)
                agentEndAtMs = clock.elapsed();
        });
        connect(agent, &Agent::idleChanged, this, [this](bool idle) {
            log.append(idle ? QStringLiteral("idle") : QStringLiteral("busy"));
            if (idle)
                idleAtMs = clock.elapsed();
        });
        connect(agent, &Agent::queuesChanged, this, [this] { ++queueChanges; });
        clock.start();
    }

    int count(AgentEvent::Type type) const
    {
        return int(std::count_if(events.cbegin(), events.cend(), [type](const AgentEvent &e) {
            return e.type == type;
        }));
    }
    /// The log with each run of message_update folded into one entry.
    QStringList folded() const
    {
        QStringList out;
        for (const QString &entry : log) {
            if (entry == QLatin1String("message_update") && !out.isEmpty() && out.last() == entry)
                continue;
            out.append(entry);
        }
        return out;
    }

    QList<AgentEvent> events;
    QStringList log;
    bool onUiThread = true;
    int queueChanges = 0;
    QElapsedTimer clock;
    qint64 agentEndAtMs = -1;
    qint64 idleAtMs = -1;
};

QStringList texts(const QList<Message> &messages)
{
    QStringList out;
    for (const Message &message : messages)
        out.append(message.text());
    return out;
}

} // namespace

class tst_Agent : public QObject
{
    Q_OBJECT

private slots:
    void cleanup();

    void eventSequence_data();
    void eventSequence();
    void deltasArriveInOrder_data();
    void deltasArriveInOrder();
    void promptWhileBusy();
    void steerLandsBeforeNextModelCall();
    void followUpsRunAfterTheTask();
    void clearQueues();
    void abortWithToolIgnoringToken();
    void destroyMidRun_data();
    void destroyMidRun();
    void messagesAfterTwoRuns();

private:
    std::unique_ptr<Agent> makeAgent(const QList<ModelStep> &steps,
                                     QList<AgentToolPtr> tools = {},
                                     QList<Message> history = {},
                                     bool batchEvents = true);

    std::shared_ptr<ScriptedModel> m_model;
    std::shared_ptr<GateTool> m_gate = std::make_shared<GateTool>(QStringLiteral("Gate"));
};

std::unique_ptr<Agent> tst_Agent::makeAgent(const QList<ModelStep> &steps,
                                            QList<AgentToolPtr> tools,
                                            QList<Message> history,
                                            bool batchEvents)
{
    m_model = std::make_shared<ScriptedModel>(steps);
    AgentConfig config;
    config.loop.model = m_model;
    config.systemPrompt = QStringLiteral("You are a test.");
    config.tools = tools.isEmpty() ? QList<AgentToolPtr>{std::make_shared<ReadTool>(), m_gate}
                                   : std::move(tools);
    config.history = std::move(history);
    config.batchEvents = batchEvents;
    return std::make_unique<Agent>(std::move(config));
}

void tst_Agent::cleanup()
{
    // Lets a tool abandoned by an aborted run finish, so its thread does not outlive the test.
    m_gate->open(16);
    m_gate = std::make_shared<GateTool>(QStringLiteral("Gate"));
    m_model.reset();
}

void tst_Agent::eventSequence_data()
{
    QTest::addColumn<QList<ModelStep>>("steps");
    QTest::addColumn<QStringList>("expected");

    const QStringList start{"busy", "agent_start", "turn_start", "message_start", "message_end"};
    const QStringList answer{"message_start", "message_update", "message_end", "turn_end"};
    const QStringList end{"agent_end", "idle"};

    QTest::newRow("text answer") << QList<ModelStep>{ModelStep::text(QStringLiteral("Hi."))}
                                 << start + answer + end;
    // DESIGN.md section 1: parallel reads, results in request order, then the final answer.
    QTest::newRow("parallel reads, then answer")
        << QList<ModelStep>{ModelStep::toolCalls(
                                {ContentBlock::makeToolCall(QStringLiteral("r1"),
                                                            QStringLiteral("Read"),
                                                            pathArgs(QStringLiteral("loop.ts"))),
                                 ContentBlock::makeToolCall(QStringLiteral("r2"),
                                                            QStringLiteral("Read"),
                                                            pathArgs(
                                                                QStringLiteral("crash.log")))}),
                            ModelStep::text(QStringLiteral("I fixed myself."))}
        << start
               + QStringList{"message_start",
                             "message_update",
                             "message_end",
                             "tool_execution_start",
                             "tool_execution_start",
                             "tool_execution_end",
                             "tool_execution_end",
                             "message_start",
                             "message_end",
                             "message_start",
                             "message_end",
                             "turn_end",
                             "turn_start"}
               + answer + end;
    QTest::newRow("model error") << QList<ModelStep>{ModelStep::failure(StopReason::Error,
                                                                        QStringLiteral("HTTP 500"))}
                                 << start + QStringList{"message_start", "message_end", "turn_end"}
                                        + end;
}

void tst_Agent::eventSequence()
{
    QFETCH(QList<ModelStep>, steps);
    QFETCH(QStringList, expected);

    auto agent = makeAgent(steps);
    Recorder recorder(agent.get());
    QCOMPARE(agent->prompt(QStringLiteral("read loop.ts and crash.log, then fix it")),
             Agent::PromptResult::Started);
    QVERIFY(!agent->isIdle());
    QTRY_VERIFY(agent->isIdle());

    QCOMPARE(recorder.folded(), expected);
    QVERIFY(recorder.onUiThread);
    const AgentEvent &end = recorder.events.last();
    QCOMPARE(end.type, AgentEvent::Type::AgentEnd);
    QCOMPARE(agent->messages(), end.newMessages);
    QCOMPARE(end.newMessages.size(), steps.size() == 2 ? 5 : 2);
    // Tool results are published in the order the model asked for them.
    if (steps.size() == 2) {
        QCOMPARE(end.newMessages.at(2).toolCallId, QStringLiteral("r1"));
        QCOMPARE(end.newMessages.at(3).toolCallId, QStringLiteral("r2"));
        QCOMPARE(end.newMessages.at(3).text(), QStringLiteral("content of crash.log"));
    }
}

void tst_Agent::deltasArriveInOrder_data()
{
    QTest::addColumn<bool>("batchEvents");
    QTest::newRow("in batches") << true;
    // The variant bench_loop compares the batches with: the same events, in the same order.
    QTest::newRow("one delivery per event") << false;
}

void tst_Agent::deltasArriveInOrder()
{
    QFETCH(bool, batchEvents);
    QString text;
    for (int i = 0; i < 3000; ++i)
        text += QString::number(i) + QLatin1Char(' ');
    ModelStep step = ModelStep::text(text);
    step.chunkSize = 3; // thousands of message_update events, batched across the threads
    auto agent = makeAgent({step}, {}, {}, batchEvents);
    Recorder recorder(agent.get());
    agent->prompt(QStringLiteral("count"));
    QVERIFY(agent->waitForIdle());

    QString streamed;
    for (const AgentEvent &event : std::as_const(recorder.events)) {
        if (event.type == AgentEvent::Type::MessageUpdate
            && event.streamEvent.type == StreamEvent::Type::TextDelta)
            streamed += event.streamEvent.delta;
    }
    QCOMPARE(streamed, text);
    QVERIFY(recorder.count(AgentEvent::Type::MessageUpdate) >= 3000);
    QVERIFY(recorder.onUiThread);
    QCOMPARE(recorder.log.last(), QStringLiteral("idle"));
}

void tst_Agent::promptWhileBusy()
{
    auto agent = makeAgent({ModelStep::waitForAbort(), ModelStep::text(QStringLiteral("second"))});
    Recorder recorder(agent.get());
    QCOMPARE(agent->prompt(QStringLiteral("first")), Agent::PromptResult::Started);
    QCOMPARE(agent->prompt(QStringLiteral("again")), Agent::PromptResult::Busy);
    QVERIFY(!agent->setMessages({}));
    QTRY_COMPARE(m_model->callCount(), 1);
    QCOMPARE(agent->prompt(QStringLiteral("again")), Agent::PromptResult::Busy);
    QVERIFY(!agent->waitForIdle(20));

    agent->abort();
    QVERIFY(agent->waitForIdle());
    QCOMPARE(recorder.count(AgentEvent::Type::AgentStart), 1);
    QCOMPARE(recorder.events.last().newMessages.last().stopReason, StopReason::Aborted);

    // The aborted run's token does not reach the next run.
    QCOMPARE(agent->prompt(QStringLiteral("second")), Agent::PromptResult::Started);
    QVERIFY(agent->waitForIdle());
    QCOMPARE(recorder.events.last().newMessages.last().text(), QStringLiteral("second"));
    QCOMPARE(recorder.count(AgentEvent::Type::AgentEnd), 2);
    QCOMPARE(recorder.log.count(QStringLiteral("busy")), 2);
    QCOMPARE(recorder.log.count(QStringLiteral("idle")), 2);
}

void tst_Agent::steerLandsBeforeNextModelCall()
{
    auto agent = makeAgent({ModelStep::toolCall(QStringLiteral("g1"),
                                                QStringLiteral("Gate"),
                                                pathArgs(QStringLiteral("loop.ts"))),
                            ModelStep::text(QStringLiteral("Editing index.ts."))});
    Recorder recorder(agent.get());
    agent->prompt(QStringLiteral("fix loop.ts"));
    QTRY_COMPARE(m_gate->entered(), 1);

    agent->steer(QStringLiteral("stop, edit index.ts instead"));
    QCOMPARE(texts(agent->steeringQueue()), QStringList{"stop, edit index.ts instead"});
    QTRY_COMPARE(recorder.queueChanges, 1);
    m_gate->open();
    QVERIFY(agent->waitForIdle());

    QCOMPARE(m_model->callCount(), 2);
    const QList<Message> second = m_model->contexts().at(1).messages;
    QCOMPARE(second.last().role, Message::Role::User);
    QCOMPARE(second.last().text(), QStringLiteral("stop, edit index.ts instead"));
    QCOMPARE(second.at(second.size() - 2).role, Message::Role::ToolResult);
    QVERIFY(agent->steeringQueue().isEmpty());
    QCOMPARE(recorder.queueChanges, 2); // queued, then taken by the loop
    QCOMPARE(texts(agent->messages()),
             (QStringList{"fix loop.ts",
                          "",
                          "opened",
                          "stop, edit index.ts instead",
                          "Editing index.ts."}));
    QCOMPARE(recorder.count(AgentEvent::Type::AgentEnd), 1);
}

void tst_Agent::followUpsRunAfterTheTask()
{
    auto agent = makeAgent({ModelStep::toolCall(QStringLiteral("g1"),
                                                QStringLiteral("Gate"),
                                                pathArgs(QStringLiteral("loop.ts"))),
                            ModelStep::text(QStringLiteral("Fixed.")),
                            ModelStep::text(QStringLiteral("Tests pass.")),
                            ModelStep::text(QStringLiteral("Committed."))});
    Recorder recorder(agent.get());
    agent->prompt(QStringLiteral("fix the bug"));
    QTRY_COMPARE(m_gate->entered(), 1);
    agent->followUp(QStringLiteral("then run the tests"));
    agent->followUp(QStringLiteral("then commit"));
    QCOMPARE(texts(agent->followUpQueue()), (QStringList{"then run the tests", "then commit"}));
    m_gate->open();
    QVERIFY(agent->waitForIdle());

    // The task ends first (no follow-up in its requests), then one follow-up per task.
    QCOMPARE(m_model->callCount(), 4);
    const QList<Context> contexts = m_model->contexts();
    QCOMPARE(texts(contexts.at(1).messages).last(), QStringLiteral("opened"));
    QCOMPARE(texts(contexts.at(2).messages).mid(3), (QStringList{"Fixed.", "then run the tests"}));
    QCOMPARE(texts(contexts.at(3).messages).mid(5), (QStringList{"Tests pass.", "then commit"}));
    QVERIFY(agent->followUpQueue().isEmpty());
    QCOMPARE(recorder.count(AgentEvent::Type::AgentStart), 1);
    QCOMPARE(recorder.count(AgentEvent::Type::AgentEnd), 1);
    QCOMPARE(agent->messages().last().text(), QStringLiteral("Committed."));
}

void tst_Agent::clearQueues()
{
    auto agent = makeAgent({ModelStep::toolCall(QStringLiteral("g1"),
                                                QStringLiteral("Gate"),
                                                pathArgs(QStringLiteral("loop.ts"))),
                            ModelStep::text(QStringLiteral("Done.")),
                            ModelStep::text(QStringLiteral("never asked"))});
    Recorder recorder(agent.get());
    agent->prompt(QStringLiteral("fix the bug"));
    QTRY_COMPARE(m_gate->entered(), 1);
    agent->steer(QStringLiteral("steer"));
    agent->followUp(QStringLiteral("follow"));
    QCOMPARE(agent->steeringQueue().size(), 1);
    QCOMPARE(agent->followUpQueue().size(), 1);
    agent->clearQueues();
    QVERIFY(agent->steeringQueue().isEmpty());
    QVERIFY(agent->followUpQueue().isEmpty());
    QTRY_VERIFY(recorder.queueChanges >= 1);
    m_gate->open();
    QVERIFY(agent->waitForIdle());

    QCOMPARE(m_model->callCount(), 2);
    QCOMPARE(texts(agent->messages()), (QStringList{"fix the bug", "", "opened", "Done."}));
}

void tst_Agent::abortWithToolIgnoringToken()
{
    auto agent = makeAgent({ModelStep::toolCall(QStringLiteral("s1"),
                                                QStringLiteral("Gate"),
                                                pathArgs(QStringLiteral("build.log")))});
    Recorder recorder(agent.get());
    agent->prompt(QStringLiteral("wait for the build"));
    QTRY_COMPARE(m_gate->entered(), 1); // sleeping 10 s, deaf to the token

    const qint64 abortedAtMs = recorder.clock.elapsed();
    agent->abort();
    QTRY_VERIFY_WITH_TIMEOUT(agent->isIdle(), 200);
    QVERIFY2(recorder.agentEndAtMs - abortedAtMs <= 100,
             qPrintable(QStringLiteral("agent_end %1 ms after abort()")
                            .arg(recorder.agentEndAtMs - abortedAtMs)));
    QVERIFY(recorder.idleAtMs - abortedAtMs <= 200);

    const QList<Message> added = recorder.events.last().newMessages;
    QCOMPARE(added.size(), 3);
    QCOMPARE(added.at(2).role, Message::Role::ToolResult);
    QCOMPARE(added.at(2).toolCallId, QStringLiteral("s1"));
    QVERIFY(added.at(2).isError);
    QCOMPARE(agent->messages(), added);
    QCOMPARE(recorder.count(AgentEvent::Type::ToolExecutionEnd), 1);
}

void tst_Agent::destroyMidRun_data()
{
    QTest::addColumn<QString>("when");
    QTest::newRow("right after prompt()") << QStringLiteral("queued");
    QTest::newRow("while the model streams") << QStringLiteral("model");
    QTest::newRow("while a tool ignores the token") << QStringLiteral("tool");
    QTest::newRow("by a handler of its own event") << QStringLiteral("handler");
}

void tst_Agent::destroyMidRun()
{
    QFETCH(QString, when);

    const ModelStep step = when == QLatin1String("model")
                               ? ModelStep::waitForAbort()
                               : ModelStep::toolCall(QStringLiteral("g1"),
                                                     QStringLiteral("Gate"),
                                                     pathArgs(QStringLiteral("x")));
    QPointer<Agent> agent = makeAgent({step}).release();
    const std::weak_ptr<ScriptedModel> model = m_model;
    m_model.reset();

    QObject receiver;
    int delivered = 0;
    QElapsedTimer clock;
    connect(agent, &Agent::eventEmitted, &receiver, [&](const AgentEvent &event) {
        ++delivered;
        if (when == QLatin1String("handler") && event.type == AgentEvent::Type::ToolExecutionStart) {
            clock.start();
            delete agent.data();
        }
    });
    connect(agent, &Agent::idleChanged, &receiver, [&](bool) { ++delivered; });

    agent->prompt(QStringLiteral("go"));
    if (when == QLatin1String("model"))
        QTRY_COMPARE(model.lock()->callCount(), 1);
    if (when == QLatin1String("tool"))
        QTRY_COMPARE(m_gate->entered(), 1);
    if (when == QLatin1String("handler")) {
        QTRY_VERIFY(!agent);
    } else {
        clock.start();
        delete agent.data();
    }
    QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed())));
    QVERIFY(!agent);
    // The worker released the model client on its thread before the Agent was gone.
    QVERIFY(model.expired());

    // Nothing queued by the worker reaches anyone after the Agent is gone.
    const int before = delivered;
    QTest::qWait(50);
    QCOMPARE(delivered, before);
}

void tst_Agent::messagesAfterTwoRuns()
{
    const QList<Message> history{Message::makeUser(QStringLiteral("earlier")), [] {
                                     Message reply;
                                     reply.role = Message::Role::Assistant;
                                     reply.content.append(
                                         ContentBlock::makeText(QStringLiteral("Hello.")));
                                     return reply;
                                 }()};
    auto agent = makeAgent({ModelStep::text(QStringLiteral("A.")),
                            ModelStep::toolCall(QStringLiteral("r1"),
                                                QStringLiteral("Read"),
                                                pathArgs(QStringLiteral("b.txt"))),
                            ModelStep::text(QStringLiteral("B."))},
                           {},
                           history);
    QCOMPARE(agent->messages(), history);

    agent->prompt(QStringLiteral("a"));
    QVERIFY(agent->waitForIdle());
    QCOMPARE(texts(agent->messages()), (QStringList{"earlier", "Hello.", "a", "A."}));

    agent->prompt(QStringLiteral("b"));
    QVERIFY(agent->waitForIdle());
    QCOMPARE(texts(agent->messages()),
             (QStringList{"earlier", "Hello.", "a", "A.", "b", "", "content of b.txt", "B."}));
    // The second run was sent the first one's messages.
    QCOMPARE(texts(m_model->contexts().at(1).messages),
             (QStringList{"earlier", "Hello.", "a", "A.", "b"}));

    QVERIFY(agent->setMessages(history));
    QCOMPARE(agent->messages(), history);
}

AGENTDESK_GUILESS_TEST_MAIN(tst_Agent)

} // namespace tst_agent

#include "tst_agent.moc"
