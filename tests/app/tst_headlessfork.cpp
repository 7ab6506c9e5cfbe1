// agentdesk --print --fork ID[:MESSAGE]: a new session whose history is a copy of the session's
// active branch up to that message (by its number from 1, or its id; default the last), as
// `claude --resume ID --fork-session` and `codex fork` do; the original stays byte for byte as
// it was. Through the real binary and a scripted provider on 127.0.0.1 (tests/support).

#include "headlessrun.h"
#include "httptestserver.h"
#include "modelreplies.h"

#include <session/sessionlog.h>
#include <session/sessionstore.h>
#include <testmain.h>

#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QTest>

using namespace TestSupport;
using namespace Qt::StringLiterals;

namespace tst_headlessfork {

namespace {

struct ForkRun
{
    int exitCode = -1;
    QJsonObject start; // agent_start
    QString err;
    QList<RecordedRequest> requests;
};

ForkRun runForked(const HeadlessSandbox &sandbox,
                  const QString &prompt,
                  const QString &answer,
                  const QStringList &extra = {})
{
    HttpTestServer server;
    server.enqueue(scriptedReply(ReplyApi::OpenAiChat, answer));
    HeadlessRun run(sandbox,
                    server,
                    ReplyApi::OpenAiChat,
                    QStringList{u"--output-format"_s, u"stream-json"_s} + extra,
                    prompt);
    run.start();
    ForkRun result;
    if (!run.finish())
        return result;
    result.exitCode = run.exitCode();
    result.err = run.err;
    const QList<QJsonObject> lines = run.jsonLines();
    if (!lines.isEmpty())
        result.start = lines.first();
    result.requests = server.requests();
    return result;
}

QByteArray fileBytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class tst_HeadlessFork : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
    }

    void forkCarriesTheHistoryUpToTheMessage()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        const ForkRun first = runForked(sandbox, u"Remember the word kiwi."_s, u"Noted: kiwi."_s);
        QCOMPARE(first.exitCode, 0);
        const QString id = first.start.value(u"sessionId"_s).toString();
        const QString path = first.start.value(u"sessionFile"_s).toString();
        QVERIFY(!id.isEmpty());
        QCOMPARE(runForked(sandbox, u"Now remember plum."_s, u"Noted: plum."_s, {u"-r"_s, id})
                     .exitCode,
                 0);
        const QByteArray original = fileBytes(path);

        // At message 2: the first exchange only; a new session, the original untouched.
        ForkRun fork = runForked(sandbox, u"Which word?"_s, u"Kiwi."_s, {u"--fork"_s, id + u":2"_s});
        QVERIFY2(fork.exitCode == 0, qPrintable(fork.err));
        QCOMPARE(fork.requests.size(), 1);
        QCOMPARE(requestConversation(fork.requests.first().body),
                 (QStringList{u"user: Remember the word kiwi."_s,
                              u"assistant: Noted: kiwi."_s,
                              u"user: Which word?"_s}));
        const QString forkId = fork.start.value(u"sessionId"_s).toString();
        QVERIFY(!forkId.isEmpty() && forkId != id);
        QVERIFY2(fork.err.contains(forkId), qPrintable(fork.err));
        QCOMPARE(fileBytes(path), original);
        QString error;
        const auto copy = AgentCore::SessionLog::load(fork.start.value(u"sessionFile"_s).toString(),
                                                      &error);
        QVERIFY2(copy, qPrintable(error));
        QCOMPARE(copy->header.value(u"forkedFrom"_s).toString(), path);
        QCOMPARE(copy->messages.size(), 4);

        // Without a message: the whole active branch.
        fork = runForked(sandbox, u"And now?"_s, u"Plum."_s, {u"--fork"_s, id});
        QVERIFY2(fork.exitCode == 0, qPrintable(fork.err));
        QCOMPARE(requestConversation(fork.requests.first().body),
                 (QStringList{u"user: Remember the word kiwi."_s,
                              u"assistant: Noted: kiwi."_s,
                              u"user: Now remember plum."_s,
                              u"assistant: Noted: plum."_s,
                              u"user: And now?"_s}));

        // By a message's id, as the session file names it.
        const auto contents = AgentCore::SessionLog::load(path, &error);
        QVERIFY2(contents, qPrintable(error));
        const QString firstAnswer = contents->tree.pathTo(contents->activeLeaf).value(1);
        fork = runForked(sandbox, u"By id?"_s, u"Yes."_s, {u"--fork"_s, id + u':' + firstAnswer});
        QVERIFY2(fork.exitCode == 0, qPrintable(fork.err));
        QCOMPARE(requestConversation(fork.requests.first().body).size(), 3);
        QCOMPARE(fileBytes(path), original);
    }

    void aMessageThatIsNotThereIsAUsageError()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        const ForkRun first = runForked(sandbox, u"Hello."_s, u"Hi."_s);
        const QString id = first.start.value(u"sessionId"_s).toString();
        QVERIFY(!id.isEmpty());
        const ForkRun fork = runForked(sandbox, u"Again."_s, u"No."_s, {u"--fork"_s, id + u":9"_s});
        QCOMPARE(fork.exitCode, 2);
        QVERIFY2(fork.err.contains(u"no message 9"_s), qPrintable(fork.err));
        QVERIFY(fork.requests.isEmpty());
        QCOMPARE(sandbox.sessionFiles().size(), 1);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessFork)

} // namespace tst_headlessfork

#include "tst_headlessfork.moc"
