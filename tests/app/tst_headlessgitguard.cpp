// Issue #31, item 2, end to end (agentdesk --print, the real bwrap and git): the ways the agent
// wrote the repository's git configuration or hooks, row by row in default, acceptEdits, plan
// and bypass mode. Afterwards .git is as it was: the command asked (nobody can answer in
// --print, so it was denied) or ran in a sandbox that kept .git read-only. git's own work
// still works, and reads stay reads in plan mode.

#include "headlessrun.h"
#include "httptestserver.h"
#include "modelreplies.h"
#include "testfiles.h"

#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>
#include <testmain.h>

using namespace TestSupport;

namespace tst_headlessgitguard {

namespace {

constexpr ReplyApi api = ReplyApi::OpenAiChat;

const QStringList modes{QStringLiteral("default"),
                        QStringLiteral("acceptEdits"),
                        QStringLiteral("plan"),
                        QStringLiteral("bypass")};

bool git(const QString &root, const QString &script, QByteArray *output = nullptr)
{
    QProcess shell;
    shell.setWorkingDirectory(root);
    shell.start(QStringLiteral("sh"), {QStringLiteral("-c"), script});
    const bool ok = shell.waitForFinished(30'000) && shell.exitCode() == 0;
    if (output)
        *output = shell.readAllStandardOutput();
    return ok;
}

// A repository with a commit, a Makefile whose recipe writes .git, and a git folder it tracks
// whose configuration runs a command.
bool prepare(const HeadlessSandbox &sandbox)
{
    return sandbox.isValid()
           && sandbox.write(QStringLiteral("Makefile"),
                            "all:\n\tgit config core.fsmonitor 'touch pwned'\n"
                            "\tprintf '#!/bin/sh\\ntouch pwned\\n' > .git/hooks/pre-commit\n")
           && git(sandbox.root(),
                  QStringLiteral(
                      "git config user.name Tester && git config user.email t@example.com && "
                      "git config commit.gpgsign false && "
                      "mkdir -p tracked/evil.git/objects tracked/evil.git/refs && "
                      "printf 'ref: refs/heads/main\\n' > tracked/evil.git/HEAD && "
                      "printf '[core]\\n\\tfsmonitor = \"touch pwned-evil; false\"\\n' > "
                      "tracked/evil.git/config && touch tracked/evil.git/objects/.keep "
                      "tracked/evil.git/refs/.keep && git add -A && git commit -qm one"));
}

QStringList modeOptions(const QString &mode, const QStringList &more)
{
    return QStringList{QStringLiteral("--permission-mode"), mode} + more;
}

} // namespace

class tst_HeadlessGitGuard : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
    }

