// A Bash command run on an overlay of the repository (ShellOverlay, real bwrap): the changes
// read from its upper layer (ShellWrites) and the accepted ones applied (ShellWriteApplier),
// including a kill -9 in the middle of applying.

#include "toolstest.h"

#include <testmain.h>
#include <tools/bashtool.h>
#include <tools/bwrapcommand.h>
#include <tools/gitdirectories.h>
#include <tools/sandboxprobe.h>
#include <tools/shelloverlay.h>
#include <tools/shellwriteapplier.h>
#include <tools/shellwrites.h>

#include <QCoreApplication>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QtTest>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace AgentCore;
namespace tst_shellwrites {

using ToolsTest::Repo;

namespace {

// Every path under \a root but .git, with its type, mode and bytes (or link target): what a
// user would see of the tree.
QMap<QString, QByteArray> snapshot(const QString &root)
{
    QMap<QString, QByteArray> files;
    QDirIterator it(root,
                    QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString relative = QDir(root).relativeFilePath(path);
        if (relative == QLatin1String(".git") || relative.startsWith(QLatin1String(".git/")))
            continue;
        struct stat info;
        ::lstat(QFile::encodeName(path).constData(), &info);
        QByteArray value = QByteArray::number(info.st_mode, 8) + ' ';
        const QFileInfo file(path);
        if (file.isSymLink())
            value += "-> " + QFile::encodeName(file.symLinkTarget());
        else if (file.isFile()) {
            QFile in(path);
            in.open(QIODevice::ReadOnly);
            value += in.readAll();
        }
        files.insert(relative, value);
    }
    return files;
}

QStringList summary(const QList<ShellWrite> &changes)
{
    QStringList lines;
    for (const ShellWrite &change : changes)
        lines.append(change.path + QLatin1Char(' ') + ShellWrite::kindName(change.kind()));
    return lines;
}

QByteArray lines(int from, int to, const QByteArray &changed = {}, int at = -1)
{
    QByteArray text;
    for (int i = from; i <= to; ++i)
        text += (i == at ? changed : "line " + QByteArray::number(i)) + '\n';
    return text;
}

} // namespace

class TestShellWrites : public QObject
{
    Q_OBJECT

private:
    QString m_skip;
    QTemporaryDir m_scratch;

    // Runs \a command with BashTool on an overlay of \a repo; returns the changes.
    QList<ShellWrite> runOnOverlay(const Repo &repo,
                                   const QString &command,
                                   std::unique_ptr<ShellOverlay> &overlay)
    {
        QString error;
        overlay = ShellOverlay::create(repo.root(), m_scratch.path(), &error);
        if (!overlay) {
            qWarning() << error;
            return {};
        }
        BashTool tool(repo.workspace());
        ToolCallContext context;
        context.toolCallId = QStringLiteral("call_1");
        context.toolName = QStringLiteral("Bash");
        context.arguments = {{QStringLiteral("command"), command}};
        context.tool = &tool;
        context.toolOptions.edit<BashOptions>().overlay = overlay->bashOverlay();
        const ToolResult result = tool.execute(context);
        if (result.isError)
            qWarning() << result.text();
        const ShellWrites::Result writes = ShellWrites::compute(repo.root(), overlay->upper());
        if (!writes.error.isEmpty())
            qWarning() << writes.error;
        return writes.changes;
    }

private slots:
    void initTestCase()
    {
        m_skip = ShellOverlay::unsupportedReason();
        QVERIFY(m_scratch.isValid());
    }

