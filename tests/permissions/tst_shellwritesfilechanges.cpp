// Issue #34, item 5: a Bash command's writes the user accepted in the writes review reach the
// repository, and the changed-files panel lists them as it lists Edit and Write: the result of
// the review names each applied file with the lines it got (FileChange::ofShellWrites), live
// and from the recorded result of a resumed session. The writes are read from a real upper
// layer (a folder, as the overlay leaves it) and applied by the real applier.
#include <permissions/shellwritesreview.h>
#include <testmain.h>
#include <tools/filechange.h>
#include <tools/shellwriteapplier.h>
#include <tools/shellwrites.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace AgentCore;

namespace tst_shellwritesfilechanges {

namespace {

bool writeShellWritesFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

QByteArray shellWritesNumbered(int count, const QHash<int, QByteArray> &changed = {})
{
    QByteArray text;
    for (int i = 1; i <= count; ++i)
        text += changed.value(i, "line " + QByteArray::number(i)) + '\n';
    return text;
}

} // namespace

class tst_ShellWritesFileChanges : public QObject
{
    Q_OBJECT

private slots:
    void acceptedWritesAreFileChanges()
    {
        QTemporaryDir root;
        QTemporaryDir upper;
        QTemporaryDir journals;
        QVERIFY(writeShellWritesFile(root.filePath("list.txt"), shellWritesNumbered(30)));
        // What `sed -i` on lines 3 and 25 and `echo > new.txt` and `mkdir out` leave.
        QVERIFY(writeShellWritesFile(upper.filePath("list.txt"),
                                     shellWritesNumbered(30, {{3, "line 3, kept"}, {25, "x"}})));
        QVERIFY(writeShellWritesFile(upper.filePath("src/new.txt"), "hello\nworld\n"));
        QVERIFY(QDir(upper.path()).mkpath("out"));
        const ShellWrites::Result writes = ShellWrites::compute(root.path(), upper.path());
        QVERIFY2(writes.error.isEmpty(), qPrintable(writes.error));

        PermissionRequest request;
        request.toolName = QStringLiteral("Bash");
        const ToolResult command = ToolResult::makeText(QStringLiteral("done"));
        ShellWritesReview::describe(writes.changes, command, request);
        int list = -1;
        for (int i = 0; i < request.shellWrites.size(); ++i) {
            if (request.shellWrites.at(i).path == QLatin1String("list.txt"))
                list = i;
        }
        QVERIFY(list >= 0);
        PermissionAnswer answer;
        answer.choice = PermissionAnswer::Choice::AllowOnce;
        answer.rejectedWriteHunks.insert(list, {1}); // line 25 stays
        const std::optional<PermissionAnswer> answered = answer;
        const ShellWriteApplier::Outcome outcome = ShellWriteApplier(journals.path())
                                                       .apply(root.path(),
                                                              request.shellWrites,
                                                              ShellWritesReview::choices(request,
                                                                                         answered));
        QVERIFY2(outcome.error.isEmpty() && outcome.failed.isEmpty(), qPrintable(outcome.error));
        const ToolResult result = ShellWritesReview::result(command, request, answered, outcome);

        const auto check = [&](const QList<FileChange> &changes) {
            QCOMPARE(changes.size(), 2); // the folder is no file
            QHash<QString, FileChange> byPath;
            for (const FileChange &change : changes)
                byPath.insert(change.displayPath, change);
            const FileChange edited = byPath.value("list.txt");
            QCOMPARE(edited.path, QDir(root.path()).filePath("list.txt"));
            QCOMPARE(edited.additions, 1); // the kept hunk only
            QCOMPARE(edited.deletions, 1);
            QVERIFY(!edited.created);
            const FileChange added = byPath.value("src/new.txt");
            QCOMPARE(added.path, QDir(root.path()).filePath("src/new.txt"));
            QCOMPARE(added.additions, 2);
            QCOMPARE(added.deletions, 0);
            QVERIFY(added.created);
        };
        check(FileChange::ofShellWrites(result.details, root.path()));
        // As a resumed session reads it back from its file.
        check(
            FileChange::ofShellWrites(ToolDetails::fromJson(result.details.toJson()), root.path()));
        QVERIFY(!FileChange::of(result)); // not an Edit's change: counted once
    }

    void rejectedWritesAreNone()
    {
        QTemporaryDir root;
        QTemporaryDir upper;
        QVERIFY(writeShellWritesFile(upper.filePath("new.txt"), "hello\n"));
        const ShellWrites::Result writes = ShellWrites::compute(root.path(), upper.path());
        PermissionRequest request;
        request.toolName = QStringLiteral("Bash");
        const ToolResult command = ToolResult::makeText(QStringLiteral("done"));
        ShellWritesReview::describe(writes.changes, command, request);
        PermissionAnswer answer; // a deny
        const ToolResult result = ShellWritesReview::result(command,
                                                            request,
                                                            answer,
                                                            ShellWriteApplier::Outcome{});
        QVERIFY(FileChange::ofShellWrites(result.details, root.path()).isEmpty());
        // Nor anything a result that names no writes.
        QVERIFY(FileChange::ofShellWrites(command.details, root.path()).isEmpty());
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_ShellWritesFileChanges)

} // namespace tst_shellwritesfilechanges

#include "tst_shellwritesfilechanges.moc"
