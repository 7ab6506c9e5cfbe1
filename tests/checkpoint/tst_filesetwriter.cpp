// FileSetWriter, the one journalled writer (a rewind's restore and a command's accepted
// writes): modes, links, folders, and the replay of a journal a kill left behind.
#include "checkpointtesttree.h"

#include <checkpoint/filesetwriter.h>
#include <testmain.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace AgentCore;
using namespace CheckpointTest;
namespace tst_filesetwriter {

using Kind = FileSetWriter::Change::Kind;

namespace {

uint modeOf(const QString &path)
{
    struct stat info;
    return ::lstat(QFile::encodeName(path).constData(), &info) == 0 ? info.st_mode & 07777 : 0;
}

} // namespace

class TestFileSetWriter : public QObject
{
    Q_OBJECT

private slots:
    // A file's own permissions survive a write "like existing" (0600 stays 0600, with the
    // executable bit asked for); an exact mode is set as given; a link is written as a link;
    // a new file's folders are made; a deletion takes the folders it empties.
    void writesModesLinksAndFolders()
    {
        QTemporaryDir root;
        QTemporaryDir journals;
        QVERIFY(writeFile(root.filePath(QStringLiteral("private.sh")), "old\n"));
        QVERIFY(::chmod(QFile::encodeName(root.filePath(QStringLiteral("private.sh"))).constData(),
                        0600)
                == 0);
        QVERIFY(writeFile(root.filePath(QStringLiteral("gone/deep/x.txt")), "x\n"));

        QList<FileSetWriter::Change> changes;
        changes.append({Kind::File, QStringLiteral("private.sh"), "new\n", {}, 0755, true, false});
        changes.append(
            {Kind::File, QStringLiteral("a/b/exact.txt"), "exact\n", {}, 0640, false, false});
        changes.append({Kind::Link, QStringLiteral("link"), "../outside", {}, 0, false, false});
        changes.append({Kind::Delete, QStringLiteral("gone/deep/x.txt"), {}, {}, 0, false, true});
        const FileSetWriter::Outcome outcome = FileSetWriter(journals.path())
                                                   .write(root.path(), changes);
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QVERIFY(outcome.failed.isEmpty());

        QCOMPARE(readFile(root.filePath(QStringLiteral("private.sh"))), QByteArray("new\n"));
        QCOMPARE(modeOf(root.filePath(QStringLiteral("private.sh"))), 0700u);
        QCOMPARE(readFile(root.filePath(QStringLiteral("a/b/exact.txt"))), QByteArray("exact\n"));
        QCOMPARE(modeOf(root.filePath(QStringLiteral("a/b/exact.txt"))), 0640u);
        QCOMPARE(QFile::symLinkTarget(root.filePath(QStringLiteral("link"))).isEmpty(), false);
        QVERIFY(QFileInfo(root.filePath(QStringLiteral("link"))).isSymLink());
        QVERIFY(!QFileInfo::exists(root.filePath(QStringLiteral("gone"))));
        // Nothing staged or journalled is left.
        QCOMPARE(QDir(root.path())
                     .entryList({QStringLiteral(".agentdesk-*")},
                                QDir::Files | QDir::Hidden | QDir::System),
                 QStringList());
        QCOMPARE(QDir(journals.path()).entryList(QDir::Files), QStringList());
    }

    // A journal that was committed finishes at replay; one that was only staged has its
    // temporary files removed and changes nothing.
    void replayFinishesCommittedAndRollsBackStaged()
    {
        QTemporaryDir root;
        QTemporaryDir journals;
        QVERIFY(writeFile(root.filePath(QStringLiteral("a.txt")), "before\n"));
        QVERIFY(writeFile(root.filePath(QStringLiteral(".agentdesk-1")), "after\n"));
        QVERIFY(writeFile(root.filePath(QStringLiteral("b.txt")), "before\n"));
        QVERIFY(writeFile(root.filePath(QStringLiteral(".agentdesk-2")), "never\n"));
        const auto journal = [&](const QString &name,
                                 bool committed,
                                 const QString &target,
                                 const QString &temporary) {
            QJsonObject step{{QStringLiteral("op"), QStringLiteral("rename")},
                             {QStringLiteral("path"), target},
                             {QStringLiteral("from"), temporary}};
            const QJsonObject object{{QStringLiteral("state"),
                                      committed ? QStringLiteral("committed")
                                                : QStringLiteral("staged")},
                                     {QStringLiteral("root"), root.path()},
                                     {QStringLiteral("temporaries"), QJsonArray{temporary}},
                                     {QStringLiteral("steps"),
                                      committed ? QJsonArray{step} : QJsonArray()}};
            return writeFile(journals.filePath(name), QJsonDocument(object).toJson());
        };
        QVERIFY(journal(QStringLiteral("1.journal"),
                        true,
                        QStringLiteral("a.txt"),
                        QStringLiteral(".agentdesk-1")));
        QVERIFY(journal(QStringLiteral("2.journal"),
                        false,
                        QStringLiteral("b.txt"),
                        QStringLiteral(".agentdesk-2")));

        const QList<FileSetWriter::Replayed> replayed = FileSetWriter::replay(journals.path());
        QCOMPARE(replayed.size(), 2);
        QCOMPARE(readFile(root.filePath(QStringLiteral("a.txt"))), QByteArray("after\n"));
        QCOMPARE(readFile(root.filePath(QStringLiteral("b.txt"))), QByteArray("before\n"));
        QCOMPARE(QDir(root.path()).entryList(QDir::Files | QDir::Hidden),
                 QStringList({QStringLiteral("a.txt"), QStringLiteral("b.txt")}));
        QCOMPARE(QDir(journals.path()).entryList(QDir::Files), QStringList());
    }
};

AGENTDESK_GUILESS_TEST_MAIN(TestFileSetWriter)

} // namespace tst_filesetwriter

#include "tst_filesetwriter.moc"
