// Headless runs are sessions too: agentdesk --print records its run in the repository's session
// store (the window's), --continue and --resume go on with one (its messages are the history the
// provider receives, the new ones are added to the same file), --no-session-persistence records
// nothing, and a session another process is writing is never written by a second one.
// The harness is tests/support/headlessrun.h.

#include "headlessrun.h"
#include "httptestserver.h"
#include "modelreplies.h"
#include "testfiles.h"

#include <ai/messagejson.h>
#include <session/sessionlog.h>
#include <session/sessionstore.h>
#include <testmain.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

#include <signal.h>

using namespace TestSupport;
namespace tst_headlesssessions {

using AgentCore::Message;
using AgentCore::SessionLog;

namespace {

const ReplyApi api = ReplyApi::OpenAiChat;

QStringList messageTexts(const QList<Message> &messages)
{
    QStringList texts;
    for (const Message &message : messages)
        texts.append(message.text());
    return texts;
}

QJsonObject agentStart(const HeadlessRun &run)
{
    const QList<QJsonObject> lines = run.jsonLines();
    return lines.isEmpty() ? QJsonObject() : lines.first();
}

} // namespace

class tst_HeadlessSessions : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
    }

    void runIsRecordedAsTheWindowRecordsItsSessions();
    void textModeNamesTheSessionOnStderrOnly();
    void noSessionPersistenceRecordsNothing();
    void continueAndResumeSendTheHistoryAndAppend();
    void continueTakesTheWindowsStateButNotItsModeOrQueue();
    void resumedSessionRulesAreNotGranted();
    void continueWithoutPersistenceReadsOnly();
    void errors_data();
    void errors();
    void sessionHeldByAnotherProcessIsRefusedAndUnchanged();
    void twoRunsNeverWriteOneSession();
    void aKilledRunIsPointedAtByTheNextRun();

private:
    /// One run of \a prompt answered with \a answer, in stream-json; its agent_start.
    QJsonObject runOnce(const HeadlessSandbox &sandbox,
                        const QString &prompt,
                        const QString &answer,
                        const QStringList &extra = {},
                        QList<RecordedRequest> *requests = nullptr)
    {
        HttpTestServer server;
        server.enqueue(scriptedReply(api, answer));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        QStringList{QStringLiteral("--output-format"), QStringLiteral("stream-json")}
                            + extra,
                        prompt);
        run.start();
        if (!run.finish() || run.exitCode() != 0) {
            qWarning("%s", qPrintable(run.report()));
            return {};
        }
        if (requests)
            *requests = server.requests();
        return agentStart(run);
    }
};

void tst_HeadlessSessions::runIsRecordedAsTheWindowRecordsItsSessions()
{
    HeadlessSandbox sandbox;
    QVERIFY(sandbox.isValid());
    const QJsonObject start = runOnce(sandbox,
                                      QStringLiteral("Remember the word kiwi."),
                                      QStringLiteral("Noted: kiwi."),
                                      {QStringLiteral("--permission-mode"),
                                       QStringLiteral("acceptEdits")});
    QVERIFY(!start.isEmpty());
    QCOMPARE(start.value(u"type").toString(), QStringLiteral("agent_start"));

    // agent_start names the session; its file is in the window's store for this repository.
    const QString id = start.value(u"sessionId").toString();
    const QString path = start.value(u"sessionFile").toString();
    QVERIFY(!id.isEmpty());
    QCOMPARE(sandbox.sessionFiles(), QStringList{path});
    QCOMPARE(QFileInfo(path).fileName(), id + QStringLiteral(".jsonl"));
    QCOMPARE(QFileInfo(path).absolutePath(),
             AgentCore::SessionStore(
                 sandbox.sessionsRoot() + u'/'
                 + QFileInfo(AgentCore::SessionStore::defaultDirectory(sandbox.root())).fileName())
                 .directory());

    QString error;
    const std::optional<SessionLog::Contents> contents = SessionLog::load(path, &error);
    QVERIFY2(contents, qPrintable(error));
    QVERIFY(contents->warnings.isEmpty());
    QCOMPARE(contents->header.value(u"repository").toString(), sandbox.root());
    QCOMPARE(messageTexts(contents->messages),
             (QStringList{QStringLiteral("Remember the word kiwi."),
                          QStringLiteral("Noted: kiwi.")}));
    // The state as the window writes it: the model as the settings name it, the permission
    // state, the run over; the window then lists it with the prompt as its title.
    const QJsonObject model = contents->state.value(u"model").toObject();
    QCOMPARE(model.value(u"provider").toString(), QStringLiteral("openai-compatible"));
    QCOMPARE(model.value(u"model").toString(), QStringLiteral("test-model"));
    QVERIFY(model.value(u"baseUrl").toString().startsWith(QStringLiteral("http://127.0.0.1:")));
    QCOMPARE(contents->state.value(u"permissionMode").toString(), QStringLiteral("acceptEdits"));
    QVERIFY(contents->state.contains(u"sessionRules"));
    QCOMPARE(contents->state.value(u"runInProgress").toBool(true), false);
    QCOMPARE(AgentCore::SessionStore::describe(path).title,
             QStringLiteral("Remember the word kiwi."));
    QVERIFY(!QFileInfo::exists(path + QStringLiteral(".lock"))); // released at exit
}

