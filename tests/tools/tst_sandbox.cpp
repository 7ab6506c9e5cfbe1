#include "sandboxtest.h"
#include "toolstest.h"

#include <testmain.h>
#include <tools/bashtool.h>
#include <tools/bwrapcommand.h>
#include <tools/processgroup.h>
#include <tools/sandboxpolicy.h>
#include <tools/sandboxprobe.h>

#include <QCoreApplication>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QMutex>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTest>

#include <atomic>
#include <thread>

using namespace AgentCore;
namespace tst_sandbox {

using TestSupport::OutsideDir;
using TestSupport::sandboxed;
using ToolsTest::call;

namespace {

QString commandLineOf(qint64 pid)
{
    QFile file(QStringLiteral("/proc/%1/cmdline").arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromLocal8Bit(file.readAll()).replace(QChar(0), QLatin1Char(' ')).trimmed();
}

// Living processes (not zombies) whose command line is exactly \a commandLine.
QList<qint64> processesRunning(const QString &commandLine)
{
    QList<qint64> found;
    QDirIterator it(QStringLiteral("/proc"), QDir::Dirs | QDir::NoDotAndDotDot);
    while (it.hasNext()) {
        bool numeric = false;
        const qint64 pid = QFileInfo(it.next()).fileName().toLongLong(&numeric);
        if (!numeric || commandLineOf(pid) != commandLine)
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray text = stat.readAll();
        const QByteArray state = text.mid(text.lastIndexOf(')') + 2, 1);
        if (state != "Z" && state != "X")
            found.append(pid);
    }
    return found;
}

// Runs the tool on a thread of its own, as the agent loop does.
class Run
{
public:
    Run(BashTool &tool, const QJsonObject &args)
    {
        m_thread = std::thread([this, &tool, args] {
            m_result = call(tool, args, m_abort, [this](const ToolResult &partial) {
                QMutexLocker locker(&m_mutex);
                m_output = partial.text();
            });
        });
    }
    ~Run()
    {
        m_abort.abort();
        if (m_thread.joinable())
            m_thread.join();
    }
    QString output() const
    {
        QMutexLocker locker(&m_mutex);
        return m_output;
    }
    void abort() { m_abort.abort(); }
    ToolResult wait()
    {
        m_thread.join();
        return m_result;
    }

private:
    AbortToken m_abort;
    mutable QMutex m_mutex;
    QString m_output;
    ToolResult m_result;
    std::thread m_thread;
};

} // namespace

class tst_Sandbox : public QObject
{
    Q_OBJECT

    SandboxPolicy policy(SandboxMode mode = SandboxMode::On) const
    {
        SandboxPolicy result;
        result.mode = mode;
        return result;
    }

private slots:
    void initTestCase()
    {
        const SandboxProbe::Result probe = SandboxProbe::probe();
        QVERIFY2(probe.available, qPrintable(probe.error));
    }

    void modeNames()
    {
        for (const SandboxMode mode : {SandboxMode::Off, SandboxMode::On, SandboxMode::Required})
            QCOMPARE(SandboxPolicy::parseMode(SandboxPolicy::modeName(mode)), mode);
        QCOMPARE(SandboxPolicy::parseMode(QStringLiteral("REQUIRED")), SandboxMode::Required);
        QCOMPARE(SandboxPolicy::parseMode(QStringLiteral("yes")), std::nullopt);
    }

