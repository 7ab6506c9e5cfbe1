// What the sandbox hides, by real paths and as an allow-list: AgentDesk's data folder around a
// repository inside it (a session worktree), Unix sockets outside the sandbox, and the home
// but for what commands need. The real bwrap, real processes, real sockets.

#include "sandboxtest.h"
#include "testfiles.h"
#include "toolstest.h"

#include <testmain.h>
#include <tools/bashtool.h>
#include <tools/bwrapcommand.h>
#include <tools/sandboxcaches.h>
#include <tools/sandboxhome.h>
#include <tools/sandboxpolicy.h>
#include <tools/sandboxprobe.h>

#include <QCoreApplication>
#include <QFile>
#include <QJsonObject>
#include <QLocalServer>
#include <QLocalSocket>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace AgentCore;
namespace tst_sandboxmasks {

using TestSupport::gitInit;
using TestSupport::OutsideDir;
using TestSupport::sandboxed;
using ToolsTest::call;

namespace {

// A Python that is no shim in a home (the sandbox's home is a test's): connects to the Unix
// socket of its argument and sends a line; prints what became of it.
const QString connectScript = QStringLiteral(
    "/usr/bin/python3 -c 'import socket,sys\n"
    "s=socket.socket(socket.AF_UNIX)\n"
    "try:\n"
    "  s.connect(sys.argv[1]); s.sendall(b\"HELLO-FROM-SANDBOX\\n\"); print(\"sent\", "
    "sys.argv[1])\n"
    "except OSError as e:\n"
    "  print(\"refused\", sys.argv[1], e.strerror)' ");

// A listener on the Unix socket \a path; counts the bytes it was sent.
class Listener
{
public:
    explicit Listener(const QString &path)
        : m_path(path)
    {
        QLocalServer::removeServer(path);
        m_server.setSocketOptions(QLocalServer::WorldAccessOption);
        m_ok = m_server.listen(path);
    }
    bool isValid() const { return m_ok; }
    QString path() const { return m_path; }
    /// Whatever clients sent within \a ms.
    QByteArray received(int ms = 300)
    {
        QByteArray bytes;
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < ms) {
            if (m_server.waitForNewConnection(50)) {
                while (QLocalSocket *client = m_server.nextPendingConnection()) {
                    client->waitForReadyRead(200);
                    bytes += client->readAll();
                    delete client;
                }
            }
        }
        return bytes;
    }

private:
    QString m_path;
    QLocalServer m_server;
    bool m_ok = false;
};

} // namespace

class tst_SandboxMasks : public QObject
{
    Q_OBJECT

    static SandboxPolicy policy(const QString &home)
    {
        SandboxPolicy sandbox;
        sandbox.mode = SandboxMode::On;
        sandbox.home = home;
        sandbox.hiddenPaths = SandboxPolicy::defaultHiddenPaths(home);
        sandbox.privatePaths = SandboxCaches::defaultPaths(home);
        return sandbox;
    }

private slots:
    void initTestCase()
    {
        const SandboxProbe::Result probe = SandboxProbe::probe();
        QVERIFY2(probe.available, qPrintable(probe.error));
        QVERIFY(QFileInfo(QStringLiteral("/usr/bin/python3")).isExecutable());
    }

