// agentdesk --print --continue with several agents at once: the repository's most recent session
// is often open in another window or headless run, which no second process may write. --continue
// then goes on with the most recent session that is free and says on stderr which ones it passed
// over and who has them; when every session is open elsewhere it fails (exit code 2) and says so.
// A session "open elsewhere" is held by a real second process (this test binary, started with
// --hold-session, takes it over as a window resuming it does). The harness is
// tests/support/headlessrun.h.

#include "headlessrun.h"
#include "httptestserver.h"
#include "modelreplies.h"
#include "testfiles.h"

#include <session/sessionlog.h>
#include <session/sessionresumption.h>
#include <testmain.h>

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonObject>
#include <QProcess>
#include <QTest>
#include <QTextStream>

#include <memory>
#include <vector>

using namespace TestSupport;
namespace tst_headlesscontinuebusy {

using AgentCore::SessionLog;
using AgentCore::SessionResumption;

namespace {

const ReplyApi api = ReplyApi::OpenAiChat;

/// The child: takes the session over as a window resuming it does, says "held", and keeps it
/// until it is killed.
int holdSession(const QString &path)
{
    QString error;
    std::optional<SessionResumption> resumption = SessionResumption::takeOver(path, &error);
    QTextStream(stdout) << (resumption ? QStringLiteral("held") : error) << Qt::endl;
    return resumption ? QCoreApplication::exec() : 1;
}

/// A second process that has \a path open until the object is destroyed.
class Holder
{
public:
    explicit Holder(const QString &path)
    {
        m_process.start(QCoreApplication::applicationFilePath(),
                        TestSupport::thisTestWith({QStringLiteral("--hold-session"), path}));
        m_held = m_process.waitForReadyRead(30'000)
                 && m_process.readLine().trimmed() == QByteArray("held");
    }
    ~Holder()
    {
        m_process.kill();
        m_process.waitForFinished(30'000);
    }
    bool held() const { return m_held; }
    qint64 pid() const { return m_process.processId(); }

private:
    QProcess m_process;
    bool m_held = false;
};

struct Recorded
{
    QString id;
    QString path;
};

} // namespace

class tst_HeadlessContinueBusy : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
    }