    // The repository is bound after the private /tmp (a repository under /tmp stays visible)
    // and after a hidden folder that holds it (emptied around it); hidden paths that do not
    // exist are not masked.
    void commandLine()
    {
        OutsideDir home;
        QVERIFY(home.write(QStringLiteral(".ssh/id_rsa"), "key"));
        QVERIFY(home.write(QStringLiteral(".netrc"), "machine x password y"));
        QVERIFY(home.write(QStringLiteral("work/repo/file"), "x"));
        SandboxPolicy sandbox = policy();
        sandbox.hiddenPaths = SandboxPolicy::defaultHiddenPaths(home.path());
        sandbox.hiddenPaths.append(home.path()); // holds the repository: bound back on top
        const QString root = home.file(QStringLiteral("work/repo"));
        const QStringList args = BwrapCommand(QStringLiteral("/usr/bin/bwrap"), root, sandbox)
                                     .arguments({QStringLiteral("true")});
        const QString line = args.join(QLatin1Char(' '));
        QVERIFY(line.indexOf(QLatin1String("--tmpfs /tmp"))
                < line.indexOf(QLatin1String("--bind ")));
        QVERIFY(line.contains(QStringLiteral("--bind %1 %1").arg(root)));
        QVERIFY(
            line.contains(QStringLiteral("--tmpfs %1/.ssh --remount-ro %1/.ssh").arg(home.path())));
        QVERIFY(line.contains(QStringLiteral("--ro-bind /dev/null %1/.netrc").arg(home.path())));
        QVERIFY(!line.contains(QStringLiteral("%1/.gnupg").arg(home.path())));
        QVERIFY(line.indexOf(QStringLiteral("--tmpfs %1 ").arg(home.path()))
                < line.indexOf(QStringLiteral("--bind %1 %1").arg(root)));
        QVERIFY(line.contains(QLatin1String("--unshare-net")));
        QVERIFY(line.contains(QLatin1String("--unshare-pid")));
        QVERIFY(!line.contains(QLatin1String("--new-session")));
        QVERIFY(line.endsWith(QStringLiteral("--chdir %1 -- true").arg(root)));

        sandbox.allowNetwork = true;
        BwrapCommand overlay(QStringLiteral("/usr/bin/bwrap"), root, sandbox);
        overlay.setRepositoryOverlay(QStringLiteral("/up"), QStringLiteral("/work"));
        const QString overlaid = overlay.arguments({QStringLiteral("true")}).join(QLatin1Char(' '));
        QVERIFY(!overlaid.contains(QLatin1String("--unshare-net")));
        QVERIFY(
            overlaid.contains(QStringLiteral("--overlay-src %1 --overlay /up /work %1").arg(root)));
        QVERIFY(!overlaid.contains(QStringLiteral("--bind %1").arg(root)));
    }

    // The user's keys and AgentDesk's key file are out of reach; the command says so.
    void secretsAreHidden()
    {
        ToolsTest::Repo repo;
        OutsideDir home;
        QVERIFY(home.write(QStringLiteral(".ssh/id_rsa"), "PRIVATE-SSH-KEY"));
        QVERIFY(home.write(QStringLiteral(".aws/credentials"), "AWS-SECRET"));
        QVERIFY(home.write(QStringLiteral(".netrc"), "NETRC-PASSWORD"));
        QVERIFY(home.write(QStringLiteral(".local/share/AgentDesk/keys.json"), "AGENTDESK-KEY"));
        QVERIFY(home.write(QStringLiteral("notes.txt"), "visible"));
        SandboxPolicy sandbox = policy();
        sandbox.hiddenPaths = SandboxPolicy::defaultHiddenPaths(home.path());
        sandbox.hiddenPaths.append(home.file(QStringLiteral(".local/share/AgentDesk/keys.json")));
        repo.workspace()->setSandboxPolicy(sandbox);
        BashTool tool(repo.workspace());

        const QString h = home.path();
        const ToolResult result
            = call(tool,
                   {{"command",
                     QStringLiteral(
                         "cat %1/notes.txt; echo ssh=$(ls -A %1/.ssh | wc -l) aws=$(ls -A "
                         "%1/.aws | wc -l); cat %1/.ssh/id_rsa %1/.aws/credentials %1/.netrc "
                         "%1/.local/share/AgentDesk/keys.json; echo done")
                         .arg(h)}});
        QVERIFY(sandboxed(result));
        const QString text = result.text();
        QVERIFY2(text.contains(QLatin1String("visible")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("ssh=0 aws=0")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("done")), qPrintable(text));
        for (const char *secret :
             {"PRIVATE-SSH-KEY", "AWS-SECRET", "NETRC-PASSWORD", "AGENTDESK-KEY"})
            QVERIFY2(!text.contains(QLatin1String(secret)), qPrintable(text));
        // The same command without the sandbox sees them: the test would notice a broken mask.
        repo.workspace()->setSandboxPolicy(SandboxPolicy());
        const ToolResult plain = call(tool,
                                      {{"command",
                                        QStringLiteral("cat %1/.ssh/id_rsa %1/.local/share/"
                                                       "AgentDesk/keys.json")
                                            .arg(h)}});
        QCOMPARE(plain.text(), QStringLiteral("PRIVATE-SSH-KEYAGENTDESK-KEY"));
    }