    // The tentative sandbox policy's lists: sed -i, rm, mkdir + touch, chmod +x, an ignored
    // file, a removed directory, a new symbolic link: exactly those, and nothing in the tree.
    void computesWhatTheCommandChanged()
    {
        if (!m_skip.isEmpty())
            QSKIP(qPrintable(m_skip));
        Repo repo;
        QVERIFY(repo.isValid());
        QVERIFY(repo.write(QStringLiteral("a.txt"), "one\ntwo\nthree\n"));
        QVERIFY(repo.write(QStringLiteral("b.txt"), "gone\n"));
        QVERIFY(repo.write(QStringLiteral("run.sh"), "echo hi\n"));
        QVERIFY(repo.write(QStringLiteral("old/x.txt"), "x\n"));
        QVERIFY(repo.write(QStringLiteral("old/deep/y.txt"), "y\n"));
        QVERIFY(repo.write(QStringLiteral("keep/z.txt"), "z\n"));
        QVERIFY(repo.write(QStringLiteral(".gitignore"), "build/\n"));
        repo.git({QStringLiteral("add"), QStringLiteral(".")});
        const QMap<QString, QByteArray> before = snapshot(repo.root());

        std::unique_ptr<ShellOverlay> overlay;
        const QList<ShellWrite> changes
            = runOnOverlay(repo,
                           QStringLiteral(
                               "sed -i 's/two/TWO/' a.txt && rm b.txt && mkdir -p new && touch "
                               "new/empty.txt && chmod +x run.sh && mkdir -p build && echo obj > "
                               "build/out.o && rm -r old && ln -s a.txt link && cat keep/z.txt"),
                           overlay);

        QCOMPARE(summary(changes),
                 QStringList({QStringLiteral("a.txt modified"),
                              QStringLiteral("b.txt deleted"),
                              QStringLiteral("build added"),
                              QStringLiteral("build/out.o added"),
                              QStringLiteral("link added"),
                              QStringLiteral("new added"),
                              QStringLiteral("new/empty.txt added"),
                              QStringLiteral("old deleted"),
                              QStringLiteral("old/deep deleted"),
                              QStringLiteral("old/deep/y.txt deleted"),
                              QStringLiteral("old/x.txt deleted"),
                              QStringLiteral("run.sh mode")}));
        QCOMPARE(changes[0].diff.hunks().size(), 1);
        QVERIFY(!changes[0].whole);
        QCOMPARE(changes[0].newBytes, QByteArray("one\nTWO\nthree\n"));
        QCOMPARE(changes[4].newBytes, QByteArray("a.txt"));
        QCOMPARE(changes[4].newType, ShellWrite::Type::Symlink);
        QCOMPARE(changes[11].newMode & 0111, 0111u);
        QCOMPARE(changes[11].description(), QStringLiteral("mode 644 → 755"));
        // Nothing reached the real tree, and git's own bookkeeping went through.
        QCOMPARE(snapshot(repo.root()), before);
    }

    // rm -r then mkdir of the same directory: the upper layer marks it opaque; whatever it
    // held below is deleted, the new content added.
    void readsAnOpaqueDirectory()
    {
        if (!m_skip.isEmpty())
            QSKIP(qPrintable(m_skip));
        Repo repo;
        QVERIFY(repo.write(QStringLiteral("d/old.txt"), "old\n"));
        QVERIFY(repo.write(QStringLiteral("d/same.txt"), "same\n"));
        std::unique_ptr<ShellOverlay> overlay;
        const QList<ShellWrite> changes = runOnOverlay(
            repo,
            QStringLiteral("rm -rf d && mkdir d && echo new > d/new.txt && echo same > d/same.txt"),
            overlay);
        QCOMPARE(summary(changes),
                 QStringList(
                     {QStringLiteral("d/new.txt added"), QStringLiteral("d/old.txt deleted")}));
    }

