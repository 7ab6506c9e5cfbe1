// Issue #31, item 2: in the sandbox the repository's git folders are read-only for every
// command but git's own work, so a script, a Makefile recipe or `python3 -c` cannot plant
// hooks or configuration that the user's next git runs outside the sandbox; git add and
// commit still work. The real bwrap and the real git; the tool gets BashOptions::gitWritable from the
// real analysis, as the permission middleware gives it.

#include "sandboxtest.h"
#include "testfiles.h"
#include "toolstest.h"

#include <permissions/bashanalysis.h>
#include <testmain.h>
#include <tools/bashtool.h>
#include <tools/sandboxpolicy.h>
#include <tools/sandboxprobe.h>
#include <tools/shelloverlay.h>

#include <QDirIterator>
#include <QTemporaryDir>
#include <QTest>

using namespace AgentCore;
namespace tst_sandboxgit {

using TestSupport::gitFolderSnapshot;
using TestSupport::sandboxed;

namespace {

bool run(const QString &directory, const QString &script)
{
    QProcess shell;
    shell.setWorkingDirectory(directory);
    shell.start(QStringLiteral("sh"), {QStringLiteral("-c"), script});
    return shell.waitForFinished(30000) && shell.exitCode() == 0;
}

const QString identity = QStringLiteral(
    "git config user.name Tester && git config user.email tester@example.com && git config "
    "commit.gpgsign false");

// The repository the attacks run in: one commit, a Makefile whose recipe writes .git.
bool prepare(const ToolsTest::Repo &repo)
{
    return repo.isValid() && repo.write(QStringLiteral("notes.txt"), "apple\n")
           && repo.write(QStringLiteral("Makefile"),
                         "all:\n\tgit config core.fsmonitor 'touch pwned'\n"
                         "\tprintf '#!/bin/sh\\ntouch pwned\\n' > .git/hooks/pre-commit\n")
           && run(repo.root(), identity + QStringLiteral(" && git add -A && git commit -qm one"));
}

// Runs \a command as the middleware would let it run: git's folders writable only when the
// analysis finds git's own work.
ToolResult runAnalysed(BashTool &tool,
                       const QString &root,
                       const QString &command,
                       const BashOptions &more = {})
{
    ToolCallContext context;
    context.toolCallId = QStringLiteral("call_1");
    context.toolName = tool.definition().name;
    context.arguments = {{"command", command}};
    context.tool = &tool;
    BashOptions &options = context.toolOptions.edit<BashOptions>();
    options = more;
    if (BashAnalyzer(root, QStringLiteral("-")).analyze(command).gitWork)
        options.gitWritable = true;
    return tool.execute(context);
}

SandboxPolicy sandboxOn()
{
    SandboxPolicy policy;
    policy.mode = SandboxMode::On;
    return policy;
}

} // namespace

class tst_SandboxGit : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const SandboxProbe::Result probe = SandboxProbe::probe();
        QVERIFY2(probe.available, qPrintable(probe.error));
    }

    // Each way in of the issue, run straight by the tool (as bypass mode or an allow rule would
    // let it): .git is as it was. The same command without the sandbox changes it: the row is
    // a real way in, not a typo.
    void gitFolderStaysReadOnly_data()
    {
        QTest::addColumn<QString>("command");
        const auto row = [](const char *name) -> QTestData & { return QTest::newRow(name); };
        row("git config") << "git config core.fsmonitor 'touch pwned'";
        row("git config --file") << "git config --file .git/config core.fsmonitor 'touch pwned'";
        row("cd .git && git config") << "cd .git && git config core.hooksPath /tmp";
        row("env git config") << "env git config core.fsmonitor 'touch pwned'";
        row("python3 -c") << "/usr/bin/python3 -c 'open(\".git/config\",\"a\").write(\"[core]\\n"
                             "\\tfsmonitor = touch pwned\\n\")'";
        row("sh -c") << "sh -c 'printf \"[core]\\n\\tfsmonitor = touch pwned\\n\" >> .git/config'";
        row("make recipe") << "make";
        row("hook") << "printf '#!/bin/sh\\ntouch pwned\\n' > .git/hooks/pre-commit; chmod +x "
                       ".git/hooks/pre-commit";
        row("info/attributes") << "echo '* filter=evil' > .git/info/attributes";
        row("git work and a script") << "git add notes.txt && /usr/bin/python3 -c "
                                        "'open(\".git/config\",\"a\").write(\"#x\\n\")'";
        row("rebase --exec") << "git commit --allow-empty -qm two && git rebase -q -x 'git "
                                "config core.fsmonitor pwn' HEAD~1";
    }

    void gitFolderStaysReadOnly()
    {
        QFETCH(QString, command);
        ToolsTest::Repo repo;
        QVERIFY(prepare(repo));
        const QByteArray before = gitFolderSnapshot(repo.path(QStringLiteral(".git")));
        repo.workspace()->setSandboxPolicy(sandboxOn());
        BashTool tool(repo.workspace());
        const ToolResult result = runAnalysed(tool, repo.root(), command);
        QVERIFY(sandboxed(result));
        QVERIFY2(gitFolderSnapshot(repo.path(QStringLiteral(".git"))) == before,
                 qPrintable(result.text()));
        // Refused by the mount, not failed for another reason.
        QVERIFY2(result.text().contains(QLatin1String("Read-only file system")),
                 qPrintable(result.text()));

        ToolsTest::Repo plain;
        QVERIFY(prepare(plain));
        const QByteArray untouched = gitFolderSnapshot(plain.path(QStringLiteral(".git")));
        BashTool unsandboxed(plain.workspace());
        const ToolResult changed = runAnalysed(unsandboxed, plain.root(), command);
        QVERIFY(!sandboxed(changed));
        QVERIFY2(gitFolderSnapshot(plain.path(QStringLiteral(".git"))) != untouched,
                 qPrintable(changed.text()));
    }

    // git's own work still works in the sandbox; reads too, with .git read-only; a failure
    // .git caused says why.
    void gitWorkStillWorks()
    {
        ToolsTest::Repo repo;
        QVERIFY(prepare(repo));
        QVERIFY(repo.write(QStringLiteral("notes.txt"), "apple pie\n"));
        repo.workspace()->setSandboxPolicy(sandboxOn());
        BashTool tool(repo.workspace());

        const ToolResult commit = runAnalysed(tool,
                                              repo.root(),
                                              QStringLiteral("git add notes.txt && git commit "
                                                             "-qm 'pie' && git log --oneline -1"));
        QVERIFY(sandboxed(commit));
        QVERIFY2(!commit.isError, qPrintable(commit.text()));
        QVERIFY2(commit.text().contains(QLatin1String("pie")), qPrintable(commit.text()));
        QCOMPARE(repo.git(
                     {QStringLiteral("log"), QStringLiteral("-1"), QStringLiteral("--format=%s")}),
                 QByteArray("pie\n"));

        const ToolResult reads = runAnalysed(tool,
                                             repo.root(),
                                             QStringLiteral("git status --short && git log "
                                                            "--oneline | wc -l"));
        QVERIFY2(!reads.isError, qPrintable(reads.text()));
        QCOMPARE(reads.text(), QStringLiteral("2"));

        QVERIFY(repo.write(QStringLiteral("notes.txt"), "apple crumble\n"));
        const ToolResult mixed = runAnalysed(tool,
                                             repo.root(),
                                             QStringLiteral("touch other.txt && git add -A"));
        QVERIFY(mixed.isError);
        QVERIFY2(mixed.text().contains(QLatin1String(".git folder was read-only")),
                 qPrintable(mixed.text()));
    }

    // A linked worktree: its git folder and the common one it names both stay read-only (the
    // common one holds the configuration and the hooks); git's own work writes both.
    void linkedWorktree()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString base = QFileInfo(dir.path()).canonicalFilePath();
        QVERIFY(run(base,
                    QStringLiteral("git init -q main && cd main && %1 && git commit -q "
                                   "--allow-empty -m one && git worktree add -q ../wt")
                        .arg(identity)));
        const QString root = base + QStringLiteral("/wt");
        const QString common = base + QStringLiteral("/main/.git");
        auto workspace = std::make_shared<ToolWorkspace>(root, base + QStringLiteral("/logs"));
        workspace->setSandboxPolicy(sandboxOn());
        BashTool tool(workspace);
        const QByteArray before = gitFolderSnapshot(common);
        QFile gitFile(root + QStringLiteral("/.git"));
        QVERIFY(gitFile.open(QIODevice::ReadOnly));
        const QByteArray pointer = gitFile.readAll();
        gitFile.close();
        // The common folder's configuration and hooks, and the .git file that says where the
        // worktree's git folder is (pointed elsewhere, the user's next git would run that
        // folder's configuration).
        const ToolResult attack
            = runAnalysed(tool,
                          root,
                          QStringLiteral(
                              "/usr/bin/python3 -c 'open(\"%1/config\",\"a\").write(\"#x\\n\")'; "
                              "echo x > %1/hooks/pre-commit; /usr/bin/python3 -c "
                              "'open(\".git\",\"w\").write(\"gitdir: elsewhere\\n\")'")
                              .arg(common));
        QVERIFY(sandboxed(attack));
        QVERIFY2(gitFolderSnapshot(common) == before, qPrintable(attack.text()));
        QVERIFY(gitFile.open(QIODevice::ReadOnly));
        QCOMPARE(gitFile.readAll(), pointer);
        gitFile.close();

        QFile file(root + QStringLiteral("/a.txt"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("a\n");
        file.close();
        const ToolResult commit = runAnalysed(tool,
                                              root,
                                              QStringLiteral("git add a.txt && git commit -qm "
                                                             "in-worktree"));
        QVERIFY2(!commit.isError, qPrintable(commit.text()));
        QProcess git;
        git.setWorkingDirectory(root);
        git.start(QStringLiteral("git"),
                  {QStringLiteral("log"), QStringLiteral("-1"), QStringLiteral("--format=%s")});
        QVERIFY(git.waitForFinished(30000));
        QCOMPARE(git.readAllStandardOutput(), QByteArray("in-worktree\n"));
    }

    // On the overlay of default mode's write review .git is no longer bound writable for any
    // command: a script's write neither lands there nor in the review.
    void overlayKeepsGitReadOnly()
    {
        if (const QString why = ShellOverlay::unsupportedReason(); !why.isEmpty())
            QSKIP(qPrintable(why));
        ToolsTest::Repo repo;
        QVERIFY(prepare(repo));
        const QByteArray before = gitFolderSnapshot(repo.path(QStringLiteral(".git")));
        QTemporaryDir scratch;
        QString error;
        const std::unique_ptr<ShellOverlay> overlay = ShellOverlay::create(repo.root(),
                                                                           scratch.path(),
                                                                           &error);
        QVERIFY2(overlay, qPrintable(error));
        BashTool tool(repo.workspace());
        const ToolResult attack
            = runAnalysed(tool,
                          repo.root(),
                          QStringLiteral(
                              "/usr/bin/python3 -c 'open(\".git/config\",\"a\").write(\"#x\\n\")'"),
                          BashOptions{{}, false, overlay->bashOverlay()});
        QVERIFY(attack.isError);
        QCOMPARE(gitFolderSnapshot(repo.path(QStringLiteral(".git"))), before);
        QVERIFY(!QFile::exists(overlay->upper() + QStringLiteral("/.git/config")));

        const std::unique_ptr<ShellOverlay> second = ShellOverlay::create(repo.root(),
                                                                          scratch.path(),
                                                                          &error);
        QVERIFY2(second, qPrintable(error));
        const ToolResult commit = runAnalysed(tool,
                                              repo.root(),
                                              QStringLiteral("git commit --allow-empty -qm two"),
                                              BashOptions{{}, false, second->bashOverlay()});
        QVERIFY2(!commit.isError, qPrintable(commit.text()));
        QCOMPARE(repo.git(
                     {QStringLiteral("log"), QStringLiteral("-1"), QStringLiteral("--format=%s")}),
                 QByteArray("two\n"));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_SandboxGit)

} // namespace tst_sandboxgit

#include "tst_sandboxgit.moc"
