// Several coding agents in one process (issue #19: sessions side by side, and --print's core
// free of any "one Agent per process" assumption): two CodingAgents, each owned by a thread of
// its own with its own worker, on two repositories and on the same one, with Read, Edit, Bash,
// permission reviews, checkpoints and session files; a Stop of one leaves the other running.
// Then the session files across processes: one writer per session (a real second process
// holds it), and three sessions killed mid-stream (SIGKILL of a child running them) all
// resume, each having lost at most the line being written.
#include "../tools/toolstest.h"

#include <coding/codingagent.h>
#include <coding/sessionstatefile.h>
#include <loop/agent.h>
#include <permissions/permissionsessionstate.h>
#include <session/sessionlog.h>
#include <session/sessionresumption.h>
#include <session/sessionstore.h>
#include <testmain.h>

#include <scriptedmodel.h>

#include <QJsonArray>
#include <QMutex>
#include <QProcess>
#include <QSemaphore>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>
#include <QThread>

#include <atomic>
#include <cstdio>
#include <functional>
#include <memory>

using namespace AgentCore;
using namespace TestSupport;
using namespace Qt::StringLiterals;

namespace tst_multiagent {

namespace {

/// A scripted model whose call number \a gateAt waits until the test opens the gate (or the
/// run is aborted): the test knows where each agent is when it stops the other one.
class GatedModel final : public ModelClient
{
public:
    GatedModel(const QList<ModelStep> &steps, int gateAt = -1)
        : m_inner(std::make_shared<ScriptedModel>(steps))
        , m_gateAt(gateAt)
    {}

    Message complete(const Context &context,
                     const AbortToken &abort,
                     const StreamEventSink &sink) override
    {
        if (m_calls++ == m_gateAt) {
            m_waiting = true;
            while (!m_gate.tryAcquire(1, 10) && !abort.isAborted()) {
            }
            m_waiting = false;
        }
        return m_inner->complete(context, abort, sink);
    }

    void open() { m_gate.release(); }
    bool waiting() const { return m_waiting; }
    int calls() const { return m_calls; }
    const std::shared_ptr<ScriptedModel> &inner() const { return m_inner; }

private:
    std::shared_ptr<ScriptedModel> m_inner;
    int m_gateAt;
    QSemaphore m_gate;
    std::atomic<int> m_calls{0};
    std::atomic<bool> m_waiting{false};
};

/// Answers every review at once: Bash with \a bashChoice, anything else allowed once; counts
/// the Bash reviews it was asked.
class Reviewer final : public PermissionAsker
{
public:
    explicit Reviewer(PermissionAnswer::Choice bashChoice)
        : m_bashChoice(bashChoice)
    {}

    std::optional<PermissionAnswer> ask(const PermissionRequest &request,
                                        const AbortToken &) override
    {
        PermissionAnswer answer;
        answer.choice = PermissionAnswer::Choice::AllowOnce;
        if (request.toolName == "Bash"_L1) {
            answer.choice = m_bashChoice;
            const QMutexLocker locker(&m_mutex);
            m_bashCommands.append(request.arguments.value("command"_L1).toString());
        }
        return answer;
    }

    QStringList bashCommands() const
    {
        const QMutexLocker locker(&m_mutex);
        return m_bashCommands;
    }

private:
    PermissionAnswer::Choice m_bashChoice;
    mutable QMutex m_mutex;
    QStringList m_bashCommands;
};

struct SessionSpec
{
    QString root;
    QString sessionPath;
    std::shared_ptr<ModelClient> model;
    std::shared_ptr<PermissionAsker> asker;
    QString checkpointStoreRoot;
    std::function<bool()> reviewShellWrites;
    std::optional<SessionResumption> resumption; ///< a session taken over, else a new one
    /// Called on the owner thread after each event, once the recorder wrote it.
    std::function<void(const AgentEvent &)> onEvent;
};

/// One session as a window or a headless run has it, owned by a thread of its own: a
/// CodingAgent, its Agent (with its worker thread) and the SessionRecorder, all made, driven
/// and destroyed on that owner thread.
class SessionHost final
{
public:
    explicit SessionHost(SessionSpec spec)
        : m_spec(std::move(spec))
    {
        m_thread.start();
        m_home.moveToThread(&m_thread);
        onOwner([this] { build(); });
    }