    // A session worktree lies in AgentDesk's data folder: a command run in it sees its own
    // tree and nothing else of the folder (other sessions, audit logs, checkpoint stores,
    // other worktrees), also through links to the folder, with the folder inside the home or
    // elsewhere ($XDG_DATA_HOME).
    void dataFolderStaysHiddenAroundTheRepository_data()
    {
        QTest::addColumn<bool>("inHome");
        QTest::newRow("data folder in the home") << true;
        QTest::newRow("data folder elsewhere") << false;
    }
    void dataFolderStaysHiddenAroundTheRepository()
    {
        QFETCH(bool, inHome);
        OutsideDir home;
        OutsideDir elsewhere;
        const QString data = (inHome ? home.path() : elsewhere.path())
                             + QStringLiteral("/.local/share/AgentDesk/agentdesk");
        const QString dataRelative = data.mid((inHome ? home.path() : elsewhere.path()).size() + 1);
        const OutsideDir &base = inHome ? home : elsewhere;
        QVERIFY(base.write(dataRelative + QStringLiteral("/sessions/other-repo/s1.jsonl"),
                           "OTHER-SESSION-TEXT"));
        QVERIFY(
            base.write(dataRelative + QStringLiteral("/audit/2026-12-06.jsonl"), "AUDIT-LOG-TEXT"));
        QVERIFY(base.write(dataRelative + QStringLiteral("/checkpoints/abc/objects/1"),
                           "CHECKPOINT-TEXT"));
        QVERIFY(base.write(dataRelative + QStringLiteral("/worktrees/other-wt/file.txt"),
                           "OTHER-WORKTREE-TEXT"));
        const QString root = data + QStringLiteral("/worktrees/mine");
        QVERIFY(gitInit(root));
        QVERIFY(QFile::link(data, root + QStringLiteral("/data-link")));
        QVERIFY(QFile::link(data, home.file(QStringLiteral("data-elsewhere-link"))));

        SandboxPolicy sandbox = policy(home.path());
        sandbox.hiddenPaths.append(data);
        auto workspace = std::make_shared<ToolWorkspace>(root);
        workspace->setSandboxPolicy(sandbox);
        BashTool tool(workspace);
        const ToolResult result
            = call(tool,
                   {{"command",
                     QStringLiteral(
                         "echo mine > made.txt && cat made.txt; "
                         "echo files=$(find %1 data-link/ ~/data-elsewhere-link/ -type f "
                         "2>/dev/null | grep -v '/worktrees/mine/' | wc -l); "
                         "ls -A %1; cat %1/sessions/other-repo/s1.jsonl %1/audit/* "
                         "data-link/audit/* ../other-wt/file.txt 2>&1 | grep -c 'No such'")
                         .arg(data)}});
        QVERIFY(sandboxed(result));
        const QString text = result.text();
        for (const char *secret :
             {"OTHER-SESSION-TEXT", "AUDIT-LOG-TEXT", "CHECKPOINT-TEXT", "OTHER-WORKTREE-TEXT"})
            QVERIFY2(!text.contains(QLatin1String(secret)), qPrintable(text));
        // Its own tree is writable; of the data folder only the way to it is there.
        QVERIFY2(text.startsWith(QLatin1String("mine\nfiles=0\nworktrees\n4")), qPrintable(text));
        QCOMPARE(QFile(root + QStringLiteral("/made.txt")).size(), 5);

        // The command line names real paths: the repository through a link to it too.
        QVERIFY(QFile::link(root, home.file(QStringLiteral("repo-link"))));
        const QStringList args = BwrapCommand(SandboxProbe::probe().bwrapPath,
                                              home.file(QStringLiteral("repo-link")),
                                              sandbox)
                                     .arguments({QStringLiteral("/bin/sh"),
                                                 QStringLiteral("-c"),
                                                 QStringLiteral("pwd; cat %1/sessions/*/* "
                                                                "2>/dev/null; echo end")
                                                     .arg(data)});
        QProcess bwrap;
        bwrap.setProcessChannelMode(QProcess::MergedChannels);
        bwrap.start(SandboxProbe::probe().bwrapPath, args);
        QVERIFY(bwrap.waitForFinished(20000));
        QCOMPARE(QString::fromUtf8(bwrap.readAll()), root + QStringLiteral("\nend\n"));
    }