    // The session bus and the agents' sockets live in XDG_RUNTIME_DIR: an empty folder inside.
    void runtimeDirectoryIsHidden()
    {
        ToolsTest::Repo repo;
        OutsideDir runtime;
        QVERIFY(runtime.write(QStringLiteral("bus"), ""));
        const QByteArray saved = qgetenv("XDG_RUNTIME_DIR");
        qputenv("XDG_RUNTIME_DIR", runtime.path().toUtf8());
        const QByteArray bus = "unix:path=" + runtime.file(QStringLiteral("bus")).toUtf8();
        qputenv("DBUS_SESSION_BUS_ADDRESS", bus);
        repo.workspace()->setSandboxPolicy(policy());
        BashTool tool(repo.workspace());
        const ToolResult result = call(tool,
                                       {{"command",
                                         QStringLiteral(
                                             "ls -A %1; echo bus=$DBUS_SESSION_BUS_ADDRESS.")
                                             .arg(runtime.path())}});
        qputenv("XDG_RUNTIME_DIR", saved);
        qunsetenv("DBUS_SESSION_BUS_ADDRESS");
        QVERIFY(sandboxed(result));
        QCOMPARE(result.text(), QStringLiteral("bus=."));
    }

    // Outside the repository nothing can be written; the sandbox's /tmp is its own.
    void writesOnlyInsideTheRepository()
    {
        ToolsTest::Repo repo;
        OutsideDir outside;
        repo.workspace()->setSandboxPolicy(policy());
        BashTool tool(repo.workspace());

        const ToolResult outsideWrite
            = call(tool, {{"command", QStringLiteral("echo x > %1/escaped").arg(outside.path())}});
        QVERIFY(sandboxed(outsideWrite));
        QVERIFY(outsideWrite.isError);
        QVERIFY2(outsideWrite.text().contains(QLatin1String("Read-only file system")),
                 qPrintable(outsideWrite.text()));
        QVERIFY2(outsideWrite.text().contains(QLatin1String("Ran in the sandbox")),
                 qPrintable(outsideWrite.text()));
        QVERIFY(!QFile::exists(outside.file(QStringLiteral("escaped"))));

        const QString marker = QStringLiteral("/tmp/agentdesk-sandbox-test-%1")
                                   .arg(QCoreApplication::applicationPid());
        const ToolResult inside = call(tool,
                                       {{"command",
                                         QStringLiteral(
                                             "echo repo > made.txt && mkdir -p sub && echo t > %1 "
                                             "&& cat %1 && mktemp >/dev/null && echo ok")
                                             .arg(marker)}});
        QVERIFY2(!inside.isError, qPrintable(inside.text()));
        QCOMPARE(inside.text(), QStringLiteral("t\nok"));
        QCOMPARE(repo.read(QStringLiteral("made.txt")), QByteArray("repo\n"));
        QVERIFY(QFileInfo(repo.path(QStringLiteral("sub"))).isDir());
        QVERIFY(!QFile::exists(marker)); // the private /tmp went with the command
    }