void tst_HeadlessSessions::textModeNamesTheSessionOnStderrOnly()
{
    HeadlessSandbox sandbox;
    QVERIFY(sandbox.isValid());
    HttpTestServer server;
    server.enqueue(scriptedReply(api, QStringLiteral("Noted.")));
    HeadlessRun run(sandbox, server, api, {}, QStringLiteral("Remember kiwi."));
    run.start();
    QVERIFY(run.finish());
    QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
    QCOMPARE(run.out, QByteArray("Noted.\n")); // stdout is the answer, nothing else
    const QStringList files = sandbox.sessionFiles();
    QCOMPARE(files.size(), 1);
    const QString id = AgentCore::SessionStore::idOf(files.first());
    QVERIFY2(run.err.contains(QStringLiteral("session %1 (continue it with --continue or "
                                             "--resume %1)")
                                  .arg(id)),
             qPrintable(run.report()));
}

void tst_HeadlessSessions::noSessionPersistenceRecordsNothing()
{
    HeadlessSandbox sandbox;
    QVERIFY(sandbox.isValid());
    const QJsonObject start = runOnce(sandbox,
                                      QStringLiteral("Remember kiwi."),
                                      QStringLiteral("Noted."),
                                      {QStringLiteral("--no-session-persistence")});
    QVERIFY(!start.isEmpty());
    QCOMPARE(start.value(u"sessionId").toString(QStringLiteral("missing")), QString());
    QCOMPARE(start.value(u"sessionFile").toString(QStringLiteral("missing")), QString());
    QVERIFY(sandbox.sessionFiles().isEmpty());
}