    // A session worktree's git folders live in the main checkout's .git, in the hidden home:
    // git works in the worktree, while the main checkout's files stay hidden.
    void worktreeGitWorksInTheHiddenHome()
    {
        OutsideDir home;
        const QString main = home.file(QStringLiteral("projects/main"));
        QVERIFY(gitInit(main));
        QVERIFY(home.write(QStringLiteral("projects/main/README"), "MAIN-CHECKOUT-TEXT"));
        const QString worktree = home.file(
            QStringLiteral(".local/share/AgentDesk/agentdesk/worktrees/main-wt"));
        const auto git = [&main](const QStringList &args) {
            QProcess process;
            process.setWorkingDirectory(main);
            process.start(QStringLiteral("git"),
                          QStringList{QStringLiteral("-c"),
                                      QStringLiteral("user.name=T"),
                                      QStringLiteral("-c"),
                                      QStringLiteral("user.email=t@example.com")}
                              + args);
            return process.waitForFinished(30000) && process.exitCode() == 0;
        };
        QVERIFY(git({QStringLiteral("add"), QStringLiteral("README")}));
        QVERIFY(git({QStringLiteral("commit"), QStringLiteral("-qm"), QStringLiteral("one")}));
        QVERIFY(git({QStringLiteral("worktree"),
                     QStringLiteral("add"),
                     QStringLiteral("-q"),
                     worktree,
                     QStringLiteral("-b"),
                     QStringLiteral("wt")}));
        QCOMPARE(SandboxHome::gitFolders(QFileInfo(worktree).canonicalFilePath()).size(), 2);

        SandboxPolicy sandbox = policy(home.path());
        sandbox.hiddenPaths.append(home.file(QStringLiteral(".local/share/AgentDesk/agentdesk")));
        auto workspace = std::make_shared<ToolWorkspace>(worktree);
        workspace->setSandboxPolicy(sandbox);
        BashTool tool(workspace);
        const ToolResult result = call(tool,
                                       {{"command",
                                         QStringLiteral("git log --format=%s && git status "
                                                        "--short && cat README && cat %1/README "
                                                        "2>/dev/null; echo end")
                                             .arg(main)}});
        QVERIFY(sandboxed(result));
        QCOMPARE(result.text(), QStringLiteral("one\nMAIN-CHECKOUT-TEXTend"));
    }

    // Issue #34, item 2: the main checkout under /tmp, which the sandbox makes private; its
    // session worktree in the data folder of the hidden home (the home elsewhere, or in /tmp
    // too, as for a fresh profile). git reads and, for git's own work, writes the main
    // checkout's git folder (the worktree's part of it, the objects, the branch), so it is
    // bound back on top of the private /tmp; the main checkout's files stay out of sight.
    void worktreeOfARepositoryInTmpRunsGit_data()
    {
        QTest::addColumn<bool>("homeInTmp");
        QTest::newRow("home elsewhere") << false;
        QTest::newRow("home in /tmp") << true;
    }
    void worktreeOfARepositoryInTmpRunsGit()
    {
        QFETCH(bool, homeInTmp);
        QTemporaryDir tmp; // under /tmp
        QVERIFY(tmp.isValid());
        const QString top = QFileInfo(tmp.path()).canonicalFilePath();
        QVERIFY(top.startsWith(QStringLiteral("/tmp/")));
        const QString main = top + QStringLiteral("/main");
        QVERIFY(gitInit(main));
        OutsideDir outside;
        const QString home = homeInTmp ? top + QStringLiteral("/home") : outside.path();
        const QString data = home + QStringLiteral("/.local/share/AgentDesk/agentdesk");
        const QString worktree = data + QStringLiteral("/worktrees/main-wt");
        QVERIFY(QDir().mkpath(data + QStringLiteral("/sessions")));
        const auto git = [&main](const QStringList &args) {
            QProcess process;
            process.setWorkingDirectory(main);
            process.start(QStringLiteral("git"),
                          QStringList{QStringLiteral("-c"),
                                      QStringLiteral("user.name=T"),
                                      QStringLiteral("-c"),
                                      QStringLiteral("user.email=t@example.com")}
                              + args);
            return process.waitForFinished(30000) && process.exitCode() == 0;
        };
        const auto write = [](const QString &path, const QByteArray &bytes) {
            QFile file(path);
            return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
        };
        QVERIFY(write(main + QStringLiteral("/README"), "MAIN-CHECKOUT-TEXT"));
        QVERIFY(git({QStringLiteral("add"), QStringLiteral("README")}));
        QVERIFY(git({QStringLiteral("commit"), QStringLiteral("-qm"), QStringLiteral("one")}));
        QVERIFY(git({QStringLiteral("worktree"),
                     QStringLiteral("add"),
                     QStringLiteral("-q"),
                     worktree,
                     QStringLiteral("-b"),
                     QStringLiteral("wt")}));

        SandboxPolicy sandbox = policy(home);
        sandbox.hiddenPaths.append(data);
        auto workspace = std::make_shared<ToolWorkspace>(worktree);
        workspace->setSandboxPolicy(sandbox);
        BashTool tool(workspace);
        const ToolResult reads = call(tool,
                                      {{"command",
                                        QStringLiteral("git log --format=%s && git status "
                                                       "--short && git diff --stat && cat README "
                                                       "&& cat %1/README 2>/dev/null; echo end")
                                            .arg(main)}});
        QVERIFY(sandboxed(reads));
        QCOMPARE(reads.text(), QStringLiteral("one\nMAIN-CHECKOUT-TEXTend"));

        // git's own work (as the permission middleware marks it) commits on the branch.
        QVERIFY(write(worktree + QStringLiteral("/b"), "b\n"));
        ToolCallContext context;
        context.toolCallId = QStringLiteral("commit");
        context.toolName = tool.definition().name;
        context.arguments = {{"command",
                              QStringLiteral("git add b && git -c user.name=T -c "
                                             "user.email=t@example.com commit -qm two && git log "
                                             "--format=%s")}};
        context.tool = &tool;
        context.toolOptions.edit<BashOptions>().gitWritable = true;
        const ToolResult commit = tool.execute(context);
        QVERIFY(sandboxed(commit));
        QVERIFY2(!commit.isError, qPrintable(commit.text()));
        QCOMPARE(commit.text(), QStringLiteral("two\none"));
        QVERIFY(
            git({QStringLiteral("rev-parse"), QStringLiteral("--verify"), QStringLiteral("wt~1")}));
    }

