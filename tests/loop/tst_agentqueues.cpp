// The follow-up queue as the user edits it: replaced, paused and resumed, a follow-up sent now.
// A gate tool keeps the run busy while the test changes the queue; the model is scripted.
#include <loop/agent.h>
#include <testmain.h>

#include <scriptedmodel.h>
#include <testtools.h>

#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>

#include <atomic>
#include <memory>

using namespace AgentCore;
namespace tst_agentqueues {

using TestSupport::FunctionTool;
using TestSupport::ModelStep;
using TestSupport::ScriptedModel;

namespace {

QStringList texts(const QList<Message> &messages)
{
    QStringList out;
    for (const Message &message : messages)
        out.append(message.text());
    return out;
}

QList<Message> users(const QStringList &texts)
{
    QList<Message> out;
    for (const QString &text : texts)
        out.append(Message::makeUser(text));
    return out;
}

ModelStep gateCall()
{
    return ModelStep::toolCall(QStringLiteral("g1"),
                               QStringLiteral("Gate"),
                               {{QStringLiteral("path"), QStringLiteral("build.log")}});
}

/// The last user message of each model call: what every request was answering.
QStringList askedFor(const ScriptedModel &model)
{
    QStringList out;
    for (const Context &context : model.contexts()) {
        for (auto it = context.messages.crbegin(); it != context.messages.crend(); ++it) {
            if (it->role == Message::Role::User) {
                out.append(it->text());
                break;
            }
        }
    }
    return out;
}

} // namespace

class tst_AgentQueues : public QObject
{
    Q_OBJECT

private slots:
    void cleanup();

    void setFollowUpQueueReplaces();
    void pauseEndsTheTaskAndKeepsTheQueue();
    void resumeWhileIdleStartsTheNextFollowUp();
    void resumeWhileIdleWithEmptyQueueStaysIdle();
    void resumeMidRunTakesFollowUps();
    void sendNowWhileRunningSteers();
    void sendNowWhilePausedStillSteers();
    void sendNowWhileIdleStarts();
    void sendNowOutOfRange_data();
    void sendNowOutOfRange();

private:
    std::unique_ptr<Agent> makeAgent(const QList<ModelStep> &steps);
    /// Starts a run that waits in the gate tool.
    void startGatedRun(Agent &agent);
    void openGate() { m_gate->release(); }

