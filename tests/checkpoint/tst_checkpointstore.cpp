#include "checkpointtesttree.h"

#include <checkpoint/checkpointstore.h>
#include <testmain.h>

#include <QDateTime>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace AgentCore;
using namespace CheckpointTest;

namespace tst_checkpointstore {

class TestCheckpointStore : public QObject
{
    Q_OBJECT

private:
    QString m_root;  // the working tree
    QString m_store; // AgentDesk's checkpoints folder
    std::unique_ptr<QTemporaryDir> m_dir;

    Checkpoint record(CheckpointStore &store, const QString &session = QStringLiteral("s1"))
    {
        Checkpoint request;
        request.sessionId = session;
        request.messageIndex = 3;
        request.reason = Checkpoint::Reason::BeforeTool;
        request.toolName = QStringLiteral("Bash");
        const CheckpointOutcome outcome = store.create(request);
        if (!outcome.ok())
            qWarning("create failed: %s", qPrintable(outcome.error));
        return outcome.checkpoint.value_or(Checkpoint());
    }

    void makeRepository()
    {
        QVERIFY(writeFile(m_root + QStringLiteral("/src/main.c"), "int main() {\n  return 0;\n}\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/README"), "hello\r\nworld\r\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/run.sh"), "#!/bin/sh\necho run\n"));
        // Git keeps "executable or not": a deleted file comes back with the umask's bits
        // (0755 here); a file that still exists keeps its own, with the executable bit set
        // back (the chmod row checks a 0750 file).
        QVERIFY(QFile::setPermissions(m_root + QStringLiteral("/run.sh"),
                                      QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner
                                          | QFile::ReadGroup | QFile::ExeGroup | QFile::ReadOther
                                          | QFile::ExeOther));
        QVERIFY(writeFile(m_root + QStringLiteral("/tool.sh"), "#!/bin/sh\n"));
        QVERIFY(QFile::setPermissions(m_root + QStringLiteral("/tool.sh"),
                                      QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner
                                          | QFile::ReadGroup | QFile::ExeGroup));
        QVERIFY(writeFile(m_root + QStringLiteral("/.gitattributes"), "* text=auto eol=lf\n"));
        QVERIFY(git(m_root, {QStringLiteral("init"), QStringLiteral("-q")}));
        QVERIFY(git(m_root, {QStringLiteral("add"), QStringLiteral("-A")}));
        QVERIFY(
            git(m_root, {QStringLiteral("commit"), QStringLiteral("-qm"), QStringLiteral("one")}));
        // Something in the user's index and stash that must survive unchanged.
        QVERIFY(writeFile(m_root + QStringLiteral("/src/main.c"), "int main() { return 1; }\n"));
        QVERIFY(git(m_root, {QStringLiteral("stash"), QStringLiteral("-q")}));
        QVERIFY(writeFile(m_root + QStringLiteral("/staged.txt"), "staged\n"));
        QVERIFY(git(m_root, {QStringLiteral("add"), QStringLiteral("staged.txt")}));
        // A hook that would leave a mark if anything ran it.
        QVERIFY(writeFile(m_root + QStringLiteral("/.git/hooks/post-index-change"),
                          "#!/bin/sh\ntouch \"$GIT_DIR/../HOOK-RAN\"\n"));
        QVERIFY(QFile::setPermissions(m_root + QStringLiteral("/.git/hooks/post-index-change"),
                                      QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    }

private slots:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_root = m_dir->path() + QStringLiteral("/work");
        m_store = m_dir->path() + QStringLiteral("/store");
        QVERIFY(QDir().mkpath(m_root));
    }

