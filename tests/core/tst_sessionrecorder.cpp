#include <core/agent.h>
#include <core/sessionlog.h>
#include <core/sessionrecorder.h>
#include <core/sessionstore.h>
#include <permissions/permissionpolicy.h>

#include "scriptedmodel.h"

#include <QFile>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace AgentCore;
using namespace TestSupport;

class tst_SessionRecorder : public QObject
{
    Q_OBJECT

private slots:
    void noFileBeforeTheFirstMessage();
    void messagesAreOnDiskWithoutAClose();
    void queueModeAndRulesSurviveARestart();
    void windowKeysAreKeptAndWritten();
    void resumedSessionAppendsOnlyNewMessages();
    void tornLastLineThenResume();
    void unwritableFileIsReportedOnce();

private:
    struct Setup
    {
        std::shared_ptr<ScriptedModel> model;
        std::shared_ptr<PermissionPolicy> policy;
        std::unique_ptr<Agent> agent;
    };
    Setup makeAgent(const QList<ModelStep> &steps, const QList<Message> &history = {});

    QTemporaryDir m_dir;
};

tst_SessionRecorder::Setup tst_SessionRecorder::makeAgent(const QList<ModelStep> &steps,
                                                          const QList<Message> &history)
{
    Setup setup;
    setup.model = std::make_shared<ScriptedModel>(steps);
    setup.policy = std::make_shared<PermissionPolicy>(m_dir.path(), PermissionMode::Default);
    AgentConfig config;
    config.loop.model = setup.model;
    config.systemPrompt = QStringLiteral("You are a test.");
    config.history = history;
    setup.agent = std::make_unique<Agent>(std::move(config));
    return setup;
}

void tst_SessionRecorder::noFileBeforeTheFirstMessage()
{
    const QString path = m_dir.filePath(QStringLiteral("empty.jsonl"));
    Setup setup = makeAgent({});
    {
        SessionRecorder recorder(setup.agent.get(), setup.policy, path, {}, {});
        recorder.setStateValue(QStringLiteral("title"), QStringLiteral("nothing yet"));
    }
    QVERIFY(!QFile::exists(path)); // opening and closing a window leaves nothing behind
}

void tst_SessionRecorder::messagesAreOnDiskWithoutAClose()
{
    const QString path = m_dir.filePath(QStringLiteral("killed.jsonl"));
    Setup setup = makeAgent({ModelStep::text(QStringLiteral("First answer.")),
                             ModelStep::text(QStringLiteral("Second answer."))});
    // Never destroyed before the file is read: what SIGKILL between turns leaves on disk.
    auto recorder = std::make_unique<SessionRecorder>(setup.agent.get(),
                                                      setup.policy,
                                                      path,
                                                      SessionStore::newHeader(m_dir.path()),
                                                      QJsonObject{});
    setup.agent->prompt(QStringLiteral("one"));
    QVERIFY(setup.agent->waitForIdle());
    setup.agent->prompt(QStringLiteral("two"));
    QVERIFY(setup.agent->waitForIdle());

    QString error;
    const auto contents = SessionLog::load(path, &error);
    QVERIFY2(contents, qPrintable(error));
    QCOMPARE(contents->messages.size(), 4);
    QCOMPARE(contents->messages.at(0).text(), QStringLiteral("one"));
    QCOMPARE(contents->messages.at(3).text(), QStringLiteral("Second answer."));
    QVERIFY(contents->warnings.isEmpty());
    QCOMPARE(contents->header.value(u"repository").toString(), m_dir.path());
}

void tst_SessionRecorder::queueModeAndRulesSurviveARestart()
{
    const QString path = m_dir.filePath(QStringLiteral("restart.jsonl"));
    {
        Setup setup = makeAgent({ModelStep::text(QStringLiteral("Done."))});
        SessionRecorder recorder(setup.agent.get(), setup.policy, path, {}, {});
        setup.agent->prompt(QStringLiteral("task"));
        QVERIFY(setup.agent->waitForIdle());
        setup.agent->setFollowUpsPaused(true);
        setup.agent->followUp(QStringLiteral("then write the tests"));
        setup.agent->followUp(QStringLiteral("then update the docs"));
        setup.policy->setMode(PermissionMode::AcceptEdits);
        PermissionRule rule = *PermissionRule::parse(QStringLiteral("Bash(npm test:*)"),
                                                     PermissionBehavior::Allow);
        rule.source = QStringLiteral("session");
        setup.policy->addRule(rule);
        recorder.refreshState();
    }

    QString error;
    const auto contents = SessionLog::load(path, &error);
    QVERIFY2(contents, qPrintable(error));
    Setup resumed = makeAgent({}, contents->messages);
    QStringList warnings;
    SessionRecorder::restore(contents->state, *resumed.agent, *resumed.policy, &warnings);
    QVERIFY(warnings.isEmpty());

    const QList<Message> queue = resumed.agent->followUpQueue();
    QCOMPARE(queue.size(), 2);
    QCOMPARE(queue.at(0).text(), QStringLiteral("then write the tests"));
    QCOMPARE(queue.at(1).text(), QStringLiteral("then update the docs"));
    QCOMPARE(resumed.policy->mode(), PermissionMode::AcceptEdits);
    const QList<PermissionRule> rules = resumed.policy->rules();
    QCOMPARE(rules.size(), 1);
    QCOMPARE(rules.constFirst().toString(), QStringLiteral("Bash(npm test:*)"));
    QCOMPARE(rules.constFirst().behavior, PermissionBehavior::Allow);
    QCOMPARE(resumed.agent->messages().size(), 2);
}

