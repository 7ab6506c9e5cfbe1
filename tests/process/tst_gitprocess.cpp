// Opening a repository runs nothing of it: AgentDesk's own git (GitProcess, and everything
// that runs git through it) on a repository whose configuration names a command for every key
// by which git runs one (tests/support/hostilerepository.h).

#include "hostilerepository.h"

#include <checkpoint/checkpointstore.h>
#include <coding/systemprompt.h>
#include <process/gitprocess.h>
#include <testmain.h>
#include <worktree/sessionworktrees.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace AgentCore;
namespace tst_gitprocess {

using TestSupport::HostileRepository;

namespace {

const QByteArray secret = "sk-gitprocess-test-secret-4711";

QStringList args(const char *line)
{
    return QString::fromLatin1(line).split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

} // namespace

class tst_GitProcess : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_count = 0;

    QString freshFolder()
    {
        const QString path = m_dir.filePath(QStringLiteral("repo%1").arg(++m_count));
        QDir().mkpath(path);
        return path;
    }

private slots:
    void initTestCase()
    {
        // What AgentDesk's environment holds and git must not see.
        qputenv("OPENAI_API_KEY", secret);
        qputenv("ANTHROPIC_API_KEY", secret);
        qputenv("AGENTDESK_TEST_TOKEN", secret);
        QVERIFY(m_dir.isValid());
    }