    // Accept some changes and some hunks: the tree has exactly those bytes and modes.
    void appliesOnlyWhatWasAccepted()
    {
        if (!m_skip.isEmpty())
            QSKIP(qPrintable(m_skip));
        Repo repo;
        QVERIFY(repo.write(QStringLiteral("a.txt"), lines(1, 40)));
        QVERIFY(repo.write(QStringLiteral("b.txt"), "delete me\n"));
        QVERIFY(repo.write(QStringLiteral("c.txt"), "keep me\n"));
        QVERIFY(repo.write(QStringLiteral("run.sh"), "echo hi\n"));
        std::unique_ptr<ShellOverlay> overlay;
        const QList<ShellWrite> changes
            = runOnOverlay(repo,
                           QStringLiteral(
                               "sed -i -e 's/^line 5$/FIVE/' -e 's/^line 30$/THIRTY/' a.txt && rm "
                               "b.txt c.txt && chmod +x run.sh && mkdir n && printf 'n\\0bin' > "
                               "n/data.bin"),
                           overlay);
        QCOMPARE(summary(changes),
                 QStringList({QStringLiteral("a.txt modified"),
                              QStringLiteral("b.txt deleted"),
                              QStringLiteral("c.txt deleted"),
                              QStringLiteral("n added"),
                              QStringLiteral("n/data.bin added"),
                              QStringLiteral("run.sh mode")}));
        QCOMPARE(changes[0].diff.hunks().size(), 2);
        QVERIFY(changes[4].whole); // binary: no hunks

        QTemporaryDir journals;
        const ShellWriteApplier applier(journals.path());
        QHash<int, ShellWriteApplier::Choice> choices;
        choices.insert(0, {true, {1}}); // a.txt: hunk 1 only
        choices.insert(1, {true, {}});  // b.txt deleted
        // c.txt rejected; n and n/data.bin accepted; run.sh's mode accepted
        choices.insert(3, {true, {}});
        choices.insert(4, {true, {}});
        choices.insert(5, {true, {}});
        const ShellWriteApplier::Outcome outcome = applier.apply(repo.root(), changes, choices);
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QVERIFY(outcome.failed.isEmpty());
        QCOMPARE(outcome.applied, QList<int>({0, 1, 3, 4, 5}));

        QCOMPARE(repo.read(QStringLiteral("a.txt")), lines(1, 40, "FIVE", 5));
        QVERIFY(!QFileInfo::exists(repo.path(QStringLiteral("b.txt"))));
        QCOMPARE(repo.read(QStringLiteral("c.txt")), QByteArray("keep me\n"));
        QCOMPARE(repo.read(QStringLiteral("n/data.bin")), QByteArray("n\0bin", 5));
        QVERIFY(QFileInfo(repo.path(QStringLiteral("run.sh"))).isExecutable());
        QCOMPARE(repo.read(QStringLiteral("run.sh")), QByteArray("echo hi\n"));
        // No staged file, no journal left behind.
        QCOMPARE(QDir(repo.root())
                     .entryList({QStringLiteral(".*agentdesk-*")}, QDir::Files | QDir::Hidden),
                 QStringList());
        QCOMPARE(QDir(journals.path()).entryList(QDir::Files), QStringList());
    }

    // A file edited after the command ran is not overwritten by its review.
    void refusesAFileChangedSince()
    {
        if (!m_skip.isEmpty())
            QSKIP(qPrintable(m_skip));
        Repo repo;
        QVERIFY(repo.write(QStringLiteral("a.txt"), "one\n"));
        std::unique_ptr<ShellOverlay> overlay;
        const QList<ShellWrite> changes = runOnOverlay(repo,
                                                       QStringLiteral("echo two > a.txt"),
                                                       overlay);
        QCOMPARE(changes.size(), 1);
        QVERIFY(repo.write(QStringLiteral("a.txt"), "edited\n"));
        QTemporaryDir journals;
        const ShellWriteApplier::Outcome outcome
            = ShellWriteApplier(journals.path()).apply(repo.root(), changes, {{0, {true, {}}}});
        QVERIFY(outcome.applied.isEmpty());
        QVERIFY(outcome.failed.contains(0));
        QCOMPARE(repo.read(QStringLiteral("a.txt")), QByteArray("edited\n"));
    }