void tst_HeadlessSessions::continueAndResumeSendTheHistoryAndAppend()
{
    HeadlessSandbox sandbox;
    QVERIFY(sandbox.isValid());
    const QString first = runOnce(sandbox,
                                  QStringLiteral("Remember the word kiwi."),
                                  QStringLiteral("Noted: kiwi."))
                              .value(u"sessionId")
                              .toString();
    QVERIFY(!first.isEmpty());
    QTest::qWait(20); // the second session is the most recent by its file's time too
    const QString second = runOnce(sandbox,
                                   QStringLiteral("Remember the word plum."),
                                   QStringLiteral("Noted: plum."))
                               .value(u"sessionId")
                               .toString();
    QVERIFY(!second.isEmpty());
    QVERIFY(second != first);

    // --continue: the most recent session (the second); its messages open the request.
    QList<RecordedRequest> requests;
    QJsonObject start = runOnce(sandbox,
                                QStringLiteral("Which word?"),
                                QStringLiteral("Plum."),
                                {QStringLiteral("--continue")},
                                &requests);
    QCOMPARE(start.value(u"sessionId").toString(), second);
    QCOMPARE(requests.size(), 1);
    QCOMPARE(requestConversation(requests.first().body),
             (QStringList{QStringLiteral("user: Remember the word plum."),
                          QStringLiteral("assistant: Noted: plum."),
                          QStringLiteral("user: Which word?")}));

    // --resume ID (-r): that session, though it is not the latest.
    start = runOnce(sandbox,
                    QStringLiteral("And which word now?"),
                    QStringLiteral("Kiwi."),
                    {QStringLiteral("-r"), first},
                    &requests);
    QCOMPARE(start.value(u"sessionId").toString(), first);
    QCOMPARE(requests.size(), 1);
    QCOMPARE(requestConversation(requests.first().body),
             (QStringList{QStringLiteral("user: Remember the word kiwi."),
                          QStringLiteral("assistant: Noted: kiwi."),
                          QStringLiteral("user: And which word now?")}));

    // No new file: each run was added to the session it continued.
    const QStringList files = sandbox.sessionFiles();
    QCOMPARE(files.size(), 2);
    QString error;
    const QString firstPath = QFileInfo(files.first()).absolutePath() + u'/' + first
                              + QStringLiteral(".jsonl");
    const QString secondPath = QFileInfo(files.first()).absolutePath() + u'/' + second
                               + QStringLiteral(".jsonl");
    QCOMPARE(messageTexts(SessionLog::load(firstPath, &error)->messages),
             (QStringList{QStringLiteral("Remember the word kiwi."),
                          QStringLiteral("Noted: kiwi."),
                          QStringLiteral("And which word now?"),
                          QStringLiteral("Kiwi.")}));
    QCOMPARE(messageTexts(SessionLog::load(secondPath, &error)->messages),
             (QStringList{QStringLiteral("Remember the word plum."),
                          QStringLiteral("Noted: plum."),
                          QStringLiteral("Which word?"),
                          QStringLiteral("Plum.")}));

    // The id as a path works too (the window's list and agent_start's sessionFile name it).
    start = runOnce(sandbox,
                    QStringLiteral("Once more?"),
                    QStringLiteral("Kiwi."),
                    {QStringLiteral("--resume"), firstPath},
                    &requests);
    QCOMPARE(start.value(u"sessionId").toString(), first);
    QCOMPARE(requestConversation(requests.first().body).size(), 5);
}

