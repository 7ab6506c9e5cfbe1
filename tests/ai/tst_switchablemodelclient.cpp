#include <ai/switchablemodelclient.h>
#include <loop/agent.h>
#include <testmain.h>

#include "fixtures.h"
#include "httpclienttest.h"
#include "httptestserver.h"
#include "scriptedmodel.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

using namespace AgentCore;
using namespace TestSupport;

namespace tst_switchablemodelclient {

class tst_SwitchableModelClient : public QObject
{
    Q_OBJECT

private slots:
    void nextRequestUsesTheNewProvider();
    void switchesBetweenProviderAndClient();
    void unavailableEndsTheTaskWithTheReason();
    void pendingWaitsForTheModel();
    void stopWhilePending();

private:
    static std::unique_ptr<Agent> makeAgent(const std::shared_ptr<SwitchableModelClient> &model);
    static QString lastAssistantText(const Agent &agent);
};

std::unique_ptr<Agent> tst_SwitchableModelClient::makeAgent(
    const std::shared_ptr<SwitchableModelClient> &model)
{
    AgentConfig config;
    config.loop.model = model;
    config.systemPrompt = QStringLiteral("You are a test.");
    return std::make_unique<Agent>(std::move(config));
}

QString tst_SwitchableModelClient::lastAssistantText(const Agent &agent)
{
    const QList<Message> messages = agent.messages();
    for (auto it = messages.crbegin(); it != messages.crend(); ++it) {
        if (it->isAssistant())
            return it->text().isEmpty() ? it->errorMessage : it->text();
    }
    return {};
}

void tst_SwitchableModelClient::nextRequestUsesTheNewProvider()
{
    HttpTestServer server;
    QVERIFY(server.isListening());
    const QByteArray stream = readFixtureStream(QStringLiteral("anthropic"),
                                                QStringLiteral("sonnet45-text"));
    server.enqueue(ScriptedResponse::sse({stream}));
    server.enqueue(ScriptedResponse::sse({stream}));

    auto model = std::make_shared<SwitchableModelClient>();
    ProviderConfig config = httpClientConfig(QStringLiteral("anthropic"), server);
    config.model = QStringLiteral("claude-sonnet-4-5");
    model->setProvider(config);
    const auto agent = makeAgent(model);

    QCOMPARE(agent->prompt(QStringLiteral("first")), Agent::PromptResult::Started);
    QVERIFY(agent->waitForIdle());
    // Between turns the user picks another model and turns thinking on.
    config.model = QStringLiteral("claude-opus-4-1");
    config.thinkingBudget = 4096;
    model->setProvider(config);
    QCOMPARE(agent->prompt(QStringLiteral("second")), Agent::PromptResult::Started);
    QVERIFY(agent->waitForIdle());

    QCOMPARE(server.requests().size(), 2);
    const QJsonObject first = QJsonDocument::fromJson(server.requests().at(0).body).object();
    const QJsonObject second = QJsonDocument::fromJson(server.requests().at(1).body).object();
    QCOMPARE(first.value(u"model").toString(), QStringLiteral("claude-sonnet-4-5"));
    QVERIFY(!first.contains(u"thinking"));
    QCOMPARE(second.value(u"model").toString(), QStringLiteral("claude-opus-4-1"));
    QVERIFY(second.contains(u"thinking"));
}

void tst_SwitchableModelClient::switchesBetweenProviderAndClient()
{
    auto model = std::make_shared<SwitchableModelClient>();
    model->setClient(std::make_shared<ScriptedModel>(
        QList<ModelStep>{ModelStep::text(QStringLiteral("from the demo"))}));
    const auto agent = makeAgent(model);
    agent->prompt(QStringLiteral("hello"));
    QVERIFY(agent->waitForIdle());
    QCOMPARE(lastAssistantText(*agent), QStringLiteral("from the demo"));

    model->setClient(std::make_shared<ScriptedModel>(
        QList<ModelStep>{ModelStep::text(QStringLiteral("from the other one"))}));
    agent->prompt(QStringLiteral("again"));
    QVERIFY(agent->waitForIdle());
    QCOMPARE(lastAssistantText(*agent), QStringLiteral("from the other one"));
}

void tst_SwitchableModelClient::unavailableEndsTheTaskWithTheReason()
{
    auto model = std::make_shared<SwitchableModelClient>();
    model->setUnavailable(QStringLiteral("No API key for Anthropic: open Settings."));
    const auto agent = makeAgent(model);
    agent->prompt(QStringLiteral("hello"));
    QVERIFY(agent->waitForIdle());
    const Message last = agent->messages().constLast();
    QCOMPARE(last.stopReason, StopReason::Error);
    QCOMPARE(last.errorMessage, QStringLiteral("No API key for Anthropic: open Settings."));
}

void tst_SwitchableModelClient::pendingWaitsForTheModel()
{
    auto model = std::make_shared<SwitchableModelClient>(); // pending: the key is being read
    const auto agent = makeAgent(model);
    agent->prompt(QStringLiteral("hello"));
    QTest::qWait(100);
    QVERIFY(!agent->isIdle()); // waits, instead of failing without a key

    model->setClient(std::make_shared<ScriptedModel>(
        QList<ModelStep>{ModelStep::text(QStringLiteral("answered once the key was there"))}));
    QVERIFY(agent->waitForIdle());
    QCOMPARE(lastAssistantText(*agent), QStringLiteral("answered once the key was there"));
}

void tst_SwitchableModelClient::stopWhilePending()
{
    auto model = std::make_shared<SwitchableModelClient>();
    const auto agent = makeAgent(model);
    agent->prompt(QStringLiteral("hello"));
    QTest::qWait(50);
    QElapsedTimer clock;
    clock.start();
    agent->abort();
    QVERIFY(agent->waitForIdle(5'000));
    QVERIFY2(clock.elapsed() < 1'000, qPrintable(QString::number(clock.elapsed())));
    QCOMPARE(agent->messages().constLast().stopReason, StopReason::Aborted);
}

AGENTDESK_GUILESS_TEST_MAIN(tst_SwitchableModelClient)

} // namespace tst_switchablemodelclient

#include "tst_switchablemodelclient.moc"