    // A folder replaced by a link to outside the repository while the review was open: the
    // accepted new file in it is refused, nothing is written outside (the journalled writer
    // checks every folder on the way, as a rewind's restore always did).
    void neverWritesThroughAFolderThatBecameALink()
    {
        Repo repo;
        QTemporaryDir outside;
        QVERIFY(QDir(repo.root()).mkdir(QStringLiteral("sub")));
        ShellWrite added;
        added.path = QStringLiteral("sub/new.txt");
        added.oldType = ShellWrite::Type::None;
        added.newType = ShellWrite::Type::File;
        added.newMode = 0644;
        added.newBytes = "from the command\n";
        added.newSize = added.newBytes.size();
        QVERIFY(QDir(repo.path(QStringLiteral("sub"))).removeRecursively());
        QVERIFY(QFile::link(outside.path(), repo.path(QStringLiteral("sub"))));

        QTemporaryDir journals;
        const ShellWriteApplier::Outcome outcome
            = ShellWriteApplier(journals.path()).apply(repo.root(), {added}, {{0, {true, {}}}});
        QVERIFY(outcome.applied.isEmpty());
        QVERIFY2(outcome.failed.value(0).contains(QLatin1String("symbolic link")),
                 qPrintable(outcome.failed.value(0)));
        QCOMPARE(QDir(outside.path())
                     .entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList());
        QCOMPARE(QDir(journals.path()).entryList(QDir::Files), QStringList());
    }

    // Issue #34, item 13: Debian 12's bwrap 0.8 has no --overlay; unshare(1) mounts the overlay
    // in a user namespace before bwrap, which binds it at the repository's path. The command
    // writes to the upper layer with the user's own ids, the tree is untouched, and the git
    // folder bound writable for git's own work is the real one. Forced here, so that it runs
    // where bwrap 0.9 would otherwise mount the overlay itself.
    void unshareMountsTheOverlayForAnOldBubblewrap()
    {
        const SandboxProbe::Result sandbox = SandboxProbe::probe();
        if (!sandbox.available)
            QSKIP(qPrintable(sandbox.error));
        QProcess userNamespace;
        userNamespace.setProcessChannelMode(QProcess::MergedChannels);
        userNamespace.start(QStringLiteral("unshare"),
                            {QStringLiteral("--user"),
                             QStringLiteral("--map-root-user"),
                             QStringLiteral("--mount"),
                             QStringLiteral("true")});
        if (!userNamespace.waitForFinished(10000) || userNamespace.exitCode() != 0)
            QSKIP(qPrintable(QStringLiteral("unshare cannot make a user namespace here: %1")
                                 .arg(QString::fromUtf8(userNamespace.readAll()))));
        Repo repo;
        QVERIFY(repo.isValid());
        QVERIFY(repo.write(QStringLiteral("a.txt"), "apple\n"));
        QString error;
        const std::unique_ptr<ShellOverlay> overlay = ShellOverlay::create(repo.root(),
                                                                           m_scratch.path(),
                                                                           &error);
        QVERIFY2(overlay, qPrintable(error));
        SandboxPolicy policy;
        policy.mode = SandboxMode::On;
        BwrapCommand command(sandbox.bwrapPath, repo.root(), policy);
        command.setRepositoryOverlay(overlay->upper(),
                                     overlay->work(),
                                     BwrapCommand::OverlayMount::Unshare);
        command.addGitDirectories(GitDirectories::of(repo.root()).paths(), true);
        QProcess run;
        run.setProcessChannelMode(QProcess::MergedChannels);
        run.start(command.program(),
                  command.arguments({QStringLiteral("/bin/sh"),
                                     QStringLiteral("-c"),
                                     QStringLiteral("id -u; echo pear > a.txt; echo new > "
                                                    "b.txt; git config agentdesk.probe yes")}));
        QVERIFY(run.waitForFinished(30000));
        const QString output = QString::fromUtf8(run.readAll());
        QVERIFY2(run.exitCode() == 0, qPrintable(output));
        QCOMPARE(output.trimmed(), QString::number(::getuid()));
        QCOMPARE(command.program(), QStandardPaths::findExecutable(QStringLiteral("unshare")));

        QCOMPARE(snapshot(repo.root()).value(QStringLiteral("a.txt")), QByteArray("100644 apple\n"));
        QVERIFY(!QFileInfo::exists(repo.path(QStringLiteral("b.txt"))));
        const ShellWrites::Result writes = ShellWrites::compute(repo.root(), overlay->upper());
        QVERIFY2(writes.error.isEmpty(), qPrintable(writes.error));
        QCOMPARE(summary(writes.changes),
                 (QStringList{QStringLiteral("a.txt modified"), QStringLiteral("b.txt added")}));
        QProcess git;
        git.setWorkingDirectory(repo.root());
        git.start(QStringLiteral("git"),
                  {QStringLiteral("config"),
                   QStringLiteral("--get"),
                   QStringLiteral("agentdesk.probe")});
        QVERIFY(git.waitForFinished(30000));
        QCOMPARE(git.readAllStandardOutput(), QByteArray("yes\n"));
    }

