// Incremental checkpoints (issue #18): with the TreeWatcher's list of changed paths, a
// snapshot reads only those, and its tree is the one the full `git status` pass makes; when
// the watcher cannot be sure, the snapshot is the full pass.
#include "checkpointtesttree.h"

#include <checkpoint/checkpointstore.h>
#include <checkpoint/treewatcher.h>
#include <testmain.h>

#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <unistd.h>

using namespace AgentCore;
using namespace CheckpointTest;

namespace tst_checkpointwatch {

class TestCheckpointWatch : public QObject
{
    Q_OBJECT

private:
    QString m_root;
    QString m_storeRoot;
    std::unique_ptr<QTemporaryDir> m_dir;

    CheckpointOutcome record(CheckpointStore &store)
    {
        Checkpoint request;
        request.sessionId = QStringLiteral("s1");
        request.reason = Checkpoint::Reason::BeforeTool;
        const CheckpointOutcome outcome = store.create(request);
        if (!outcome.ok())
            qWarning("create failed: %s", qPrintable(outcome.error));
        return outcome;
    }

    QString treeOf(const CheckpointStore &store, const QString &commit)
    {
        QProcess git;
        git.start(QStringLiteral("git"),
                  {QStringLiteral("--git-dir=") + store.gitDir(),
                   QStringLiteral("rev-parse"),
                   commit + QStringLiteral("^{tree}")});
        git.waitForFinished(60000);
        return QString::fromLatin1(git.readAllStandardOutput().trimmed());
    }

    // The tree the full pass makes of the tree as it is now: the first snapshot of a store
    // that has no watcher yet (the same shadow repository).
    QString fullPassTree()
    {
        CheckpointStore fresh(m_root, m_storeRoot);
        const CheckpointOutcome outcome = record(fresh);
        return outcome.ok() && !outcome.incremental ? treeOf(fresh, outcome.checkpoint->id)
                                                    : QStringLiteral("<no full pass>");
    }

    // Files, folders, a link, an executable, ignored ones, in a git repository.
    void makeTree()
    {
        QVERIFY(writeFile(m_root + QStringLiteral("/README"), "hello\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/src/main.c"), "int main() { return 0; }\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/src/util/util.c"), "void util() {}\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/src/util/util.h"), "void util();\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/docs/a.md"), "# a\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/run.sh"), "#!/bin/sh\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/.gitignore"), "build/\n*.log\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/build/out.o"), "object\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/keep.log"), "ignored\n"));
        QCOMPARE(::symlink("src/main.c", QFile::encodeName(m_root + QStringLiteral("/link"))), 0);
        QVERIFY(git(m_root, {QStringLiteral("init"), QStringLiteral("-q")}));
    }

private slots:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_root = QDir(m_dir->path()).canonicalPath() + QStringLiteral("/work");
        m_storeRoot = QDir(m_dir->path()).canonicalPath() + QStringLiteral("/store");
        QVERIFY(QDir().mkpath(m_root));
#ifndef Q_OS_LINUX
        QSKIP("the watcher is Linux's inotify");