    // Without the network no Unix socket outside the sandbox is reachable: one in the home,
    // one in /run (the real one, where the Docker socket lives) or $XDG_RUNTIME_DIR, one in a
    // folder standing for /var/run. With the network allowed neither: a socket is no network.
    void unixSocketsAreUnreachable_data()
    {
        QTest::addColumn<bool>("network");
        QTest::newRow("no network") << false;
        QTest::newRow("network allowed") << true;
    }
    void unixSocketsAreUnreachable()
    {
        QFETCH(bool, network);
        ToolsTest::Repo repo;
        OutsideDir home;
        OutsideDir varRun;
        Listener inHome(home.file(QStringLiteral("agent.sock")));
        Listener inVarRun(varRun.file(QStringLiteral("docker.sock")));
        QVERIFY(inHome.isValid() && inVarRun.isValid());
        // The real /run where this user may listen there (root; else its runtime folder).
        std::unique_ptr<Listener> inRun;
        std::unique_ptr<QTemporaryDir> runFolder;
        for (const QString &parent :
             {qEnvironmentVariable("XDG_RUNTIME_DIR"), QStringLiteral("/run")}) {
            if (parent.isEmpty() || !QFileInfo(parent).isWritable())
                continue;
            runFolder = std::make_unique<QTemporaryDir>(parent
                                                        + QStringLiteral("/agentdesk-test-XXXXXX"));
            inRun = std::make_unique<Listener>(runFolder->filePath(QStringLiteral("s.sock")));
            break;
        }
        QList<Listener *> listeners{&inHome, &inVarRun};
        if (inRun && inRun->isValid())
            listeners.append(inRun.get());
        else
            qWarning("no writable /run or XDG_RUNTIME_DIR: only the home and the stand-in");

        SandboxPolicy sandbox = policy(home.path());
        sandbox.allowNetwork = network;
        sandbox.socketFolders.append(varRun.path());
        repo.workspace()->setSandboxPolicy(sandbox);
        BashTool tool(repo.workspace());
        QString command;
        for (const Listener *listener : std::as_const(listeners))
            command += connectScript + listener->path() + QStringLiteral("; ");
        const ToolResult result = call(tool, {{"command", command}});
        QVERIFY(sandboxed(result));
        QVERIFY2(!result.text().contains(QLatin1String("sent")), qPrintable(result.text()));
        QCOMPARE(result.text().count(QLatin1String("refused")), listeners.size());
        for (Listener *listener : std::as_const(listeners))
            QVERIFY2(listener->received().isEmpty(), qPrintable(listener->path()));

        // The same command unsandboxed reaches them all: the listeners work.
        repo.workspace()->setSandboxPolicy(SandboxPolicy());
        const ToolResult plain = call(tool, {{"command", command}});
        QCOMPARE(plain.text().count(QLatin1String("sent")), listeners.size());
        for (Listener *listener : std::as_const(listeners))
            QVERIFY2(listener->received(1000).contains("HELLO-FROM-SANDBOX"),
                     qPrintable(listener->path()));
    }

