// A reply that wrote its tool calls as text is withdrawn and retried, but the provider billed
// it: its usage travels on the message that replaced it (Message::discardedUsage), into the
// session file and back.
#include <loop/agent.h>
#include <loop/agentloop.h>
#include <session/sessionlog.h>
#include <session/sessionrecorder.h>
#include <session/sessionstore.h>
#include <testmain.h>

#include <scriptedmodel.h>

#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace AgentCore;
namespace tst_discardedusage {

using TestSupport::ModelStep;
using TestSupport::ScriptedModel;

namespace {

Usage usage(qint64 input, qint64 output, double cost)
{
    Usage out;
    out.input = input;
    out.output = output;
    out.cost = cost;
    return out;
}

ModelStep billed(ModelStep step, const Usage &used)
{
    step.message.usage = used;
    return step;
}

const Usage violationUsage = usage(1'200, 80, 0.0048);
const Usage answerUsage = usage(1'300, 40, 0.0045);

} // namespace

class tst_DiscardedUsage : public QObject
{
    Q_OBJECT

private slots:
    void retriedAnswerCarriesTheWithdrawnAttemptsUsage_data();
    void retriedAnswerCarriesTheWithdrawnAttemptsUsage();
    void answerWithoutRetryCarriesNone();
    void sessionFileKeepsIt();

private:
    QTemporaryDir m_dir;
};

void tst_DiscardedUsage::retriedAnswerCarriesTheWithdrawnAttemptsUsage_data()
{
    QTest::addColumn<bool>("streamed");
    QTest::newRow("draft shown, then discarded") << true;
    QTest::newRow("failed before the first byte") << false;
}

void tst_DiscardedUsage::retriedAnswerCarriesTheWithdrawnAttemptsUsage()
{
    QFETCH(bool, streamed);
    ModelStep violation = billed(ModelStep::fakeToolCall(), violationUsage);
    if (!streamed)
        violation.silently();
    auto model = std::make_shared<ScriptedModel>(
        QList{violation, billed(ModelStep::text(QStringLiteral("done")), answerUsage)});
    AgentLoopConfig config;
    config.model = model;
    QList<Message> ends;
    const QList<Message> newMessages
        = agentLoop({Message::makeUser(QStringLiteral("read loop.ts"))},
                    AgentContext{QStringLiteral("You are a test."), {}, {}},
                    config,
                    AbortToken(),
                    [&ends](const AgentEvent &event) {
                        if (event.type == AgentEvent::Type::MessageEnd
                            && event.message.isAssistant())
                            ends.append(event.message);
                    });

    QCOMPARE(model->callCount(), 2);
    QCOMPARE(newMessages.size(), 2);
    const Message &answer = newMessages.last();
    QCOMPARE(answer.text(), QStringLiteral("done"));
    QCOMPARE(answer.usage, answerUsage); // the context the next request carries
    QCOMPARE(answer.discardedUsage, violationUsage);
    // message_end carries it: what the window counts.
    QCOMPARE(ends.size(), 1);
    QCOMPARE(ends.constFirst().discardedUsage, violationUsage);
}

void tst_DiscardedUsage::answerWithoutRetryCarriesNone()
{
    auto model = std::make_shared<ScriptedModel>(
        QList{billed(ModelStep::text(QStringLiteral("done")), answerUsage)});
    AgentLoopConfig config;
    config.model = model;
    const QList<Message> newMessages = agentLoop({Message::makeUser(QStringLiteral("hi"))},
                                                 AgentContext{},
                                                 config,
                                                 AbortToken(),
                                                 {});
    QCOMPARE(newMessages.last().discardedUsage, Usage());
}

void tst_DiscardedUsage::sessionFileKeepsIt()
{
    const QString path = m_dir.filePath(QStringLiteral("retried.jsonl"));
    auto model = std::make_shared<ScriptedModel>(
        QList{billed(ModelStep::fakeToolCall(), violationUsage),
              billed(ModelStep::text(QStringLiteral("done")), answerUsage)});
    AgentConfig config;
    config.loop.model = model;
    Agent agent(std::move(config));
    {
        SessionRecorder recorder(&agent,
                                 SessionRecorder::StateSource(),
                                 path,
                                 SessionStore::newHeader(m_dir.path()),
                                 QJsonObject{});
        agent.prompt(QStringLiteral("read loop.ts"));
        QVERIFY(agent.waitForIdle());
    }
    QString error;
    const std::optional<SessionLog::Contents> contents = SessionLog::load(path, &error);
    QVERIFY2(contents, qPrintable(error));
    QCOMPARE(contents->messages.size(), 2);
    QCOMPARE(contents->messages.last().usage, answerUsage);
    QCOMPARE(contents->messages.last().discardedUsage, violationUsage);
    QVERIFY(!contents->partial); // the withdrawn draft left nothing behind
}

AGENTDESK_GUILESS_TEST_MAIN(tst_DiscardedUsage)

} // namespace tst_discardedusage

#include "tst_discardedusage.moc"