    ~SessionHost()
    {
        onOwner([this] {
            delete m_recorder;
            m_agent.reset();
            m_parts = {};
        });
        m_thread.quit();
        m_thread.wait();
    }

    void prompt(const QString &text)
    {
        m_ended = false;
        QMetaObject::invokeMethod(&m_home, [this, text] { m_agent->prompt(text); });
    }
    void abort()
    {
        QMetaObject::invokeMethod(&m_home, [this] { m_agent->abort(); });
    }

    bool ended() const { return m_ended; }
    QList<Message> messages()
    {
        QList<Message> messages;
        onOwner([&] { messages = m_agent->messages(); });
        return messages;
    }
    QStringList shellWritesNotices() const
    {
        const QMutexLocker locker(&m_mutex);
        return m_shellWritesNotices;
    }
    QStringList checkpointFailures() const
    {
        const QMutexLocker locker(&m_mutex);
        return m_checkpointFailures;
    }
    int checkpointsRecorded() const { return m_checkpoints; }
    QStringList recorderFailures() const
    {
        const QMutexLocker locker(&m_mutex);
        return m_recorderFailures;
    }
    /// Every tool result the Agent reported, by call id.
    QHash<QString, ToolResult> toolResults() const
    {
        const QMutexLocker locker(&m_mutex);
        return m_toolResults;
    }
    QJsonObject permissionState()
    {
        QJsonObject state;
        onOwner([&] { state = permissionSessionState(*m_parts.policy); });
        return state;
    }

private:
    void onOwner(const std::function<void()> &work)
    {
        QMetaObject::invokeMethod(&m_home, work, Qt::BlockingQueuedConnection);
    }

    void build()
    {
        CodingAgentOptions options;
        options.repositoryRoot = m_spec.root;
        options.permissions.mode = PermissionMode::Default;
        options.permissions.asker = m_spec.asker;
        options.systemPrompt = u"You are AgentDesk."_s;
        options.sandbox.mode = SandboxMode::Off;
        options.checkpoints.storeRoot = m_spec.checkpointStoreRoot;
        options.reports.checkpoints.recorded = [this](const Checkpoint &) { ++m_checkpoints; };
        options.reports.checkpoints.failed = [this](const QString &message) {
            const QMutexLocker locker(&m_mutex);
            m_checkpointFailures.append(message);
        };
        options.shellWrites.review = m_spec.reviewShellWrites;
        options.reports.shellWritesUnavailable = [this](const QString &message) {
            const QMutexLocker locker(&m_mutex);
            m_shellWritesNotices.append(message);
        };
        m_parts = CodingAgent::assemble(options);
        m_parts.config.loop.model = m_spec.model;
        QJsonObject state;
        if (m_spec.resumption) {
            m_parts.config.history = m_spec.resumption->contents.messages;
            state = m_spec.resumption->contents.state;
        }
        if (m_parts.checkpoints)
            m_parts.checkpoints->setSessionId(SessionStore::idOf(m_spec.sessionPath));
        m_agent = std::make_unique<Agent>(std::move(m_parts.config));
        if (m_spec.resumption) {
            QStringList warnings;
            SessionStateFile::restore(state, *m_agent, *m_parts.policy, &warnings);
        }
        m_recorder = SessionStateFile::record(m_agent.get(),
                                              m_parts.policy,
                                              m_spec.sessionPath,
                                              SessionStore::newHeader(m_spec.root),
                                              state,
                                              std::exchange(m_spec.resumption, std::nullopt),
                                              nullptr,
                                              m_parts.checkpoints);
        QObject::connect(m_recorder, &SessionRecorder::failed, &m_home, [this](const QString &why) {
            const QMutexLocker locker(&m_mutex);
            m_recorderFailures.append(why);
        });
        // After the recorder's own connection: what is seen here is in the file already.
        QObject::connect(m_agent.get(),
                         &Agent::eventEmitted,
                         &m_home,
                         [this](const AgentEvent &event) {
                             if (event.type == AgentEvent::Type::ToolExecutionEnd) {
                                 const QMutexLocker locker(&m_mutex);
                                 m_toolResults.insert(event.toolCallId, event.result);
                             }
                             if (m_spec.onEvent)
                                 m_spec.onEvent(event);
                             if (event.type == AgentEvent::Type::AgentEnd)
                                 m_ended = true;
                         });
    }

