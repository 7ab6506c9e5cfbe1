// agentdesk --print records checkpoints of the repository (stream-json names them) and
// agentdesk --rewind SESSION CHECKPOINT brings the files back, after an Edit and after a Bash
// command that edits in place and deletes. The harness is tests/support/headlessrun.h.

#include "headlessrun.h"
#include "httptestserver.h"
#include "modelreplies.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <testmain.h>

using namespace TestSupport;

namespace tst_headlesscheckpoint {

namespace {

QList<QJsonObject> checkpointLines(const QList<QJsonObject> &lines)
{
    QList<QJsonObject> checkpoints;
    for (const QJsonObject &line : lines) {
        if (line.value(u"type").toString() == QLatin1String("checkpoint"))
            checkpoints.append(line);
    }
    return checkpoints;
}

QString sessionIdOf(const QList<QJsonObject> &lines)
{
    for (const QJsonObject &line : lines) {
        if (line.value(u"type").toString() == QLatin1String("agent_start"))
            return line.value(u"sessionId").toString();
    }
    return {};
}

// Every file under .git with its bytes.
QByteArray gitFolder(const HeadlessSandbox &sandbox)
{
    return allFilesUnder(sandbox.root() + QStringLiteral("/.git"));
}

} // namespace

class tst_HeadlessCheckpoint : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
    }

    void rewindAfterAnEdit()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        const QByteArray gitBefore = gitFolder(sandbox);
        HttpTestServer server;
        QVERIFY(server.isListening());
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api, QStringLiteral("Reading."), {headlessReadCall()}));
        server.enqueue(scriptedReply(api, {}, {headlessEditCall()}));
        server.enqueue(scriptedReply(api, QStringLiteral("Done, it says banana now.")));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        {QStringLiteral("--permission-mode"),
                         QStringLiteral("acceptEdits"),
                         QStringLiteral("--output-format"),
                         QStringLiteral("stream-json")});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(sandbox.read(QStringLiteral("notes.txt")), QByteArray("banana pie\n"));

        // The user message's checkpoint covers the Edit (the Read changed nothing); the turn
        // after the Edit has its own.
        const QList<QJsonObject> lines = run.jsonLines();
        const QList<QJsonObject> checkpoints = checkpointLines(lines);
        QVERIFY2(!checkpoints.isEmpty(), qPrintable(run.report()));
        const QJsonObject first = checkpoints.first();
        QCOMPARE(first.value(u"reason").toString(), QStringLiteral("user_message"));
        QCOMPARE(first.value(u"id").toString().size(), 40);
        const QString session = sessionIdOf(lines);
        QCOMPARE(first.value(u"session").toString(), session);
        // Printed before the run's end.
        QCOMPARE(lines.last().value(u"type").toString(), QStringLiteral("agent_end"));

        // The session file's state lists them, for a resumed session.
        const QString sessionFile = lines.first().value(u"sessionFile").toString();
        QFile file(sessionFile);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY2(file.readAll().contains(first.value(u"id").toString().toUtf8()),
                 qPrintable(sessionFile));

        const Rewound listed = headlessRewind(run, sandbox, {session});
        QCOMPARE(listed.exitCode, 0);
        QVERIFY2(listed.out.contains(first.value(u"id").toString()), qPrintable(listed.out));

        const Rewound restored = headlessRewind(run,
                                                sandbox,
                                                {session, first.value(u"id").toString()});
        QVERIFY2(restored.exitCode == 0, qPrintable(restored.err));
        QCOMPARE(restored.out, QStringLiteral("restored notes.txt\n"));
        QCOMPARE(sandbox.read(QStringLiteral("notes.txt")), QByteArray("apple pie\n"));
        QVERIFY2(restored.err.contains(QLatin1String("Undo with: agentdesk --rewind")),
                 qPrintable(restored.err));
        QCOMPARE(gitFolder(sandbox), gitBefore);
    }

    void rewindAfterSedInPlaceAndRm()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        QVERIFY(server.isListening());
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api,
                                     {},
                                     {headlessBashCall(QStringLiteral(
                                         "sed -i s/apple/cherry/ notes.txt && rm AGENTS.md "
                                         "&& printf new > made.txt"))}));
        server.enqueue(scriptedReply(api, QStringLiteral("Done.")));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        {QStringLiteral("--permission-mode"),
                         QStringLiteral("bypass"),
                         QStringLiteral("--output-format"),
                         QStringLiteral("stream-json")});
        const QByteArray agentsBefore = sandbox.read(QStringLiteral("AGENTS.md"));
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(sandbox.read(QStringLiteral("notes.txt")), QByteArray("cherry pie\n"));
        QVERIFY(!QFile::exists(sandbox.root() + QStringLiteral("/AGENTS.md")));

        const QList<QJsonObject> lines = run.jsonLines();
        const QList<QJsonObject> checkpoints = checkpointLines(lines);
        QVERIFY2(!checkpoints.isEmpty(), qPrintable(run.report()));
        const Rewound restored = headlessRewind(run,
                                                sandbox,
                                                {sessionIdOf(lines),
                                                 checkpoints.first().value(u"id").toString()});
        QVERIFY2(restored.exitCode == 0, qPrintable(restored.err));
        QCOMPARE(restored.out,
                 QStringLiteral("restored AGENTS.md\nrestored notes.txt\ndeleted made.txt\n"));
        QCOMPARE(sandbox.read(QStringLiteral("notes.txt")), QByteArray("apple pie\n"));
        QCOMPARE(sandbox.read(QStringLiteral("AGENTS.md")), agentsBefore);
        QVERIFY(!QFile::exists(sandbox.root() + QStringLiteral("/made.txt")));
    }

    void rewindRefusesWhatItCannotDo()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        HeadlessRun run(sandbox, server, ReplyApi::OpenAiChat, {});
        const Rewound none = headlessRewind(run, sandbox, {QStringLiteral("no-such-session")});
        QCOMPARE(none.exitCode, 2);
        QVERIFY2(none.err.contains(QLatin1String("no checkpoints")), qPrintable(none.err));
        const Rewound bogus = headlessRewind(run,
                                             sandbox,
                                             {QStringLiteral("no-such-session"),
                                              QStringLiteral("abcdef12")});
        QCOMPARE(bogus.exitCode, 2);
        QVERIFY2(bogus.err.contains(QLatin1String("No checkpoint abcdef12")), qPrintable(bogus.err));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessCheckpoint)

} // namespace tst_headlesscheckpoint

#include "tst_headlesscheckpoint.moc"
