// What a snapshot covers beyond the repository's own files, with the real git: a repository
// nested in the work tree (not a submodule) is covered file by file, and what the user's own
// ignore files (core.excludesFile, ~/.config/git/ignore) leave out of `git status` is left out.
#include "checkpointtesttree.h"

#include <checkpoint/checkpointstore.h>
#include <testmain.h>

#include <QTemporaryDir>
#include <QTest>

using namespace AgentCore;
using namespace CheckpointTest;

namespace tst_checkpointnested {

class TestCheckpointNested : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        m_home = m_dir->path() + QStringLiteral("/home");
        m_root = m_dir->path() + QStringLiteral("/work");
        m_store = m_dir->path() + QStringLiteral("/store");
        QVERIFY(QDir().mkpath(m_home + QStringLiteral("/.config")));
        QVERIFY(QDir().mkpath(m_root));
        // The user's git setup for this test: a home of its own.
        qputenv("HOME", QFile::encodeName(m_home));
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_home + QStringLiteral("/.config")));
        QVERIFY(git(m_root, {QStringLiteral("init"), QStringLiteral("-q")}));
        QVERIFY(writeFile(m_root + QStringLiteral("/main.txt"), "main\n"));
        QVERIFY(git(m_root, {QStringLiteral("add"), QStringLiteral("-A")}));
        QVERIFY(
            git(m_root, {QStringLiteral("commit"), QStringLiteral("-qm"), QStringLiteral("one")}));
    }

    // A Bash command can destroy a nested repository's work (uncommitted edits, untracked
    // files) as easily as the repository's own: a rewind brings its files back byte for byte,
    // its ignored files and its .git are left alone, and both .git folders are unchanged.
    void nestedRepositoryIsCoveredFileByFile()
    {
        const QString lib = m_root + QStringLiteral("/lib");
        QVERIFY(QDir().mkpath(lib));
        QVERIFY(git(lib, {QStringLiteral("init"), QStringLiteral("-q")}));
        QVERIFY(writeFile(lib + QStringLiteral("/committed.txt"), "committed\n"));
        QVERIFY(writeFile(lib + QStringLiteral("/.gitignore"), "*.log\n"));
        QVERIFY(git(lib, {QStringLiteral("add"), QStringLiteral("-A")}));
        QVERIFY(git(lib, {QStringLiteral("commit"), QStringLiteral("-qm"), QStringLiteral("lib")}));
        QVERIFY(writeFile(lib + QStringLiteral("/committed.txt"), "edited, not committed\n"));
        QVERIFY(writeFile(lib + QStringLiteral("/src/untracked.txt"), "only here\n"));
        QVERIFY(writeFile(lib + QStringLiteral("/build.log"), "ignored by lib\n"));
        // A nested repository without any commit is covered too.
        QVERIFY(QDir().mkpath(m_root + QStringLiteral("/fresh")));
        QVERIFY(
            git(m_root + QStringLiteral("/fresh"), {QStringLiteral("init"), QStringLiteral("-q")}));
        QVERIFY(writeFile(m_root + QStringLiteral("/fresh/draft.txt"), "draft\n"));

        CheckpointStore store(m_root, m_store);
        Checkpoint request;
        request.sessionId = QStringLiteral("s");
        const CheckpointOutcome made = store.create(request);
        QVERIFY2(made.ok(), qPrintable(made.error));
        const QMap<QString, QString> before = fingerprint(m_root);

        // What `rm -rf src && git checkout .` in lib, and an edit in fresh, would leave.
        QVERIFY(QDir(lib + QStringLiteral("/src")).removeRecursively());
        QVERIFY(writeFile(lib + QStringLiteral("/committed.txt"), "committed\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/fresh/draft.txt"), "overwritten\n"));
        QVERIFY(writeFile(lib + QStringLiteral("/other.log"), "new, ignored\n"));

        const CheckpointDiff diff = store.diff(*made.checkpoint);
        QVERIFY2(diff.ok(), qPrintable(diff.error));
        QStringList paths;
        for (const CheckpointFileChange &change : diff.files)
            paths.append(change.path);
        paths.sort();
        QCOMPARE(paths,
                 QStringList({QStringLiteral("fresh/draft.txt"),
                              QStringLiteral("lib/committed.txt"),
                              QStringLiteral("lib/src/untracked.txt")}));

        const RestoreOutcome restored = store.restore(*made.checkpoint);
        QVERIFY2(restored.ok(),
                 qPrintable(restored.error + restored.failed.join(QLatin1Char('\n'))));
        QVERIFY(QFile::remove(lib + QStringLiteral("/other.log"))); // ignored: left as it was
        QCOMPARE(fingerprint(m_root), before);                      // both .git folders included
    }

    // The main index does not see inside a nested repository: when nothing it knows changed,
    // a file new in a nested repository (one that held nothing the store kept before) is still
    // in the next checkpoint, and a rewind to the one before takes it away.
    void fileNewInANestedRepositoryIsSeen()
    {
        const QString fresh = m_root + QStringLiteral("/fresh");
        QVERIFY(QDir().mkpath(fresh));
        QVERIFY(git(fresh, {QStringLiteral("init"), QStringLiteral("-q")}));

        CheckpointStore store(m_root, m_store);
        Checkpoint request;
        request.sessionId = QStringLiteral("s");
        const CheckpointOutcome first = store.create(request);
        QVERIFY2(first.ok(), qPrintable(first.error));
        const CheckpointOutcome unchanged = store.create(request);
        QVERIFY2(unchanged.ok(), qPrintable(unchanged.error));

        QVERIFY(writeFile(fresh + QStringLiteral("/draft.txt"), "draft\n"));
        const CheckpointOutcome second = store.create(request);
        QVERIFY2(second.ok(), qPrintable(second.error));
        QVERIFY(writeFile(fresh + QStringLiteral("/draft.txt"), "overwritten\n"));
        const CheckpointDiff diff = store.diff(*second.checkpoint);
        QVERIFY2(diff.ok(), qPrintable(diff.error));
        QCOMPARE(diff.files.size(), 1);
        QCOMPARE(diff.files.first().path, QStringLiteral("fresh/draft.txt"));
        QCOMPARE(diff.files.first().oldBytes, QByteArray("draft\n"));

        const RestoreOutcome restored = store.restore(*first.checkpoint);
        QVERIFY2(restored.ok(), qPrintable(restored.error));
        QVERIFY(!QFileInfo::exists(fresh + QStringLiteral("/draft.txt")));
        QVERIFY(QFileInfo::exists(fresh + QStringLiteral("/.git")));
    }

    // The store's exclude file (the user's excludes, the nested repositories, the files over
    // the size cap) reads the same from one snapshot to the next when nothing changed: git's
    // untracked cache is thrown away whenever it changes. A nested repository found after
    // another, with a name sorting before it, must not reorder it from one snapshot to the next.
    void excludeFileStaysTheSameBetweenSnapshots()
    {
        const auto makeNested = [this](const QString &name) {
            const QString path = m_root + QLatin1Char('/') + name;
            return QDir().mkpath(path) && git(path, {QStringLiteral("init"), QStringLiteral("-q")})
                   && writeFile(path + QStringLiteral("/file.txt"), "nested\n");
        };
        QVERIFY(makeNested(QStringLiteral("zz")));
        QVERIFY(writeFile(m_root + QStringLiteral("/big.bin"), QByteArray(200, 'x')));

        CheckpointStore store(m_root, m_store, 100);
        Checkpoint request;
        request.sessionId = QStringLiteral("s");
        QVERIFY(store.create(request).ok()); // finds zz
        QVERIFY(makeNested(QStringLiteral("aa")));
        QVERIFY(store.create(request).ok()); // finds aa
        const QString excludePath = store.gitDir() + QStringLiteral("/info/exclude");
        const QByteArray excludes = readFile(excludePath);
        QVERIFY2(excludes.contains("/aa\n/zz\n/big.bin\n"), excludes.constData());

        QVERIFY(store.create(request).ok());
        QCOMPARE(readFile(excludePath), excludes);
        const CheckpointOutcome last = store.create(request);
        QVERIFY(last.ok());
        QCOMPARE(readFile(excludePath), excludes);
        QCOMPARE(last.checkpoint->skipped.size(), 1);
        QCOMPARE(last.checkpoint->skipped.first().path, QStringLiteral("big.bin"));
    }

    // A file the user's core.excludesFile ignores is not theirs as `git status` shows it:
    // neither stored nor touched by a rewind.
    void userExcludesFileIsHonoured()
    {
        QVERIFY(writeFile(m_home + QStringLiteral("/.gitconfig"),
                          "[core]\n\texcludesFile = ~/global-ignore\n"));
        QVERIFY(writeFile(m_home + QStringLiteral("/global-ignore"), "*.swp\n"));
        checkIgnored(QStringLiteral("notes.swp"));
    }

    // The same for ~/.config/git/ignore, git's default excludes file.
    void defaultGlobalIgnoreIsHonoured()
    {
        QVERIFY(writeFile(m_home + QStringLiteral("/.config/git/ignore"), "*.tmp\n"));
        checkIgnored(QStringLiteral("scratch.tmp"));
    }