    void continueTakesTheMostRecentFreeSession_data();
    void continueTakesTheMostRecentFreeSession();
    void everySessionOpenElsewhereIsRefused();
    void continueWithoutPersistenceReadsTheMostRecentEvenIfOpen();

private:
    /// Three sessions, oldest first: "kiwi", "plum", "fig" (the most recent).
    QList<Recorded> threeSessions(const HeadlessSandbox &sandbox)
    {
        QList<Recorded> sessions;
        for (const QString &word :
             {QStringLiteral("kiwi"), QStringLiteral("plum"), QStringLiteral("fig")}) {
            if (!sessions.isEmpty())
                QTest::qWait(20); // each is the most recent by its file's time too
            HttpTestServer server;
            server.enqueue(scriptedReply(api, QStringLiteral("Noted: %1.").arg(word)));
            HeadlessRun run(sandbox,
                            server,
                            api,
                            {QStringLiteral("--output-format"), QStringLiteral("stream-json")},
                            QStringLiteral("Remember the word %1.").arg(word));
            run.start();
            if (!run.finish() || run.exitCode() != 0 || run.jsonLines().isEmpty()) {
                qWarning("%s", qPrintable(run.report()));
                return {};
            }
            const QJsonObject start = run.jsonLines().constFirst();
            sessions.append(
                {start.value(u"sessionId").toString(), start.value(u"sessionFile").toString()});
        }
        return sessions;
    }
};

void tst_HeadlessContinueBusy::continueTakesTheMostRecentFreeSession_data()
{
    QTest::addColumn<int>("held"); // how many of the most recent sessions are open elsewhere
    QTest::newRow("the most recent open elsewhere") << 1;
    QTest::newRow("the two most recent open elsewhere") << 2;
}

// The most recent session (and the one before) is open in other processes: --continue goes on
// with the most recent one that is free, the provider gets that one's history, the new messages
// are added to it, the held ones are left as they are, and stderr names each one passed over
// with the process that has it, and the one continued.
void tst_HeadlessContinueBusy::continueTakesTheMostRecentFreeSession()
{
    QFETCH(int, held);
    HeadlessSandbox sandbox;
    QVERIFY(sandbox.isValid());
    const QList<Recorded> sessions = threeSessions(sandbox);
    QCOMPARE(sessions.size(), 3);
    std::vector<std::unique_ptr<Holder>> holders;
    QList<QByteArray> before;
    for (int i = 0; i < held; ++i) {
        const Recorded &session = sessions.at(2 - i);
        holders.push_back(std::make_unique<Holder>(session.path));
        QVERIFY(holders.back()->held());
        before.append(fileBytes(session.path));
    }
    const Recorded &expected = sessions.at(2 - held);
    const QString word = held == 1 ? QStringLiteral("plum") : QStringLiteral("kiwi");

    HttpTestServer server;
    server.enqueue(scriptedReply(api, QStringLiteral("It was %1.").arg(word)));
    HeadlessRun run(sandbox,
                    server,
                    api,
                    {QStringLiteral("--continue"),
                     QStringLiteral("--output-format"),
                     QStringLiteral("stream-json")},
                    QStringLiteral("Which word?"));
    run.start();
    QVERIFY(run.finish());
    QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
    QVERIFY(!run.jsonLines().isEmpty());
    QCOMPARE(run.jsonLines().constFirst().value(u"sessionId").toString(), expected.id);
    QCOMPARE(server.requests().size(), 1);
    QCOMPARE(requestConversation(server.requests().constFirst().body),
             (QStringList{QStringLiteral("user: Remember the word %1.").arg(word),
                          QStringLiteral("assistant: Noted: %1.").arg(word),
                          QStringLiteral("user: Which word?")}));

    // stderr: which were passed over, who has them, and which one was continued.
    for (int i = 0; i < held; ++i) {
        QVERIFY2(run.err.contains(QStringLiteral("%1 (process %2")
                                      .arg(sessions.at(2 - i).id)
                                      .arg(holders.at(size_t(i))->pid())),
                 qPrintable(run.report()));
    }
    QVERIFY2(run.err.contains(held == 1 ? QStringLiteral("the most recent session, ")
                                        : QStringLiteral("the 2 most recent sessions are open")),
             qPrintable(run.report()));
    QVERIFY2(run.err.contains(QStringLiteral("continuing %1, the most recent one that is free.")
                                  .arg(expected.id)),
             qPrintable(run.report()));

    // The continued session grew by the two new messages; the held ones were not touched and
    // no new session was made.
    QString error;
    const std::optional<SessionLog::Contents> contents = SessionLog::load(expected.path, &error);
    QVERIFY2(contents, qPrintable(error));
    QCOMPARE(contents->messages.size(), 4);
    QCOMPARE(contents->messages.constLast().text(), QStringLiteral("It was %1.").arg(word));
    for (int i = 0; i < held; ++i)
        QCOMPARE(fileBytes(sessions.at(2 - i).path), before.at(i));
    QCOMPARE(sandbox.sessionFiles().size(), 3);
}

// Every session of the repository is open elsewhere: exit code 2 before any request, a message
// that says so and names each session with its process and what to do, and nothing written.
void tst_HeadlessContinueBusy::everySessionOpenElsewhereIsRefused()
{
    HeadlessSandbox sandbox;
    QVERIFY(sandbox.isValid());
    const QList<Recorded> sessions = threeSessions(sandbox);
    QCOMPARE(sessions.size(), 3);
    std::vector<std::unique_ptr<Holder>> holders;
    QList<QByteArray> before;
    for (const Recorded &session : sessions) {
        holders.push_back(std::make_unique<Holder>(session.path));
        QVERIFY(holders.back()->held());
        before.append(fileBytes(session.path));
    }

    HttpTestServer server;
    server.enqueue(scriptedReply(api, QStringLiteral("Must not be asked.")));
    HeadlessRun run(sandbox, server, api, {QStringLiteral("--continue")}, QStringLiteral("Hi."));
    run.start();
    QVERIFY(run.finish());
    QVERIFY2(run.exitCode() == 2, qPrintable(run.report()));
    QVERIFY2(run.err.contains(QStringLiteral("No session to continue: every session of %1 is open "
                                             "in another AgentDesk window or headless run")
                                  .arg(QDir::toNativeSeparators(sandbox.root())))
                 && run.err.contains(QStringLiteral("Run without --continue to start a new one")),
             qPrintable(run.report()));
    for (int i = 0; i < 3; ++i) {
        // Most recent first, each with the process that has it.
        QVERIFY2(run.err.contains(QStringLiteral("%1 (process %2")
                                      .arg(sessions.at(2 - i).id)
                                      .arg(holders.at(size_t(2 - i))->pid())),
                 qPrintable(run.report()));
    }
    QVERIFY(run.err.indexOf(sessions.at(2).id) < run.err.indexOf(sessions.at(0).id));
    QVERIFY(server.requests().isEmpty());
    for (int i = 0; i < 3; ++i)
        QCOMPARE(fileBytes(sessions.at(i).path), before.at(i));
    QCOMPARE(sandbox.sessionFiles().size(), 3);
}

// Without persistence nothing is added to the session, so another process having it open does
// not matter: the most recent one is read as it is.
void tst_HeadlessContinueBusy::continueWithoutPersistenceReadsTheMostRecentEvenIfOpen()
{
    HeadlessSandbox sandbox;
    QVERIFY(sandbox.isValid());
    const QList<Recorded> sessions = threeSessions(sandbox);
    QCOMPARE(sessions.size(), 3);
    Holder holder(sessions.at(2).path);
    QVERIFY(holder.held());

    HttpTestServer server;
    server.enqueue(scriptedReply(api, QStringLiteral("Fig.")));
    HeadlessRun run(sandbox,
                    server,
                    api,
                    {QStringLiteral("--continue"), QStringLiteral("--no-session-persistence")},
                    QStringLiteral("Which word?"));
    run.start();
    QVERIFY(run.finish());
    QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
    QCOMPARE(server.requests().size(), 1);
    QCOMPARE(requestConversation(server.requests().constFirst().body).value(0),
             QStringLiteral("user: Remember the word fig."));
    QVERIFY2(!run.err.contains(QStringLiteral("most recent")), qPrintable(run.report()));
}

static int continueBusyMain(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc == 3 && qstrcmp(argv[1], "--hold-session") == 0)
        return holdSession(QString::fromLocal8Bit(argv[2]));
    tst_HeadlessContinueBusy test;
    return QTest::qExec(&test, argc, argv);
}

AGENTDESK_TEST_ENTRY(continueBusyMain)

} // namespace tst_headlesscontinuebusy

#include "tst_headlesscontinuebusy.moc"