    // The home is hidden but for an allow-list: secrets no deny-list names (a database
    // password file, a vault token, shell history, browser cookies, another project's .env)
    // are not there; git's configuration, a toolchain and an extra path of the user's are,
    // read-only, also through a link; HOME itself exists, read-only.
    void homeIsAnAllowList()
    {
        ToolsTest::Repo repo;
        OutsideDir home;
        OutsideDir dotfiles;
        QVERIFY(home.write(QStringLiteral(".pgpass"), "PGPASS-SECRET"));
        QVERIFY(home.write(QStringLiteral(".vault-token"), "VAULT-SECRET"));
        QVERIFY(home.write(QStringLiteral(".bash_history"), "HISTORY-SECRET"));
        QVERIFY(home.write(QStringLiteral(".mozilla/firefox/abc.default/cookies.sqlite"),
                           "COOKIE-SECRET"));
        QVERIFY(home.write(QStringLiteral(".config/Code/User/globalStorage/state.vscdb"),
                           "EDITOR-SECRET"));
        QVERIFY(home.write(QStringLiteral("projects/other/.env"), "DOTENV-SECRET"));
        QVERIFY(home.write(QStringLiteral(".gitconfig"), "[user]\n\tname = Sandbox Tester\n"));
        QVERIFY(home.write(QStringLiteral(".cargo/bin/cargo-tool"), "TOOLCHAIN-VISIBLE"));
        QVERIFY(home.write(QStringLiteral(".local/lib/python3.11/site-packages/m.py"),
                           "PYTHON-VISIBLE"));
        QVERIFY(home.write(QStringLiteral("shared/notes.txt"), "EXTRA-VISIBLE"));
        QVERIFY(dotfiles.write(QStringLiteral("git/ignore"), "LINKED-VISIBLE"));
        QVERIFY(QDir().mkpath(home.file(QStringLiteral(".config"))));
        QVERIFY(QFile::link(dotfiles.file(QStringLiteral("git")),
                            home.file(QStringLiteral(".config/git"))));
        SandboxPolicy sandbox = policy(home.path());
        sandbox.readablePaths = {home.file(QStringLiteral("shared"))};
        repo.workspace()->setSandboxPolicy(sandbox);
        BashTool tool(repo.workspace());
        const QString h = home.path();
        const QString command = QStringLiteral(
                                    "cd %1 && pwd && cat .pgpass .vault-token .bash_history "
                                    ".mozilla/firefox/abc.default/cookies.sqlite "
                                    ".config/Code/User/globalStorage/state.vscdb "
                                    "projects/other/.env 2>/dev/null; git config -f "
                                    ".gitconfig user.name; cat .cargo/bin/cargo-tool "
                                    ".local/lib/python3.11/site-packages/m.py shared/notes.txt "
                                    ".config/git/ignore; echo; echo x > .cargo/planted || "
                                    "echo read-only")
                                    .arg(h);
        const ToolResult result = call(tool, {{"command", command}});
        QVERIFY(sandboxed(result));
        QCOMPARE(result.text().section(QLatin1Char('\n'), 0, 2),
                 h
                     + QStringLiteral("\nSandbox Tester\nTOOLCHAIN-VISIBLEPYTHON-VISIBLEEXTRA-"
                                      "VISIBLELINKED-VISIBLE"));
        QVERIFY2(result.text().endsWith(QLatin1String("read-only")), qPrintable(result.text()));
        for (const char *secret : {"PGPASS", "VAULT", "HISTORY", "COOKIE", "EDITOR", "DOTENV"})
            QVERIFY2(!result.text().contains(QLatin1String(secret)), qPrintable(result.text()));

        // Without the sandbox all of it is there: the test would notice a broken mask.
        repo.workspace()->setSandboxPolicy(SandboxPolicy());
        const ToolResult plain = call(tool, {{"command", command}});
        for (const char *secret : {"PGPASS", "VAULT", "HISTORY", "COOKIE", "EDITOR", "DOTENV"})
            QVERIFY2(plain.text().contains(QLatin1String(secret)), qPrintable(plain.text()));
    }