void tst_HeadlessSessions::continueTakesTheWindowsStateButNotItsModeOrQueue()
{
    HeadlessSandbox sandbox;
    QVERIFY(sandbox.isValid());
    const QJsonObject start = runOnce(sandbox,
                                      QStringLiteral("Look at the notes."),
                                      QStringLiteral("They mention apple pie."));
    const QString path = start.value(u"sessionFile").toString();
    QVERIFY(!path.isEmpty());

    // What a window adds to the session: a title, a queued follow-up, a rule allowed for this
    // session, and bypass mode.
    {
        QString error;
        std::optional<SessionLog::Contents> contents = SessionLog::load(path, &error);
        QVERIFY2(contents, qPrintable(error));
        QJsonObject state = contents->state;
        state.insert(u"title", QStringLiteral("Pie research"));
        state.insert(u"permissionMode", QStringLiteral("bypass"));
        state.insert(u"sessionRules",
                     QJsonArray{QJsonObject{{QStringLiteral("rule"), QStringLiteral("Edit")},
                                            {QStringLiteral("behavior"), QStringLiteral("allow")}}});
        Message queued = Message::makeUser(QStringLiteral("then bake it"));
        state.insert(u"followUps", QJsonArray{AgentCore::messageToJson(queued)});
        const std::unique_ptr<SessionLog> log = SessionLog::open(path, {}, &error);
        QVERIFY2(log, qPrintable(error));
        QVERIFY(log->appendState(state, &error));
    }

    // The run tries an edit (which the session's rule would allow, but a file is not a grant)
    // and a command, which bypass would run.
    HttpTestServer server;
    server.enqueue(scriptedReply(api, {}, {headlessReadCall()}));
    server.enqueue(scriptedReply(api, {}, {headlessEditCall()}));
    server.enqueue(scriptedReply(api, {}, {headlessBashCall(QStringLiteral("touch made.txt"))}));
    server.enqueue(scriptedReply(api, QStringLiteral("Both were denied.")));
    HeadlessRun run(sandbox,
                    server,
                    api,
                    {QStringLiteral("--continue"),
                     QStringLiteral("--output-format"),
                     QStringLiteral("stream-json")},
                    QStringLiteral("Make it banana."));
    run.start();
    QVERIFY(run.finish());
    QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
    QCOMPARE(agentStart(run).value(u"permissionMode").toString(), QStringLiteral("default"));
    QVERIFY2(sandbox.read(QStringLiteral("notes.txt")) == "apple pie\n", qPrintable(run.report()));
    QVERIFY(!QFileInfo::exists(sandbox.root() + QStringLiteral("/made.txt")));
    QVERIFY2(run.err.contains(QStringLiteral("--allowed-tools 'Edit'")), qPrintable(run.report()));
    QVERIFY2(run.err.contains(QStringLiteral("Denied this Bash")), qPrintable(run.report()));
    QCOMPARE(server.requests().size(), 4); // the queued follow-up never ran

    QString error;
    const std::optional<SessionLog::Contents> after = SessionLog::load(path, &error);
    QVERIFY2(after, qPrintable(error));
    QCOMPARE(after->state.value(u"title").toString(), QStringLiteral("Pie research"));
    QCOMPARE(after->state.value(u"followUps").toArray().size(), 1);
    QCOMPARE(after->state.value(u"followUpsPaused").toBool(), true);
    QCOMPARE(after->state.value(u"sessionRules").toArray().size(), 1);
    QCOMPARE(after->state.value(u"permissionMode").toString(), QStringLiteral("default"));
}

// Issue #31, item 9: a session file is data anyone or any tool may have written. Its "allow
// Bash, Write" rules, resumed in default mode, run nothing unasked (denied, as --print denies
// what asks); stderr and agent_start name them and say how to grant them for a run, and the
// file keeps them for a window to offer.
void tst_HeadlessSessions::resumedSessionRulesAreNotGranted()
{
    HeadlessSandbox sandbox;
    QVERIFY(sandbox.isValid());
    const QJsonObject start = runOnce(sandbox,
                                      QStringLiteral("Look at the notes."),
                                      QStringLiteral("They mention apple pie."));
    const QString id = start.value(u"sessionId").toString();
    const QString path = start.value(u"sessionFile").toString();
    QVERIFY(!path.isEmpty());
    {
        QString error;
        std::optional<SessionLog::Contents> contents = SessionLog::load(path, &error);
        QVERIFY2(contents, qPrintable(error));
        QJsonObject state = contents->state;
        const auto allow = [](const QString &rule) {
            return QJsonObject{{QStringLiteral("rule"), rule},
                               {QStringLiteral("behavior"), QStringLiteral("allow")}};
        };
        state.insert(u"sessionRules",
                     QJsonArray{allow(QStringLiteral("Bash")), allow(QStringLiteral("Write"))});
        const std::unique_ptr<SessionLog> log = SessionLog::open(path, {}, &error);
        QVERIFY2(log, qPrintable(error));
        QVERIFY(log->appendState(state, &error));
    }

    HttpTestServer server;
    server.enqueue(scriptedReply(api, {}, {headlessBashCall(QStringLiteral("touch made.txt"))}));
    server.enqueue(scriptedReply(api,
                                 {},
                                 {{QStringLiteral("call_write"),
                                   QStringLiteral("Write"),
                                   {{QStringLiteral("file_path"), QStringLiteral("written.txt")},
                                    {QStringLiteral("content"), QStringLiteral("pwned\n")}}}}));
    server.enqueue(scriptedReply(api, QStringLiteral("Both were denied.")));
    HeadlessRun run(sandbox,
                    server,
                    api,
                    {QStringLiteral("--resume"),
                     id,
                     QStringLiteral("--output-format"),
                     QStringLiteral("stream-json")},
                    QStringLiteral("Make a file."));
    run.start();
    QVERIFY(run.finish());
    QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
    QVERIFY2(!QFileInfo::exists(sandbox.root() + QStringLiteral("/made.txt")),
             qPrintable(run.report()));
    QVERIFY2(!QFileInfo::exists(sandbox.root() + QStringLiteral("/written.txt")),
             qPrintable(run.report()));
    QVERIFY2(run.err.contains(QStringLiteral("Denied this Bash")), qPrintable(run.report()));
    // Said on stderr, with the way to grant them for one run, and in agent_start.
    QVERIFY2(run.err.contains(QStringLiteral("Bash, Write"))
                 && run.err.contains(QStringLiteral("not applied"))
                 && run.err.contains(QStringLiteral("--allowed-tools 'Bash, Write'")),
             qPrintable(run.report()));
    QCOMPARE(agentStart(run).value(u"sessionRulesNotApplied").toArray(),
             (QJsonArray{QStringLiteral("Bash"), QStringLiteral("Write")}));

    QString error;
    const std::optional<SessionLog::Contents> after = SessionLog::load(path, &error);
    QVERIFY2(after, qPrintable(error));
    QCOMPARE(after->state.value(u"sessionRules").toArray().size(), 2);
}