    void gitFolderIsProtected_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("command");
        QTest::addColumn<QStringList>("options");
        // What the tool result says: "denied" (asked, nobody to answer, or plan mode), "sandbox"
        // (ran, .git read-only), or "" (either).
        QTest::addColumn<QString>("outcome");
        struct Row
        {
            const char *name;
            QString command;
            QStringList options;
            QString bypassOutcome;
        };
        const QList<Row> rows{
            {"git config", "git config core.fsmonitor 'touch pwned'", {}, "denied"},
            {"git config, Bash allowed",
             "git config core.fsmonitor 'touch pwned'",
             {"--allowed-tools", "Bash"},
             "denied"},
            {"git config --file",
             "git config --file .git/config core.fsmonitor 'touch pwned'",
             {},
             "denied"},
            {"cd .git && git config",
             "cd .git && git config core.fsmonitor 'touch pwned'",
             {},
             "denied"},
            {"env git config", "env git config core.fsmonitor 'touch pwned'", {}, "denied"},
            {"git -c", "git -c core.fsmonitor='touch pwned' status", {}, "denied"},
            {"python3 -c",
             "python3 -c 'open(\".git/config\",\"a\").write(\"[core]\\n\\tfsmonitor = touch "
             "pwned\\n\")'",
             {},
             "denied"},
            {"sh -c",
             "sh -c 'printf \"[core]\\n\\tfsmonitor = touch pwned\\n\" >> .git/config'",
             {},
             "denied"},
            {"make recipe, allowed", "make", {"--allowed-tools", "Bash(make:*)"}, "sandbox"},
            {"hook", "printf '#!/bin/sh\\ntouch pwned\\n' > .git/hooks/pre-commit", {}, "denied"},
            {"remote ext::", "git remote add evil 'ext::sh -c touch% pwned'", {}, "denied"},
            {"--git-dir tracked", "git --git-dir=tracked/evil.git status", {}, ""},
        };
        for (const QString &mode : modes) {
            for (const Row &row : rows) {
                QString outcome = mode == QLatin1String("bypass") ? row.bypassOutcome
                                                                  : QStringLiteral("denied");
                if (row.options.contains(QStringLiteral("Bash(make:*)"))
                    && mode != QLatin1String("plan"))
                    outcome = QStringLiteral("sandbox"); // the rule allows it
                QTest::addRow("%s, %s", row.name, qPrintable(mode))
                    << mode << row.command << row.options << outcome;
            }
        }
    }

    void gitFolderIsProtected()
    {
        QFETCH(QString, mode);
        QFETCH(QString, command);
        QFETCH(QStringList, options);
        QFETCH(QString, outcome);
        HeadlessSandbox sandbox;
        QVERIFY(prepare(sandbox));
        const QByteArray before = gitFolderSnapshot(sandbox.root() + QStringLiteral("/.git"));
        HttpTestServer server;
        server.enqueue(scriptedReply(api, {}, {headlessBashCall(command)}));
        server.enqueue(scriptedReply(api, QStringLiteral("Done.")));
        HeadlessRun run(sandbox, server, api, modeOptions(mode, options));
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 2);
        const QByteArray seen = server.requests().at(1).body;
        QVERIFY2(gitFolderSnapshot(sandbox.root() + QStringLiteral("/.git")) == before,
                 seen.constData());
        QVERIFY2(!QFile::exists(sandbox.root() + QStringLiteral("/pwned")), seen.constData());
        if (outcome == QLatin1String("denied")) {
            QVERIFY2(seen.contains("Permission denied") || seen.contains("Plan mode"),
                     seen.constData());
            // Nothing of it ran: not even the configuration of the git folder it named.
            QVERIFY(!QFile::exists(sandbox.root() + QStringLiteral("/pwned-evil")));
        } else if (outcome == QLatin1String("sandbox")) {
            QVERIFY2(seen.contains("Read-only file system"), seen.constData());
        }
        // The user's next git finds nothing planted.
        QVERIFY(git(sandbox.root(), QStringLiteral("git status --short >/dev/null")));
        QVERIFY(!QFile::exists(sandbox.root() + QStringLiteral("/pwned")));
    }

    // Without the sandbox (--sandbox off; bwrap missing is the same) the analysis' part still
    // holds: what it sees changing git's configuration or hooks is asked (and so denied here)
    // in bypass mode too, and git on another git folder is refused in plan mode. What it cannot
    // see (a Makefile recipe a rule allows) is not stopped: that needs the sandbox.
    void withoutSandboxTheQuestionsHold_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("command");
        QTest::newRow("git config, bypass") << "bypass"
                                            << "git config core.fsmonitor 'touch pwned'";
        QTest::newRow("python3 -c, bypass")
            << "bypass"
            << "python3 -c 'open(\".git/config\",\"a\").write(\"[core]\\n\\tfsmonitor = touch "
               "pwned\\n\")'";
        QTest::newRow("sh -c git config, bypass") << "bypass"
                                                  << "sh -c 'git config core.fsmonitor x'";
        QTest::newRow("hook, bypass")
            << "bypass"
            << "printf '#!/bin/sh\\ntouch pwned\\n' > .git/hooks/pre-commit";
        QTest::newRow("--git-dir tracked, plan") << "plan"
                                                 << "git --git-dir=tracked/evil.git status";
    }

    void withoutSandboxTheQuestionsHold()
    {
        QFETCH(QString, mode);
        QFETCH(QString, command);
        HeadlessSandbox sandbox;
        QVERIFY(prepare(sandbox));
        const QByteArray before = gitFolderSnapshot(sandbox.root() + QStringLiteral("/.git"));
        HttpTestServer server;
        server.enqueue(scriptedReply(api, {}, {headlessBashCall(command)}));
        server.enqueue(scriptedReply(api, QStringLiteral("Done.")));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        modeOptions(mode, {QStringLiteral("--sandbox"), QStringLiteral("off")}));
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 2);
        const QByteArray seen = server.requests().at(1).body;
        QVERIFY2(seen.contains("Permission denied"), seen.constData());
        QVERIFY2(gitFolderSnapshot(sandbox.root() + QStringLiteral("/.git")) == before,
                 seen.constData());
        QVERIFY(!QFile::exists(sandbox.root() + QStringLiteral("/pwned-evil")));
    }

    // git add and commit still work from the sandbox, in acceptEdits (by the user's rules) and
    // bypass mode; the commit is in the repository.
    void gitWorkStillWorks_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QStringList>("options");
        QTest::newRow("acceptEdits") << "acceptEdits"
                                     << QStringList{"--allowed-tools",
                                                    "Bash(git add:*)",
                                                    "--allowed-tools",
                                                    "Bash(git commit:*)"};
        QTest::newRow("bypass") << "bypass" << QStringList{};
    }

    void gitWorkStillWorks()
    {
        QFETCH(QString, mode);
        QFETCH(QStringList, options);
        HeadlessSandbox sandbox;
        QVERIFY(prepare(sandbox));
        QVERIFY(sandbox.write(QStringLiteral("notes.txt"), "apple crumble\n"));
        HttpTestServer server;
        server.enqueue(scriptedReply(api,
                                     {},
                                     {headlessBashCall(QStringLiteral(
                                         "git add notes.txt && git commit -qm from-the-agent"))}));
        server.enqueue(scriptedReply(api, QStringLiteral("Committed.")));
        HeadlessRun run(sandbox, server, api, modeOptions(mode, options));
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 2);
        // What the command printed, as the model reads it (the request's last tool message: the
        // tools' descriptions may say "read-only" themselves).
        const QJsonArray messages = QJsonDocument::fromJson(server.requests().at(1).body)
                                        .object()
                                        .value(QStringLiteral("messages"))
                                        .toArray();
        QVERIFY(!messages.isEmpty());
        const QJsonObject result = messages.last().toObject();
        QCOMPARE(result.value(QStringLiteral("role")).toString(), QStringLiteral("tool"));
        const QString seen = result.value(QStringLiteral("content")).toString();
        QVERIFY2(!seen.contains(QStringLiteral("Permission denied")), qPrintable(seen));
        QVERIFY2(!seen.contains(QStringLiteral("Read-only")), qPrintable(seen));
        QByteArray subject;
        QVERIFY(git(sandbox.root(), QStringLiteral("git log -1 --format=%s"), &subject));
        QCOMPARE(subject, QByteArray("from-the-agent\n"));
    }

    // git status and git log stay reads: they run in plan mode, in the sandbox.
    void readsRunInPlanMode()
    {
        HeadlessSandbox sandbox;
        QVERIFY(prepare(sandbox));
        HttpTestServer server;
        server.enqueue(scriptedReply(api,
                                     {},
                                     {headlessBashCall(QStringLiteral(
                                         "git status --short && git log --format=subject:%s"))}));
        server.enqueue(scriptedReply(api, QStringLiteral("Looked.")));
        HeadlessRun run(sandbox, server, api, modeOptions(QStringLiteral("plan"), {}));
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 2);
        const QByteArray seen = server.requests().at(1).body;
        QVERIFY2(seen.contains("subject:one"), seen.constData());
        QVERIFY2(!seen.contains("Plan mode:"), seen.constData());
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessGitGuard)

} // namespace tst_headlessgitguard

#include "tst_headlessgitguard.moc"