    // The masks hold against a command that tries to take them off: no capability inside,
    // also for a user running AgentDesk as root (then umount ~/.ssh worked); and the host's
    // System V shared memory is out of sight (its own IPC namespace, as --unshare-all).
    void masksHoldAndIpcIsPrivate()
    {
        ToolsTest::Repo repo;
        OutsideDir home;
        QVERIFY(home.write(QStringLiteral(".ssh/id_rsa"), "PRIVATE-SSH-KEY"));
        QProcess ipcmk;
        ipcmk.start(QStringLiteral("ipcmk"), {QStringLiteral("-M"), QStringLiteral("4096")});
        QVERIFY(ipcmk.waitForFinished(10000) && ipcmk.exitCode() == 0);
        const QString segment = QString::fromUtf8(ipcmk.readAllStandardOutput())
                                    .section(QLatin1Char(':'), 1)
                                    .trimmed();
        QVERIFY(!segment.isEmpty());
        const auto removeSegment = qScopeGuard([&segment] {
            QProcess::execute(QStringLiteral("ipcrm"), {QStringLiteral("-m"), segment});
        });
        repo.workspace()->setSandboxPolicy(policy(home.path()));
        BashTool tool(repo.workspace());
        const QString command = QStringLiteral(
                                    "umount %1/.ssh 2>/dev/null; umount %1 2>/dev/null; mount -o "
                                    "remount,rw / 2>/dev/null; cat %1/.ssh/id_rsa 2>/dev/null; "
                                    "grep CapEff /proc/self/status; echo shm=$(ipcs -m | grep -cw "
                                    "%2)")
                                    .arg(home.path(), segment);
        const ToolResult result = call(tool, {{"command", command}});
        QVERIFY(sandboxed(result));
        QCOMPARE(result.text(), QStringLiteral("CapEff:\t0000000000000000\nshm=0"));
        // Unsandboxed the segment is there: the test would see a shared namespace.
        repo.workspace()->setSandboxPolicy(SandboxPolicy());
        QVERIFY2(call(tool, {{"command", QStringLiteral("ipcs -m | grep -cw %1").arg(segment)}})
                         .text()
                     == QLatin1String("1"),
                 qPrintable(segment));
    }

    // A home reached through a link (/home/u -> /var/home/u): hidden at its real path, so
    // neither name shows it; what the allow-list shows is there under both.
    void homeThroughALinkIsHiddenToo()
    {
        ToolsTest::Repo repo;
        OutsideDir base;
        QVERIFY(base.write(QStringLiteral("var/home/u/.bash_history"), "HISTORY-SECRET"));
        QVERIFY(base.write(QStringLiteral("var/home/u/.gitconfig"), "GITCONFIG-VISIBLE"));
        QVERIFY(
            QFile::link(base.file(QStringLiteral("var/home/u")), base.file(QStringLiteral("u"))));
        repo.workspace()->setSandboxPolicy(policy(base.file(QStringLiteral("u"))));
        BashTool tool(repo.workspace());
        const ToolResult result
            = call(tool,
                   {{"command",
                     QStringLiteral("cat %1/u/.bash_history %1/var/home/u/.bash_history "
                                    "2>/dev/null; cat %1/u/.gitconfig %1/var/home/u/.gitconfig")
                         .arg(base.path())}});
        QVERIFY(sandboxed(result));
        QCOMPARE(result.text(), QStringLiteral("GITCONFIG-VISIBLEGITCONFIG-VISIBLE"));
    }