#endif
    }

    void changesAreCaughtIncrementally_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<bool>("treeChanges");
        QTest::newRow("file written") << "write" << true;
        QTest::newRow("file deleted") << "delete" << true;
        QTest::newRow("file renamed") << "rename" << true;
        QTest::newRow("new nested folder") << "nested" << true;
        QTest::newRow("chmod +x") << "chmod" << true;
        QTest::newRow("symlink changed") << "symlink" << true;
        QTest::newRow("file replaced by a folder") << "fileToFolder" << true;
        QTest::newRow("folder replaced by a file") << "folderToFile" << true;
        QTest::newRow("folder renamed") << "renameFolder" << true;
        QTest::newRow("folder deleted") << "deleteFolder" << true;
        QTest::newRow("folder moved in from outside") << "moveIn" << true;
        QTest::newRow("ignored files written") << "ignored" << false;
        QTest::newRow("written and put back") << "putBack" << false;
    }

    void changesAreCaughtIncrementally()
    {
        QFETCH(QString, change);
        QFETCH(bool, treeChanges);
        makeTree();
        CheckpointStore store(m_root, m_storeRoot);
        const CheckpointOutcome first = record(store);
        QVERIFY(first.ok());
        QVERIFY(!first.incremental); // the baseline is a full pass, watched from before it
        const QString before = treeOf(store, first.checkpoint->id);

        const QByteArray rootBytes = QFile::encodeName(m_root);
        const auto at = [&rootBytes](const char *relative) {
            return QByteArray(rootBytes + relative);
        };
        if (change == QLatin1String("write")) {
            QVERIFY(writeFile(m_root + QStringLiteral("/src/main.c"), "int main() { return 1; }\n"));
        } else if (change == QLatin1String("delete")) {
            QVERIFY(QFile::remove(m_root + QStringLiteral("/src/util/util.h")));
        } else if (change == QLatin1String("rename")) {
            QCOMPARE(::rename(at("/README").constData(), at("/docs/README.txt").constData()), 0);
        } else if (change == QLatin1String("nested")) {
            QVERIFY(writeFile(m_root + QStringLiteral("/new/deeper/still/a.txt"), "a\n"));
            QVERIFY(writeFile(m_root + QStringLiteral("/new/deeper/b.txt"), "b\n"));
            QVERIFY(writeFile(m_root + QStringLiteral("/new/deeper/skip.log"), "ignored\n"));
        } else if (change == QLatin1String("chmod")) {
            QCOMPARE(::chmod(at("/run.sh").constData(), 0755), 0);
        } else if (change == QLatin1String("symlink")) {
            QCOMPARE(::unlink(at("/link").constData()), 0);
            QCOMPARE(::symlink("docs", at("/link").constData()), 0);
        } else if (change == QLatin1String("fileToFolder")) {
            QVERIFY(QFile::remove(m_root + QStringLiteral("/README")));
            QVERIFY(writeFile(m_root + QStringLiteral("/README/inside.txt"), "inside\n"));
        } else if (change == QLatin1String("folderToFile")) {
            QVERIFY(QDir(m_root + QStringLiteral("/src/util")).removeRecursively());
            QVERIFY(writeFile(m_root + QStringLiteral("/src/util"), "a file now\n"));
        } else if (change == QLatin1String("renameFolder")) {
            QCOMPARE(::rename(at("/src/util").constData(), at("/lib").constData()), 0);
        } else if (change == QLatin1String("deleteFolder")) {
            QVERIFY(QDir(m_root + QStringLiteral("/src")).removeRecursively());
        } else if (change == QLatin1String("moveIn")) {
            const QString outside = m_dir->path() + QStringLiteral("/outside");
            QVERIFY(writeFile(outside + QStringLiteral("/x/y.txt"), "from outside\n"));
            QCOMPARE(::rename(QFile::encodeName(outside), at("/moved").constData()), 0);
        } else if (change == QLatin1String("ignored")) {
            QVERIFY(writeFile(m_root + QStringLiteral("/build/more/out2.o"), "object\n"));
            QVERIFY(writeFile(m_root + QStringLiteral("/src/debug.log"), "ignored\n"));
        } else if (change == QLatin1String("putBack")) {
            QVERIFY(writeFile(m_root + QStringLiteral("/docs/a.md"), "changed\n"));
            QVERIFY(writeFile(m_root + QStringLiteral("/docs/a.md"), "# a\n"));
        }

        const CheckpointOutcome next = record(store);
        QVERIFY(next.ok());
        QVERIFY(next.incremental);
        const QString after = treeOf(store, next.checkpoint->id);
        QCOMPARE(after != before, treeChanges);
        QCOMPARE(after, fullPassTree());

        // The watches follow what moved or appeared: a change inside is caught again.
        QVERIFY(writeFile(m_root + QStringLiteral("/new/deeper/still/a.txt"), "again\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/lib/util.c"), "void util2() {}\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/moved/x/y.txt"), "again\n"));
        const CheckpointOutcome third = record(store);
        QVERIFY(third.incremental);
        QCOMPARE(treeOf(store, third.checkpoint->id), fullPassTree());
    }

    void unchangedTreeIsThePreviousTree()
    {
        makeTree();
        CheckpointStore store(m_root, m_storeRoot);
        const CheckpointOutcome first = record(store);
        const CheckpointOutcome second = record(store);
        QVERIFY(second.incremental);
        QCOMPARE(treeOf(store, second.checkpoint->id), treeOf(store, first.checkpoint->id));
        // Each checkpoint still follows the session's chain.
        const QList<Checkpoint> chain = store.list(QStringLiteral("s1"));
        QCOMPARE(chain.size(), 2);
        QCOMPARE(chain.last().id, second.checkpoint->id);
    }

    void gitignoreEditFallsBackToTheFullPass()
    {
        makeTree();
        CheckpointStore store(m_root, m_storeRoot);
        record(store);
        QVERIFY(writeFile(m_root + QStringLiteral("/.gitignore"), "build/\n"));
        const CheckpointOutcome edited = record(store);
        QVERIFY(edited.ok());
        QVERIFY(!edited.incremental);
        const QString tree = treeOf(store, edited.checkpoint->id);
        QCOMPARE(tree, fullPassTree());
        // keep.log is no longer ignored: the full pass took it.
        QProcess git;
        git.start(QStringLiteral("git"),
                  {QStringLiteral("--git-dir=") + store.gitDir(),
                   QStringLiteral("ls-tree"),
                   QStringLiteral("--name-only"),
                   tree});
        git.waitForFinished(60000);
        QVERIFY(git.readAllStandardOutput().split('\n').contains("keep.log"));
        // And the snapshot after it is incremental again.
        QVERIFY(writeFile(m_root + QStringLiteral("/keep.log"), "now stored\n"));
        const CheckpointOutcome after = record(store);
        QVERIFY(after.incremental);
        QCOMPARE(treeOf(store, after.checkpoint->id), fullPassTree());
    }

    void newNestedRepositoryFallsBackToTheFullPass()
    {
        makeTree();
        CheckpointStore store(m_root, m_storeRoot);
        record(store);
        QVERIFY(writeFile(m_root + QStringLiteral("/vendor/lib/x.c"), "x\n"));
        QVERIFY(git(m_root + QStringLiteral("/vendor/lib"),
                    {QStringLiteral("init"), QStringLiteral("-q")}));
        const CheckpointOutcome outcome = record(store);
        QVERIFY(outcome.ok());
        QVERIFY(!outcome.incremental);
        QCOMPARE(treeOf(store, outcome.checkpoint->id), fullPassTree());
    }

    void fileCrossingTheSizeCapFallsBackToTheFullPass()
    {
        makeTree();
        CheckpointStore store(m_root, m_storeRoot, 100);
        record(store);
        QVERIFY(writeFile(m_root + QStringLiteral("/docs/a.md"), QByteArray(200, 'x')));
        const CheckpointOutcome over = record(store);
        QVERIFY(!over.incremental);
        QCOMPARE(over.checkpoint->skipped.size(), 1);
        // Still over the cap, and something else written: incremental, still left out.
        QVERIFY(writeFile(m_root + QStringLiteral("/docs/a.md"), QByteArray(300, 'y')));
        QVERIFY(writeFile(m_root + QStringLiteral("/README"), "changed\n"));
        const CheckpointOutcome still = record(store);
        QVERIFY(still.incremental);
        QCOMPARE(still.checkpoint->skipped.size(), 1);
        QCOMPARE(still.checkpoint->skipped.first().path, QStringLiteral("docs/a.md"));
        QCOMPARE(still.checkpoint->skipped.first().size, 300);
        CheckpointStore fresh(m_root, m_storeRoot, 100);
        const CheckpointOutcome full = record(fresh);
        QVERIFY(!full.incremental);
        QCOMPARE(treeOf(store, still.checkpoint->id), treeOf(fresh, full.checkpoint->id));
    }

    void twoStoresOfOneTreeAgree()
    {
        // Two sessions on one folder: the same shadow repository, a watcher each.
        makeTree();
        CheckpointStore first(m_root, m_storeRoot, 100);
        CheckpointStore second(m_root, m_storeRoot, 100);
        record(first);
        record(second);
        QVERIFY(writeFile(m_root + QStringLiteral("/docs/a.md"), QByteArray(200, 'x')));
        QVERIFY(!record(second).incremental); // left out now, and out of the shadow index
        const CheckpointOutcome outcome = record(first);
        QVERIFY(outcome.incremental);
        QCOMPARE(outcome.checkpoint->skipped.size(), 1);
        CheckpointStore fresh(m_root, m_storeRoot, 100);
        QCOMPARE(treeOf(first, outcome.checkpoint->id), treeOf(fresh, record(fresh).checkpoint->id));
    }

    void queueOverflowFallsBackToTheFullPass()
    {
        QFile limit(QStringLiteral("/proc/sys/fs/inotify/max_queued_events"));
        QVERIFY(limit.open(QIODevice::ReadOnly));
        const int queued = limit.readAll().trimmed().toInt();
        if (queued <= 0 || queued > 200000)
            QSKIP("the inotify queue is too long to fill here");
        makeTree();
        CheckpointStore store(m_root, m_storeRoot);
        QVERIFY(QDir().mkpath(m_root + QStringLiteral("/many")));
        record(store); // "many" is watched from here on: each file below is an event
        for (int i = 0; i <= queued; ++i) {
            const QByteArray path = QFile::encodeName(m_root + QStringLiteral("/many/f%1").arg(i));
            const int fd = ::open(path.constData(), O_CREAT | O_WRONLY, 0644);
            QVERIFY(fd >= 0);
            ::close(fd);
        }
        const CheckpointOutcome outcome = record(store);
        QVERIFY(outcome.ok());
        QVERIFY(!outcome.incremental);
        QCOMPARE(treeOf(store, outcome.checkpoint->id), fullPassTree());
    }

    void watcherSaysUnsureWhenAsked()
    {
        makeTree();
        TreeWatcher watcher(m_root);
        QVERIFY(watcher.start());
        QVERIFY(watcher.watchCount() >= 5); // the root, src, src/util, docs, build (not .git)
        QVERIFY(writeFile(m_root + QStringLiteral("/docs/b.md"), "b\n"));
        TreeWatcher::Changes changes = watcher.takeChanges();
        QVERIFY(changes.sure);
        QCOMPARE(changes.paths, QSet<QString>{QStringLiteral("docs/b.md")});
        QVERIFY(watcher.takeChanges().paths.isEmpty()); // taken once
        watcher.markUnsure();
        QVERIFY(!watcher.takeChanges().sure);
        QVERIFY(watcher.takeChanges().sure);
        // Inside the user's .git nothing is watched; the entry itself is not classifiable.
        QVERIFY(writeFile(m_root + QStringLiteral("/.git/description"), "x\n"));
        QVERIFY(watcher.takeChanges().sure);
        QVERIFY(writeFile(m_root + QStringLiteral("/src/.git"), "gitdir: elsewhere\n"));
        QVERIFY(!watcher.takeChanges().sure);
    }

    void storeInsideTheTreeIsNeverIncremental()
    {
        makeTree();
        m_storeRoot = m_root + QStringLiteral("/.agentdesk-store");
        QVERIFY(writeFile(m_root + QStringLiteral("/.gitignore"), ".agentdesk-store/\n"));
        CheckpointStore store(m_root, m_storeRoot);
        record(store);
        const CheckpointOutcome second = record(store);
        QVERIFY(second.ok());
        QVERIFY(!second.incremental);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(TestCheckpointWatch)

} // namespace tst_checkpointwatch

#include "tst_checkpointwatch.moc"