void tst_SessionRecorder::windowKeysAreKeptAndWritten()
{
    const QString path = m_dir.filePath(QStringLiteral("keys.jsonl"));
    const QJsonObject model{{QStringLiteral("model"), QStringLiteral("gpt-5")}};
    {
        Setup setup = makeAgent({ModelStep::text(QStringLiteral("Done."))});
        SessionRecorder recorder(setup.agent.get(), setup.policy, path, {}, {});
        recorder.setStateValue(QStringLiteral("model"), model);
        setup.agent->prompt(QStringLiteral("task"));
        QVERIFY(setup.agent->waitForIdle());
        recorder.setStateValue(QStringLiteral("title"), QStringLiteral("Renamed"));
    }
    QString error;
    auto contents = SessionLog::load(path, &error);
    QVERIFY2(contents, qPrintable(error));
    QCOMPARE(contents->state.value(u"model").toObject(), model);
    QCOMPARE(contents->state.value(u"title").toString(), QStringLiteral("Renamed"));
    QCOMPARE(SessionStore::describe(path).title, QStringLiteral("Renamed"));

    // Resumed: the window's keys come back and stay when the recorder writes again.
    Setup resumed = makeAgent({ModelStep::text(QStringLiteral("Again."))}, contents->messages);
    {
        SessionRecorder recorder(resumed.agent.get(),
                                 resumed.policy,
                                 path,
                                 contents->header,
                                 contents->state);
        resumed.agent->prompt(QStringLiteral("more"));
        QVERIFY(resumed.agent->waitForIdle());
    }
    contents = SessionLog::load(path, &error);
    QCOMPARE(contents->state.value(u"title").toString(), QStringLiteral("Renamed"));
    QCOMPARE(contents->state.value(u"model").toObject(), model);
}

void tst_SessionRecorder::resumedSessionAppendsOnlyNewMessages()
{
    const QString path = m_dir.filePath(QStringLiteral("resume.jsonl"));
    {
        Setup setup = makeAgent({ModelStep::text(QStringLiteral("A1"))});
        SessionRecorder recorder(setup.agent.get(), setup.policy, path, {}, {});
        setup.agent->prompt(QStringLiteral("Q1"));
        QVERIFY(setup.agent->waitForIdle());
    }
    QString error;
    auto contents = SessionLog::load(path, &error);
    Setup resumed = makeAgent({ModelStep::text(QStringLiteral("A2"))}, contents->messages);
    {
        SessionRecorder recorder(resumed.agent.get(),
                                 resumed.policy,
                                 path,
                                 contents->header,
                                 contents->state);
        resumed.agent->prompt(QStringLiteral("Q2"));
        QVERIFY(resumed.agent->waitForIdle());
        // The model saw the whole conversation.
        QCOMPARE(resumed.model->contexts().constFirst().messages.size(), 3);
    }
    contents = SessionLog::load(path, &error);
    QStringList texts;
    for (const Message &message : std::as_const(contents->messages))
        texts.append(message.text());
    QCOMPARE(texts, (QStringList{"Q1", "A1", "Q2", "A2"}));
    QCOMPARE(SessionStore::describe(path).messageCount, 4);
    QCOMPARE(SessionStore::describe(path).title, QStringLiteral("Q1"));
}

void tst_SessionRecorder::tornLastLineThenResume()
{
    const QString path = m_dir.filePath(QStringLiteral("torn.jsonl"));
    {
        Setup setup = makeAgent({ModelStep::text(QStringLiteral("A1"))});
        SessionRecorder recorder(setup.agent.get(), setup.policy, path, {}, {});
        setup.agent->prompt(QStringLiteral("Q1"));
        QVERIFY(setup.agent->waitForIdle());
    }
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::Append));
        file.write(R"({"message":{"role":"assistant","content":[{"type":"text","text":"half)");
    }
    QString error;
    auto contents = SessionLog::load(path, &error);
    QVERIFY2(contents, qPrintable(error));
    QCOMPARE(contents->messages.size(), 2);
    QCOMPARE(contents->warnings.size(), 1);

    Setup resumed = makeAgent({ModelStep::text(QStringLiteral("A2"))}, contents->messages);
    {
        SessionRecorder recorder(resumed.agent.get(),
                                 resumed.policy,
                                 path,
                                 contents->header,
                                 contents->state);
        resumed.agent->prompt(QStringLiteral("Q2"));
        QVERIFY(resumed.agent->waitForIdle());
    }
    contents = SessionLog::load(path, &error);
    QCOMPARE(contents->messages.size(), 4);
    QCOMPARE(contents->messages.constLast().text(), QStringLiteral("A2"));
    QCOMPARE(contents->warnings.size(), 1); // the torn line stays one skipped line
}

void tst_SessionRecorder::unwritableFileIsReportedOnce()
{
    // A directory where the file should be: every open fails.
    const QString path = m_dir.filePath(QStringLiteral("blocked.jsonl"));
    QVERIFY(QDir().mkpath(path));
    Setup setup = makeAgent(
        {ModelStep::text(QStringLiteral("A1")), ModelStep::text(QStringLiteral("A2"))});
    SessionRecorder recorder(setup.agent.get(), setup.policy, path, {}, {});
    QSignalSpy failed(&recorder, &SessionRecorder::failed);
    setup.agent->prompt(QStringLiteral("Q1"));
    QVERIFY(setup.agent->waitForIdle());
    setup.agent->prompt(QStringLiteral("Q2"));
    QVERIFY(setup.agent->waitForIdle());
    QCOMPARE(failed.size(), 1);
    QVERIFY(failed.constFirst().constFirst().toString().contains(QStringLiteral("blocked.jsonl")));
    QCOMPARE(setup.agent->messages().size(), 4); // the conversation went on
}

QTEST_GUILESS_MAIN(tst_SessionRecorder)
#include "tst_sessionrecorder.moc"
