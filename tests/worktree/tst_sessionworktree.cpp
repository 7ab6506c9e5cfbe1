// A session's own git worktree against the real git: made on its own branch without touching
// the main checkout, its changes brought back through the writes review (per file, per hunk),
// conflicts with the main checkout left alone, faults reported and never repaired, removed
// with the session.
#include "../checkpoint/checkpointtesttree.h"

#include <coding/sessionstatefile.h>
#include <permissions/shellwritesreview.h>
#include <session/sessionlog.h>
#include <session/sessionstore.h>
#include <testmain.h>
#include <worktree/sessionworktrees.h>

#include <QTemporaryDir>
#include <QtTest>

using namespace AgentCore;
using namespace CheckpointTest;

namespace tst_sessionworktree {

namespace {

QString output(const QString &directory, const QStringList &arguments)
{
    QProcess process;
    process.setWorkingDirectory(directory);
    process.start(QStringLiteral("git"), arguments);
    process.waitForFinished(60000);
    return QString::fromUtf8(process.readAllStandardOutput()).trimmed();
}

QByteArray lines(int count, const QByteArray &prefix = "line ")
{
    QByteArray text;
    for (int i = 1; i <= count; ++i)
        text += prefix + QByteArray::number(i) + '\n';
    return text;
}

// What the user's main checkout is, as git keeps it: HEAD, the branch's commit, the index's
// bytes. None of it may change when a session worktree is made or removed.
struct MainState
{
    QByteArray head;
    QString commit;
    QByteArray index;
    bool operator==(const MainState &) const = default;
};

MainState mainState(const QString &root)
{
    return {readFile(root + QStringLiteral("/.git/HEAD")),
            output(root, {QStringLiteral("rev-parse"), QStringLiteral("HEAD")}),
            readFile(root + QStringLiteral("/.git/index"))};
}

} // namespace

class TestSessionWorktree : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_main;
    QString m_data;
    int m_count = 0;

    // A fresh main checkout with two commits: a.txt (40 lines), c.txt, d.txt.
    QString makeMain()
    {
        const QString root = m_dir.filePath(QStringLiteral("main%1").arg(++m_count));
        [&] {
            QVERIFY(QDir().mkpath(root));
            QVERIFY(git(root,
                        {QStringLiteral("init"),
                         QStringLiteral("-q"),
                         QStringLiteral("-b"),
                         QStringLiteral("main")}));
            QVERIFY(writeFile(root + QStringLiteral("/a.txt"), "first\n"));
            QVERIFY(git(root, {QStringLiteral("add"), QStringLiteral("-A")}));
            QVERIFY(git(root,
                        {QStringLiteral("commit"),
                         QStringLiteral("-q"),
                         QStringLiteral("-m"),
                         QStringLiteral("one")}));
            QVERIFY(writeFile(root + QStringLiteral("/a.txt"), lines(40)));
            QVERIFY(writeFile(root + QStringLiteral("/c.txt"), "c\n"));
            QVERIFY(writeFile(root + QStringLiteral("/d.txt"), "d\n"));
            QVERIFY(writeFile(root + QStringLiteral("/g.bin"), QByteArray("\0\1base", 6)));
            QVERIFY(git(root, {QStringLiteral("add"), QStringLiteral("-A")}));
            QVERIFY(git(root,
                        {QStringLiteral("commit"),
                         QStringLiteral("-q"),
                         QStringLiteral("-m"),
                         QStringLiteral("two")}));
        }();
        return root;
    }

    SessionWorktree makeWorktree(const QString &root, const QString &name = QStringLiteral("Fix it"))
    {
        const SessionWorktrees::Created created
            = SessionWorktrees::create(root,
                                       m_data,
                                       name,
                                       QStringLiteral("20260101-101500-123-a1b2"));
        [&] { QVERIFY2(created.worktree, qPrintable(created.error)); }();
        return created.worktree.value_or(SessionWorktree{});
    }

    static int indexOf(const WorktreeChanges &changes, const QString &path)
    {
        for (int i = 0; i < changes.changes.size(); ++i) {
            if (changes.changes[i].path == path)
                return i;
        }
        return -1;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_data = m_dir.filePath(QStringLiteral("data/worktrees"));
    }