    SessionSpec m_spec;
    QThread m_thread;
    QObject m_home;
    CodingAgent m_parts;
    std::unique_ptr<Agent> m_agent;
    SessionRecorder *m_recorder = nullptr;
    std::atomic<bool> m_ended{false};
    std::atomic<int> m_checkpoints{0};
    mutable QMutex m_mutex;
    QStringList m_shellWritesNotices;
    QStringList m_checkpointFailures;
    QStringList m_recorderFailures;
    QHash<QString, ToolResult> m_toolResults;
};

ModelStep read(const QString &id, const QString &path)
{
    return ModelStep::toolCall(id, u"Read"_s, {{u"file_path"_s, path}});
}

ModelStep bash(const QString &id, const QString &command)
{
    return ModelStep::toolCall(id, u"Bash"_s, {{u"command"_s, command}});
}

ModelStep edit(const QString &id, const QString &path, const QString &from, const QString &to)
{
    return ModelStep::toolCall(id,
                               u"Edit"_s,
                               {{u"file_path"_s, path},
                                {u"old_string"_s, from},
                                {u"new_string"_s, to}});
}

bool isUnchanged(const ToolResult &result)
{
    return result.details.other.value(u"unchanged"_s).toBool();
}

QStringList toolCallIdsOf(const QList<Message> &messages)
{
    QStringList ids;
    for (const Message &message : messages) {
        if (message.isToolResult())
            ids.append(message.toolCallId);
        for (const ContentBlock &call : message.toolCalls())
            ids.append(call.id);
    }
    return ids;
}

QByteArray fileBytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// ---- the child process of threeSessionsKilledMidStreamAllResume -------------------------

constexpr int killedSessions = 3;
constexpr int toolTurnsBeforeTheAnswer = 4;

// Runs three sessions (on three repositories under \a folder) at once: a few Read turns each,
// then an answer that streams slowly and never ends. Prints "<session> <messages ended>" after
// every message the recorder wrote, then "streaming <session>" once its partial answer is on
// disk; waits to be killed.
int runThreeSessionsUntilKilled(const QString &folder)
{
    QMutex outputMutex;
    const auto say = [&outputMutex](const QByteArray &line) {
        const QMutexLocker locker(&outputMutex);
        std::fwrite(line.constData(), 1, size_t(line.size()), stdout);
        std::fflush(stdout);
    };
    std::vector<std::unique_ptr<SessionHost>> hosts;
    for (int i = 0; i < killedSessions; ++i) {
        const QString root = QStringLiteral("%1/repo%2").arg(folder).arg(i);
        QList<ModelStep> steps;
        for (int turn = 0; turn < toolTurnsBeforeTheAnswer; ++turn)
            steps.append(
                read(QStringLiteral("s%1-read%2").arg(i).arg(turn), root + u"/notes.txt"_s));
        QString answer;
        for (int word = 0; word < 1000; ++word)
            answer += QStringLiteral("session%1-word%2 ").arg(i).arg(word);
        steps.append(ModelStep::text(answer).withChunkPause(5));
        SessionSpec spec;
        spec.root = root;
        spec.sessionPath = QStringLiteral("%1/sessions/s%2.jsonl").arg(folder).arg(i);
        spec.model = std::make_shared<ScriptedModel>(steps);
        auto ended = std::make_shared<int>(0);
        auto told = std::make_shared<bool>(false);
        spec.onEvent = [i, ended, told, say, path = spec.sessionPath](const AgentEvent &event) {
            if (event.type == AgentEvent::Type::MessageEnd) {
                ++*ended;
                say(QByteArray::number(i) + ' ' + QByteArray::number(*ended) + '\n');
            } else if (event.type == AgentEvent::Type::MessageUpdate && !*told
                       && *ended == 1 + 2 * toolTurnsBeforeTheAnswer) {
                QString error;
                const auto contents = SessionLog::load(path, &error);
                if (contents && contents->partial) {
                    *told = true;
                    say("streaming " + QByteArray::number(i) + '\n');
                }
            }
        };
        hosts.push_back(std::make_unique<SessionHost>(std::move(spec)));
    }
    for (int i = 0; i < killedSessions; ++i)
        hosts[size_t(i)]->prompt(QStringLiteral("task of session %1").arg(i));
    return QCoreApplication::exec();
}

// The child of aSessionOpenInAnotherProcessIsRefused: takes the session over as a window
// resuming it does, says "held", and keeps it until it is killed.
int holdSession(const QString &path)
{
    QString error;
    std::optional<SessionResumption> resumption = SessionResumption::takeOver(path, &error);
    QTextStream(stdout) << (resumption ? u"held"_s : error) << Qt::endl;
    return resumption ? QCoreApplication::exec() : 1;
}

} // namespace

class tst_MultiAgent : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void twoAgentsSideBySide_data();
    void twoAgentsSideBySide();
    void eachSessionIsToldShellWritesAreNotReviewed();
    void aSessionOpenInAnotherProcessIsRefused();
    void threeSessionsKilledMidStreamAllResume();

private:
    QTemporaryDir m_fakeBwrap;
};

