// agentdesk --rewind SESSION CHECKPOINT with --keep and --dry-run, the user's own later changes
// kept unless --overwrite-user-changes, and the rewind recorded in
// the session file as the window records its own (the rewind message, the undo checkpoint in
// the state), so that the window shows it and offers its undo. After a Bash command that edits
// in place, deletes and creates files. The harness is tests/support/headlessrun.h.

#include "headlessrun.h"
#include "httptestserver.h"
#include "modelreplies.h"
#include "testfiles.h"

#include <context/rewind.h>
#include <session/sessionlog.h>
#include <testmain.h>

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

using namespace TestSupport;

namespace tst_headlessrewindkeep {

namespace {

/// One run that changes the sandbox with Bash: notes.txt edited in place, AGENTS.md deleted,
/// made.txt and out/a.txt, out/b.txt created. Its session, first checkpoint and session file.
struct Changed
{
    QString session;
    QString checkpoint;
    QString sessionFile;
};

bool changeWithBash(HeadlessSandbox &sandbox,
                    HttpTestServer &server,
                    std::unique_ptr<HeadlessRun> *run,
                    Changed *changed)
{
    const ReplyApi api = ReplyApi::OpenAiChat;
    server.enqueue(scriptedReply(api,
                                 {},
                                 {headlessBashCall(QStringLiteral(
                                     "sed -i s/apple/cherry/ notes.txt && rm AGENTS.md && printf "
                                     "new > made.txt && mkdir out && printf a > out/a.txt && "
                                     "printf b > out/b.txt"))}));
    server.enqueue(scriptedReply(api, QStringLiteral("Done.")));
    *run = std::make_unique<HeadlessRun>(sandbox,
                                         server,
                                         api,
                                         QStringList{QStringLiteral("--permission-mode"),
                                                     QStringLiteral("bypass"),
                                                     QStringLiteral("--output-format"),
                                                     QStringLiteral("stream-json")});
    (*run)->start();
    if (!(*run)->finish() || (*run)->exitCode() != 0)
        return false;
    for (const QJsonObject &line : (*run)->jsonLines()) {
        const QString type = line.value(u"type").toString();
        if (type == QLatin1String("agent_start")) {
            changed->session = line.value(u"sessionId").toString();
            changed->sessionFile = line.value(u"sessionFile").toString();
        } else if (type == QLatin1String("checkpoint") && changed->checkpoint.isEmpty()) {
            changed->checkpoint = line.value(u"id").toString();
        }
    }
    return !changed->session.isEmpty() && !changed->checkpoint.isEmpty()
           && QFileInfo(changed->sessionFile).isFile();
}

QString undoIdIn(const QString &err)
{
    static const QRegularExpression undo(
        QStringLiteral("Undo with: agentdesk --rewind \\S+ ([0-9a-f]{40})"));
    return undo.match(err).captured(1);
}

} // namespace

class tst_HeadlessRewindKeep : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
    }

    void dryRunChangesNothing()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        QVERIFY(server.isListening());
        std::unique_ptr<HeadlessRun> run;
        Changed changed;
        QVERIFY(changeWithBash(sandbox, server, &run, &changed));
        const QByteArray sessionBefore = fileBytes(changed.sessionFile);

        const Rewound dry = headlessRewind(*run,
                                           sandbox,
                                           {changed.session,
                                            changed.checkpoint,
                                            QStringLiteral("--dry-run"),
                                            QStringLiteral("--keep"),
                                            QStringLiteral("made.txt")});
        QVERIFY2(dry.exitCode == 0, qPrintable(dry.err));
        QCOMPARE(dry.out,
                 QStringLiteral("would restore AGENTS.md\nwould keep made.txt\nwould restore "
                                "notes.txt\nwould delete out/a.txt\nwould delete out/b.txt\n"));
        QVERIFY2(dry.err.contains(QLatin1String("Nothing was changed")), qPrintable(dry.err));
        QCOMPARE(sandbox.read(QStringLiteral("notes.txt")), QByteArray("cherry pie\n"));
        QVERIFY(!QFile::exists(sandbox.root() + QStringLiteral("/AGENTS.md")));
        QCOMPARE(sandbox.read(QStringLiteral("out/a.txt")), QByteArray("a"));
        QCOMPARE(fileBytes(changed.sessionFile), sessionBefore);
    }

    void keepLeavesFilesAndTheRewindIsRecorded()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        QVERIFY(server.isListening());
        std::unique_ptr<HeadlessRun> run;
        Changed changed;
        QVERIFY(changeWithBash(sandbox, server, &run, &changed));
        const qsizetype messagesBefore = AgentCore::SessionLog::load(changed.sessionFile, nullptr)
                                             ->messages.size();

        // A file and a folder (everything under it) kept as they are.
        const Rewound restored = headlessRewind(*run,
                                                sandbox,
                                                {changed.session,
                                                 changed.checkpoint,
                                                 QStringLiteral("--keep"),
                                                 QStringLiteral("made.txt"),
                                                 QStringLiteral("--keep"),
                                                 QStringLiteral("./out/")});
        QVERIFY2(restored.exitCode == 0, qPrintable(restored.err));
        QCOMPARE(restored.out,
                 QStringLiteral("restored AGENTS.md\nrestored notes.txt\nkept made.txt\nkept "
                                "out/a.txt\nkept out/b.txt\n"));
        QCOMPARE(sandbox.read(QStringLiteral("notes.txt")), QByteArray("apple pie\n"));
        QVERIFY(QFile::exists(sandbox.root() + QStringLiteral("/AGENTS.md")));
        QCOMPARE(sandbox.read(QStringLiteral("made.txt")), QByteArray("new"));
        QCOMPARE(sandbox.read(QStringLiteral("out/b.txt")), QByteArray("b"));
        const QString undo = undoIdIn(restored.err);
        QVERIFY2(!undo.isEmpty(), qPrintable(restored.err));

        // The session file has the rewind as the window writes it: a files-only rewind to the
        // message the checkpoint was recorded before, with what it restored and kept and its
        // undo; the state lists the undo checkpoint.
        QString error;
        const std::optional<AgentCore::SessionLog::Contents> contents
            = AgentCore::SessionLog::load(changed.sessionFile, &error);
        QVERIFY2(contents, qPrintable(error));
        QCOMPARE(contents->messages.size(), messagesBefore + 1);
        const std::optional<AgentCore::Rewind> recorded = AgentCore::Rewind::of(
            contents->messages.last());
        QVERIFY(recorded);
        QCOMPARE(recorded->scope, AgentCore::Rewind::Scope::Files);
        QCOMPARE(recorded->toIndex, 0); // the checkpoint of the first user message
        QCOMPARE(recorded->checkpoint, changed.checkpoint);
        QCOMPARE(recorded->undoCheckpoint, undo);
        QCOMPARE(recorded->restoredFiles, (QStringList{"AGENTS.md", "notes.txt"}));
        QCOMPARE(recorded->keptFiles, (QStringList{"made.txt", "out/a.txt", "out/b.txt"}));
        QStringList stateIds;
        for (const QJsonValue &checkpoint : contents->state.value(u"checkpoints").toArray())
            stateIds.append(checkpoint.toObject().value(u"id").toString());
        QVERIFY2(stateIds.contains(undo), qPrintable(stateIds.join(u' ')));
        QVERIFY(stateIds.contains(changed.checkpoint)); // the earlier ones stay

        // Undone the way stderr says: the files as the command left them, recorded too.
        const Rewound undone = headlessRewind(*run, sandbox, {changed.session, undo});
        QVERIFY2(undone.exitCode == 0, qPrintable(undone.err));
        QCOMPARE(sandbox.read(QStringLiteral("notes.txt")), QByteArray("cherry pie\n"));
        QVERIFY(!QFile::exists(sandbox.root() + QStringLiteral("/AGENTS.md")));
        const std::optional<AgentCore::SessionLog::Contents> after
            = AgentCore::SessionLog::load(changed.sessionFile, &error);
        QVERIFY(after);
        QCOMPARE(after->messages.size(), messagesBefore + 2);
        QCOMPARE(AgentCore::Rewind::of(after->messages.last())->checkpoint, undo);
    }

    // Issue #31, item 12: after the agent's run the user edits notes.txt by hand and creates
    // new.txt. The rewind has nobody to ask: it keeps both and names them on stderr (the
    // agent's own changes are rewound); --overwrite-user-changes rewinds them too.
    void usersLaterChangesAreKeptUnlessOverwritten_data()
    {
        QTest::addColumn<bool>("overwrite");
        QTest::newRow("kept") << false;
        QTest::newRow("--overwrite-user-changes") << true;
    }

    void usersLaterChangesAreKeptUnlessOverwritten()
    {
        QFETCH(bool, overwrite);
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        QVERIFY(server.isListening());
        std::unique_ptr<HeadlessRun> run;
        Changed changed;
        QVERIFY(changeWithBash(sandbox, server, &run, &changed));
        QVERIFY(sandbox.write(QStringLiteral("notes.txt"), "my own pie\n"));
        QVERIFY(sandbox.write(QStringLiteral("new.txt"), "mine\n"));

        const Rewound dry = headlessRewind(*run,
                                           sandbox,
                                           {changed.session,
                                            changed.checkpoint,
                                            QStringLiteral("--dry-run")});
        QVERIFY2(dry.exitCode == 0, qPrintable(dry.err));
        QCOMPARE(dry.out,
                 QStringLiteral("would restore AGENTS.md\nwould delete made.txt\nwould keep "
                                "new.txt\nwould keep notes.txt\nwould delete out/a.txt\nwould "
                                "delete out/b.txt\n"));

        QStringList arguments{changed.session, changed.checkpoint};
        if (overwrite)
            arguments << QStringLiteral("--overwrite-user-changes");
        const Rewound restored = headlessRewind(*run, sandbox, arguments);
        QVERIFY2(restored.exitCode == 0, qPrintable(restored.err));
        // The agent's changes are rewound either way.
        QVERIFY(QFile::exists(sandbox.root() + QStringLiteral("/AGENTS.md")));
        QVERIFY(!QFile::exists(sandbox.root() + QStringLiteral("/made.txt")));
        QVERIFY(!QFile::exists(sandbox.root() + QStringLiteral("/out/a.txt")));
        if (overwrite) {
            QCOMPARE(sandbox.read(QStringLiteral("notes.txt")), QByteArray("apple pie\n"));
            QVERIFY(!QFile::exists(sandbox.root() + QStringLiteral("/new.txt")));
            QVERIFY2(!restored.err.contains(QLatin1String("You changed")), qPrintable(restored.err));
        } else {
            QCOMPARE(sandbox.read(QStringLiteral("notes.txt")), QByteArray("my own pie\n"));
            QCOMPARE(sandbox.read(QStringLiteral("new.txt")), QByteArray("mine\n"));
            QVERIFY2(restored.out.contains(QLatin1String("kept new.txt\nkept notes.txt\n")),
                     qPrintable(restored.out));
            QVERIFY2(restored.err.contains(
                         QLatin1String("You changed new.txt, notes.txt yourself since that "
                                       "checkpoint: kept as they are"))
                         && restored.err.contains(QLatin1String("--overwrite-user-changes")),
                     qPrintable(restored.err));
        }
        // Undone the way stderr says: everything as before the rewind.
        const QString undo = undoIdIn(restored.err);
        QVERIFY2(!undo.isEmpty(), qPrintable(restored.err));
        const Rewound undone = headlessRewind(*run, sandbox, {changed.session, undo});
        QVERIFY2(undone.exitCode == 0, qPrintable(undone.err));
        QCOMPARE(sandbox.read(QStringLiteral("notes.txt")), QByteArray("my own pie\n"));
        QCOMPARE(sandbox.read(QStringLiteral("new.txt")), QByteArray("mine\n"));
        QCOMPARE(sandbox.read(QStringLiteral("made.txt")), QByteArray("new"));
    }

    // Issue #31, item 12: a hand edit made before the user's next message is recorded in that
    // message's checkpoint, and stays the user's. The agent edits a.txt (message 1); the user
    // edits b.txt and creates c.txt; the agent edits d.txt (message 2, resumed). Rewinding to
    // before message 1 rewinds a.txt and d.txt and keeps b.txt and c.txt, named on stderr;
    // with --overwrite-user-changes all four are rewound. The undo restores everything.
    void usersEditsBetweenMessagesAreKept_data()
    {
        QTest::addColumn<bool>("overwrite");
        QTest::newRow("kept") << false;
        QTest::newRow("--overwrite-user-changes") << true;
    }

    void usersEditsBetweenMessagesAreKept()
    {
        QFETCH(bool, overwrite);
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        for (const char *name : {"a.txt", "b.txt", "d.txt"})
            QVERIFY(sandbox.write(QString::fromLatin1(name), QByteArray(name) + " as it was\n"));
        HttpTestServer server;
        QVERIFY(server.isListening());
        const ReplyApi api = ReplyApi::OpenAiChat;
        const auto message = [&](const QString &command, const QStringList &more) {
            server.enqueue(scriptedReply(api, {}, {headlessBashCall(command)}));
            server.enqueue(scriptedReply(api, QStringLiteral("Done.")));
            auto run = std::make_unique<HeadlessRun>(sandbox,
                                                     server,
                                                     api,
                                                     QStringList{QStringLiteral(
                                                                     "--permission-mode"),
                                                                 QStringLiteral("bypass"),
                                                                 QStringLiteral("--output-format"),
                                                                 QStringLiteral("stream-json")}
                                                         + more);
            run->start();
            return run;
        };
        const std::unique_ptr<HeadlessRun> first = message(QStringLiteral(
                                                               "printf 'agent a\\n' > a.txt"),
                                                           {});
        QVERIFY2(first->finish() && first->exitCode() == 0, qPrintable(first->report()));
        QString session;
        QString checkpoint;
        for (const QJsonObject &line : first->jsonLines()) {
            if (line.value(u"type").toString() == QLatin1String("agent_start"))
                session = line.value(u"sessionId").toString();
            else if (line.value(u"type").toString() == QLatin1String("checkpoint")
                     && checkpoint.isEmpty())
                checkpoint = line.value(u"id").toString();
        }
        QVERIFY2(!session.isEmpty() && !checkpoint.isEmpty(), qPrintable(first->report()));
        QCOMPARE(sandbox.read(QStringLiteral("a.txt")), QByteArray("agent a\n"));

        // By hand, between the two messages.
        QVERIFY(sandbox.write(QStringLiteral("b.txt"), "my b\n"));
        QVERIFY(sandbox.write(QStringLiteral("c.txt"), "my c\n"));

        const std::unique_ptr<HeadlessRun> second = message(QStringLiteral(
                                                                "printf 'agent d\\n' > d.txt"),
                                                            {QStringLiteral("--resume"), session});
        QVERIFY2(second->finish() && second->exitCode() == 0, qPrintable(second->report()));
        QCOMPARE(sandbox.read(QStringLiteral("d.txt")), QByteArray("agent d\n"));

        const Rewound dry = headlessRewind(*second,
                                           sandbox,
                                           {session, checkpoint, QStringLiteral("--dry-run")});
        QVERIFY2(dry.exitCode == 0, qPrintable(dry.err));
        QCOMPARE(dry.out,
                 QStringLiteral("would restore a.txt\nwould keep b.txt\nwould keep c.txt\nwould "
                                "restore d.txt\n"));

        QStringList arguments{session, checkpoint};
        if (overwrite)
            arguments << QStringLiteral("--overwrite-user-changes");
        const Rewound restored = headlessRewind(*second, sandbox, arguments);
        QVERIFY2(restored.exitCode == 0, qPrintable(restored.err));
        // The agent's changes are rewound either way.
        QCOMPARE(sandbox.read(QStringLiteral("a.txt")), QByteArray("a.txt as it was\n"));
        QCOMPARE(sandbox.read(QStringLiteral("d.txt")), QByteArray("d.txt as it was\n"));
        if (overwrite) {
            QCOMPARE(sandbox.read(QStringLiteral("b.txt")), QByteArray("b.txt as it was\n"));
            QVERIFY(!QFile::exists(sandbox.root() + QStringLiteral("/c.txt")));
            QVERIFY2(!restored.err.contains(QLatin1String("You changed")), qPrintable(restored.err));
        } else {
            QCOMPARE(sandbox.read(QStringLiteral("b.txt")), QByteArray("my b\n"));
            QCOMPARE(sandbox.read(QStringLiteral("c.txt")), QByteArray("my c\n"));
            QCOMPARE(restored.out,
                     QStringLiteral("restored a.txt\nrestored d.txt\nkept b.txt\nkept c.txt\n"));
            QVERIFY2(restored.err.contains(QLatin1String("You changed b.txt, c.txt yourself "
                                                         "since that checkpoint: kept as they are"))
                         && restored.err.contains(QLatin1String("--overwrite-user-changes")),
                     qPrintable(restored.err));
        }
        // Undone the way stderr says: everything as before the rewind.
        const QString undo = undoIdIn(restored.err);
        QVERIFY2(!undo.isEmpty(), qPrintable(restored.err));
        const Rewound undone = headlessRewind(*second, sandbox, {session, undo});
        QVERIFY2(undone.exitCode == 0, qPrintable(undone.err));
        QCOMPARE(sandbox.read(QStringLiteral("a.txt")), QByteArray("agent a\n"));
        QCOMPARE(sandbox.read(QStringLiteral("b.txt")), QByteArray("my b\n"));
        QCOMPARE(sandbox.read(QStringLiteral("c.txt")), QByteArray("my c\n"));
        QCOMPARE(sandbox.read(QStringLiteral("d.txt")), QByteArray("agent d\n"));
    }

    void keepOfNothingChangedIsRefused()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        QVERIFY(server.isListening());
        std::unique_ptr<HeadlessRun> run;
        Changed changed;
        QVERIFY(changeWithBash(sandbox, server, &run, &changed));
        const QByteArray sessionBefore = fileBytes(changed.sessionFile);
        // A typo would otherwise restore the very file the user meant to keep.
        const Rewound typo = headlessRewind(*run,
                                            sandbox,
                                            {changed.session,
                                             changed.checkpoint,
                                             QStringLiteral("--keep"),
                                             QStringLiteral("mde.txt")});
        QCOMPARE(typo.exitCode, 2);
        QVERIFY2(typo.err.contains(QLatin1String("mde.txt")), qPrintable(typo.err));
        QVERIFY(typo.out.isEmpty());
        QCOMPARE(sandbox.read(QStringLiteral("notes.txt")), QByteArray("cherry pie\n"));
        QCOMPARE(fileBytes(changed.sessionFile), sessionBefore);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessRewindKeep)

} // namespace tst_headlessrewindkeep

#include "tst_headlessrewindkeep.moc"
