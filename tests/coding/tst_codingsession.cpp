// CodingSession, the application layer under the window and the headless run: opening (the
// assembly off this thread), resuming, sending, steering, following up, stopping, rewinding,
// compacting, the signals for changed files and checkpoints, session rules waiting for the
// user, and the defaults every front end gets. A real git repository in a temporary folder, a
// scripted model, the real session files and checkpoint store.
#include <coding/codingsession.h>
#include <context/compaction.h>
#include <loop/agent.h>
#include <session/sessionlog.h>
#include <session/sessionresumption.h>
#include <session/sessionstore.h>
#include <testmain.h>

#include <scriptedmodel.h>
#include <sessionoptions.h>
#include <testfiles.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QSemaphore>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace AgentCore;
using namespace TestSupport;
using namespace Qt::StringLiterals;

namespace tst_codingsession {

namespace {

QList<Message> longConversation(int turns, int outputChars)
{
    QList<Message> messages{Message::makeUser(u"Fix the build"_s)};
    for (int i = 0; i < turns; ++i) {
        Message call;
        call.role = Message::Role::Assistant;
        call.stopReason = StopReason::ToolUse;
        const QString id = u"old_%1"_s.arg(i);
        call.content = {ContentBlock::makeToolCall(id, u"Bash"_s, {{u"command"_s, u"make"_s}})};
        messages.append(call);
        messages.append(Message::makeToolResult(id, u"Bash"_s, QString(outputChars, u'x'), false));
    }
    return messages;
}

} // namespace

class tst_CodingSession : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_repo;
    QTemporaryDir m_data; // sessions, checkpoints, shell writes

    /// What a test session is made of: the defaults, kept inside the temporary folders.
    CodingAgentOptions options() const
    {
        CodingAgentOptions options = sessionOptionsIn(m_repo.path(), m_data.path());
        return options;
    }

    QString sessionsFolder() const { return m_data.filePath(u"sessions"_s); }

    std::unique_ptr<CodingSession> openSession(std::shared_ptr<ModelClient> model,
                                               CodingSessionFile file = {},
                                               bool interactive = true,
                                               CodingAgentOptions opts = {})
    {
        if (opts.repositoryRoot.isEmpty())
            opts = options();
        auto session = std::make_unique<CodingSession>(std::move(opts),
                                                       std::move(file),
                                                       interactive);
        session->setModelClient(std::move(model));
        return session;
    }