    std::shared_ptr<ScriptedModel> m_model;
    std::shared_ptr<QSemaphore> m_gate = std::make_shared<QSemaphore>();
    std::shared_ptr<std::atomic_int> m_entered = std::make_shared<std::atomic_int>(0);
};

std::unique_ptr<Agent> tst_AgentQueues::makeAgent(const QList<ModelStep> &steps)
{
    m_model = std::make_shared<ScriptedModel>(steps);
    AgentConfig config;
    config.loop.model = m_model;
    config.systemPrompt = QStringLiteral("You are a test.");
    const std::shared_ptr<QSemaphore> gate = m_gate;
    const std::shared_ptr<std::atomic_int> entered = m_entered;
    config.tools = {FunctionTool::make(QStringLiteral("Gate"),
                                       {QStringLiteral("path")},
                                       ExecutionMode::Sequential,
                                       [gate, entered](const ToolCallContext &) {
                                           ++*entered;
                                           const bool opened = gate->tryAcquire(1, 10'000);
                                           return ToolResult::makeText(
                                               opened ? QStringLiteral("opened")
                                                      : QStringLiteral("slept"));
                                       })};
    return std::make_unique<Agent>(std::move(config));
}

void tst_AgentQueues::startGatedRun(Agent &agent)
{
    const int before = m_entered->load();
    QCOMPARE(agent.prompt(QStringLiteral("fix the bug")), Agent::PromptResult::Started);
    QTRY_COMPARE(m_entered->load(), before + 1);
}

void tst_AgentQueues::cleanup()
{
    m_gate->release(16); // a tool left waiting must not outlive the test
    m_gate = std::make_shared<QSemaphore>();
    m_entered = std::make_shared<std::atomic_int>(0);
    m_model.reset();
}

void tst_AgentQueues::setFollowUpQueueReplaces()
{
    auto agent = makeAgent({gateCall(),
                            ModelStep::text(QStringLiteral("Fixed.")),
                            ModelStep::text(QStringLiteral("Committed.")),
                            ModelStep::text(QStringLiteral("Tested.")),
                            ModelStep::text(QStringLiteral("never asked"))});
    startGatedRun(*agent);
    agent->followUp(QStringLiteral("run the tests"));
    agent->followUp(QStringLiteral("update the changelog"));
    agent->followUp(QStringLiteral("commit"));
    QSignalSpy changed(agent.get(), &Agent::queuesChanged);

    // The user moved "commit" up, deleted the changelog and reworded the tests.
    agent->setFollowUpQueue(users({"commit", "run the unit tests"}));
    QCOMPARE(texts(agent->followUpQueue()), (QStringList{"commit", "run the unit tests"}));
    QTRY_VERIFY(changed.count() >= 1);
    openGate();
    QVERIFY(agent->waitForIdle());

    QCOMPARE(askedFor(*m_model),
             (QStringList{"fix the bug", "fix the bug", "commit", "run the unit tests"}));
    QVERIFY(agent->followUpQueue().isEmpty());
}

void tst_AgentQueues::pauseEndsTheTaskAndKeepsTheQueue()
{
    auto agent = makeAgent({gateCall(),
                            ModelStep::text(QStringLiteral("Fixed.")),
                            ModelStep::text(QStringLiteral("never asked"))});
    startGatedRun(*agent);
    agent->followUp(QStringLiteral("run the tests"));
    agent->followUp(QStringLiteral("commit"));
    agent->setFollowUpsPaused(true);
    QVERIFY(agent->followUpsPaused());
    openGate();
    QVERIFY(agent->waitForIdle());

    QCOMPARE(m_model->callCount(), 2);
    QCOMPARE(texts(agent->followUpQueue()), (QStringList{"run the tests", "commit"}));
    QCOMPARE(agent->messages().last().text(), QStringLiteral("Fixed."));
    QVERIFY(agent->isIdle());
}

void tst_AgentQueues::resumeWhileIdleStartsTheNextFollowUp()
{
    auto agent = makeAgent({ModelStep::text(QStringLiteral("Fixed.")),
                            ModelStep::text(QStringLiteral("Tested.")),
                            ModelStep::text(QStringLiteral("Committed."))});
    agent->setFollowUpsPaused(true);
    QCOMPARE(agent->prompt(QStringLiteral("fix the bug")), Agent::PromptResult::Started);
    agent->followUp(QStringLiteral("run the tests"));
    agent->followUp(QStringLiteral("commit"));
    QVERIFY(agent->waitForIdle());
    QCOMPARE(m_model->callCount(), 1);

    QSignalSpy idle(agent.get(), &Agent::idleChanged);
    agent->setFollowUpsPaused(false);
    QVERIFY(!agent->isIdle());
    QCOMPARE(idle.count(), 1);
    QCOMPARE(idle.first().first().toBool(), false);
    QVERIFY(agent->waitForIdle());

    // One new run: the first follow-up as its prompt, the loop takes the second.
    QCOMPARE(askedFor(*m_model), (QStringList{"fix the bug", "run the tests", "commit"}));
    QVERIFY(agent->followUpQueue().isEmpty());
    QCOMPARE(agent->messages().last().text(), QStringLiteral("Committed."));
}

void tst_AgentQueues::resumeWhileIdleWithEmptyQueueStaysIdle()
{
    auto agent = makeAgent({ModelStep::text(QStringLiteral("never asked"))});
    QSignalSpy idle(agent.get(), &Agent::idleChanged);
    agent->setFollowUpsPaused(true);
    agent->setFollowUpsPaused(false);
    QVERIFY(!agent->followUpsPaused());
    QVERIFY(agent->isIdle());
    QCOMPARE(idle.count(), 0);
    QCOMPARE(m_model->callCount(), 0);
}

void tst_AgentQueues::resumeMidRunTakesFollowUps()
{
    auto agent = makeAgent({gateCall(),
                            ModelStep::text(QStringLiteral("Fixed.")),
                            ModelStep::text(QStringLiteral("Tested."))});
    agent->setFollowUpsPaused(true);
    startGatedRun(*agent);
    agent->followUp(QStringLiteral("run the tests"));
    agent->setFollowUpsPaused(false);
    QVERIFY(!agent->isIdle());
    openGate();
    QVERIFY(agent->waitForIdle());

    QCOMPARE(askedFor(*m_model), (QStringList{"fix the bug", "fix the bug", "run the tests"}));
    QVERIFY(agent->followUpQueue().isEmpty());
}

void tst_AgentQueues::sendNowWhileRunningSteers()
{
    auto agent = makeAgent({gateCall(),
                            ModelStep::text(QStringLiteral("Using the other file.")),
                            ModelStep::text(QStringLiteral("Tested."))});
    startGatedRun(*agent);
    agent->followUp(QStringLiteral("run the tests"));
    agent->followUp(QStringLiteral("edit index.ts instead"));
    QSignalSpy changed(agent.get(), &Agent::queuesChanged);

    QVERIFY(agent->sendNow(1));
    QCOMPARE(texts(agent->followUpQueue()), QStringList{"run the tests"});
    QCOMPARE(texts(agent->steeringQueue()), QStringList{"edit index.ts instead"});
    QTRY_VERIFY(changed.count() >= 1);
    openGate();
    QVERIFY(agent->waitForIdle());

    // Steered into the task (right after the tool result), then the follow-up as its own task.
    const QList<Message> second = m_model->contexts().at(1).messages;
    QCOMPARE(second.at(second.size() - 2).role, Message::Role::ToolResult);
    QCOMPARE(second.last().text(), QStringLiteral("edit index.ts instead"));
    QCOMPARE(askedFor(*m_model),
             (QStringList{"fix the bug", "edit index.ts instead", "run the tests"}));
    QVERIFY(agent->steeringQueue().isEmpty());
    QVERIFY(agent->followUpQueue().isEmpty());
}

void tst_AgentQueues::sendNowWhilePausedStillSteers()
{
    auto agent = makeAgent({gateCall(),
                            ModelStep::text(QStringLiteral("Using the other file.")),
                            ModelStep::text(QStringLiteral("never asked"))});
    startGatedRun(*agent);
    agent->followUp(QStringLiteral("edit index.ts instead"));
    agent->followUp(QStringLiteral("run the tests"));
    agent->setFollowUpsPaused(true);
    QVERIFY(agent->sendNow(0));
    openGate();
    QVERIFY(agent->waitForIdle());

    QCOMPARE(askedFor(*m_model), (QStringList{"fix the bug", "edit index.ts instead"}));
    QCOMPARE(texts(agent->followUpQueue()), QStringList{"run the tests"});
}

void tst_AgentQueues::sendNowWhileIdleStarts()
{
    auto agent = makeAgent({ModelStep::text(QStringLiteral("Committed.")),
                            ModelStep::text(QStringLiteral("never asked"))});
    agent->followUp(QStringLiteral("run the tests"));
    agent->followUp(QStringLiteral("commit"));
    QVERIFY(agent->isIdle()); // queued while idle: waits

    QSignalSpy idle(agent.get(), &Agent::idleChanged);
    agent->setFollowUpsPaused(true); // else the loop would take "run the tests" after it
    QVERIFY(agent->sendNow(1));
    QCOMPARE(idle.count(), 1);
    QVERIFY(!agent->isIdle());
    QCOMPARE(texts(agent->followUpQueue()), QStringList{"run the tests"});
    QVERIFY(agent->steeringQueue().isEmpty());
    QVERIFY(agent->waitForIdle());

    QCOMPARE(askedFor(*m_model), QStringList{"commit"});
    QCOMPARE(texts(agent->messages()), (QStringList{"commit", "Committed."}));
}

void tst_AgentQueues::sendNowOutOfRange_data()
{
    QTest::addColumn<int>("index");
    QTest::newRow("negative") << -1;
    QTest::newRow("one past the end") << 2;
}

void tst_AgentQueues::sendNowOutOfRange()
{
    QFETCH(int, index);
    auto agent = makeAgent({ModelStep::text(QStringLiteral("never asked"))});
    agent->followUp(QStringLiteral("run the tests"));
    agent->followUp(QStringLiteral("commit"));
    QVERIFY(!agent->sendNow(index));
    QCOMPARE(texts(agent->followUpQueue()), (QStringList{"run the tests", "commit"}));
    QVERIFY(agent->isIdle());
    QCOMPARE(m_model->callCount(), 0);
}

AGENTDESK_GUILESS_TEST_MAIN(tst_AgentQueues)

} // namespace tst_agentqueues

#include "tst_agentqueues.moc"