    // Rewind after each kind of change an agent makes: the exact bytes and modes come back,
    // and the user's .git is byte-identical before and after both the checkpoint and the
    // restore.
    void restoresExactBytesAndModes_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("edit") << QStringLiteral("sh")
                              << QStringList{QStringLiteral("-c"),
                                             QStringLiteral("printf 'edited\\n' > src/main.c")};
        QTest::newRow("write new file")
            << QStringLiteral("sh")
            << QStringList{QStringLiteral("-c"),
                           QStringLiteral("mkdir -p gen/deep && printf x > gen/deep/new.txt")};
        QTest::newRow("sed -i") << QStringLiteral("sed")
                                << QStringList{QStringLiteral("-i"),
                                               QStringLiteral("s/world/earth/"),
                                               QStringLiteral("README")};
        QTest::newRow("rm") << QStringLiteral("rm")
                            << QStringList{QStringLiteral("-rf"),
                                           QStringLiteral("src"),
                                           QStringLiteral("run.sh")};
        QTest::newRow("chmod") << QStringLiteral("chmod")
                               << QStringList{QStringLiteral("a-x"),
                                              QStringLiteral("run.sh"),
                                              QStringLiteral("tool.sh")};
        QTest::newRow("git checkout .")
            << QStringLiteral("git")
            << QStringList{QStringLiteral("checkout"), QStringLiteral(".")};
        QTest::newRow("git stash -u")
            << QStringLiteral("git")
            << QStringList{QStringLiteral("stash"), QStringLiteral("-u"), QStringLiteral("-q")};
    }

    void restoresExactBytesAndModes()
    {
        QFETCH(QString, program);
        QFETCH(QStringList, arguments);
        makeRepository();
        // Work in progress the command destroys: unstaged changes and an untracked file.
        QVERIFY(writeFile(m_root + QStringLiteral("/src/main.c"), "int main() { return 2; }\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/notes.txt"), "untracked notes\n"));

        CheckpointStore store(m_root, m_store);
        const QMap<QString, QString> before = fingerprint(m_root, true);
        const QMap<QString, QString> gitBefore = fingerprint(m_root + QStringLiteral("/.git"));
        const Checkpoint checkpoint = record(store);
        QVERIFY(!checkpoint.isNull());
        QCOMPARE(fingerprint(m_root + QStringLiteral("/.git")), gitBefore);

        QCOMPARE(run(m_root, program, arguments), 0);
        QVERIFY(fingerprint(m_root, true) != before);
        const QMap<QString, QString> gitAfterCommand = fingerprint(m_root + QStringLiteral("/.git"));

        const CheckpointDiff diff = store.diff(checkpoint);
        QVERIFY2(diff.ok(), qPrintable(diff.error));
        QVERIFY(!diff.files.isEmpty());

        const RestoreOutcome outcome = store.restore(checkpoint);
        QVERIFY2(outcome.ok(), qPrintable(outcome.error + outcome.failed.join(QLatin1Char('\n'))));
        QVERIFY(!outcome.undo.isNull());
        QCOMPARE(fingerprint(m_root, true), before);
        QCOMPARE(fingerprint(m_root + QStringLiteral("/.git")), gitAfterCommand);
        QVERIFY(!QFile::exists(m_root + QStringLiteral("/HOOK-RAN")));
    }

    void diffDescribesEachFile()
    {
        QVERIFY(writeFile(m_root + QStringLiteral("/a.txt"), "one\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/b.txt"), "two\n"));
        CheckpointStore store(m_root, m_store);
        const Checkpoint checkpoint = record(store);
        QVERIFY(writeFile(m_root + QStringLiteral("/a.txt"), "one changed\n"));
        QVERIFY(QFile::remove(m_root + QStringLiteral("/b.txt")));
        QVERIFY(writeFile(m_root + QStringLiteral("/c.bin"), QByteArray("\0\1\2", 3)));

        const CheckpointDiff diff = store.diff(checkpoint);
        QVERIFY2(diff.ok(), qPrintable(diff.error));
        QCOMPARE(diff.files.size(), 3);
        QCOMPARE(diff.files.at(0).path, QStringLiteral("a.txt"));
        QCOMPARE(diff.files.at(0).kind, CheckpointFileChange::Kind::Modified);
        QCOMPARE(diff.files.at(0).oldBytes, QByteArray("one\n"));
        QCOMPARE(diff.files.at(0).newBytes, QByteArray("one changed\n"));
        QCOMPARE(diff.files.at(0).oldMode, 0100644);
        QCOMPARE(diff.files.at(1).path, QStringLiteral("b.txt"));
        QCOMPARE(diff.files.at(1).kind, CheckpointFileChange::Kind::Deleted);
        QCOMPARE(diff.files.at(1).oldBytes, QByteArray("two\n"));
        QCOMPARE(diff.files.at(1).newMode, 0);
        QCOMPARE(diff.files.at(2).kind, CheckpointFileChange::Kind::Added);
        QVERIFY(diff.files.at(2).isBinary());
    }

    void keptPathsStayAsTheyAre()
    {
        QVERIFY(writeFile(m_root + QStringLiteral("/a.txt"), "one\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/b.txt"), "two\n"));
        CheckpointStore store(m_root, m_store);
        const Checkpoint checkpoint = record(store);
        QVERIFY(writeFile(m_root + QStringLiteral("/a.txt"), "agent a\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/b.txt"), "agent b\n"));

        const RestoreOutcome outcome = store.restore(checkpoint, {QStringLiteral("b.txt")});
        QVERIFY(outcome.ok());
        QCOMPARE(outcome.written, QStringList{QStringLiteral("a.txt")});
        QCOMPARE(outcome.kept, QStringList{QStringLiteral("b.txt")});
        QCOMPARE(readFile(m_root + QStringLiteral("/a.txt")), QByteArray("one\n"));
        QCOMPARE(readFile(m_root + QStringLiteral("/b.txt")), QByteArray("agent b\n"));
    }

    // The restore records the state it replaces: restoring that brings the agent's work back.
    void restoreIsUndoable()
    {
        QVERIFY(writeFile(m_root + QStringLiteral("/a.txt"), "one\n"));
        CheckpointStore store(m_root, m_store);
        const Checkpoint checkpoint = record(store);
        QVERIFY(writeFile(m_root + QStringLiteral("/a.txt"), "agent\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/new.txt"), "new\n"));
        const QMap<QString, QString> agentState = fingerprint(m_root);

        const RestoreOutcome outcome = store.restore(checkpoint);
        QVERIFY(outcome.ok());
        QCOMPARE(outcome.deleted, QStringList{QStringLiteral("new.txt")});
        QCOMPARE(outcome.undo.reason, Checkpoint::Reason::BeforeRestore);
        QVERIFY(!QFile::exists(m_root + QStringLiteral("/new.txt")));

        QVERIFY(store.restore(outcome.undo).ok());
        QCOMPARE(fingerprint(m_root), agentState);
    }

    void folderWithoutGitWorks()
    {
        QVERIFY(writeFile(m_root + QStringLiteral("/notes/a.md"), "# a\n"));
        CheckpointStore store(m_root, m_store);
        const QMap<QString, QString> before = fingerprint(m_root);
        const Checkpoint checkpoint = record(store);
        QVERIFY(!checkpoint.isNull());
        QVERIFY(!QFile::exists(m_root + QStringLiteral("/.git")));
        QVERIFY(QFile::remove(m_root + QStringLiteral("/notes/a.md")));
        QVERIFY(store.restore(checkpoint).ok());
        QCOMPARE(fingerprint(m_root), before);
    }

    // .gitignore files at every level and the repository's info/exclude are honoured: what they
    // leave out is neither stored nor touched by a restore.
    void ignoredFilesAreNotSnapshotted()
    {
        makeRepository();
        QVERIFY(writeFile(m_root + QStringLiteral("/.gitignore"), "build/\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/src/.gitignore"), "*.o\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/.git/info/exclude"), "secret.txt\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/build/out.bin"), "built\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/src/main.o"), "object\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/secret.txt"), "secret\n"));
        CheckpointStore store(m_root, m_store);
        const Checkpoint checkpoint = record(store);
        QVERIFY(!checkpoint.isNull());

        QVERIFY(QFile::remove(m_root + QStringLiteral("/build/out.bin")));
        QVERIFY(writeFile(m_root + QStringLiteral("/src/main.o"), "object 2\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/secret.txt"), "secret 2\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/build/new.bin"), "new\n"));
        const CheckpointDiff diff = store.diff(checkpoint);
        QVERIFY2(diff.ok(), qPrintable(diff.error));
        QVERIFY(diff.files.isEmpty());
        QVERIFY(store.restore(checkpoint).ok());
        QCOMPARE(readFile(m_root + QStringLiteral("/src/main.o")), QByteArray("object 2\n"));
        QCOMPARE(readFile(m_root + QStringLiteral("/secret.txt")), QByteArray("secret 2\n"));
        QVERIFY(QFile::exists(m_root + QStringLiteral("/build/new.bin")));
    }

    void filesOverTheSizeCapAreReportedAndLeftAlone()
    {
        QVERIFY(writeFile(m_root + QStringLiteral("/small.txt"), "small\n"));
        QVERIFY(writeFile(m_root + QStringLiteral("/data/big.bin"), QByteArray(2000, 'x')));
        CheckpointStore store(m_root, m_store, 1000);
        const Checkpoint checkpoint = record(store);
        QVERIFY(!checkpoint.isNull());
        QCOMPARE(checkpoint.skipped.size(), 1);
        QCOMPARE(checkpoint.skipped.first().path, QStringLiteral("data/big.bin"));
        QCOMPARE(checkpoint.skipped.first().why, SkippedFile::Why::OverSizeCap);
        QCOMPARE(checkpoint.skipped.first().size, 2000);
        // What the store reads back says the same (the dialog of a resumed session).
        QCOMPARE(store.find(checkpoint.id)->skipped, checkpoint.skipped);

        QVERIFY(writeFile(m_root + QStringLiteral("/data/big.bin"), QByteArray(3000, 'y')));
        QVERIFY(writeFile(m_root + QStringLiteral("/small.txt"), "changed\n"));
        const CheckpointDiff diff = store.diff(checkpoint);
        QCOMPARE(diff.notCovered, QStringList{QStringLiteral("data/big.bin")});
        QCOMPARE(diff.files.size(), 1);
        QVERIFY(store.restore(checkpoint).ok());
        QCOMPARE(readFile(m_root + QStringLiteral("/data/big.bin")), QByteArray(3000, 'y'));
        QCOMPARE(readFile(m_root + QStringLiteral("/small.txt")), QByteArray("small\n"));
    }

    void unreadableFilesAreReported()
    {
        if (::geteuid() == 0)
            QSKIP("root reads every file");
        QVERIFY(writeFile(m_root + QStringLiteral("/locked.txt"), "locked\n"));
        QVERIFY(QFile::setPermissions(m_root + QStringLiteral("/locked.txt"), QFile::WriteOwner));
        CheckpointStore store(m_root, m_store);
        const Checkpoint checkpoint = record(store);
        QVERIFY(!checkpoint.isNull());
        QCOMPARE(checkpoint.skipped.size(), 1);
        QCOMPARE(checkpoint.skipped.first().why, SkippedFile::Why::Unreadable);
    }

    // A link is stored and restored as a link, its target outside the repository untouched;
    // a link put where a folder was is removed, never written through.
    void symlinksAreRestoredAsLinksNeverFollowed()
    {
        const QString outside = m_dir->path() + QStringLiteral("/outside");
        QVERIFY(writeFile(outside + QStringLiteral("/target.txt"), "outside\n"));
        QVERIFY(
            QFile::link(outside + QStringLiteral("/target.txt"), m_root + QStringLiteral("/link")));
        QVERIFY(writeFile(m_root + QStringLiteral("/out/a.txt"), "inside\n"));
        CheckpointStore store(m_root, m_store);
        const QMap<QString, QString> before = fingerprint(m_root);
        const Checkpoint checkpoint = record(store);

        // The agent replaces the link with a file and the folder with a link outside.
        QVERIFY(QFile::remove(m_root + QStringLiteral("/link")));
        QVERIFY(writeFile(m_root + QStringLiteral("/link"), "now a file\n"));
        QVERIFY(QDir(m_root + QStringLiteral("/out")).removeRecursively());
        QVERIFY(QFile::link(outside, m_root + QStringLiteral("/out")));

        const RestoreOutcome outcome = store.restore(checkpoint);
        QVERIFY2(outcome.ok(), qPrintable(outcome.error + outcome.failed.join(QLatin1Char('\n'))));
        QCOMPARE(fingerprint(m_root), before);
        QCOMPARE(QFileInfo(m_root + QStringLiteral("/link")).symLinkTarget(),
                 outside + QStringLiteral("/target.txt"));
        QCOMPARE(readFile(outside + QStringLiteral("/target.txt")), QByteArray("outside\n"));
        QVERIFY(!QFile::exists(outside + QStringLiteral("/a.txt")));
    }

    void unchangedTreeReusesItsContent()
    {
        QVERIFY(writeFile(m_root + QStringLiteral("/a.txt"), "one\n"));
        CheckpointStore store(m_root, m_store);
        const Checkpoint first = record(store);
        const Checkpoint second = record(store);
        QVERIFY(first.id != second.id);
        QVERIFY(store.diff(first).files.isEmpty());
        const QList<Checkpoint> listed = store.list(QStringLiteral("s1"));
        QCOMPARE(listed.size(), 2);
        QCOMPARE(listed.at(0).id, first.id);
        QCOMPARE(listed.at(1).id, second.id);
        QCOMPARE(listed.at(1).toolName, QStringLiteral("Bash"));
        QCOMPARE(listed.at(1).messageIndex, 3);
        QVERIFY(store.list(QStringLiteral("other")).isEmpty());
    }

    // Racy git: a file rewritten with the same size and the same mtime within the second of the
    // previous snapshot (the stat data alone cannot tell) is still seen by the next one, which
    // may otherwise reuse the previous checkpoint's tree when nothing looks changed.
    void changeInTheSameSecondIsSeen()
    {
        const QString path = m_root + QStringLiteral("/a.txt");
        QVERIFY(writeFile(m_root + QStringLiteral("/b.txt"), "other\n"));
        CheckpointStore store(m_root, m_store);
        QVERIFY(!record(store).isNull()); // the store exists, so the next ones are incremental
        // Start at the beginning of a second, so the whole sequence usually shares one.
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        QThread::msleep(1000 - now % 1000 + 10);
        QVERIFY(writeFile(path, "one\n"));
        struct stat before;
        QCOMPARE(::lstat(QFile::encodeName(path).constData(), &before), 0);
        const Checkpoint first = record(store);
        QVERIFY(!first.isNull());
        QVERIFY(writeFile(path, "two\n"));
        const struct timespec times[2] = {before.st_atim, before.st_mtim};
        QCOMPARE(::utimensat(AT_FDCWD, QFile::encodeName(path).constData(), times, 0), 0);
        const Checkpoint second = record(store);
        QVERIFY(!second.isNull());

        QVERIFY(writeFile(path, "three\n"));
        QVERIFY(store.restore(second).ok());
        QCOMPARE(readFile(path), QByteArray("two\n"));
        QVERIFY(store.restore(first).ok());
        QCOMPARE(readFile(path), QByteArray("one\n"));
    }

    // A diff between two checkpoints stages the tree in the store's index; the next checkpoint
    // holds that tree, not the previous checkpoint's.
    void checkpointAfterADiffHoldsTheTree()
    {
        const QString path = m_root + QStringLiteral("/a.txt");
        QVERIFY(writeFile(path, "one\n"));
        CheckpointStore store(m_root, m_store);
        const Checkpoint first = record(store);
        QVERIFY(writeFile(path, "two, longer\n"));
        QCOMPARE(store.diff(first).files.size(), 1);
        const Checkpoint second = record(store);
        QVERIFY(writeFile(path, "one\n"));
        QVERIFY(store.restore(second).ok());
        QCOMPARE(readFile(path), QByteArray("two, longer\n"));
    }

    // Sessions share the store (and its index) but each keeps its own chain of checkpoints.
    void sessionsKeepTheirOwnChains()
    {
        const QString path = m_root + QStringLiteral("/a.txt");
        QVERIFY(writeFile(path, "one\n"));
        CheckpointStore store(m_root, m_store);
        const Checkpoint a1 = record(store, QStringLiteral("a"));
        QVERIFY(writeFile(path, "two, longer\n"));
        const Checkpoint b1 = record(store, QStringLiteral("b"));
        const Checkpoint a2 = record(store, QStringLiteral("a"));
        QCOMPARE(store.list(QStringLiteral("a")).size(), 2);
        QCOMPARE(store.list(QStringLiteral("a")).first().id, a1.id);
        QCOMPARE(store.list(QStringLiteral("a")).last().id, a2.id);
        QCOMPARE(store.list(QStringLiteral("b")).size(), 1);
        QCOMPARE(store.list(QStringLiteral("b")).first().id, b1.id);
        QVERIFY(store.restore(a1).ok());
        QCOMPARE(readFile(path), QByteArray("one\n"));
        QVERIFY(store.restore(b1).ok());
        QCOMPARE(readFile(path), QByteArray("two, longer\n"));
    }

    // A file over the cap stays reported at every checkpoint while it is over, whether it was
    // new or tracked when it grew, and is covered again once it is back under the cap.
    void fileBackUnderTheCapIsCoveredAgain()
    {
        const QString big = m_root + QStringLiteral("/data/big.bin");
        const QString grows = m_root + QStringLiteral("/grows.txt");
        QVERIFY(writeFile(big, QByteArray(2000, 'x')));
        QVERIFY(writeFile(grows, "small\n"));
        CheckpointStore store(m_root, m_store, 1000);
        QCOMPARE(record(store).skipped.size(), 1);
        QVERIFY(writeFile(grows, QByteArray(1500, 'g')));
        Checkpoint over = record(store);
        QCOMPARE(over.skipped.size(), 2);
        over = record(store); // unchanged: still both
        QCOMPARE(over.skipped.size(), 2);
        QCOMPARE(over.skipped.at(0).path, QStringLiteral("data/big.bin"));
        QCOMPARE(over.skipped.at(1).path, QStringLiteral("grows.txt"));
        QCOMPARE(over.skipped.at(1).size, 1500);

        QVERIFY(writeFile(big, "now small\n"));
        QVERIFY(writeFile(grows, "small again\n"));
        const Checkpoint under = record(store);
        QVERIFY(!under.isNull());
        QVERIFY(under.skipped.isEmpty());
        QVERIFY(QFile::remove(big));
        QVERIFY(writeFile(grows, "changed\n"));
        QVERIFY(store.restore(under).ok());
        QCOMPARE(readFile(big), QByteArray("now small\n"));
        QCOMPARE(readFile(grows), QByteArray("small again\n"));
        // Deleted while over the cap: nothing to report any more.
        QVERIFY(writeFile(big, QByteArray(2000, 'x')));
        QCOMPARE(record(store).skipped.size(), 1);
        QVERIFY(QFile::remove(big));
        QVERIFY(record(store).skipped.isEmpty());
    }

    // A nested repository is stored as a link to its commit; when a file takes its place, the
    // file is snapshotted like any other (and its .git was never written to).
    void fileReplacingANestedRepositoryIsSeen()
    {
        QVERIFY(writeFile(m_root + QStringLiteral("/a.txt"), "one\n"));
        const QString nested = m_root + QStringLiteral("/sub");
        QVERIFY(writeFile(nested + QStringLiteral("/f.txt"), "nested\n"));
        QVERIFY(git(nested, {QStringLiteral("init"), QStringLiteral("-q")}));
        QVERIFY(git(nested, {QStringLiteral("add"), QStringLiteral("-A")}));
        QVERIFY(git(nested, {QStringLiteral("commit"), QStringLiteral("-qm"), QStringLiteral("n")}));
        CheckpointStore store(m_root, m_store);
        QVERIFY(!record(store).isNull());
        QVERIFY(QDir(nested).removeRecursively());
        QVERIFY(writeFile(nested, "now a file\n"));
        const Checkpoint file = record(store);
        QVERIFY(!file.isNull());
        QVERIFY(writeFile(nested, "changed\n"));
        QVERIFY(store.restore(file).ok());
        QCOMPARE(readFile(nested), QByteArray("now a file\n"));
    }

    void unknownCheckpointIsAnError()
    {
        CheckpointStore store(m_root, m_store);
        Checkpoint bogus;
        bogus.id = QStringLiteral("0123456789012345678901234567890123456789");
        QVERIFY(!store.find(bogus.id));
        QVERIFY(!store.diff(bogus).ok());
        QVERIFY(!store.restore(bogus).ok());
    }

    void unwritableStoreIsReported()
    {
        QVERIFY(writeFile(m_root + QStringLiteral("/a.txt"), "one\n"));
        QVERIFY(writeFile(m_store, "a file where the store's folder should be\n"));
        CheckpointStore store(m_root, m_store + QStringLiteral("/sub"));
        Checkpoint request;
        const CheckpointOutcome outcome = store.create(request);
        QVERIFY(!outcome.ok());
        QVERIFY(!outcome.error.isEmpty());
    }
};

AGENTDESK_GUILESS_TEST_MAIN(TestCheckpointStore)

} // namespace tst_checkpointstore

#include "tst_checkpointstore.moc"