void tst_MultiAgent::initTestCase()
{
    // A bubblewrap that cannot make overlays, first on PATH (for the shell-writes notice):
    // every other program is the system's.
    QVERIFY(m_fakeBwrap.isValid());
    QFile script(m_fakeBwrap.filePath(u"bwrap"_s));
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write("#!/bin/sh\necho 'bwrap: overlay mounts are not permitted here' >&2\nexit 1\n");
    script.close();
    script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    const QByteArray path = m_fakeBwrap.path().toLocal8Bit() + ':' + qgetenv("PATH");
    qputenv("PATH", path);
}

void tst_MultiAgent::twoAgentsSideBySide_data()
{
    QTest::addColumn<bool>("sameRepository");
    QTest::newRow("two repositories") << false;
    QTest::newRow("one repository") << true;
}

// Two sessions run at once, each with its owner thread and worker: Read, Edit and Bash with
// reviews, checkpoints and a session file each. Session a approves its command for the session,
// b only once; a is stopped while b waits for its model. Each session's file holds exactly its
// own conversation, its own permission state; a's second Read of the shared file is
// "unchanged", b's first is not (the read ledger is the session's); a's rule never lets b's
// command through; b goes on after a's Stop and ends normally.
void tst_MultiAgent::twoAgentsSideBySide()
{
    QFETCH(bool, sameRepository);
    ToolsTest::Repo repoA;
    ToolsTest::Repo repoB;
    QVERIFY(repoA.isValid() && repoB.isValid());
    const ToolsTest::Repo &secondRepo = sameRepository ? repoA : repoB;
    const QByteArray shared = "the shared notes\nsecond line\n";
    QVERIFY(repoA.write(u"shared.txt"_s, shared));
    QVERIFY(secondRepo.write(u"shared.txt"_s, shared));
    QVERIFY(repoA.write(u"a.txt"_s, "a original\n"));
    QVERIFY(secondRepo.write(u"b.txt"_s, "b original\n"));
    repoA.git({u"add"_s, u"."_s});
    secondRepo.git({u"add"_s, u"."_s});
    QTemporaryDir data;

    const QString rootA = repoA.root();
    const QString rootB = secondRepo.root();
    auto modelA = std::make_shared<GatedModel>(QList<ModelStep>{
        ModelStep::toolCalls(
            {ContentBlock::makeToolCall(u"a-read1"_s,
                                        u"Read"_s,
                                        {{u"file_path"_s, QString(rootA + u"/shared.txt"_s)}}),
             ContentBlock::makeToolCall(u"a-read2"_s,
                                        u"Read"_s,
                                        {{u"file_path"_s, QString(rootA + u"/a.txt"_s)}})}),
        edit(u"a-edit"_s, rootA + u"/a.txt"_s, u"a original"_s, u"a edited"_s),
        bash(u"a-bash1"_s, u"touch a-out.txt"_s),
        bash(u"a-bash2"_s, u"touch a-out.txt"_s),
        read(u"a-read3"_s, rootA + u"/shared.txt"_s),
        ModelStep::waitForAbort()});
    auto modelB = std::make_shared<GatedModel>(
        QList<ModelStep>{read(u"b-read1"_s, rootB + u"/b.txt"_s),
                         edit(u"b-edit"_s, rootB + u"/b.txt"_s, u"b original"_s, u"b edited"_s),
                         bash(u"b-bash1"_s, u"touch b-out.txt"_s),
                         bash(u"b-bash2"_s, u"touch b-out.txt"_s),
                         read(u"b-read2"_s, rootB + u"/shared.txt"_s),
                         ModelStep::text(u"b is done"_s).withChunkPause(1)},
        4); // b waits for its model before its Read of the shared file
    auto reviewerA = std::make_shared<Reviewer>(PermissionAnswer::Choice::AllowSession);
    auto reviewerB = std::make_shared<Reviewer>(PermissionAnswer::Choice::AllowOnce);

    const QString pathA = data.filePath(u"sessions/a.jsonl"_s);
    const QString pathB = data.filePath(u"sessions/b.jsonl"_s);
    SessionSpec specA{rootA, pathA, modelA, reviewerA, data.filePath(u"checkpoints"_s), {}, {}, {}};
    SessionSpec specB{rootB, pathB, modelB, reviewerB, data.filePath(u"checkpoints"_s), {}, {}, {}};
    auto a = std::make_unique<SessionHost>(std::move(specA));
    auto b = std::make_unique<SessionHost>(std::move(specB));
    a->prompt(u"task a"_s);
    b->prompt(u"task b"_s);

    // a stalls in its last model call, b waits at its gate: both ran their tools meanwhile.
    QTRY_VERIFY_WITH_TIMEOUT(modelA->calls() == 6 && modelB->waiting(), 60'000);
    a->abort();
    QTRY_VERIFY_WITH_TIMEOUT(a->ended(), 30'000);
    QVERIFY(!b->ended());
    QVERIFY(modelB->waiting()); // a's Stop did not reach b
    modelB->open();
    QTRY_VERIFY_WITH_TIMEOUT(b->ended(), 30'000);

    const QList<Message> messagesA = a->messages();
    const QList<Message> messagesB = b->messages();
    QCOMPARE(messagesA.constLast().stopReason, StopReason::Aborted);
    QCOMPARE(messagesB.constLast().stopReason, StopReason::Stop);
    QCOMPARE(messagesB.constLast().text(), u"b is done"_s);

    // Each agent's tools worked on its own files.
    QCOMPARE(repoA.read(u"a.txt"_s), QByteArray("a edited\n"));
    QCOMPARE(secondRepo.read(u"b.txt"_s), QByteArray("b edited\n"));
    QVERIFY(QFile::exists(rootA + u"/a-out.txt"_s));
    QVERIFY(QFile::exists(rootB + u"/b-out.txt"_s));
    QCOMPARE(QFile::exists(rootA + u"/b-out.txt"_s), sameRepository);

    // Tool results: each its own, and the read ledger is the session's.
    const QHash<QString, ToolResult> resultsA = a->toolResults();
    const QHash<QString, ToolResult> resultsB = b->toolResults();
    for (const QString &id : resultsA.keys())
        QVERIFY2(id.startsWith(u"a-"_s), qPrintable(id));
    for (const QString &id : resultsB.keys())
        QVERIFY2(id.startsWith(u"b-"_s), qPrintable(id));
    QCOMPARE(resultsA.size(), 6);
    QCOMPARE(resultsB.size(), 5);
    for (const ToolResult &result : resultsA)
        QVERIFY2(!result.isError, qPrintable(result.text()));
    for (const ToolResult &result : resultsB)
        QVERIFY2(!result.isError, qPrintable(result.text()));
    QVERIFY(resultsA.value(u"a-read2"_s).text().contains(u"a original"_s));
    QVERIFY(resultsB.value(u"b-read1"_s).text().contains(u"b original"_s));
    QVERIFY(isUnchanged(resultsA.value(u"a-read3"_s)));
    QVERIFY2(!isUnchanged(resultsB.value(u"b-read2"_s)),
             qPrintable(resultsB.value(u"b-read2"_s).text()));
    QVERIFY(resultsB.value(u"b-read2"_s).text().contains(u"the shared notes"_s));

    // Permission state: a's session rule spared a's second review, never b's.
    QCOMPARE(reviewerA->bashCommands(), QStringList{u"touch a-out.txt"_s});
    QCOMPARE(reviewerB->bashCommands(), QStringList(2, u"touch b-out.txt"_s));
    const QJsonObject stateA = a->permissionState();
    const QJsonObject stateB = b->permissionState();
    QCOMPARE(stateA.value(u"sessionRules"_s).toArray().size(), 1);
    QVERIFY(stateB.value(u"sessionRules"_s).toArray().isEmpty());

    // Checkpoints went into the one store side by side.
    QVERIFY2(a->checkpointFailures().isEmpty(), qPrintable(a->checkpointFailures().join(u'\n')));
    QVERIFY2(b->checkpointFailures().isEmpty(), qPrintable(b->checkpointFailures().join(u'\n')));
    QVERIFY(a->checkpointsRecorded() > 0);
    QVERIFY(b->checkpointsRecorded() > 0);

    // The session files: each exactly its own conversation and permission state.
    QVERIFY(a->recorderFailures().isEmpty());
    QVERIFY(b->recorderFailures().isEmpty());
    a.reset();
    b.reset();
    QString error;
    const auto fileA = SessionLog::load(pathA, &error);
    QVERIFY2(fileA, qPrintable(error));
    const auto fileB = SessionLog::load(pathB, &error);
    QVERIFY2(fileB, qPrintable(error));
    QCOMPARE(fileA->messages, messagesA);
    QCOMPARE(fileB->messages, messagesB);
    QVERIFY(fileA->warnings.isEmpty());
    QVERIFY(fileB->warnings.isEmpty());
    for (const QString &id : toolCallIdsOf(fileA->messages))
        QVERIFY2(id.startsWith(u"a-"_s), qPrintable(id));
    for (const QString &id : toolCallIdsOf(fileB->messages))
        QVERIFY2(id.startsWith(u"b-"_s), qPrintable(id));
    QCOMPARE(fileA->header.value(u"repository"_s).toString(), rootA);
    QCOMPARE(fileB->header.value(u"repository"_s).toString(), rootB);
    QCOMPARE(fileA->state.value(u"sessionRules"_s).toArray().size(), 1);
    QVERIFY(fileB->state.value(u"sessionRules"_s).toArray().isEmpty());
    QCOMPARE(fileA->state.value(u"runInProgress"_s).toBool(), false);
    QCOMPARE(fileB->state.value(u"runInProgress"_s).toBool(), false);
}

// The notice that shell writes cannot be reviewed here (bubblewrap cannot make overlays) is
// given once per session: the second session of a process is told too.
void tst_MultiAgent::eachSessionIsToldShellWritesAreNotReviewed()
{
    ToolsTest::Repo repo;
    QVERIFY(repo.isValid());
    QTemporaryDir data;
    std::vector<std::unique_ptr<SessionHost>> hosts;
    for (const QString &name : {u"first"_s, u"second"_s}) {
        SessionSpec spec;
        spec.root = repo.root();
        spec.sessionPath = data.filePath(name + u".jsonl"_s);
        spec.model = std::make_shared<ScriptedModel>(
            QList<ModelStep>{bash(name + u"-1"_s, u"touch "_s + name),
                             bash(name + u"-2"_s, u"touch "_s + name + u"-again"_s),
                             ModelStep::text(u"done"_s)});
        spec.asker = std::make_shared<Reviewer>(PermissionAnswer::Choice::AllowOnce);
        spec.reviewShellWrites = [] { return true; };
        hosts.push_back(std::make_unique<SessionHost>(std::move(spec)));
    }
    for (const auto &host : hosts)
        host->prompt(u"make the files"_s);
    for (const auto &host : hosts)
        QTRY_VERIFY_WITH_TIMEOUT(host->ended(), 30'000);
    for (const auto &host : hosts) {
        const QStringList notices = host->shellWritesNotices();
        QCOMPARE(notices.size(), 1);
        QVERIFY2(notices.constFirst().contains(u"Shell writes are not reviewed"_s),
                 qPrintable(notices.constFirst()));
    }
    QVERIFY(QFile::exists(repo.path(u"first-again"_s)));
    QVERIFY(QFile::exists(repo.path(u"second-again"_s)));
}

// A session another process has open (a window that resumed it) can be neither taken over
// nor recorded to by a second one, here or in this process: the error says which process
// has it, and the file is left as it was. Once that process is killed, its lock is stale and
// the session resumes.
void tst_MultiAgent::aSessionOpenInAnotherProcessIsRefused()
{
    ToolsTest::Repo repo;
    QVERIFY(repo.isValid());
    QTemporaryDir data;
    const QString path = data.filePath(u"sessions/held.jsonl"_s);
    {
        SessionSpec spec;
        spec.root = repo.root();
        spec.sessionPath = path;
        spec.model = std::make_shared<ScriptedModel>(QList<ModelStep>{ModelStep::text(u"hello"_s)});
        SessionHost first(std::move(spec));
        first.prompt(u"say hello"_s);
        QTRY_VERIFY_WITH_TIMEOUT(first.ended(), 30'000);
    }
    const QByteArray before = fileBytes(path);
    QVERIFY(!before.isEmpty());

    QProcess holder;
    holder.start(QCoreApplication::applicationFilePath(),
                 TestSupport::thisTestWith({u"--hold-session"_s, path}));
    QVERIFY(holder.waitForReadyRead(30'000));
    QCOMPARE(holder.readLine().trimmed(), QByteArray("held"));

    QString error;
    bool busy = false;
    QVERIFY(!SessionResumption::takeOver(path, &error, &busy));
    QVERIFY(busy);
    QVERIFY2(error.contains(u"open in another AgentDesk window or headless run"_s)
                 && error.contains(QString::number(holder.processId())),
             qPrintable(error));

    // A second agent pointed at the same file (a new session that happened on its name):
    // refused at its first write, reported, nothing written.
    {
        SessionSpec spec;
        spec.root = repo.root();
        spec.sessionPath = path;
        spec.model = std::make_shared<ScriptedModel>(QList<ModelStep>{ModelStep::text(u"hi"_s)});
        SessionHost second(std::move(spec));
        second.prompt(u"say hi"_s);
        QTRY_VERIFY_WITH_TIMEOUT(second.ended(), 30'000);
        QTRY_VERIFY(!second.recorderFailures().isEmpty());
        QVERIFY2(second.recorderFailures().constFirst().contains(
                     QString::number(holder.processId())),
                 qPrintable(second.recorderFailures().constFirst()));
    }
    QCOMPARE(fileBytes(path), before);

    holder.kill(); // SIGKILL: its lock file stays behind
    QVERIFY(holder.waitForFinished(30'000));
    QVERIFY(QFile::exists(path + u".lock"_s));
    std::optional<SessionResumption> resumption = SessionResumption::takeOver(path, &error, &busy);
    QVERIFY2(resumption, qPrintable(error));
    QVERIFY(!busy);
    // While this process has it, a second taker here is refused just the same.
    QVERIFY(!SessionResumption::takeOver(path, &error, &busy));
    QVERIFY(busy);
    QVERIFY2(error.contains(QString::number(QCoreApplication::applicationPid())), qPrintable(error));

    SessionSpec spec;
    spec.root = repo.root();
    spec.sessionPath = path;
    spec.model = std::make_shared<ScriptedModel>(QList<ModelStep>{ModelStep::text(u"again"_s)});
    spec.resumption = std::move(resumption);
    {
        SessionHost resumed(std::move(spec));
        resumed.prompt(u"once more"_s);
        QTRY_VERIFY_WITH_TIMEOUT(resumed.ended(), 30'000);
    }
    const auto contents = SessionLog::load(path, &error);
    QVERIFY2(contents, qPrintable(error));
    QCOMPARE(contents->messages.size(), 4);
    QCOMPARE(contents->messages.constLast().text(), u"again"_s);
}

// A child process runs three sessions at once and is killed (SIGKILL) while all three stream
// their answers. Every message the child saw end is in its file (at most the line being
// written is lost: here a torn last line is made on purpose in one of them), and all three are
// taken over and go on, side by side, the interrupted answer closed first.
void tst_MultiAgent::threeSessionsKilledMidStreamAllResume()
{
    QTemporaryDir folder;
    for (int i = 0; i < killedSessions; ++i) {
        const QString root = folder.filePath(QStringLiteral("repo%1").arg(i));
        QVERIFY(QDir().mkpath(root));
        QFile notes(root + u"/notes.txt"_s);
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.write(QStringLiteral("notes of repository %1\n").arg(i).toUtf8());
    }

    QProcess child;
    child.setProcessChannelMode(QProcess::SeparateChannels);
    child.start(QCoreApplication::applicationFilePath(),
                TestSupport::thisTestWith({u"--three-sessions"_s, folder.path()}));
    QVERIFY(child.waitForStarted());
    QList<int> endedSeen(killedSessions, 0);
    QSet<int> streaming;
    QByteArray pending;
    const auto readReports = [&] {
        pending += child.readAllStandardOutput();
        while (pending.contains('\n')) {
            const qsizetype end = pending.indexOf('\n');
            const QByteArray line = pending.left(end);
            pending.remove(0, end + 1);
            const QList<QByteArray> words = line.split(' ');
            if (words.size() == 2 && words.at(0) == "streaming")
                streaming.insert(words.at(1).toInt());
            else if (words.size() == 2)
                endedSeen[words.at(0).toInt()] = words.at(1).toInt();
        }
    };
    QTRY_VERIFY_WITH_TIMEOUT((readReports(), streaming.size() == killedSessions), 60'000);
    child.kill(); // mid-stream, all three
    QVERIFY(child.waitForFinished(30'000));
    readReports();

    const auto pathOf = [&](int i) {
        return folder.filePath(QStringLiteral("sessions/s%1.jsonl").arg(i));
    };
    // A kill in the middle of a write (which SIGKILL alone rarely hits): the line being
    // written when one of them died, half there.
    {
        QFile file(pathOf(1));
        QVERIFY(file.open(QIODevice::Append));
        file.write(R"({"type":"partial","more":{"role":"assistant","content":[{"type":"te)");
    }

    std::vector<std::unique_ptr<SessionHost>> hosts;
    QList<int> beforeResume;
    for (int i = 0; i < killedSessions; ++i) {
        QString error;
        const auto contents = SessionLog::load(pathOf(i), &error);
        QVERIFY2(contents, qPrintable(error));
        // Every message the child saw end is on disk, in order, and nothing else is.
        QCOMPARE(contents->messages.size(), endedSeen.at(i));
        QCOMPARE(contents->messages.size(), 1 + 2 * toolTurnsBeforeTheAnswer);
        QCOMPARE(contents->messages.constFirst().text(),
                 QStringLiteral("task of session %1").arg(i));
        QCOMPARE(contents->state.value(u"runInProgress"_s).toBool(), true);
        QVERIFY(contents->warnings.size() <= 1);
        QCOMPARE(contents->warnings.size(), i == 1 ? 1 : 0);
        QVERIFY(contents->partial); // what the user saw of the answer
        QVERIFY(contents->partial->text().startsWith(QStringLiteral("session%1-word0").arg(i)));

        bool busy = true;
        std::optional<SessionResumption> resumption = SessionResumption::takeOver(pathOf(i),
                                                                                  &error,
                                                                                  &busy);
        QVERIFY2(resumption, qPrintable(error));
        QVERIFY(!busy);
        beforeResume.append(int(resumption->contents.messages.size()));
        SessionSpec spec;
        spec.root = folder.filePath(QStringLiteral("repo%1").arg(i));
        spec.sessionPath = pathOf(i);
        spec.model = std::make_shared<ScriptedModel>(
            QList<ModelStep>{ModelStep::text(QStringLiteral("session %1 goes on").arg(i))});
        spec.resumption = std::move(resumption);
        hosts.push_back(std::make_unique<SessionHost>(std::move(spec)));
    }
    for (int i = 0; i < killedSessions; ++i)
        hosts[size_t(i)]->prompt(u"go on"_s);
    for (const auto &host : hosts)
        QTRY_VERIFY_WITH_TIMEOUT(host->ended(), 30'000);
    for (const auto &host : hosts)
        QVERIFY2(host->recorderFailures().isEmpty(),
                 qPrintable(host->recorderFailures().join(u'\n')));
    hosts.clear();

    for (int i = 0; i < killedSessions; ++i) {
        QString error;
        const auto contents = SessionLog::load(pathOf(i), &error);
        QVERIFY2(contents, qPrintable(error));
        // The task, the tool turns, the interrupted answer closed, the new task and answer.
        QCOMPARE(contents->messages.size(), beforeResume.at(i) + 2);
        QCOMPARE(beforeResume.at(i), 1 + 2 * toolTurnsBeforeTheAnswer + 1);
        const Message &closed = contents->messages.at(1 + 2 * toolTurnsBeforeTheAnswer);
        QVERIFY(closed.isAssistant());
        QCOMPARE(contents->messages.constLast().text(), QStringLiteral("session %1 goes on").arg(i));
        QCOMPARE(contents->state.value(u"runInProgress"_s).toBool(), false);
        QVERIFY(!contents->partial);
    }
}

static int multiAgentMain(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc == 3 && qstrcmp(argv[1], "--three-sessions") == 0)
        return runThreeSessionsUntilKilled(QString::fromLocal8Bit(argv[2]));
    if (argc == 3 && qstrcmp(argv[1], "--hold-session") == 0)
        return holdSession(QString::fromLocal8Bit(argv[2]));
    tst_MultiAgent test;
    return QTest::qExec(&test, argc, argv);
}

AGENTDESK_TEST_ENTRY(multiAgentMain)

} // namespace tst_multiagent

#include "tst_multiagent.moc"
