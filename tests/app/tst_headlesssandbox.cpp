// The sandbox for Bash end to end (--print --sandbox on|off|required): the real binary and the
// real bwrap; a bwrap that is missing from PATH for the fallback and the refusal.

#include "headlessrun.h"
#include "httptestserver.h"
#include "modelreplies.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTest>
#include <testmain.h>

using namespace TestSupport;

namespace tst_headlesssandbox {

namespace {

constexpr ReplyApi api = ReplyApi::OpenAiChat;

} // namespace

class tst_HeadlessSandbox : public QObject
{
    Q_OBJECT

    PathWithoutBwrap m_noBwrap;

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
        QVERIFY(!QStandardPaths::findExecutable(QStringLiteral("bwrap")).isEmpty());
        QVERIFY(m_noBwrap.isValid());
    }

    // The default of --print: the command cannot read the user's key, nor write outside the
    // repository; it can write inside it. The write hides in a loop, which the command analysis
    // does not follow and bypass mode runs unchecked: the sandbox is what stops it.
    void commandsAreSandboxedByDefault()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        QVERIFY(QDir().mkpath(sandbox.home() + QStringLiteral("/.ssh")));
        QFile key(sandbox.home() + QStringLiteral("/.ssh/id_rsa"));
        QVERIFY(key.open(QIODevice::WriteOnly));
        key.write("HEADLESS-PRIVATE-KEY");
        key.close();
        const QString outside = sandbox.home() + QStringLiteral("/escaped.txt");
        HttpTestServer server;
        server.enqueue(
            scriptedReply(api,
                          {},
                          {headlessBashCall(
                              QStringLiteral(
                                  "cat ~/.ssh/id_rsa; for f in %1; do echo x > \"$f\"; done; "
                                  "echo in > made.txt; echo done")
                                  .arg(outside))}));
        server.enqueue(scriptedReply(api, QStringLiteral("Done.")));
        HeadlessRun run(sandbox, server, api, headlessBypass({}));
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 2);
        const QByteArray seen = server.requests().at(1).body;
        QVERIFY2(seen.contains("done"), seen.constData());
        QVERIFY2(!seen.contains("HEADLESS-PRIVATE-KEY"), seen.constData());
        QVERIFY(!QFile::exists(outside));
        QCOMPARE(sandbox.read(QStringLiteral("made.txt")), QByteArray("in\n"));
        QVERIFY2(!run.err.contains(QLatin1String("unavailable")), qPrintable(run.report()));
    }

    // --sandbox off: the command runs with the user's rights, as before.
    void offRunsAsBefore()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        const QString outside = sandbox.home() + QStringLiteral("/written.txt");
        HttpTestServer server;
        server.enqueue(
            scriptedReply(api,
                          {},
                          {headlessBashCall(QStringLiteral("for f in %1; do echo x > \"$f\"; done")
                                                .arg(outside))}));
        server.enqueue(scriptedReply(api, QStringLiteral("Done.")));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        headlessBypass({QStringLiteral("--sandbox"), QStringLiteral("off")}));
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QVERIFY(QFile::exists(outside));
    }

    // Without bwrap, "on" runs the commands as they are and says so once on stderr.
    void missingBwrapFallsBackWithOneWarning()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        server.enqueue(
            scriptedReply(api, {}, {headlessBashCall(QStringLiteral("echo one > made.txt"))}));
        server.enqueue(
            scriptedReply(api, {}, {headlessBashCall(QStringLiteral("echo two >> made.txt"))}));
        server.enqueue(scriptedReply(api, QStringLiteral("Done.")));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        headlessBypass({QStringLiteral("--sandbox"), QStringLiteral("on")}));
        run.environment.insert(QStringLiteral("PATH"), m_noBwrap.path());
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(sandbox.read(QStringLiteral("made.txt")), QByteArray("one\ntwo\n"));
        QCOMPARE(run.err.count(QLatin1String("The sandbox for Bash is unavailable")), 1);
        QVERIFY2(run.err.contains(QLatin1String("bubblewrap (bwrap) is not installed")),
                 qPrintable(run.report()));
    }

    // Without bwrap, "required" refuses: nothing runs, and the model is told why.
    void missingBwrapRequiredRefuses()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        server.enqueue(
            scriptedReply(api, {}, {headlessBashCall(QStringLiteral("echo one > made.txt"))}));
        server.enqueue(scriptedReply(api, QStringLiteral("Understood.")));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        headlessBypass({QStringLiteral("--sandbox"), QStringLiteral("required")}));
        run.environment.insert(QStringLiteral("PATH"), m_noBwrap.path());
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 2);
        const QByteArray seen = server.requests().at(1).body;
        QVERIFY2(seen.contains("the sandbox is required"), seen.constData());
        QVERIFY2(seen.contains("not installed"), seen.constData());
        QVERIFY(!QFile::exists(sandbox.root() + QStringLiteral("/made.txt")));
    }

    void unknownModeIsAUsageError()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        HeadlessRun run(sandbox,
                        server,
                        api,
                        {QStringLiteral("--sandbox"), QStringLiteral("maybe")});
        run.start();
        QVERIFY(run.finish());
        QCOMPARE(run.exitCode(), 2);
        QVERIFY2(run.err.contains(QLatin1String("Unknown sandbox mode \"maybe\"")),
                 qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 0);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessSandbox)

} // namespace tst_headlesssandbox

#include "tst_headlesssandbox.moc"