void tst_HeadlessSessions::continueWithoutPersistenceReadsOnly()
{
    HeadlessSandbox sandbox;
    QVERIFY(sandbox.isValid());
    const QString path = runOnce(sandbox, QStringLiteral("Remember kiwi."), QStringLiteral("Noted."))
                             .value(u"sessionFile")
                             .toString();
    QVERIFY(!path.isEmpty());
    const QByteArray before = fileBytes(path);
    QList<RecordedRequest> requests;
    const QJsonObject start = runOnce(sandbox,
                                      QStringLiteral("Which word?"),
                                      QStringLiteral("Kiwi."),
                                      {QStringLiteral("-c"),
                                       QStringLiteral("--no-session-persistence")},
                                      &requests);
    QCOMPARE(start.value(u"sessionId").toString(QStringLiteral("missing")), QString());
    QCOMPARE(requestConversation(requests.value(0).body).size(), 3);
    QCOMPARE(fileBytes(path), before);
    QCOMPARE(sandbox.sessionFiles().size(), 1);
}

void tst_HeadlessSessions::errors_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    QTest::addColumn<bool>("recordFirst");

    QTest::newRow("continue without a session")
        << QStringList{QStringLiteral("--continue")}
        << QStringLiteral("No session to continue: %root has none yet.") << false;
    QTest::newRow("unknown id") << QStringList{QStringLiteral("--resume"),
                                               QStringLiteral("20990101-000000-000-beef")}
                                << QStringLiteral("No session 20990101-000000-000-beef for %root.")
                                << true;
    QTest::newRow("id of another repository")
        << QStringList{QStringLiteral("--resume"), QStringLiteral("%other")}
        << QStringLiteral("The session %other belongs to another repository, %otherRoot: run "
                          "with --repo %otherRoot to continue it.")
        << true;
    QTest::newRow("file of another repository")
        << QStringList{QStringLiteral("--resume"), QStringLiteral("%otherPath")}
        << QStringLiteral("The session %other belongs to another repository, %otherRoot: run "
                          "with --repo %otherRoot to continue it.")
        << true;
    QTest::newRow("unreadable session")
        << QStringList{QStringLiteral("--resume"), QStringLiteral("20000101-000000-000-0bad")}
        << QStringLiteral("Cannot continue the session 20000101-000000-000-0bad: ") << true;
    QTest::newRow("continue and resume")
        << QStringList{QStringLiteral("--continue"), QStringLiteral("--resume"), QStringLiteral("x")}
        << QStringLiteral("Give either --continue or --resume, not both.") << false;
    QTest::newRow("continue without print") << QStringList{QStringLiteral("--continue")}
                                            << QStringLiteral("--continue is only used "
                                                              "with --print.")
                                            << false;
}