    void unavailableWithoutGit()
    {
        const QString plain = m_dir.filePath(QStringLiteral("plain"));
        QVERIFY(QDir().mkpath(plain));
        QVERIFY(SessionWorktrees::unavailableReason(plain).contains(
            QStringLiteral("not a git repository")));
        const SessionWorktrees::Created created = SessionWorktrees::create(plain,
                                                                           m_data,
                                                                           QStringLiteral("x"),
                                                                           QStringLiteral("id"));
        QVERIFY(!created.worktree);
        QVERIFY(created.error.contains(QStringLiteral("not a git repository")));

        const QString empty = m_dir.filePath(QStringLiteral("empty"));
        QVERIFY(QDir().mkpath(empty));
        QVERIFY(git(empty, {QStringLiteral("init"), QStringLiteral("-q")}));
        QVERIFY(SessionWorktrees::unavailableReason(empty).contains(QStringLiteral("no commit")));

        QVERIFY(SessionWorktrees::unavailableReason(makeMain()).isEmpty());
    }

    void branchNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("branch");
        QTest::newRow("plain") << "Fix the login"
                               << "agentdesk/fix-the-login-a1b2";
        QTest::newRow("symbols") << "  ../Fix: *login*?~^ "
                                 << "agentdesk/fix-login-a1b2";
        QTest::newRow("empty") << ""
                               << "agentdesk/session-a1b2";
        QTest::newRow("long") << QString(60, u'x') << "agentdesk/" + QString(40, u'x') + "-a1b2";
    }

    void branchNames()
    {
        QFETCH(QString, name);
        QFETCH(QString, branch);
        QCOMPARE(SessionWorktrees::branchName(name, QStringLiteral("20260101-101500-123-a1b2")),
                 branch);
        QVERIFY(git(m_dir.path(),
                    {QStringLiteral("check-ref-format"), QStringLiteral("--branch"), branch}));
    }

    void createLeavesMainCheckoutAlone()
    {
        const QString root = makeMain();
        QVERIFY(writeFile(root + QStringLiteral("/a.txt"), "user's own edit\n")); // not committed
        const MainState before = mainState(root);
        const QMap<QString, QString> files = fingerprint(root, true);

        const SessionWorktree worktree = makeWorktree(root);
        QCOMPARE(worktree.branch, QStringLiteral("agentdesk/fix-it-a1b2"));
        QCOMPARE(worktree.baseCommit, before.commit);
        QVERIFY(worktree.path.startsWith(QFileInfo(m_data).canonicalFilePath() + u'/'));
        QCOMPARE(readFile(worktree.path + QStringLiteral("/a.txt")), lines(40));
        QCOMPARE(output(worktree.path, {QStringLiteral("symbolic-ref"), QStringLiteral("HEAD")}),
                 QStringLiteral("refs/heads/agentdesk/fix-it-a1b2"));
        QCOMPARE(SessionWorktrees::check(worktree), QString());

        QVERIFY(mainState(root) == before);
        QCOMPARE(fingerprint(root, true), files);

        // A second session of the same name and id gets a branch and folder of its own.
        const SessionWorktree second = makeWorktree(root);
        QCOMPARE(second.branch, QStringLiteral("agentdesk/fix-it-a1b2-2"));
        QVERIFY(second.path != worktree.path);

        // Recorded in the session state, found again on resume.
        const QJsonObject state{{SessionWorktree::stateKey, worktree.toJson()}};
        const std::optional<SessionWorktree> resumed = SessionWorktree::fromState(state);
        QVERIFY(resumed);
        QCOMPARE(resumed->path, worktree.path);
        QCOMPARE(resumed->branch, worktree.branch);
        QCOMPARE(resumed->baseCommit, worktree.baseCommit);
        QCOMPARE(resumed->repositoryRoot, worktree.repositoryRoot);
        QVERIFY(!SessionWorktree::fromState({}));
    }

    void bringBackOneHunkAcceptedOneRejected()
    {
        const QString root = makeMain();
        const SessionWorktree worktree = makeWorktree(root);
        const MainState before = mainState(root);

        // A commit on the session's branch (line 2), then changes not committed: line 35,
        // a new file, a deleted file.
        QByteArray edited = lines(40);
        edited.replace("line 2\n", "line two\n");
        QVERIFY(writeFile(worktree.path + QStringLiteral("/a.txt"), edited));
        QVERIFY(git(worktree.path,
                    {QStringLiteral("commit"),
                     QStringLiteral("-q"),
                     QStringLiteral("-am"),
                     QStringLiteral("agent")}));
        edited.replace("line 35\n", "line thirty-five\n");
        QVERIFY(writeFile(worktree.path + QStringLiteral("/a.txt"), edited));
        QVERIFY(writeFile(worktree.path + QStringLiteral("/sub/b.txt"), "new\n"));
        QVERIFY(QFile::remove(worktree.path + QStringLiteral("/c.txt")));

        const WorktreeChanges changes = SessionWorktrees::changes(worktree);
        QCOMPARE(changes.error, QString());
        QCOMPARE(changes.changes.size(), 3);
        QVERIFY(changes.conflicts.isEmpty());
        const int a = indexOf(changes, QStringLiteral("a.txt"));
        const int b = indexOf(changes, QStringLiteral("sub/b.txt"));
        const int c = indexOf(changes, QStringLiteral("c.txt"));
        QVERIFY(a >= 0 && b >= 0 && c >= 0);
        QVERIFY(!changes.changes[a].whole);
        QCOMPARE(changes.changes[a].diff.hunks().size(), 2);
        QCOMPARE(changes.changes[b].kind(), ShellWrite::Kind::Added);
        QCOMPARE(changes.changes[c].kind(), ShellWrite::Kind::Deleted);

        // The review the window shows, answered as its "Apply checked" would: a.txt's second
        // hunk and the deletion of c.txt unchecked.
        const PermissionRequest request = SessionWorktrees::reviewRequest(worktree, changes);
        QCOMPARE(request.shellWrites.size(), 3);
        QVERIFY(request.reason.contains(worktree.branch));
        PermissionAnswer answer;
        answer.choice = PermissionAnswer::Choice::AllowOnce;
        answer.rejectedWrites = {c};
        answer.rejectedWriteHunks.insert(a, {1});
        const ShellWriteApplier::Outcome outcome
            = SessionWorktrees::bringBack(worktree,
                                          changes,
                                          ShellWritesReview::choices(request, answer),
                                          m_dir.filePath(QStringLiteral("journal")));
        QCOMPARE(outcome.error, QString());
        QVERIFY(outcome.failed.isEmpty());
        QCOMPARE(outcome.applied.size(), 2);

        QByteArray expected = lines(40);
        expected.replace("line 2\n", "line two\n");
        QCOMPARE(readFile(root + QStringLiteral("/a.txt")), expected);
        QCOMPARE(readFile(root + QStringLiteral("/sub/b.txt")), QByteArray("new\n"));
        QCOMPARE(readFile(root + QStringLiteral("/c.txt")), QByteArray("c\n"));
        // Only files were written: the user commits them, or not.
        QVERIFY(mainState(root) == before);
        // The worktree keeps everything it had.
        QCOMPARE(readFile(worktree.path + QStringLiteral("/a.txt")), edited);
    }

    void modeAndLinkComeBack()
    {
        const QString root = makeMain();
        QVERIFY(git(root,
                    {QStringLiteral("config"),
                     QStringLiteral("color.ui"),
                     QStringLiteral("always")})); // the user's settings change no output
        const SessionWorktree worktree = makeWorktree(root);
        QVERIFY(QFile::setPermissions(worktree.path + QStringLiteral("/d.txt"),
                                      QFile::permissions(worktree.path + QStringLiteral("/d.txt"))
                                          | QFileDevice::ExeOwner));
        QVERIFY(QFile::link(QStringLiteral("a.txt"), worktree.path + QStringLiteral("/link")));
        const WorktreeChanges changes = SessionWorktrees::changes(worktree);
        QCOMPARE(changes.error, QString());
        QCOMPARE(changes.changes.size(), 2);
        QCOMPARE(changes.changes[0].kind(), ShellWrite::Kind::ModeChanged);
        QCOMPARE(changes.changes[1].newType, ShellWrite::Type::Symlink);
        QHash<int, ShellWriteApplier::Choice> all;
        all.insert(0, {true, {}});
        all.insert(1, {true, {}});
        const ShellWriteApplier::Outcome outcome
            = SessionWorktrees::bringBack(worktree,
                                          changes,
                                          all,
                                          m_dir.filePath(QStringLiteral("journal")));
        QCOMPARE(outcome.applied.size(), 2);
        QVERIFY(QFileInfo(root + QStringLiteral("/d.txt")).isExecutable());
        QCOMPARE(QFileInfo(root + QStringLiteral("/link")).symLinkTarget(),
                 root + QStringLiteral("/a.txt"));
    }

    void conflictsWithMainAreNotOverwritten()
    {
        const QString root = makeMain();
        const SessionWorktree worktree = makeWorktree(root);
        QVERIFY(writeFile(worktree.path + QStringLiteral("/a.txt"), lines(40, "session ")));
        QVERIFY(writeFile(worktree.path + QStringLiteral("/d.txt"), "session d\n"));
        QVERIFY(writeFile(worktree.path + QStringLiteral("/e.txt"), "session e\n"));
        QVERIFY(writeFile(worktree.path + QStringLiteral("/f.txt"), "session f\n"));
        QVERIFY(writeFile(worktree.path + QStringLiteral("/g.bin"), QByteArray("\0\1sess", 6)));
        // Meanwhile in the main checkout: a.txt edited, e.txt created by the user, and the
        // binary g.bin changed to the same size (only its bytes tell).
        QVERIFY(writeFile(root + QStringLiteral("/a.txt"), "the user's work\n"));
        QVERIFY(writeFile(root + QStringLiteral("/g.bin"), QByteArray("\0\1user", 6)));
        QVERIFY(writeFile(root + QStringLiteral("/e.txt"), "the user's e\n"));

        const WorktreeChanges changes = SessionWorktrees::changes(worktree);
        QCOMPARE(changes.error, QString());
        const int a = indexOf(changes, QStringLiteral("a.txt"));
        const int d = indexOf(changes, QStringLiteral("d.txt"));
        const int e = indexOf(changes, QStringLiteral("e.txt"));
        const int f = indexOf(changes, QStringLiteral("f.txt"));
        const int g = indexOf(changes, QStringLiteral("g.bin"));
        QVERIFY(changes.changes.value(g).whole);
        QCOMPARE(changes.conflicts.keys().size(), 3);
        QVERIFY(changes.conflicts.value(g).contains(QStringLiteral("changed in your checkout")));
        QVERIFY(changes.conflicts.value(a).contains(QStringLiteral("changed in your checkout")));
        QVERIFY(changes.conflicts.value(e).contains(QStringLiteral("created in your checkout")));
        const PermissionRequest request = SessionWorktrees::reviewRequest(worktree, changes);
        QVERIFY(request.commandOutput.contains(QStringLiteral("a.txt: ")));
        QVERIFY(request.commandOutput.contains(QStringLiteral("e.txt: ")));

        // d.txt is edited in the main checkout after the review was made: refused as well.
        QVERIFY(writeFile(root + QStringLiteral("/d.txt"), "the user's d\n"));

        PermissionAnswer all;
        all.choice = PermissionAnswer::Choice::AllowOnce;
        const ShellWriteApplier::Outcome outcome
            = SessionWorktrees::bringBack(worktree,
                                          changes,
                                          ShellWritesReview::choices(request, all),
                                          m_dir.filePath(QStringLiteral("journal")));
        QCOMPARE(outcome.applied, QList<int>{f});
        QCOMPARE(outcome.failed.size(), 4);
        QVERIFY(outcome.failed.contains(a) && outcome.failed.contains(d)
                && outcome.failed.contains(e) && outcome.failed.contains(g));
        QVERIFY2(outcome.failed.value(d).contains(QStringLiteral("changed in your checkout")),
                 qPrintable(outcome.failed.value(d)));
        QCOMPARE(readFile(root + QStringLiteral("/a.txt")), QByteArray("the user's work\n"));
        QCOMPARE(readFile(root + QStringLiteral("/d.txt")), QByteArray("the user's d\n"));
        QCOMPARE(readFile(root + QStringLiteral("/e.txt")), QByteArray("the user's e\n"));
        QCOMPARE(readFile(root + QStringLiteral("/g.bin")), QByteArray("\0\1user", 6));
        QCOMPARE(readFile(root + QStringLiteral("/f.txt")), QByteArray("session f\n"));
    }

    void faultsAreReportedNotRepaired_data()
    {
        QTest::addColumn<QString>("fault");
        QTest::addColumn<QString>("message");
        QTest::newRow("branch deleted") << "branch deleted"
                                        << "was deleted or renamed outside";
        QTest::newRow("branch renamed") << "branch renamed"
                                        << "was deleted or renamed outside";
        QTest::newRow("branch moved") << "branch moved"
                                      << "was moved outside AgentDesk";
        QTest::newRow("branch switched") << "branch switched"
                                         << "no longer has the session's branch";
        QTest::newRow("folder deleted") << "folder deleted"
                                        << "was deleted outside AgentDesk";
        QTest::newRow("not a repository") << "not a repository"
                                          << "is no longer a git repository";
    }

    void faultsAreReportedNotRepaired()
    {
        QFETCH(QString, fault);
        QFETCH(QString, message);
        const QString root = makeMain();
        const SessionWorktree worktree = makeWorktree(root);
        const QString ref = QStringLiteral("refs/heads/") + worktree.branch;
        if (fault == QLatin1String("branch deleted")) {
            QVERIFY(
                git(worktree.path,
                    {QStringLiteral("checkout"), QStringLiteral("-q"), QStringLiteral("--detach")}));
            QVERIFY(git(root, {QStringLiteral("branch"), QStringLiteral("-D"), worktree.branch}));
        } else if (fault == QLatin1String("branch renamed")) {
            QVERIFY(git(root,
                        {QStringLiteral("branch"),
                         QStringLiteral("-m"),
                         worktree.branch,
                         QStringLiteral("mine")}));
        } else if (fault == QLatin1String("branch moved")) {
            QVERIFY(git(worktree.path,
                        {QStringLiteral("reset"),
                         QStringLiteral("-q"),
                         QStringLiteral("--hard"),
                         QStringLiteral("HEAD~1")}));
        } else if (fault == QLatin1String("branch switched")) {
            QVERIFY(git(worktree.path,
                        {QStringLiteral("checkout"),
                         QStringLiteral("-q"),
                         QStringLiteral("-b"),
                         QStringLiteral("other")}));
        } else if (fault == QLatin1String("folder deleted")) {
            QVERIFY(QDir(worktree.path).removeRecursively());
        } else if (fault == QLatin1String("not a repository")) {
            QVERIFY(QDir(root + QStringLiteral("/.git")).removeRecursively());
        }
        const QString problem = SessionWorktrees::check(worktree);
        QVERIFY2(problem.contains(message), qPrintable(problem));
        const WorktreeChanges changes = SessionWorktrees::changes(worktree);
        QCOMPARE(changes.error, problem);
        QVERIFY(changes.changes.isEmpty());
        QCOMPARE(SessionWorktrees::keepAsBranch(worktree, QStringLiteral("keep")), problem);

        // Nothing was recreated: no branch, no folder, no checkout.
        if (fault.startsWith(QLatin1String("branch deleted"))
            || fault == QLatin1String("branch renamed"))
            QVERIFY(!git(root,
                         {QStringLiteral("show-ref"),
                          QStringLiteral("--verify"),
                          QStringLiteral("--quiet"),
                          ref}));
        if (fault == QLatin1String("folder deleted"))
            QVERIFY(!QFileInfo::exists(worktree.path));
        if (fault == QLatin1String("branch switched"))
            QCOMPARE(output(worktree.path, {QStringLiteral("symbolic-ref"), QStringLiteral("HEAD")}),
                     QStringLiteral("refs/heads/other"));
        QCOMPARE(SessionWorktrees::check(worktree), problem);
    }

    void keepAsBranchCommitsWhatIsLeft()
    {
        const QString root = makeMain();
        const SessionWorktree worktree = makeWorktree(root);
        const MainState before = mainState(root);
        QVERIFY(writeFile(worktree.path + QStringLiteral("/d.txt"), "kept d\n"));
        QVERIFY(writeFile(worktree.path + QStringLiteral("/new.txt"), "kept new\n"));
        QCOMPARE(SessionWorktrees::keepAsBranch(worktree, QStringLiteral("Session: fix it")),
                 QString());
        QCOMPARE(SessionWorktrees::keepAsBranch(worktree, QStringLiteral("again")), QString());
        QCOMPARE(SessionWorktrees::remove(worktree), QString());
        QCOMPARE(output(root, {QStringLiteral("show"), worktree.branch + QStringLiteral(":d.txt")}),
                 QStringLiteral("kept d"));
        QCOMPARE(output(root,
                        {QStringLiteral("show"), worktree.branch + QStringLiteral(":new.txt")}),
                 QStringLiteral("kept new"));
        QCOMPARE(output(root,
                        {QStringLiteral("log"),
                         QStringLiteral("-1"),
                         QStringLiteral("--format=%s"),
                         worktree.branch}),
                 QStringLiteral("Session: fix it"));
        QVERIFY(mainState(root) == before);
    }

    void removeKeepsTheBranchUnlessAsked()
    {
        const QString root = makeMain();
        const SessionWorktree kept = makeWorktree(root, QStringLiteral("kept"));
        const SessionWorktree dropped = makeWorktree(root, QStringLiteral("dropped"));
        const SessionWorktree gone = makeWorktree(root, QStringLiteral("gone"));
        QVERIFY(writeFile(kept.path + QStringLiteral("/scratch.txt"), "not committed\n"));
        const MainState before = mainState(root);

        QCOMPARE(SessionWorktrees::remove(kept), QString());
        QVERIFY(!QFileInfo::exists(kept.path));
        QVERIFY(git(root,
                    {QStringLiteral("show-ref"),
                     QStringLiteral("--verify"),
                     QStringLiteral("--quiet"),
                     QStringLiteral("refs/heads/") + kept.branch}));

        QCOMPARE(SessionWorktrees::remove(dropped, true), QString());
        QVERIFY(!QFileInfo::exists(dropped.path));
        QVERIFY(!git(root,
                     {QStringLiteral("show-ref"),
                      QStringLiteral("--verify"),
                      QStringLiteral("--quiet"),
                      QStringLiteral("refs/heads/") + dropped.branch}));

        // A folder deleted by hand: git forgets it too.
        QVERIFY(QDir(gone.path).removeRecursively());
        QCOMPARE(SessionWorktrees::remove(gone), QString());

        const QString list = output(root,
                                    {QStringLiteral("worktree"),
                                     QStringLiteral("list"),
                                     QStringLiteral("--porcelain")});
        QVERIFY2(!list.contains(QStringLiteral("agentdesk/")), qPrintable(list));
        QVERIFY(mainState(root) == before);
    }

    void deletingTheSessionRemovesItsWorktree()
    {
        const QString root = makeMain();
        const SessionWorktree worktree = makeWorktree(root);
        const MainState before = mainState(root);
        const QString path = m_dir.filePath(QStringLiteral("sessions/one.jsonl"));
        QString error;
        {
            std::unique_ptr<SessionLog> log = SessionLog::open(path,
                                                               SessionStore::newHeader(root),
                                                               &error);
            QVERIFY2(log, qPrintable(error));
            QVERIFY(log->appendState({{SessionWorktree::stateKey, worktree.toJson()}}, &error));

            // Open elsewhere: neither the session nor its worktree goes.
            QString warning;
            QVERIFY(!SessionStateFile::remove(path, &error, &warning));
            QVERIFY(QFileInfo::exists(path));
            QVERIFY(QFileInfo::exists(worktree.path));
        }
        QString warning = QStringLiteral("unset");
        QVERIFY2(SessionStateFile::remove(path, &error, &warning), qPrintable(error));
        QCOMPARE(warning, QString());
        QVERIFY(!QFileInfo::exists(path));
        QVERIFY(!QFileInfo::exists(worktree.path));
        QVERIFY(git(root,
                    {QStringLiteral("show-ref"),
                     QStringLiteral("--verify"),
                     QStringLiteral("--quiet"),
                     QStringLiteral("refs/heads/") + worktree.branch}));
        QVERIFY(mainState(root) == before);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(TestSessionWorktree)

} // namespace tst_sessionworktree

#include "tst_sessionworktree.moc"
