// "Review shell writes" in agentdesk --print, end to end: there is nobody to review what a
// command wrote, so a command that is not read-only runs only when a rule allows it, then
// writes to the repository directly, says so once on stderr, and a checkpoint taken before it
// is the way back. Without a rule it is denied and the tree is left as it was. No overlay is
// made, so bwrap's overlay support does not matter here.

#include "headlessrun.h"
#include "httptestserver.h"
#include "modelreplies.h"

#include <QFileInfo>
#include <QJsonObject>
#include <QTest>
#include <testmain.h>

using namespace TestSupport;

namespace tst_headlessshellwrites {

namespace {

constexpr ReplyApi api = ReplyApi::OpenAiChat;

const QLatin1String notReviewed("Shell writes are not reviewed: nobody can be asked");

} // namespace

class tst_HeadlessShellWrites : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
    }

    // Default mode with a rule for the commands: both run and write directly; stderr says
    // once that their writes were not reviewed; the user message's checkpoint (recorded
    // before the first command) is in stream-json to rewind to.
    void allowedCommandWritesDirectlyAndSaysSoOnce()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        server.enqueue(
            scriptedReply(api,
                          {},
                          {headlessBashCall(QStringLiteral("sed -i s/apple/cherry/ notes.txt"))}));
        server.enqueue(
            scriptedReply(api, {}, {headlessBashCall(QStringLiteral("touch second.txt"))}));
        server.enqueue(scriptedReply(api, QStringLiteral("Done.")));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        {QStringLiteral("--permission-mode"),
                         QStringLiteral("default"),
                         QStringLiteral("--allowed-tools"),
                         QStringLiteral("Bash(sed -i s/apple/cherry/ notes.txt), Bash(touch "
                                        "second.txt)"),
                         QStringLiteral("--output-format"),
                         QStringLiteral("stream-json")});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(sandbox.read(QStringLiteral("notes.txt")), QByteArray("cherry pie\n"));
        QVERIFY(QFileInfo::exists(sandbox.root() + QStringLiteral("/second.txt")));
        QVERIFY2(run.err.count(notReviewed) == 1, qPrintable(run.report()));
        QVERIFY2(run.err.contains(QLatin1String("agentdesk --rewind")), qPrintable(run.report()));

        // The checkpoint of the user message comes before the first command's result.
        int checkpointAt = -1;
        int resultAt = -1;
        const QList<QJsonObject> lines = run.jsonLines();
        QVERIFY2(!lines.isEmpty(), qPrintable(run.report()));
        for (int i = 0; i < lines.size(); ++i) {
            const QString type = lines.at(i).value(u"type").toString();
            if (type == QLatin1String("checkpoint") && checkpointAt < 0)
                checkpointAt = i;
            if (type == QLatin1String("tool_execution_end") && resultAt < 0)
                resultAt = i;
        }
        QVERIFY2(checkpointAt >= 0, qPrintable(run.report()));
        QVERIFY2(resultAt > 0 && checkpointAt < resultAt, qPrintable(run.report()));
    }

    // Default mode without a rule: the command is denied (nobody to ask), the file is as it
    // was, and there is no "not reviewed" notice (nothing ran).
    void commandWithoutRuleIsDeniedAndTreeUntouched()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        server.enqueue(
            scriptedReply(api,
                          {},
                          {headlessBashCall(QStringLiteral("sed -i s/apple/cherry/ notes.txt"))}));
        server.enqueue(scriptedReply(api, QStringLiteral("Understood.")));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        {QStringLiteral("--permission-mode"), QStringLiteral("default")});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(sandbox.read(QStringLiteral("notes.txt")), QByteArray("apple pie\n"));
        QVERIFY2(run.err.contains(QLatin1String("Denied")), qPrintable(run.report()));
        QVERIFY2(!run.err.contains(notReviewed), qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 2);
        QVERIFY(server.requests().at(1).body.contains("Permission denied"));
    }

    // Bypass mode is the user's choice to run commands unchecked: no review and no notice.
    void bypassModeWritesWithoutNotice()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        server.enqueue(
            scriptedReply(api,
                          {},
                          {headlessBashCall(QStringLiteral("sed -i s/apple/cherry/ notes.txt"))}));
        server.enqueue(scriptedReply(api, QStringLiteral("Done.")));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        {QStringLiteral("--permission-mode"), QStringLiteral("bypass")});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(sandbox.read(QStringLiteral("notes.txt")), QByteArray("cherry pie\n"));
        QVERIFY2(!run.err.contains(notReviewed), qPrintable(run.report()));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessShellWrites)

} // namespace tst_headlessshellwrites

#include "tst_headlessshellwrites.moc"