void tst_HeadlessSessions::errors()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    QFETCH(bool, recordFirst);
    HeadlessSandbox sandbox;
    QVERIFY(sandbox.isValid());
    if (recordFirst) {
        QVERIFY(
            !runOnce(sandbox, QStringLiteral("Remember kiwi."), QStringLiteral("Noted.")).isEmpty());
    }
    // Another repository of the same user, with a session of its own.
    const QString otherRoot = sandbox.root() + QStringLiteral("-other");
    QVERIFY(QDir().mkpath(otherRoot));
    QString otherId;
    {
        HttpTestServer server;
        server.enqueue(scriptedReply(api, QStringLiteral("Elsewhere.")));
        HeadlessRun other(sandbox,
                          server,
                          api,
                          {QStringLiteral("--output-format"), QStringLiteral("stream-json")},
                          QStringLiteral("Another repository."));
        other.arguments[other.arguments.indexOf(sandbox.root())] = otherRoot;
        other.start();
        QVERIFY(other.finish());
        QVERIFY2(other.exitCode() == 0, qPrintable(other.report()));
        otherId = agentStart(other).value(u"sessionId").toString();
        QVERIFY(!otherId.isEmpty());
    }
    // A file in this repository's folder that is not a session.
    const QStringList files = sandbox.sessionFiles();
    QString folder;
    QString otherPath;
    for (const QString &file : files) {
        if (AgentCore::SessionStore::idOf(file) != otherId)
            folder = QFileInfo(file).absolutePath();
        else
            otherPath = file;
    }
    if (!folder.isEmpty()) {
        QFile junk(folder + QStringLiteral("/20000101-000000-000-0bad.jsonl"));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write("not a session\n");
    }
    QHash<QString, QByteArray> before;
    for (const QString &file : sandbox.sessionFiles())
        before.insert(file, fileBytes(file));

    const bool print = !QByteArray(QTest::currentDataTag()).contains("without print");
    for (QString &argument : arguments)
        argument.replace(QStringLiteral("%otherPath"), otherPath)
            .replace(QStringLiteral("%other"), otherId);
    message.replace(QStringLiteral("%otherRoot"), QFileInfo(otherRoot).canonicalFilePath())
        .replace(QStringLiteral("%other"), otherId)
        .replace(QStringLiteral("%root"), sandbox.root());

    HttpTestServer server;
    server.enqueue(scriptedReply(api, QStringLiteral("Must not be asked.")));
    HeadlessRun run(sandbox, server, api, arguments, QStringLiteral("Which word?"));
    if (!print)
        run.arguments = QStringList{QStringLiteral("--repo"), sandbox.root()} + arguments;
    run.start();
    QVERIFY(run.finish());
    QVERIFY2(run.exitCode() == 2, qPrintable(run.report()));
    QVERIFY2(run.err.contains(message), qPrintable(message + u'\n' + run.report()));
    QVERIFY(run.out.isEmpty());
    QVERIFY(server.requests().isEmpty());
    // Nothing was written, and no session was started instead.
    QHash<QString, QByteArray> after;
    for (const QString &file : sandbox.sessionFiles())
        after.insert(file, fileBytes(file));
    QCOMPARE(after, before);
}