    // A hidden folder that holds both the repository and the home: the home goes with it
    // (bwrap would fail remounting a home it no longer sees), the repository comes back.
    void hiddenFolderAroundTheHome()
    {
        OutsideDir base;
        QVERIFY(base.write(QStringLiteral("home/.bash_history"), "HISTORY-SECRET"));
        const QString root = base.file(QStringLiteral("home/work/repo"));
        QVERIFY(gitInit(root));
        SandboxPolicy sandbox = policy(base.file(QStringLiteral("home")));
        sandbox.hiddenPaths.append(base.path());
        auto workspace = std::make_shared<ToolWorkspace>(root);
        workspace->setSandboxPolicy(sandbox);
        BashTool tool(workspace);
        const ToolResult result = call(tool,
                                       {{"command",
                                         QStringLiteral("cat %1/home/.bash_history 2>/dev/null; "
                                                        "echo in > made.txt && cat made.txt")
                                             .arg(base.path())}});
        QVERIFY(sandboxed(result));
        QCOMPARE(result.text(), QStringLiteral("in"));
    }

    // The allow-list's defaults: git's configuration and toolchains, no settings or history.
    void defaultReadablePaths()
    {
        const QStringList paths = SandboxHome::defaultReadablePaths(QStringLiteral("/home/u"));
        for (const char *path : {"/home/u/.gitconfig",
                                 "/home/u/.config/git",
                                 "/home/u/.cargo",
                                 "/home/u/.rustup",
                                 "/home/u/.npm",
                                 "/home/u/.nvm",
                                 "/home/u/.pyenv",
                                 "/home/u/.local/bin",
                                 "/home/u/go",
                                 "/home/u/.m2",
                                 "/home/u/.gradle"})
            QVERIFY2(paths.contains(QLatin1String(path)), path);
        for (const QString &path : paths) {
            for (const char *never : {"history",
                                      ".ssh",
                                      ".mozilla",
                                      ".pgpass",
                                      ".config/Code",
                                      "AgentDesk",
                                      ".local/share/keyrings"})
                QVERIFY2(!path.contains(QLatin1String(never)), qPrintable(path));
        }
        const QStringList hidden = SandboxPolicy::defaultHiddenPaths(QStringLiteral("/home/u"));
        for (const char *secret : {"/home/u/.cargo/credentials.toml",
                                   "/home/u/.m2/settings.xml",
                                   "/home/u/.gradle/gradle.properties",
                                   "/home/u/.config/git/credentials"})
            QVERIFY2(hidden.contains(QLatin1String(secret)), secret);
        QVERIFY(SandboxHome::defaultReadablePaths(QString()).isEmpty());
    }

    // Programs the user's PATH finds in the home are found in the sandbox too; a PATH that
    // names the home itself does not show all of it.
    void pathFoldersInTheHomeAreShown()
    {
        QCOMPARE(SandboxHome::pathFolders(QStringLiteral("/home/u"),
                                          QStringLiteral("/home/u/bin:/usr/bin:/home/u:/home/u/"
                                                         ":bin:/home/u/opt/tool/bin/:/home/uu/bin"
                                                         ":/home/u/bin")),
                 QStringList(
                     {QStringLiteral("/home/u/bin"), QStringLiteral("/home/u/opt/tool/bin")}));

        OutsideDir home;
        QVERIFY(home.write(QStringLiteral("bin/mytool"), "#!/bin/sh\necho MYTOOL-RAN\n"));
        QVERIFY(QFile::setPermissions(home.file(QStringLiteral("bin/mytool")),
                                      QFileDevice::ReadOwner | QFileDevice::ExeOwner));
        QVERIFY(home.write(QStringLiteral("private/notes.txt"), "PRIVATE-SECRET"));
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH",
                QByteArray(QFile::encodeName(home.file(QStringLiteral("bin"))) + ':' + path));
        const auto restore = qScopeGuard([&path] { qputenv("PATH", path); });
        ToolsTest::Repo repo;
        repo.workspace()->setSandboxPolicy(policy(home.path()));
        BashTool tool(repo.workspace());
        const ToolResult result = call(tool,
                                       {{"command",
                                         QStringLiteral("mytool; cat %1 2>/dev/null || echo hidden")
                                             .arg(
                                                 home.file(QStringLiteral("private/notes.txt")))}});
        QVERIFY(sandboxed(result));
        QCOMPARE(result.text().trimmed(), QStringLiteral("MYTOOL-RAN\nhidden"));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_SandboxMasks)

} // namespace tst_sandboxmasks

#include "tst_sandboxmasks.moc"
