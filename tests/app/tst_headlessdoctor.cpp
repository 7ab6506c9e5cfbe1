// agentdesk --doctor end to end (issue #35): the real binary checks what AgentDesk relies on
// here and names what is missing with the command that installs it; exit code 0 when all that
// is needed is there, 1 otherwise. A PATH without bwrap for the missing sandbox; the provider
// check against a real server on 127.0.0.1, which gets one GET of its models and nothing else.

#include "headlessrun.h"
#include "httptestserver.h"

#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTest>
#include <testmain.h>

using namespace TestSupport;

namespace tst_headlessdoctor {

namespace {

// The install command --doctor should print for \a package on this machine's distribution.
QString expectedInstallCommand(const QString &package)
{
    QFile osRelease(QStringLiteral("/etc/os-release"));
    const QByteArray text = osRelease.open(QIODevice::ReadOnly) ? osRelease.readAll().toLower()
                                                                : QByteArray();
    if (text.contains("id=debian") || text.contains("id=ubuntu") || text.contains("id_like=debian")
        || text.contains("id_like=\"debian") || text.contains("id_like=ubuntu"))
        return QStringLiteral("sudo apt-get install ") + package;
    if (text.contains("id=fedora") || text.contains("id_like=\"fedora") || text.contains("rhel"))
        return QStringLiteral("sudo dnf install ") + package;
    if (text.contains("id=arch"))
        return QStringLiteral("sudo pacman -S ") + package;
    return package;
}

} // namespace

class tst_HeadlessDoctor : public QObject
{
    Q_OBJECT

    PathWithoutBwrap m_noBwrap;

    // agentdesk --doctor --repo <sandbox> followed by \a extra, in the sandbox's home.
    static void doctor(HeadlessRun &run, const HeadlessSandbox &sandbox, const QStringList &extra)
    {
        run.arguments = QStringList{QStringLiteral("--doctor"),
                                    QStringLiteral("--repo"),
                                    sandbox.root()}
                        + extra;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
        QVERIFY(!QStandardPaths::findExecutable(QStringLiteral("bwrap")).isEmpty());
        QVERIFY(m_noBwrap.isValid());
    }

    // Without bwrap on PATH the sandbox is named missing, with the command that installs it,
    // and the exit code says so.
    void missingBwrapIsNamedWithItsInstallCommand()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        HeadlessRun run(sandbox, server, ReplyApi::OpenAiChat, {});
        doctor(run, sandbox, {});
        run.environment.insert(QStringLiteral("PATH"), m_noBwrap.path());
        run.start();
        QVERIFY(run.finish());
        const QString out = QString::fromLocal8Bit(run.out);
        QVERIFY2(out.contains(QLatin1String("MISSING bubblewrap: bwrap is not on PATH")),
                 qPrintable(run.report()));
        QVERIFY2(out.contains(expectedInstallCommand(QStringLiteral("bubblewrap"))),
                 qPrintable(run.report()));
        QCOMPARE(run.exitCode(), 1);
        QCOMPARE(server.requests().size(), 0);
    }

    // With bwrap (that works here) the sandbox passes, and with nothing else needed missing
    // the exit code is 0.
    void presentBwrapPasses()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        HeadlessRun run(sandbox, server, ReplyApi::OpenAiChat, {});
        doctor(run, sandbox, {});
        run.start();
        QVERIFY(run.finish());
        const QString out = QString::fromLocal8Bit(run.out);
        QVERIFY2(out.contains(QLatin1String("ok      bubblewrap: ")), qPrintable(run.report()));
        QVERIFY2(out.contains(QLatin1String("the sandbox works here")), qPrintable(run.report()));
        QVERIFY2(out.contains(QLatin1String("ok      git: ")), qPrintable(run.report()));
        QVERIFY2(!out.contains(QLatin1String("MISSING")), qPrintable(run.report()));
        QCOMPARE(run.exitCode(), 0);
    }

    // A repository's MCP server whose command is nowhere is named, and fails the check.
    void missingMcpCommandIsNamed()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        QVERIFY(sandbox.write(QStringLiteral(".mcp.json"),
                              R"({"mcpServers":{"tickets":{"command":"agentdesk-no-such-server",)"
                              R"("args":["--stdio"]}}})"));
        HttpTestServer server;
        HeadlessRun run(sandbox, server, ReplyApi::OpenAiChat, {});
        doctor(run, sandbox, {});
        run.start();
        QVERIFY(run.finish());
        const QString out = QString::fromLocal8Bit(run.out);
        QVERIFY2(out.contains(QLatin1String("MISSING MCP server \"tickets\"")),
                 qPrintable(run.report()));
        QVERIFY2(out.contains(QLatin1String("agentdesk-no-such-server is not on PATH")),
                 qPrintable(run.report()));
        QCOMPARE(run.exitCode(), 1);
    }

    // The configured provider: one GET of its models endpoint, never a completion; a refused
    // key is a failure, and the key is never printed.
    void providerIsAskedForItsModelsOnly_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("answers") << 200 << 0;
        QTest::newRow("refuses the key") << 401 << 1;
    }
    void providerIsAskedForItsModelsOnly()
    {
        QFETCH(int, status);
        QFETCH(int, exitCode);
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        server.enqueue(ScriptedResponse::error(status,
                                               status == 200 ? R"({"data":[{"id":"test-model"}]})"
                                                             : R"({"error":"bad key"})"));
        HeadlessRun run(sandbox, server, ReplyApi::OpenAiChat, {});
        doctor(run,
               sandbox,
               {QStringLiteral("--provider"),
                QStringLiteral("openai"),
                QStringLiteral("--base-url"),
                server.url(QStringLiteral("/v1")).toString(),
                QStringLiteral("--model"),
                QStringLiteral("test-model")});
        run.start();
        QVERIFY(run.finish());
        QCOMPARE(server.requests().size(), 1);
        QCOMPARE(server.requests().first().method, QByteArray("GET"));
        QCOMPARE(server.requests().first().path, QByteArray("/v1/models"));
        const QString out = QString::fromLocal8Bit(run.out);
        QVERIFY2(out.contains(status == 200 ? QLatin1String("ok      provider: ")
                                            : QLatin1String("MISSING provider: ")),
                 qPrintable(run.report()));
        QVERIFY(!out.contains(HeadlessApiKey));
        QCOMPARE(run.exitCode(), exitCode);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessDoctor)

} // namespace tst_headlessdoctor

#include "tst_headlessdoctor.moc"