void tst_HeadlessSessions::sessionHeldByAnotherProcessIsRefusedAndUnchanged()
{
    HeadlessSandbox sandbox;
    QVERIFY(sandbox.isValid());
    const QJsonObject start = runOnce(sandbox,
                                      QStringLiteral("Remember kiwi."),
                                      QStringLiteral("Noted."));
    const QString path = start.value(u"sessionFile").toString();
    const QString id = start.value(u"sessionId").toString();
    QVERIFY(!path.isEmpty());

    // This process holds it, as a window that has it open does (the same lock).
    QString error;
    std::unique_ptr<SessionLog> held = SessionLog::open(path, {}, &error);
    QVERIFY2(held, qPrintable(error));
    const QByteArray before = fileBytes(path);

    for (const QStringList &arguments :
         {QStringList{QStringLiteral("--resume"), id}, QStringList{QStringLiteral("--continue")}}) {
        HttpTestServer server;
        server.enqueue(scriptedReply(api, QStringLiteral("Must not be asked.")));
        HeadlessRun run(sandbox, server, api, arguments, QStringLiteral("Which word?"));
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 2, qPrintable(run.report()));
        // --continue finds every session open elsewhere (tst_headlesscontinuebusy has more).
        const bool continued = arguments.contains(QStringLiteral("--continue"));
        const QString expected = continued
                                     ? QStringLiteral("No session to continue: every "
                                                      "session of %1 is open in another "
                                                      "AgentDesk window or headless run")
                                           .arg(sandbox.root())
                                     : QStringLiteral("Cannot continue the session %1: ").arg(id);
        const QString holder = continued ? QStringLiteral("%1 (process %2").arg(id)
                                         : QStringLiteral("open in another AgentDesk window or "
                                                          "headless run (process %2");
        QVERIFY2(run.err.contains(expected)
                     && run.err.contains(holder.arg(QCoreApplication::applicationPid())),
                 qPrintable(run.report()));
        QVERIFY(server.requests().isEmpty());
        QCOMPARE(fileBytes(path), before);
        QCOMPARE(sandbox.sessionFiles().size(), 1);
    }

    // Released, it can be continued.
    held.reset();
    QVERIFY(
        !runOnce(sandbox, QStringLiteral("Which word?"), QStringLiteral("Kiwi."), {"-c"}).isEmpty());
    QCOMPARE(SessionLog::load(path, &error)->messages.size(), 4);
}

void tst_HeadlessSessions::twoRunsNeverWriteOneSession()
{
    HeadlessSandbox sandbox;
    QVERIFY(sandbox.isValid());
    const QString path = runOnce(sandbox, QStringLiteral("Remember kiwi."), QStringLiteral("Noted."))
                             .value(u"sessionFile")
                             .toString();
    QVERIFY(!path.isEmpty());

    // The first run continues the session and waits for a provider that hangs mid-answer.
    HttpTestServer slow;
    slow.enqueue(stalledReply(api));
    QSignalSpy stalled(&slow, &HttpTestServer::responseFinished);
    HeadlessRun first(sandbox,
                      slow,
                      api,
                      {QStringLiteral("--continue"),
                       QStringLiteral("--output-format"),
                       QStringLiteral("stream-json")},
                      QStringLiteral("Think slowly."));
    first.start();
    QVERIFY(stalled.wait(HeadlessTimeoutMs));
    // The recorder keeps the answer so far a second after its first words: only then does the
    // first run stop writing, so only then can the file show that the second wrote nothing.
    QTRY_VERIFY_WITH_TIMEOUT(fileBytes(path).contains("\"type\":\"partial\""), HeadlessTimeoutMs);
    const QByteArray during = fileBytes(path);

    // The second is refused, naming the first, and writes nothing.
    HttpTestServer server;
    server.enqueue(scriptedReply(api, QStringLiteral("Must not be asked.")));
    HeadlessRun second(sandbox,
                       server,
                       api,
                       {QStringLiteral("--continue")},
                       QStringLiteral("Hurry."));
    second.start();
    QVERIFY(second.finish());
    QVERIFY2(second.exitCode() == 2, qPrintable(second.report()));
    QVERIFY2(second.err.contains(QStringLiteral("(process %1").arg(first.process.processId())),
             qPrintable(second.report()));
    QVERIFY(server.requests().isEmpty());
    QCOMPARE(fileBytes(path), during);

    // The first ends (interrupted) and its session holds both of its messages, nothing else.
    QCOMPARE(::kill(pid_t(first.process.processId()), SIGINT), 0);
    QVERIFY(first.finish());
    QCOMPARE(first.exitCode(), 130);
    QString error;
    const std::optional<SessionLog::Contents> contents = SessionLog::load(path, &error);
    QVERIFY2(contents, qPrintable(error));
    const QStringList texts = messageTexts(contents->messages);
    QCOMPARE(texts.mid(0, 3),
             (QStringList{QStringLiteral("Remember kiwi."),
                          QStringLiteral("Noted."),
                          QStringLiteral("Think slowly.")}));
    QVERIFY(!texts.contains(QStringLiteral("Hurry.")));
}