    // bwrap without --overlay (Debian 12's 0.8): the reason names the version needed.
    void explainsAnOldBubblewrap()
    {
        QTemporaryDir dir;
        const QString fake = dir.filePath(QStringLiteral("bwrap"));
        QFile script(fake);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'bubblewrap 0.8.0'; else "
                     "echo 'usage: bwrap [OPTIONS...] [--] COMMAND [ARGS...]'; echo '    --bind "
                     "SRC DEST'; fi\n");
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        const QString reason = ShellOverlay::unsupportedReason(fake);
        QVERIFY2(reason.contains(QLatin1String("bubblewrap 0.9 or newer")), qPrintable(reason));
        QVERIFY2(reason.contains(QLatin1String("0.8.0")), qPrintable(reason));
    }

    // kill -9 of a process applying 120 files, at several moments: each file is before or
    // after, never half written; the replay at the next start makes the set whole (all
    // after when the journal was committed, all before when not) and leaves no staged file.
    void killDuringApplyLeavesNoHalfWrittenFile_data()
    {
        QTest::addColumn<int>("delayMs");
        for (int delay : {0, 5, 15, 30, 60, 120, 250})
            QTest::addRow("%d ms", delay) << delay;
    }
    void killDuringApplyLeavesNoHalfWrittenFile()
    {
        QFETCH(int, delayMs);
        QTemporaryDir root;
        QTemporaryDir upper;
        QTemporaryDir journals;
        constexpr int files = 120;
        const QByteArray oldBytes(64 * 1024, 'o');
        const QByteArray newBytes(96 * 1024, 'n');
        for (int i = 0; i < files; ++i) {
            const QString name = QStringLiteral("/f%1.txt").arg(i);
            QFile a(root.path() + name);
            QVERIFY(a.open(QIODevice::WriteOnly));
            a.write(oldBytes);
            QFile b(upper.path() + name);
            QVERIFY(b.open(QIODevice::WriteOnly));
            b.write(newBytes);
        }
        QProcess child;
        child.setProcessChannelMode(QProcess::ForwardedChannels);
        child.start(QCoreApplication::applicationFilePath(),
                    TestSupport::thisTestWith({QStringLiteral("--apply-child"),
                                               root.path(),
                                               upper.path(),
                                               journals.path()}));
        QVERIFY(child.waitForStarted());
        QThread::msleep(delayMs);
        child.kill();
        QVERIFY(child.waitForFinished());

        const auto check = [&](bool *allOld, bool *allNew) {
            *allOld = *allNew = true;
            for (int i = 0; i < files; ++i) {
                QFile in(root.path() + QStringLiteral("/f%1.txt").arg(i));
                QVERIFY(in.open(QIODevice::ReadOnly));
                const QByteArray bytes = in.readAll();
                QVERIFY2(bytes == oldBytes || bytes == newBytes,
                         qPrintable(QStringLiteral("f%1.txt is half written (%2 bytes)")
                                        .arg(i)
                                        .arg(bytes.size())));
                *allOld = *allOld && bytes == oldBytes;
                *allNew = *allNew && bytes == newBytes;
            }
        };
        bool allOld = false;
        bool allNew = false;
        check(&allOld, &allNew);
        if (QTest::currentTestFailed())
            return;
        ShellWriteApplier::replay(journals.path());
        check(&allOld, &allNew);
        QVERIFY(allOld || allNew);
        QCOMPARE(QDir(root.path()).entryList(QDir::Files | QDir::Hidden).size(), files);
        QCOMPARE(QDir(journals.path()).entryList(QDir::Files | QDir::Hidden), QStringList());
    }