    // Even the host's loopback is out of reach without the network; with it, it is reachable.
    void nothingLeftBehindIsReported()
    {
        // bwrap's init may still be exiting when bwrap returns: that is not a process the
        // command left running, and must not be reported as one.
        ToolsTest::Repo repo;
        repo.workspace()->setSandboxPolicy(policy());
        BashTool tool(repo.workspace());
        for (int run = 0; run < 10; ++run) {
            const ToolResult result = call(tool, {{"command", QStringLiteral("echo ok")}});
            QVERIFY(sandboxed(result));
            QCOMPARE(result.text(), QStringLiteral("ok"));
        }
    }

    void network()
    {
        ToolsTest::Repo repo;
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost));
        const QString connect = QStringLiteral("exec 3<>/dev/tcp/127.0.0.1/%1 && echo connected")
                                    .arg(server.serverPort());
        SandboxPolicy sandbox = policy();
        repo.workspace()->setSandboxPolicy(sandbox);
        BashTool tool(repo.workspace());
        const ToolResult offline = call(tool, {{"command", connect}});
        QVERIFY(sandboxed(offline));
        QVERIFY(offline.isError);
        QVERIFY2(!offline.text().contains(QLatin1String("connected")), qPrintable(offline.text()));
        QVERIFY(offline.text().contains(QLatin1String("no network")));
        QVERIFY(!offline.details.toJson().value(QLatin1String("network")).toBool());
        QVERIFY(!server.waitForNewConnection(100));

        sandbox.allowNetwork = true;
        repo.workspace()->setSandboxPolicy(sandbox);
        const ToolResult online = call(tool, {{"command", connect}});
        QVERIFY(sandboxed(online));
        QVERIFY2(!online.isError, qPrintable(online.text()));
        QCOMPARE(online.text(), QStringLiteral("connected"));
        QVERIFY(online.details.toJson().value(QLatin1String("network")).toBool());
    }

    // Stop ends the whole tree: a grandchild in the command's group and one that left it with
    // setsid (the pid namespace ends with bwrap).
    void stopKillsTheTree()
    {
        ToolsTest::Repo repo;
        repo.workspace()->setSandboxPolicy(policy());
        BashTool tool(repo.workspace());
        const QString grouped = QStringLiteral("sleep 4242");
        const QString escaped = QStringLiteral("sleep 4243");
        Run run(tool,
                {{"command",
                  QStringLiteral("(%1 & wait) & setsid %2 & sleep 0.2; echo started; wait")
                      .arg(grouped, escaped)}});
        QTRY_VERIFY_WITH_TIMEOUT(run.output().contains(QLatin1String("started")), 10000);
        QCOMPARE(processesRunning(grouped).size(), 1);
        QCOMPARE(processesRunning(escaped).size(), 1);

        run.abort();
        const ToolResult result = run.wait();
        QVERIFY(result.isError);
        QVERIFY(result.details.aborted);
        QTRY_COMPARE_WITH_TIMEOUT(processesRunning(grouped), QList<qint64>{}, 3000);
        QTRY_COMPARE_WITH_TIMEOUT(processesRunning(escaped), QList<qint64>{}, 3000);
    }

    // Without a working bwrap the mode "on" runs commands as they are and says so once.
    void unavailableFallsBackWithOneNotice()
    {
        ToolsTest::Repo repo;
        SandboxPolicy sandbox = policy();
        sandbox.bwrapPath = repo.root() + QStringLiteral("/../no-such-bwrap");
        repo.workspace()->setSandboxPolicy(sandbox);
        QStringList notices;
        repo.workspace()->setSandboxNotice(
            [&notices](const QString &message) { notices.append(message); });
        BashTool tool(repo.workspace());
        const ToolResult first = call(tool, {{"command", "echo hi > made.txt; echo ran"}});
        const ToolResult second = call(tool, {{"command", "echo again"}});
        QVERIFY2(!first.isError, qPrintable(first.text()));
        QCOMPARE(first.text(), QStringLiteral("ran"));
        QCOMPARE(second.text(), QStringLiteral("again"));
        QVERIFY(!sandboxed(first));
        QCOMPARE(repo.read(QStringLiteral("made.txt")), QByteArray("hi\n"));
        QCOMPARE(notices.size(), 1);
        QVERIFY2(notices.first().contains(QLatin1String("without it")), qPrintable(notices.first()));
        QVERIFY2(notices.first().contains(QLatin1String("no-such-bwrap")),
                 qPrintable(notices.first()));
    }