// Issue #34, item 10: after kill -9, a new run and a --resume of another session point at the
// session AgentDesk ended in the middle of (the window shows a bar for it); resumed, it is no
// longer pointed at.
void tst_HeadlessSessions::aKilledRunIsPointedAtByTheNextRun()
{
    HeadlessSandbox sandbox;
    QVERIFY(sandbox.isValid());
    const QString earlier = runOnce(sandbox,
                                    QStringLiteral("Remember kiwi."),
                                    QStringLiteral("Noted."))
                                .value(u"sessionId")
                                .toString();
    QVERIFY(!earlier.isEmpty());

    // A run killed while its provider answers.
    HttpTestServer slow;
    slow.enqueue(stalledReply(api));
    QSignalSpy stalled(&slow, &HttpTestServer::responseFinished);
    HeadlessRun killed(sandbox,
                       slow,
                       api,
                       {QStringLiteral("--output-format"), QStringLiteral("stream-json")},
                       QStringLiteral("Think slowly."));
    killed.start();
    QVERIFY(stalled.wait(HeadlessTimeoutMs));
    // Its file, once the run wrote that it runs (the provider may be asked before that).
    QString path;
    const auto running = [&] {
        for (const QString &file : sandbox.sessionFiles()) {
            if (AgentCore::SessionStore::idOf(file) != earlier)
                path = file;
        }
        return !path.isEmpty() && fileBytes(path).contains("\"runInProgress\":true");
    };
    QTRY_VERIFY_WITH_TIMEOUT(running(), HeadlessTimeoutMs);
    QCOMPARE(::kill(pid_t(killed.process.processId()), SIGKILL), 0);
    QVERIFY(killed.finish());
    QVERIFY(AgentCore::SessionStore::describe(path).interrupted);
    const QString id = AgentCore::SessionStore::idOf(path);
    const QString pointer = QStringLiteral("note: AgentDesk ended while the session %1 (“Think "
                                           "slowly.”) was running")
                                .arg(id);
    const QString howTo = QStringLiteral("Continue it with --resume %1").arg(id);

    // A new run, and one that resumes the earlier session: both say where the killed one is.
    for (const QStringList &arguments :
         {QStringList(), QStringList{QStringLiteral("--resume"), earlier}}) {
        HttpTestServer server;
        server.enqueue(scriptedReply(api, QStringLiteral("Hello.")));
        HeadlessRun run(sandbox, server, api, arguments, QStringLiteral("Hello?"));
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QVERIFY2(run.err.contains(pointer) && run.err.contains(howTo), qPrintable(run.report()));
        QCOMPARE(run.out, QByteArray("Hello.\n"));                    // stdout stays the answer
        QVERIFY(AgentCore::SessionStore::describe(path).interrupted); // only pointed at
    }

    // Resumed, it is pointed at no longer: its run is closed.
    for (int i = 0; i < 2; ++i) {
        HttpTestServer server;
        server.enqueue(scriptedReply(api, QStringLiteral("Done now.")));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        i == 0 ? QStringList{QStringLiteral("--resume"), id} : QStringList(),
                        QStringLiteral("Go on."));
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QVERIFY2(!run.err.contains(QStringLiteral("AgentDesk ended while")),
                 qPrintable(run.report()));
    }
    QVERIFY(!AgentCore::SessionStore::describe(path).interrupted);
}

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessSessions)

} // namespace tst_headlesssessions

#include "tst_headlesssessions.moc"