    // Every agent replays the shared journal folder when it is made (CodingAgent::assemble):
    // a journal whose apply is still going on in another agent or process (it holds the
    // journal's lock) is left alone, staged files and all; once its holder is gone, the next
    // replay finishes it.
    void aJournalStillBeingAppliedElsewhereIsLeftAlone()
    {
        QTemporaryDir root;
        QTemporaryDir journals;
        const QString staged = root.filePath(QStringLiteral(".agentdesk-0123456789ab"));
        QFile stagedFile(staged);
        QVERIFY(stagedFile.open(QIODevice::WriteOnly));
        stagedFile.write("new contents\n");
        stagedFile.close();
        const QString journal = journals.filePath(QStringLiteral("live.journal"));
        QFile journalFile(journal);
        QVERIFY(journalFile.open(QIODevice::WriteOnly));
        journalFile.write(
            QJsonDocument(QJsonObject{{"state", "staged"},
                                      {"root", root.path()},
                                      {"temporaries", QJsonArray{".agentdesk-0123456789ab"}},
                                      {"steps", QJsonArray{}}})
                .toJson());
        journalFile.close();
        QFile temporary(journal + QStringLiteral(".tmp")); // its next version, being written
        QVERIFY(temporary.open(QIODevice::WriteOnly));
        temporary.close();

        // The apply's holder: another open file description, as another agent's would be.
        const int holder = ::open(QFile::encodeName(journal + QStringLiteral(".lock")).constData(),
                                  O_RDWR | O_CREAT | O_CLOEXEC,
                                  0600);
        QVERIFY(holder >= 0);
        QCOMPARE(::flock(holder, LOCK_EX | LOCK_NB), 0);
        QCOMPARE(ShellWriteApplier::replay(journals.path()), QStringList());
        QVERIFY(QFile::exists(staged));
        QVERIFY(QFile::exists(journal));
        QVERIFY(QFile::exists(journal + QStringLiteral(".tmp")));

        ::close(holder); // its process died without removing anything
        QCOMPARE(ShellWriteApplier::replay(journals.path()).size(), 1);
        QVERIFY(!QFile::exists(staged));
        QCOMPARE(QDir(journals.path()).entryList(QDir::Files | QDir::Hidden), QStringList());
    }
};

static int shellWritesMain(int argc, char **argv)
{
    if (argc == 5 && qstrcmp(argv[1], "--apply-child") == 0) {
        // The process the kill test kills: applies every change of an upper layer.
        QCoreApplication app(argc, argv);
        const QString root = QString::fromLocal8Bit(argv[2]);
        const ShellWrites::Result writes = ShellWrites::compute(root,
                                                                QString::fromLocal8Bit(argv[3]));
        QHash<int, ShellWriteApplier::Choice> choices;
        for (int i = 0; i < writes.changes.size(); ++i)
            choices.insert(i, {true, {}});
        const ShellWriteApplier::Outcome outcome = ShellWriteApplier(QString::fromLocal8Bit(argv[4]))
                                                       .apply(root, writes.changes, choices);
        return outcome.applied.size() == writes.changes.size() ? 0 : 1;
    }
    QCoreApplication app(argc, argv);
    TestShellWrites test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

AGENTDESK_TEST_ENTRY(shellWritesMain)

} // namespace tst_shellwrites

#include "tst_shellwrites.moc"