    // The fixture is hostile: plain git, as AgentDesk ran it before, runs its commands.
    void plainGitRunsTheRepositorysCommands()
    {
        HostileRepository repository(freshFolder());
        QVERIFY2(repository.isValid(), qPrintable(repository.error()));
        QProcess git;
        git.setWorkingDirectory(repository.root());
        git.start(QStringLiteral("git"), args("--no-optional-locks status --short"));
        QVERIFY(git.waitForFinished(30'000));
        QVERIFY2(repository.ran().contains(QStringLiteral("fsmonitor")),
                 qPrintable(repository.ran().join(u' ')));
        QVERIFY2(repository.ran().contains(QStringLiteral("filter-clean")),
                 qPrintable(repository.ran().join(u' ')));
        QFile dump(repository.markers() + QStringLiteral("/fsmonitor"));
        QVERIFY(dump.open(QIODevice::ReadOnly));
        QVERIFY(dump.readAll().contains(secret)); // what the fix keeps from them
    }

    // Every command AgentDesk itself runs on a user's repository, and the usual others. (An
    // alias never shadows a command of git's own, and AgentDesk runs only those: alias.status
    // is in the fixture, and does not run.)
    void runsNoneOfTheRepositorysCommands_data()
    {
        QTest::addColumn<QStringList>("command");
        QTest::newRow("status --short (the system prompt)") << args("status --short");
        QTest::newRow("status --porcelain -uall (the window)") << args("status --porcelain -uall");
        QTest::newRow("cat-file blob (the diff view)") << args("cat-file blob HEAD:filtered.txt");
        QTest::newRow("config core.excludesFile (checkpoints)")
            << args("config --path --get core.excludesFile");
        QTest::newRow("diff") << args("diff");
        QTest::newRow("diff --stat") << args("diff --stat");
        QTest::newRow("diff HEAD") << args("diff HEAD");
        QTest::newRow("log -p") << args("log -p -1");
        QTest::newRow("show") << args("show HEAD");
        QTest::newRow("add -A") << args("add -A");
        QTest::newRow("commit -a")
            << args("-c user.name=T -c user.email=t@example.invalid commit -q -a -m x");
        QTest::newRow("checkout a file") << args("checkout HEAD -- filtered.txt processed.proc "
                                                 "included.inc includedif.incif worktree.wt");
        QTest::newRow("reset --hard") << args("reset -q --hard");
        QTest::newRow("update-ref") << args("update-ref refs/heads/other HEAD");
        QTest::newRow("ls-remote (a transport)") << args("ls-remote origin");
    }

    void runsNoneOfTheRepositorysCommands()
    {
        QFETCH(QStringList, command);
        HostileRepository repository(freshFolder());
        QVERIFY2(repository.isValid(), qPrintable(repository.error()));
        const GitProcess::Result result = GitProcess::run(command, repository.root(), 30'000);
        QVERIFY2(repository.ran().isEmpty(),
                 qPrintable(QStringLiteral("ran: %1; git said: %2")
                                .arg(repository.ran().join(u' '), result.problem())));
    }

    // Hardened, git still does its work: what status says is what it is.
    void stillReadsTheRepository()
    {
        HostileRepository repository(freshFolder());
        QVERIFY2(repository.isValid(), qPrintable(repository.error()));
        const GitProcess::Result status = GitProcess::run(args("status --short"),
                                                          repository.root(),
                                                          30'000);
        QVERIFY2(status.ok(), qPrintable(status.problem()));
        const QString text = QString::fromUtf8(status.out);
        QVERIFY2(text.contains(QStringLiteral(" M filtered.txt")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral(" M included.inc")), qPrintable(text));
        const GitProcess::Result blob = GitProcess::run(args("cat-file blob HEAD:filtered.txt"),
                                                        repository.root(),
                                                        30'000);
        QCOMPARE(blob.out, QByteArray("aaaa\n"));
        QCOMPARE(repository.ran(), QStringList());
    }

    // What git (and anything it would start) sees: an allow-list, no key, no GIT_* of ours.
    void environmentHasNoSecrets()
    {
        // A terminal or hook that started AgentDesk would point git elsewhere.
        qputenv("GIT_DIR", "/nonexistent/elsewhere.git");
        qputenv("GIT_CONFIG_PARAMETERS", "'core.fsmonitor'='/bin/false'");
        const auto unset = qScopeGuard([] {
            qunsetenv("GIT_DIR");
            qunsetenv("GIT_CONFIG_PARAMETERS");
        });
        const QProcessEnvironment environment = GitProcess::environment();
        for (const QString &key : environment.keys()) {
            QVERIFY2(!environment.value(key).contains(QString::fromLatin1(secret)), qPrintable(key));
            QVERIFY2(!key.endsWith(QLatin1String("_API_KEY")), qPrintable(key));
        }
        QVERIFY(environment.contains(QStringLiteral("PATH")));
        QVERIFY(environment.contains(QStringLiteral("HOME")));
        QCOMPARE(environment.value(QStringLiteral("GIT_TERMINAL_PROMPT")), QStringLiteral("0"));
        QCOMPARE(environment.value(QStringLiteral("GIT_CONFIG_NOSYSTEM")), QStringLiteral("1"));
        QCOMPARE(environment.value(QStringLiteral("GIT_OPTIONAL_LOCKS")), QStringLiteral("0"));
        QVERIFY(!environment.contains(QStringLiteral("GIT_DIR")));

        // The run itself: a command alias of this test (the repository's own never run) shows
        // the environment git hands on.
        HostileRepository repository(freshFolder());
        QVERIFY2(repository.isValid(), qPrintable(repository.error()));
        const GitProcess::Result shown = GitProcess::run({QStringLiteral("-c"),
                                                          QStringLiteral("alias.showenv=!env"),
                                                          QStringLiteral("showenv")},
                                                         repository.root(),
                                                         30'000);
        QVERIFY2(shown.ok(), qPrintable(shown.problem()));
        QVERIFY(shown.out.contains("\nPATH=") || shown.out.startsWith("PATH="));
        QVERIFY2(!shown.out.contains(secret), shown.out.constData());
        QVERIFY2(!shown.out.contains("_API_KEY="), shown.out.constData());
        QVERIFY2(!shown.out.contains("GIT_DIR="), shown.out.constData());
        QVERIFY(shown.out.contains("GIT_CONFIG_KEY_0=core.fsmonitor"));
    }

    // A submodule's own configuration (in the superproject's .git/modules) is listed nowhere:
    // status and diff leave submodules alone.
    void submoduleRunsNothing()
    {
        HostileRepository inner(freshFolder());
        QVERIFY2(inner.isValid(), qPrintable(inner.error()));
        const QString outer = freshFolder();
        const auto plainGit = [&outer](const QStringList &arguments) {
            QProcess git;
            git.setWorkingDirectory(outer);
            git.start(QStringLiteral("git"),
                      QStringList{QStringLiteral("-c"),
                                  QStringLiteral("protocol.file.allow=always"),
                                  QStringLiteral("-c"),
                                  QStringLiteral("user.name=T"),
                                  QStringLiteral("-c"),
                                  QStringLiteral("user.email=t@example.invalid"),
                                  QStringLiteral("-c"),
                                  QStringLiteral("core.hooksPath=/dev/null")}
                          + arguments);
            return git.waitForFinished(30'000) && git.exitCode() == 0;
        };
        QVERIFY(plainGit(args("init -q")));
        QVERIFY(plainGit({QStringLiteral("-c"),
                          QStringLiteral("core.fsmonitor=false"),
                          QStringLiteral("submodule"),
                          QStringLiteral("add"),
                          QStringLiteral("-q"),
                          inner.root(),
                          QStringLiteral("sub")}));
        QVERIFY(plainGit(args("commit -q -m sub")));
        // The submodule's checkout gets the hostile configuration of the inner repository.
        QFile hostile(inner.root() + QStringLiteral("/.git/config"));
        QFile config(outer + QStringLiteral("/.git/modules/sub/config"));
        QVERIFY(hostile.open(QIODevice::ReadOnly) && config.open(QIODevice::Append));
        config.write(hostile.readAll());
        config.close();
        QFile changed(outer + QStringLiteral("/sub/filtered.txt"));
        QVERIFY(changed.open(QIODevice::WriteOnly | QIODevice::Truncate));
        changed.write("QQQQ\n"); // as long as what the index knows: read again, filtered
        changed.close();
        QVERIFY(inner.ran().isEmpty());

        const GitProcess::Result status = GitProcess::run(args("status --short"), outer, 30'000);
        QVERIFY2(status.ok(), qPrintable(status.problem()));
        GitProcess::run(args("diff"), outer, 30'000);
        gatherPromptEnvironment(outer);
        QCOMPARE(inner.ran(), QStringList());

        // Plain git would have: the fixture is hostile there too.
        plainGit(args("status --short"));
        QVERIFY2(!inner.ran().isEmpty(), "plain git status ran nothing in the submodule");
    }

    // safe.directory keeps git's meaning: a repository another user owns is refused, as git
    // refuses it (AgentDesk passes no safe.directory=*), and the prompt has no status of it.
    void anotherUsersRepositoryIsRefused()
    {
        if (::geteuid() != 0)
            QSKIP("needs root to give the repository to another user");
        HostileRepository repository(freshFolder());
        QVERIFY2(repository.isValid(), qPrintable(repository.error()));
        QProcess chown;
        chown.start(QStringLiteral("chown"),
                    {QStringLiteral("-R"), QStringLiteral("65534:65534"), repository.root()});
        QVERIFY(chown.waitForFinished(30'000) && chown.exitCode() == 0);
        const GitProcess::Result status = GitProcess::run(args("status --short"),
                                                          repository.root(),
                                                          30'000);
        QVERIFY2(!status.ok() && status.problem().contains(QLatin1String("dubious ownership")),
                 qPrintable(status.problem()));
        QCOMPARE(gatherPromptEnvironment(repository.root()).gitStatus, QStringList());
        QCOMPARE(repository.ran(), QStringList());
    }

    // The system prompt's status (every start and window open runs it).
    void systemPromptStatusRunsNothing()
    {
        HostileRepository repository(freshFolder());
        QVERIFY2(repository.isValid(), qPrintable(repository.error()));
        const PromptEnvironment environment = gatherPromptEnvironment(repository.root());
        QCOMPARE(repository.ran(), QStringList());
        QVERIFY2(environment.gitStatus.contains(QStringLiteral(" M filtered.txt")),
                 qPrintable(environment.gitStatus.join(u'|')));
    }

    // A session's worktree: made (a checkout: smudge filters, post-checkout hook), its changes
    // read (diff: external diff, textconv), kept as a branch (add, commit: clean filters,
    // commit hooks, signing) and removed.
    void sessionWorktreeRunsNothing()
    {
        HostileRepository repository(freshFolder());
        QVERIFY2(repository.isValid(), qPrintable(repository.error()));
        const QString data = m_dir.filePath(QStringLiteral("worktrees%1").arg(m_count));
        const SessionWorktrees::Created created
            = SessionWorktrees::create(repository.root(),
                                       data,
                                       QStringLiteral("hostile"),
                                       QStringLiteral("20260101-101500-123-a1b2"));
        QVERIFY2(created.worktree, qPrintable(created.error));
        QCOMPARE(repository.ran(), QStringList());
        const SessionWorktree worktree = *created.worktree;
        // The checkout gave the committed bytes, not a filter's.
        QFile checkedOut(worktree.path + QStringLiteral("/filtered.txt"));
        QVERIFY(checkedOut.open(QIODevice::ReadOnly));
        QCOMPARE(checkedOut.readAll(), QByteArray("aaaa\n"));
        checkedOut.close();
        QFile changed(worktree.path + QStringLiteral("/filtered.txt"));
        QVERIFY(changed.open(QIODevice::WriteOnly | QIODevice::Truncate));
        changed.write("changed in the session\n");
        changed.close();
        QCOMPARE(SessionWorktrees::check(worktree), QString());
        const WorktreeChanges changes = SessionWorktrees::changes(worktree);
        QCOMPARE(changes.changes.size(), 1);
        QCOMPARE(repository.ran(), QStringList());
        QCOMPARE(SessionWorktrees::keepAsBranch(worktree, QStringLiteral("kept")), QString());
        QCOMPARE(repository.ran(), QStringList());
        QCOMPARE(SessionWorktrees::remove(worktree), QString());
        QCOMPARE(repository.ran(), QStringList());
    }

    // The user's own filter (Git LFS is one) still fills a session worktree: a driver of the
    // user's global configuration keeps the user's command, even where the repository's
    // configuration names the same driver with its own.
    void usersOwnFilterStillRuns()
    {
        const QString home = m_dir.filePath(QStringLiteral("home%1").arg(++m_count));
        QVERIFY(QDir().mkpath(home));
        QFile global(home + QStringLiteral("/.gitconfig"));
        QVERIFY(global.open(QIODevice::WriteOnly));
        global.write("[user]\n\tname = Tester\n\temail = t@example.com\n"
                     "[filter \"mine\"]\n\tsmudge = tr a-z A-Z\n\tclean = cat\n"
                     "\trequired = true\n");
        global.close();
        const QByteArray oldHome = qgetenv("HOME");
        const QByteArray oldConfig = qgetenv("XDG_CONFIG_HOME");
        qputenv("HOME", QFile::encodeName(home));
        qunsetenv("XDG_CONFIG_HOME");
        const auto restore = qScopeGuard([&] {
            qputenv("HOME", oldHome);
            if (!oldConfig.isNull())
                qputenv("XDG_CONFIG_HOME", oldConfig);
        });

        const QString root = freshFolder();
        QProcess git;
        const auto plain = [&](const QStringList &arguments) {
            git.setWorkingDirectory(root);
            git.start(QStringLiteral("git"), arguments);
            return git.waitForFinished() && git.exitCode() == 0;
        };
        QVERIFY(plain(args("init -q .")));
        QFile attributes(root + QStringLiteral("/.gitattributes"));
        QVERIFY(attributes.open(QIODevice::WriteOnly));
        attributes.write("*.txt filter=mine\n");
        attributes.close();
        QFile file(root + QStringLiteral("/a.txt"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("stored\n");
        file.close();
        QVERIFY(plain(args("add .")));
        QVERIFY(plain(args("commit -q -m init")));
        // The repository names the user's driver with a command of its own.
        const QString marker = root + QStringLiteral("/../repository-smudge-ran");
        QVERIFY(plain({QStringLiteral("config"),
                       QStringLiteral("filter.mine.smudge"),
                       QStringLiteral("touch ") + marker + QStringLiteral("; cat")}));

        const SessionWorktrees::Created created
            = SessionWorktrees::create(root,
                                       m_dir.filePath(QStringLiteral("worktrees%1").arg(m_count)),
                                       QStringLiteral("mine"),
                                       QStringLiteral("20260101-101500-123-c3d4"));
        QVERIFY2(created.worktree, qPrintable(created.error));
        QFile checkedOut(created.worktree->path + QStringLiteral("/a.txt"));
        QVERIFY(checkedOut.open(QIODevice::ReadOnly));
        QCOMPARE(checkedOut.readAll(), QByteArray("STORED\n")); // the user's smudge ran
        QVERIFY(!QFile::exists(marker));                        // the repository's did not
        QCOMPARE(SessionWorktrees::remove(*created.worktree), QString());
    }

    // The checkpoint store on the hostile tree: its own store, and the user's excludes file
    // asked of the user's repository.
    void checkpointStoreRunsNothing()
    {
        HostileRepository repository(freshFolder());
        QVERIFY2(repository.isValid(), qPrintable(repository.error()));
        CheckpointStore store(repository.root(), m_dir.filePath(QStringLiteral("checkpoints")));
        Checkpoint request;
        request.sessionId = QStringLiteral("s1");
        request.reason = Checkpoint::Reason::BeforeTool;
        request.toolName = QStringLiteral("Bash");
        const CheckpointOutcome outcome = store.create(request);
        QVERIFY2(outcome.ok(), qPrintable(outcome.error));
        QCOMPARE(repository.ran(), QStringList());
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_GitProcess)

} // namespace tst_gitprocess

#include "tst_gitprocess.moc"
