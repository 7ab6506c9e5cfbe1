#include <loop/agent.h>
#include <permissions/permissionpolicy.h>
#include <permissions/permissionsessionstate.h>
#include <session/sessionlog.h>
#include <session/sessionrecorder.h>
#include <session/sessionstore.h>
#include <testmain.h>

#include "scriptedmodel.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>
#include <QTimer>

using namespace AgentCore;
using namespace TestSupport;

namespace tst_sessionrecorder {

namespace {
// What the window gives its recorder: the policy's mode and session rules, as they are now.
SessionRecorder::StateSource permissionState(std::shared_ptr<PermissionPolicy> policy)
{
    return [policy = std::move(policy)] { return permissionSessionState(*policy); };
}
} // namespace

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
    void whatTheUserSawSurvivesAKill();
    void slowAnswerIsSavedByWhatIsNew();
    void interruption_data();
    void interruption();
    void resumedByItsOnlyWriterTheRunIsClosed();
    void aProcessKilledMidRunLeavesWhatItShowed();

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
        SessionRecorder recorder(setup.agent.get(), permissionState(setup.policy), path, {}, {});
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
                                                      permissionState(setup.policy),
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
        SessionRecorder recorder(setup.agent.get(), permissionState(setup.policy), path, {}, {});
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
    SessionRecorder::restore(contents->state, *resumed.agent);
    const QList<PermissionRule> unconfirmed = restorePermissionSessionState(contents->state,
                                                                            *resumed.policy,
                                                                            &warnings);
    QVERIFY(warnings.isEmpty());

