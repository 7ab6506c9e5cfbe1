#include "checkpointtesttree.h"

#include <checkpoint/checkpointstore.h>
#include <testmain.h>

#include <QTemporaryDir>
#include <QTest>

#include <signal.h>

using namespace AgentCore;
using namespace CheckpointTest;

namespace tst_checkpointrestore {

class TestCheckpointRestore : public QObject
{
    Q_OBJECT

private slots:
    // kill -9 in the middle of a restore (a child process stopped between writing a file's
    // temporary copy and renaming it): every file is either as before or as after, none half
    // written; the next use of the store replays the journal and finishes the restore.
    void killDuringRestoreLeavesEachFileBeforeOrAfter()
    {
        QTemporaryDir dir;
        const QString root = dir.path() + QStringLiteral("/work");
        const QString storeRoot = dir.path() + QStringLiteral("/store");
        const QByteArray big(200000, 'o');
        for (int i = 0; i < 4; ++i)
            QVERIFY(
                writeFile(root + QStringLiteral("/f%1.txt").arg(i), big + QByteArray::number(i)));
        QVERIFY(writeFile(root + QStringLiteral("/gone.txt"), "restored by the replay\n"));
        CheckpointStore store(root, storeRoot);
        Checkpoint request;
        request.sessionId = QStringLiteral("s");
        const CheckpointOutcome made = store.create(request);
        QVERIFY(made.ok());
        const QMap<QString, QString> before = fingerprint(root);

        const QByteArray changed(150000, 'n');
        for (int i = 0; i < 4; ++i)
            QVERIFY(writeFile(root + QStringLiteral("/f%1.txt").arg(i),
                              changed + QByteArray::number(i)));
        QVERIFY(QFile::remove(root + QStringLiteral("/gone.txt")));
        QVERIFY(writeFile(root + QStringLiteral("/added.txt"), "the agent's\n"));

        QProcess child;
        child.start(QStringLiteral(CHECKPOINT_RESTORE_CHILD),
                    {root, storeRoot, made.checkpoint->id});
        QVERIFY(child.waitForStarted());
        QVERIFY(child.waitForReadyRead(60000));
        QCOMPARE(child.readAllStandardOutput(), QByteArray("stalled\n"));
        ::kill(pid_t(child.processId()), SIGKILL);
        QVERIFY(child.waitForFinished());

        // Each file as before or as after; a temporary copy is all that shows the interruption.
        int after = 0;
        for (int i = 0; i < 4; ++i) {
            const QByteArray bytes = readFile(root + QStringLiteral("/f%1.txt").arg(i));
            QVERIFY(bytes == big + QByteArray::number(i)
                    || bytes == changed + QByteArray::number(i));
            after += bytes == big + QByteArray::number(i);
        }
        QVERIFY(after < 4);
        QVERIFY(!QDir(root)
                     .entryList({QStringLiteral(".agentdesk-*")}, QDir::Hidden | QDir::Files)
                     .isEmpty());

        const QStringList recovered = store.recoverInterruptedRestore();
        QVERIFY(!recovered.isEmpty());
        QCOMPARE(fingerprint(root), before);
        QVERIFY(store.recoverInterruptedRestore().isEmpty());
    }
};

AGENTDESK_GUILESS_TEST_MAIN(TestCheckpointRestore)

} // namespace tst_checkpointrestore

#include "tst_checkpointrestore.moc"