    static bool waitForReady(CodingSession &session)
    {
        QSignalSpy ready(&session, &CodingSession::ready);
        session.open();
        // Reported from the event loop, never from inside open(): a front end that opens the
        // session in its constructor connects to it afterwards.
        if (!ready.isEmpty())
            return false;
        return ready.wait(20'000);
    }

    /// Waits for the end of the run under way (or the next one).
    static bool waitForEnd(QSignalSpy &events, int ends = 1)
    {
        return QTest::qWaitFor(
            [&] {
                int seen = 0;
                for (const QList<QVariant> &args : std::as_const(events)) {
                    if (args.first().value<AgentEvent>().type == AgentEvent::Type::AgentEnd)
                        ++seen;
                }
                return seen >= ends;
            },
            20'000);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_repo.isValid() && m_data.isValid());
        QVERIFY(gitInit(m_repo.path()));
        qRegisterMetaType<AgentEvent>();
    }

    // Window and headless run alike: the same protected and hidden paths, shell-writes
    // folder, checkpoints and audit log, whoever opens the session.
    void defaultsAreEveryFrontEndsDefaults()
    {
        const CodingAgentOptions options = CodingSession::defaultOptions();
        const QString appLocalData = QStandardPaths::writableLocation(
            QStandardPaths::AppLocalDataLocation);
        QCOMPARE(options.shellWrites.folder, appLocalData + u"/shell-writes"_s);
        QVERIFY(options.permissions.protectedPaths.contains(QSettings().fileName()));
        QVERIFY(options.permissions.protectedPaths.contains(appLocalData));
        QVERIFY(options.sandbox.hiddenPaths.contains(
            QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation)));
        QVERIFY(!options.sandbox.privatePaths.isEmpty());
        QVERIFY(!options.permissions.auditLogPath.isEmpty());
        QVERIFY(!options.checkpoints.storeRoot.isEmpty());
        QVERIFY(options.checkpoints.prune);
        QVERIFY(!options.permissions.userSettingsPath.isEmpty());
        QVERIFY(!options.permissions.projectTrustPath.isEmpty());
    }

    // What is sent before the agent is assembled waits for it; the run is recorded with the
    // session's state, and a second session resumes the conversation, its title and model.
    void sendBeforeReadyRecordsAndResumes()
    {
        const SessionStore store(sessionsFolder());
        CodingSessionFile file;
        file.path = store.newSessionPath();
        file.header = SessionStore::newHeader(m_repo.path());
        auto model = std::make_shared<ScriptedModel>(QList{ModelStep::text(u"Hello back."_s)});
        const QString path = file.path;
        {
            auto session = openSession(model, std::move(file));
            session->setModelState(QJsonObject{{u"model"_s, u"scripted"_s}});
            QSignalSpy events(session.get(), &CodingSession::eventEmitted);
            QSignalSpy ready(session.get(), &CodingSession::ready);
            session->send(u"Hello"_s); // before open(): waits
            session->open();
            QVERIFY(ready.wait(20'000));
            QVERIFY(waitForEnd(events));
            QCOMPARE(model->callCount(), 1);
            session->setTitle(u"  A   greeting "_s);
            QCOMPARE(session->state().title, u"A greeting"_s);
            QCOMPARE(session->id(), SessionStore::idOf(path));
        }
        QString error;
        std::optional<SessionResumption> resumption = SessionResumption::takeOver(path, &error);
        QVERIFY2(resumption, qPrintable(error));
        CodingSessionFile again;
        again.path = path;
        again.resumed = resumption->contents;
        again.resumption = std::move(resumption);
        auto session = openSession(std::make_shared<ScriptedModel>(), std::move(again));
        QVERIFY(waitForReady(*session));
        const QList<Message> messages = session->agent()->messages();
        QCOMPARE(messages.size(), 2);
        QCOMPARE(messages.first().text(), u"Hello"_s);
        QCOMPARE(session->state().title, u"A greeting"_s);
        QCOMPARE(session->state().model.toObject().value(u"model"_s).toString(), u"scripted"_s);
    }

    // Steering goes into the running task, a follow-up after it; stop() aborts a run.
    void steerFollowUpAndStop()
    {
        auto model = std::make_shared<ScriptedModel>(
            QList{ModelStep::text(u"first"_s).withDelay(400),
                  ModelStep::text(u"second"_s),
                  ModelStep::text(u"third"_s)});
        auto session = openSession(model);
        QVERIFY(waitForReady(*session));
        session->send(u"start"_s);
        session->steer(u"change course"_s);
        session->followUp(u"then this"_s);
        QVERIFY(QTest::qWaitFor(
            [&] {
                const QList<Message> messages = session->agent()->messages();
                return session->agent()->isIdle() && !messages.isEmpty()
                       && messages.last().isAssistant()
                       && session->agent()->followUpQueue().isEmpty() && model->callCount() >= 2;
            },
            20'000));
        QStringList asked;
        for (const Message &message : session->agent()->messages()) {
            if (message.isUser())
                asked.append(message.text());
        }
        // The steering joins the running task; the follow-up comes after it.
        QCOMPARE(asked, (QStringList{u"start"_s, u"change course"_s, u"then this"_s}));
        QCOMPARE(model->contexts().last().messages.last().text(), u"then this"_s);

        auto waiting = std::make_shared<ScriptedModel>(QList{ModelStep::waitForAbort()});
        auto stopped = openSession(waiting);
        QVERIFY(waitForReady(*stopped));
        QSignalSpy events(stopped.get(), &CodingSession::eventEmitted);
        stopped->send(u"wait forever"_s);
        QVERIFY(QTest::qWaitFor([&] { return waiting->callCount() == 1; }, 20'000));
        stopped->stop();
        QVERIFY(waitForEnd(events));
        QCOMPARE(stopped->agent()->messages().last().stopReason, StopReason::Aborted);
    }

    // A rewind is appended while idle (recorded, emitted); refused with a reason otherwise.
    void rewindAppendsAMarker()
    {
        auto model = std::make_shared<ScriptedModel>(QList{ModelStep::text(u"one"_s)});
        auto session = openSession(model);
        QString error;
        QVERIFY(!session->rewind(Rewind(), &error)); // not ready yet
        QVERIFY(!error.isEmpty());
        QVERIFY(waitForReady(*session));
        QSignalSpy events(session.get(), &CodingSession::eventEmitted);
        session->send(u"a task"_s);
        QVERIFY(waitForEnd(events));
        QSignalSpy rewound(session.get(), &CodingSession::rewound);
        Rewind rewind;
        rewind.scope = Rewind::Scope::Conversation;
        rewind.toIndex = 99;
        QVERIFY(!session->rewind(rewind, &error));
        rewind.toIndex = 0;
        QVERIFY2(session->rewind(rewind, &error), qPrintable(error));
        QCOMPARE(rewound.size(), 1);
        const AgentEvent last = events.last().first().value<AgentEvent>();
        QCOMPARE(last.type, AgentEvent::Type::MessageEnd);
        QVERIFY(Rewind::of(last.message));
        QCOMPARE(session->agent()->messages().size(), 3);
    }

    // "Compact now" summarises on the summary model and appends the compaction.
    void compactNowAppendsTheSummary()
    {
        CodingSessionFile file;
        file.resumed = SessionLog::Contents();
        file.resumed->messages = longConversation(10, 4'000);
        CodingAgentOptions opts = options();
        opts.context.windowTokens = 100'000;
        auto model = std::make_shared<ScriptedModel>();
        auto summaries = std::make_shared<ScriptedModel>(QList{ModelStep::text(u"summary"_s)});
        auto session = std::make_unique<CodingSession>(opts, std::move(file), true);
        session->setModelClient(model, [summaries] { return summaries; });
        QVERIFY(waitForReady(*session));
        QSignalSpy started(session.get(), &CodingSession::compactionStarted);
        QSignalSpy compacted(session.get(), &CodingSession::compacted);
        QVERIFY(session->compactNow(u"keep it short"_s));
        QVERIFY(compacted.wait(20'000));
        QCOMPARE(started.size(), 1);
        QCOMPARE(compacted.first().at(1).toBool(), true);
        QVERIFY(Compaction::of(session->agent()->messages().last()));
        QCOMPARE(summaries->callCount(), 1);
    }

    // A Write changes a file: fileChanged and a checkpoint, told on this thread before the
    // run's end, also when this thread was busy while the whole run went by (the agent's
    // events then arrive in one batch posted before the tool ran); the session's state lists
    // the checkpoint.
    void fileChangesAndCheckpointsAreSignalled()
    {
        const SessionStore store(sessionsFolder());
        CodingSessionFile file;
        file.path = store.newSessionPath();
        file.header = SessionStore::newHeader(m_repo.path());
        const QString target = m_repo.filePath(u"made.txt"_s);
        auto model = std::make_shared<ScriptedModel>(
            QList{ModelStep::toolCall(u"w1"_s,
                                      u"Write"_s,
                                      {{u"file_path"_s, target}, {u"content"_s, u"made\n"_s}}),
                  ModelStep::text(u"Written."_s)});
        const QString path = file.path;
        auto session = openSession(model, std::move(file));
        QVERIFY(waitForReady(*session));
        QSignalSpy events(session.get(), &CodingSession::eventEmitted);
        QSignalSpy changed(session.get(), &CodingSession::fileChanged);
        QSignalSpy checkpoints(session.get(), &CodingSession::checkpointRecorded);
        QList<QString> order;
        connect(session.get(), &CodingSession::fileChanged, this, [&] { order.append(u"file"_s); });
        connect(session.get(), &CodingSession::eventEmitted, this, [&](const AgentEvent &event) {
            if (event.type == AgentEvent::Type::AgentEnd)
                order.append(u"end"_s);
        });
        session->send(u"write it"_s);
        // Busy, delivering nothing, until the run has asked the model again after the Write
        // and has had the time to end.
        QElapsedTimer busy;
        busy.start();
        while (model->callCount() < 2 && !busy.hasExpired(20'000))
            QThread::msleep(5);
        QThread::msleep(200);
        QVERIFY(waitForEnd(events));
        QCOMPARE(fileBytes(target), QByteArray("made\n"));
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.first().first().value<FileChange>().path, target);
        QCOMPARE(order, (QList<QString>{u"file"_s, u"end"_s}));
        QVERIFY(QTest::qWaitFor([&] { return !checkpoints.isEmpty(); }, 20'000));
        session.reset();
        QString error;
        const std::optional<SessionLog::Contents> contents = SessionLog::load(path, &error);
        QVERIFY2(contents, qPrintable(error));
        QVERIFY(!SessionState::fromJson(contents->state).checkpoints.isEmpty());
    }

    // While a rewind restores its files no run starts: a task sent meanwhile waits and goes on
    // the rewound conversation; one sent and then stopped is dropped with the stop.
    void tasksWaitForARewindsFilesAndStopDropsThem()
    {
        auto model = std::make_shared<ScriptedModel>(
            QList{ModelStep::text(u"First."_s), ModelStep::text(u"After the rewind."_s)});
        auto session = openSession(model);
        QVERIFY(waitForReady(*session));
        QSignalSpy events(session.get(), &CodingSession::eventEmitted);
        session->send(u"first task"_s);
        QVERIFY(waitForEnd(events));
        QCOMPARE(model->callCount(), 1);

        const auto rewindHeld = [&session](QSemaphore &go, bool &recorded) {
            Rewind rewind;
            rewind.toIndex = 0;
            rewind.scope = Rewind::Scope::Both;
            session->rewindWithFiles(
                rewind,
                [&go](Rewind &restored) {
                    go.tryAcquire(1, 20'000);
                    restored.undoCheckpoint = u"undo"_s;
                    CodingSession::RewindFilesResult result;
                    result.restored = true;
                    return result;
                },
                [&recorded](bool done, const Rewind &, const QString &) { recorded = done; });
        };

        // Sent, then stopped, while the files are restored: dropped.
        QSemaphore first;
        bool recorded = false;
        rewindHeld(first, recorded);
        QVERIFY(session->isRewinding());
        QVERIFY(!session->rewindRefusal().isEmpty());
        session->send(u"dropped task"_s);
        session->stop();
        first.release();
        QVERIFY(QTest::qWaitFor([&] { return !session->isRewinding(); }, 20'000));
        QVERIFY(recorded);
        QTest::qWait(100);
        QCOMPARE(model->callCount(), 1);

        // Sent while the files are restored: run after the rewind, on the rewound conversation.
        QSemaphore second;
        recorded = false;
        rewindHeld(second, recorded);
        session->send(u"waiting task"_s);
        QTest::qWait(100);
        QCOMPARE(model->callCount(), 1);
        second.release();
        QVERIFY(QTest::qWaitFor([&] { return model->callCount() == 2; }, 20'000));
        QVERIFY(recorded);
        QStringList sent;
        for (const Message &message : model->contexts().last().messages)
            sent.append(message.text());
        QCOMPARE(sent, QStringList{u"waiting task"_s});
    }

    // A resumed file's allow rules are not applied: the session asks (interactive or not),
    // keeps them in the file until answered, and an unattended session keeps its own mode.
    void sessionRulesNeedConfirmation()
    {
        SessionLog::Contents resumed;
        resumed.state = {{u"permissionMode"_s, u"bypassPermissions"_s},
                         {u"sessionRules"_s,
                          QJsonArray{QJsonObject{{u"rule"_s, u"Bash(make:*)"_s},
                                                 {u"behavior"_s, u"allow"_s}}}}};
        CodingAgentOptions opts = options();
        opts.permissions.mode = PermissionMode::Default;
        CodingSessionFile file;
        file.resumed = resumed;
        auto session = openSession(std::make_shared<ScriptedModel>(), std::move(file), false, opts);
        QSignalSpy asked(session.get(), &CodingSession::sessionRulesNeedConfirmation);
        QVERIFY(waitForReady(*session));
        QCOMPARE(asked.size(), 1);
        QCOMPARE(session->unconfirmedRules().size(), 1);
        QCOMPARE(session->parts().policy->mode(), PermissionMode::Default);
        session->keepSessionRules();
        QVERIFY(session->unconfirmedRules().isEmpty());

        // Interactive: the session's own mode applies, except bypass, which waits for the
        // person's confirmation (issue #34) in the mode the session had without the file.
        CodingSessionFile again;
        again.resumed = resumed;
        auto window = openSession(std::make_shared<ScriptedModel>(), std::move(again), true, opts);
        QVERIFY(waitForReady(*window));
        QCOMPARE(window->parts().policy->mode(), PermissionMode::Default);
        QVERIFY(window->bypassUnconfirmed());
        QCOMPARE(window->unconfirmedRules().size(), 1);
        window->setPermissionMode(PermissionMode::Bypass);
        QVERIFY(!window->bypassUnconfirmed());
        QCOMPARE(window->parts().policy->mode(), PermissionMode::Bypass);

        CodingSessionFile acceptEdits;
        acceptEdits.resumed = resumed;
        acceptEdits.resumed->state.insert(u"permissionMode"_s, u"acceptEdits"_s);
        auto edits = openSession(std::make_shared<ScriptedModel>(),
                                 std::move(acceptEdits),
                                 true,
                                 opts);
        QVERIFY(waitForReady(*edits));
        QCOMPARE(edits->parts().policy->mode(), PermissionMode::AcceptEdits);
        QVERIFY(!edits->bypassUnconfirmed());
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_CodingSession)

} // namespace tst_codingsession

#include "tst_codingsession.moc"