private:
    void checkIgnored(const QString &name)
    {
        QVERIFY(writeFile(m_root + QLatin1Char('/') + name, "mine\n"));
        CheckpointStore store(m_root, m_store);
        Checkpoint request;
        request.sessionId = QStringLiteral("s");
        const CheckpointOutcome made = store.create(request);
        QVERIFY2(made.ok(), qPrintable(made.error));
        QVERIFY(writeFile(m_root + QLatin1Char('/') + name, "changed\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/main.txt"), "changed\n"));
        const CheckpointDiff diff = store.diff(*made.checkpoint);
        QVERIFY2(diff.ok(), qPrintable(diff.error));
        QCOMPARE(diff.files.size(), 1);
        QCOMPARE(diff.files.first().path, QStringLiteral("main.txt"));
        QVERIFY(store.restore(*made.checkpoint).ok());
        QCOMPARE(readFile(m_root + QLatin1Char('/') + name), QByteArray("changed\n"));
        QCOMPARE(readFile(m_root + QStringLiteral("/main.txt")), QByteArray("main\n"));
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_home;
    QString m_root;
    QString m_store;
};

AGENTDESK_GUILESS_TEST_MAIN(TestCheckpointNested)

} // namespace tst_checkpointnested

#include "tst_checkpointnested.moc"