    const QList<Message> queue = resumed.agent->followUpQueue();
    QCOMPARE(queue.size(), 2);
    QCOMPARE(queue.at(0).text(), QStringLiteral("then write the tests"));
    QCOMPARE(queue.at(1).text(), QStringLiteral("then update the docs"));
    QCOMPARE(resumed.policy->mode(), PermissionMode::AcceptEdits);
    // The file's allow rule is returned, not applied (issue #31: a file is not a grant), until
    // the user grants it.
    QVERIFY(resumed.policy->rules().isEmpty());
    QCOMPARE(unconfirmed.size(), 1);
    grantSessionRules(unconfirmed, *resumed.policy);
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
        SessionRecorder recorder(setup.agent.get(), permissionState(setup.policy), path, {}, {});
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
                                 permissionState(resumed.policy),
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
        SessionRecorder recorder(setup.agent.get(), permissionState(setup.policy), path, {}, {});
        setup.agent->prompt(QStringLiteral("Q1"));
        QVERIFY(setup.agent->waitForIdle());
    }
    QString error;
    auto contents = SessionLog::load(path, &error);
    Setup resumed = makeAgent({ModelStep::text(QStringLiteral("A2"))}, contents->messages);
    {
        SessionRecorder recorder(resumed.agent.get(),
                                 permissionState(resumed.policy),
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
        SessionRecorder recorder(setup.agent.get(), permissionState(setup.policy), path, {}, {});
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
                                 permissionState(resumed.policy),
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
    SessionRecorder recorder(setup.agent.get(), permissionState(setup.policy), path, {}, {});
    QSignalSpy failed(&recorder, &SessionRecorder::failed);
    setup.agent->prompt(QStringLiteral("Q1"));
    QVERIFY(setup.agent->waitForIdle());
    setup.agent->prompt(QStringLiteral("Q2"));
    QVERIFY(setup.agent->waitForIdle());
    QCOMPARE(failed.size(), 1);
    QVERIFY(failed.constFirst().constFirst().toString().contains(QStringLiteral("blocked.jsonl")));
    QCOMPARE(setup.agent->messages().size(), 4); // the conversation went on
}

// An answer that streams for seconds is saved every second, each time with only what is new:
// the file holds each word once while the whole answer so far comes back.
void tst_SessionRecorder::slowAnswerIsSavedByWhatIsNew()
{
    const QString path = m_dir.filePath(QStringLiteral("slow.jsonl"));
    const QString answer = QStringLiteral("Reading loop.ts first, then the log of the crash.");
    // 8 characters per piece, 500 ms apart; it hangs after the sixth piece (Start, TextStart,
    // then the deltas): at least two saves in between.
    Setup setup = makeAgent({ModelStep::text(answer).withChunkPause(500).stallingAfter(8)});
    SessionRecorder recorder(setup.agent.get(),
                             permissionState(setup.policy),
                             path,
                             SessionStore::newHeader(m_dir.path()),
                             QJsonObject{});
    setup.agent->prompt(QStringLiteral("fix the crash"));

    const QString shown = answer.left(48);
    QString error;
    std::optional<SessionLog::Contents> contents;
    QTRY_VERIFY_WITH_TIMEOUT((contents = SessionLog::load(path, &error)) && contents->partial
                                 && contents->partial->text() == shown,
                             10'000);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    QVERIFY2(bytes.count("\"type\":\"partial\"") >= 2, bytes.constData());
    QCOMPARE(bytes.count("Reading "), 1);
    setup.agent->abort();
    QVERIFY(setup.agent->waitForIdle());
}

void tst_SessionRecorder::whatTheUserSawSurvivesAKill()
{
    const QString path = m_dir.filePath(QStringLiteral("crash.jsonl"));
    // The answer streams its first words and then hangs: the moment of the crash.
    Setup setup = makeAgent(
        {ModelStep::text(QStringLiteral("Reading loop.ts first, then the log.")).stallingAfter(4)});
    auto recorder = std::make_unique<SessionRecorder>(setup.agent.get(),
                                                      permissionState(setup.policy),
                                                      path,
                                                      SessionStore::newHeader(m_dir.path()),
                                                      QJsonObject{});
    setup.agent->prompt(QStringLiteral("fix the crash"));

    // Never destroyed before the file is read: what SIGKILL leaves on disk at each moment.
    QString error;
    std::optional<SessionLog::Contents> contents;
    QTRY_VERIFY((contents = SessionLog::load(path, &error)) && contents->partial);
    // Accepted while the answer streams: shown as waiting, and on disk at once.
    setup.agent->steer(QStringLiteral("use index.ts instead"));
    setup.agent->followUp(QStringLiteral("then run the tests"));
    QTRY_VERIFY((contents = SessionLog::load(path, &error))
                && contents->state.value(u"steering").toArray().size() == 1);
    const QString shown = contents->partial->text();
    QVERIFY2(!shown.isEmpty()
                 && QStringLiteral("Reading loop.ts first, then the log.").startsWith(shown),
             qPrintable(shown));
    QCOMPARE(contents->state.value(u"runInProgress").toBool(), true);
    QCOMPARE(contents->state.value(u"steering").toArray().size(), 1);
    QCOMPARE(contents->state.value(u"followUps").toArray().size(), 1);

    // Resumed: the follow-up waits again, the steering (meant for the run that was cut off)
    // waits as not sent, and the answer is marked.
    Setup resumed = makeAgent({}, contents->messages);
    QStringList warnings;
    SessionRecorder::restore(contents->state, *resumed.agent);
    restorePermissionSessionState(contents->state, *resumed.policy, &warnings);
    QVERIFY(resumed.agent->steeringQueue().isEmpty());
    QCOMPARE(resumed.agent->leftoverSteering().size(), 1);
    QCOMPARE(resumed.agent->leftoverSteering().constFirst().text(),
             QStringLiteral("use index.ts instead"));
    QCOMPARE(resumed.agent->followUpQueue().constFirst().text(),
             QStringLiteral("then run the tests"));
    const QList<Message> repair = SessionRecorder::interruption(*contents);
    QCOMPARE(repair.size(), 1);
    QVERIFY(repair.constFirst().isAssistant());
    QCOMPARE(repair.constFirst().text(), shown);
    QCOMPARE(repair.constFirst().stopReason, StopReason::Error);
    QVERIFY(repair.constFirst().errorMessage.startsWith(QStringLiteral("Interrupted")));

    // The first agent is stopped after all: the partial answer ends as a message of its own.
    setup.agent->abort();
    QVERIFY(setup.agent->waitForIdle());
    contents = SessionLog::load(path, &error);
    QVERIFY(!contents->partial);
    QCOMPARE(contents->state.value(u"runInProgress").toBool(), false);
    recorder.reset();
}

void tst_SessionRecorder::interruption_data()
{
    QTest::addColumn<QList<Message>>("messages");
    QTest::addColumn<bool>("running");
    QTest::addColumn<QStringList>("expected"); // role:toolCallId or role:text start

    Message answer;
    answer.role = Message::Role::Assistant;
    answer.stopReason = StopReason::ToolUse;
    answer.content = {ContentBlock::makeText(QStringLiteral("Reading both.")),
                      ContentBlock::makeToolCall(QStringLiteral("c1"), QStringLiteral("Read"), {}),
                      ContentBlock::makeToolCall(QStringLiteral("c2"), QStringLiteral("Bash"), {})};
    const Message user = Message::makeUser(QStringLiteral("fix it"));
    const Message read = Message::makeToolResult(QStringLiteral("c1"),
                                                 QStringLiteral("Read"),
                                                 QStringLiteral("text"),
                                                 false);
    Message done;
    done.role = Message::Role::Assistant;
    done.content = {ContentBlock::makeText(QStringLiteral("Fixed."))};

    QTest::newRow("a call was running")
        << QList<Message>{user, answer, read} << true << QStringList{QStringLiteral("result:c2")};
    QTest::newRow("none had run") << QList<Message>{user, answer} << true
                                  << QStringList{QStringLiteral("result:c1"),
                                                 QStringLiteral("result:c2")};
    QTest::newRow("between turns") << QList<Message>{user,
                                                     answer,
                                                     read,
                                                     Message::makeToolResult(QStringLiteral("c2"),
                                                                             QStringLiteral("Bash"),
                                                                             QStringLiteral("ok"),
                                                                             false)}
                                   << true << QStringList{QStringLiteral("note")};
    QTest::newRow("ended") << QList<Message>{user, done} << false << QStringList{};
}

void tst_SessionRecorder::interruption()
{
    QFETCH(QList<Message>, messages);
    QFETCH(bool, running);
    QFETCH(QStringList, expected);
    SessionLog::Contents contents;
    contents.messages = messages;
    contents.state.insert(QStringLiteral("runInProgress"), running);
    QStringList got;
    for (const Message &message : SessionRecorder::interruption(contents)) {
        QVERIFY2(message.text().startsWith(QStringLiteral("Interrupted")),
                 qPrintable(message.text()));
        if (message.isToolResult()) {
            QVERIFY(message.isError); // the model must not take it for a success
            got.append(QStringLiteral("result:") + message.toolCallId);
        } else {
            QCOMPARE(message.role, Message::Role::Custom); // shown, and a reminder to the model
            got.append(QStringLiteral("note"));
        }
    }
    QCOMPARE(got, expected);
}

void tst_SessionRecorder::resumedByItsOnlyWriterTheRunIsClosed()
{
    const QString path = m_dir.filePath(QStringLiteral("closed.jsonl"));
    Message answer;
    answer.role = Message::Role::Assistant;
    answer.stopReason = StopReason::ToolUse;
    answer.content = {ContentBlock::makeToolCall(QStringLiteral("c1"), QStringLiteral("Bash"), {})};
    QString error;
    {
        auto log = SessionLog::open(path, SessionStore::newHeader(m_dir.path()), &error);
        QVERIFY(log->appendMessage(Message::makeUser(QStringLiteral("run it")), &error));
        QVERIFY(log->appendMessage(answer, &error));
        QVERIFY(log->appendState({{"runInProgress", true}}, &error));
    } // killed while Bash ran
    auto contents = SessionLog::load(path, &error);
    const QList<Message> repair = SessionRecorder::interruption(*contents);
    QCOMPARE(repair.size(), 1);

    Setup setup = makeAgent({ModelStep::text(QStringLiteral("I will check first."))},
                            contents->messages + repair);
    {
        SessionRecorder recorder(setup.agent.get(),
                                 permissionState(setup.policy),
                                 path,
                                 contents->header,
                                 contents->state);
        auto log = SessionLog::open(path, {}, &error);
        QVERIFY(log);
        recorder.adopt(std::move(log));
        recorder.record(repair);
        contents = SessionLog::load(path, &error);
        QCOMPARE(contents->messages.size(), 3);
        QCOMPARE(contents->state.value(u"runInProgress").toBool(), false);
        QVERIFY(SessionRecorder::interruption(*contents).isEmpty()); // closed once, not again

        // The model's context is consistent: the call has its (interrupted) result.
        setup.agent->prompt(QStringLiteral("did it finish?"));
        QVERIFY(setup.agent->waitForIdle());
        const QList<Message> sent = setup.model->contexts().constFirst().messages;
        QCOMPARE(sent.at(2).toolCallId, QStringLiteral("c1"));
        QVERIFY(sent.at(2).text().startsWith(QStringLiteral("Interrupted")));
    }
    contents = SessionLog::load(path, &error);
    QCOMPARE(contents->messages.size(), 5);
}

// The child of aProcessKilledMidRunLeavesWhatItShowed: a run whose answer streams a few
// words and hangs, with a steering message and a follow-up accepted meanwhile. Says "ready"
// once all of it is in the file, then waits to be killed.
int runUntilKilled(const QString &path)
{
    auto model = std::make_shared<ScriptedModel>(QList<ModelStep>{
        ModelStep::text(QStringLiteral("Reading loop.ts first, then the log.")).stallingAfter(4)});
    auto policy = std::make_shared<PermissionPolicy>(QFileInfo(path).absolutePath(),
                                                     PermissionMode::Default);
    AgentConfig config;
    config.loop.model = model;
    Agent agent(std::move(config));
    SessionRecorder recorder(&agent,
                             permissionState(policy),
                             path,
                             SessionStore::newHeader(QStringLiteral("/r")),
                             {});
    agent.prompt(QStringLiteral("fix the crash"));
    QTimer poll;
    bool steered = false;
    QObject::connect(&poll, &QTimer::timeout, [&] {
        QString error;
        const auto contents = SessionLog::load(path, &error);
        if (!contents || !contents->partial)
            return;
        if (!steered) {
            agent.steer(QStringLiteral("use index.ts instead"));
            agent.followUp(QStringLiteral("then run the tests"));
            steered = true;
        } else if (contents->state.value(u"followUps").toArray().size() == 1) {
            poll.stop();
            QTextStream(stdout) << "ready" << Qt::endl;
        }
    });
    poll.start(20);
    return QCoreApplication::exec();
}

void tst_SessionRecorder::aProcessKilledMidRunLeavesWhatItShowed()
{
    const QString path = m_dir.filePath(QStringLiteral("sigkill.jsonl"));
    QProcess child;
    child.start(QCoreApplication::applicationFilePath(),
                TestSupport::thisTestWith({QStringLiteral("--run-until-killed"), path}));
    QVERIFY(child.waitForReadyRead(30'000));
    QCOMPARE(child.readLine().trimmed(), QByteArray("ready"));
    child.kill(); // SIGKILL: no destructor, no last state
    QVERIFY(child.waitForFinished(30'000));

    QString error;
    const auto contents = SessionLog::load(path, &error);
    QVERIFY2(contents, qPrintable(error));
    QCOMPARE(contents->messages.size(), 1); // the task
    QCOMPARE(contents->state.value(u"runInProgress").toBool(), true);
    QCOMPARE(contents->state.value(u"steering").toArray().size(), 1);
    QCOMPARE(contents->state.value(u"followUps").toArray().size(), 1);
    QVERIFY(contents->partial);
    QVERIFY(QStringLiteral("Reading loop.ts first, then the log.")
                .startsWith(contents->partial->text()));
    const QList<Message> repair = SessionRecorder::interruption(*contents);
    QCOMPARE(repair.size(), 1);
    QCOMPARE(repair.constFirst().text(), contents->partial->text());
    // The dead process's lock is left behind, and taken over.
    QVERIFY(QFile::exists(path + QStringLiteral(".lock")));
    QVERIFY(!SessionLog::isBusy(path));
    QVERIFY2(SessionLog::open(path, {}, &error), qPrintable(error));
}

static int sessionRecorderMain(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc == 3 && qstrcmp(argv[1], "--run-until-killed") == 0)
        return runUntilKilled(QString::fromLocal8Bit(argv[2]));
    tst_SessionRecorder test;
    return QTest::qExec(&test, argc, argv);
}

AGENTDESK_TEST_ENTRY(sessionRecorderMain)

} // namespace tst_sessionrecorder

#include "tst_sessionrecorder.moc"