    // "required" refuses instead, with the reason, and runs nothing.
    void requiredRefuses()
    {
        ToolsTest::Repo repo;
        SandboxPolicy sandbox = policy(SandboxMode::Required);
        sandbox.bwrapPath = repo.root() + QStringLiteral("/../no-such-bwrap");
        repo.workspace()->setSandboxPolicy(sandbox);
        BashTool tool(repo.workspace());
        const ToolResult result = call(tool, {{"command", "echo hi > made.txt"}});
        QVERIFY(result.isError);
        QVERIFY2(result.text().contains(QLatin1String("sandbox is required")),
                 qPrintable(result.text()));
        QVERIFY2(result.text().contains(QLatin1String("no-such-bwrap")), qPrintable(result.text()));
        QVERIFY(!QFile::exists(repo.path(QStringLiteral("made.txt"))));
    }

    // A bwrap that cannot make its namespaces (here: one that always fails) counts as missing.
    void failingBwrapIsUnavailable()
    {
        OutsideDir dir;
        QVERIFY(dir.write(QStringLiteral("bwrap"),
                          "#!/bin/sh\necho 'No permissions to create "
                          "new namespace' >&2\nexit 1\n"));
        QFile::setPermissions(dir.file(QStringLiteral("bwrap")),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        SandboxPolicy sandbox = policy(SandboxMode::Required);
        sandbox.bwrapPath = dir.file(QStringLiteral("bwrap"));
        const SandboxDecision decision = sandbox.decide();
        QCOMPARE(decision.outcome, SandboxDecision::Outcome::Refused);
        QVERIFY2(decision.reason.contains(QLatin1String("No permissions to create new namespace")),
                 qPrintable(decision.reason));
    }

    // The agent probes bwrap ahead (warmUp, while its first request is out), so that the first
    // command does not wait for it: one start of bwrap per process, whoever asks first.
    void warmUpProbesOnce()
    {
        OutsideDir dir;
        const QString runs = dir.file(QStringLiteral("runs.txt"));
        QVERIFY(dir.write(QStringLiteral("bwrap"),
                          "#!/bin/sh\necho \"$*\" >> '" + runs.toUtf8() + "'\nexit 0\n"));
        QFile::setPermissions(dir.file(QStringLiteral("bwrap")),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        const QString bwrap = dir.file(QStringLiteral("bwrap"));
        const auto lines = [&runs] {
            QFile file(runs);
            return file.open(QIODevice::ReadOnly)
                       ? QString::fromUtf8(file.readAll())
                             .split(QLatin1Char('\n'), Qt::SkipEmptyParts)
                       : QStringList();
        };
        SandboxProbe::warmUp(bwrap);
        SandboxProbe::warmUp(bwrap);                         // on its way already
        QTRY_COMPARE_WITH_TIMEOUT(lines().size(), 1, 10000); // nobody asked yet
        QVERIFY2(lines().constFirst().endsWith(QLatin1String("--unshare-net --die-with-parent -- "
                                                             "true")),
                 qPrintable(lines().constFirst()));
        SandboxPolicy sandbox = policy(SandboxMode::Required);
        sandbox.bwrapPath = bwrap;
        const SandboxDecision decision = sandbox.decide();
        QCOMPARE(decision.outcome, SandboxDecision::Outcome::Sandboxed);
        QCOMPARE(decision.bwrapPath, bwrap);
        SandboxProbe::warmUp(bwrap); // known
        QTest::qWait(200);
        QCOMPARE(lines().size(), 1);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_Sandbox)

} // namespace tst_sandbox

#include "tst_sandbox.moc"
