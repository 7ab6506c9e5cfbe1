// CheckpointPruner against the real git: a pruned store still restores every checkpoint it
// kept, byte for byte, and a deleted session's checkpoints are freed from the store.
#include "checkpointtesttree.h"

#include <checkpoint/checkpointpruner.h>
#include <checkpoint/checkpointstore.h>
#include <testmain.h>

#include <QTemporaryDir>
#include <QTest>

using namespace AgentCore;
using namespace CheckpointTest;

namespace tst_checkpointpruner {

namespace {

// Whether the shadow store still holds the object \a id.
bool storeHas(const CheckpointStore &store, const QString &id)
{
    QProcess git;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("GIT_DIR"), store.gitDir());
    git.setProcessEnvironment(environment);
    git.start(QStringLiteral("git"), {QStringLiteral("cat-file"), QStringLiteral("-e"), id});
    return git.waitForFinished(60000) && git.exitCode() == 0;
}

// The blob id git gives \a bytes.
QString blobOf(const QByteArray &bytes)
{
    QProcess git;
    git.setWorkingDirectory(QDir::tempPath()); // not in a repository
    git.start(QStringLiteral("git"), {QStringLiteral("hash-object"), QStringLiteral("--stdin")});
    git.write(bytes);
    git.closeWriteChannel();
    git.waitForFinished(60000);
    return QString::fromLatin1(git.readAllStandardOutput().trimmed());
}

} // namespace

class TestCheckpointPruner : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        m_root = m_dir->path() + QStringLiteral("/work");
        m_store = m_dir->path() + QStringLiteral("/store");
        QVERIFY(QDir().mkpath(m_root));
    }

    // Eight checkpoints, the newest three kept: the older five are gone (not listed, not
    // found, their only content freed), and each kept one restores exactly what it recorded.
    void prunedStoreRestoresEveryKeptCheckpoint()
    {
        CheckpointStore store(m_root, m_store);
        QList<Checkpoint> made;
        QList<QMap<QString, QString>> trees;
        for (int i = 0; i < 8; ++i) {
            QVERIFY(writeFile(m_root + QStringLiteral("/f.txt"),
                              "version " + QByteArray::number(i) + '\n'));
            QVERIFY(writeFile(m_root + QStringLiteral("/only%1.txt").arg(i),
                              "unique to checkpoint " + QByteArray::number(i) + '\n'));
            if (i > 0)
                QVERIFY(QFile::remove(m_root + QStringLiteral("/only%1.txt").arg(i - 1)));
            Checkpoint request;
            request.sessionId = QStringLiteral("s1");
            const CheckpointOutcome outcome = store.create(request);
            QVERIFY2(outcome.ok(), qPrintable(outcome.error));
            made.append(*outcome.checkpoint);
            trees.append(fingerprint(m_root));
        }
        QVERIFY(storeHas(store, blobOf("unique to checkpoint 0\n")));

        CheckpointPruner::Limits limits;
        limits.keepNewest = 3;
        limits.maxPerSession = 3;
        limits.unreachableExpiry = QStringLiteral("now");
        const CheckpointPruner::Outcome outcome = CheckpointPruner::prune(store,
                                                                          {QStringLiteral("s1")},
                                                                          limits);
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QCOMPARE(outcome.droppedCheckpoints, 5);
        QVERIFY(outcome.droppedSessions.isEmpty());

        const QList<Checkpoint> listed = store.list(QStringLiteral("s1"));
        QCOMPARE(listed.size(), 3);
        for (int i = 0; i < 5; ++i) {
            QVERIFY(!store.find(made.at(i).id));
            QVERIFY2(!storeHas(store,
                               blobOf("unique to checkpoint " + QByteArray::number(i) + '\n')),
                     qPrintable(QStringLiteral("checkpoint %1's file is still stored").arg(i)));
        }
        for (int i = 5; i < 8; ++i) {
            QCOMPARE(listed.at(i - 5).id, made.at(i).id);
            const RestoreOutcome restored = store.restore(made.at(i));
            QVERIFY2(restored.ok(),
                     qPrintable(restored.error + restored.failed.join(QLatin1Char('\n'))));
            QCOMPARE(fingerprint(m_root), trees.at(i));
        }

        // The restores recorded three undo checkpoints: a second prune cuts the chain again
        // below the newest three, which still restore.
        const CheckpointPruner::Outcome again = CheckpointPruner::prune(store,
                                                                        {QStringLiteral("s1")},
                                                                        limits);
        QVERIFY2(again.error.isEmpty(), qPrintable(again.error));
        QCOMPARE(again.droppedCheckpoints, 3);
        const QList<Checkpoint> undos = store.list(QStringLiteral("s1"));
        QCOMPARE(undos.size(), 3);
        QVERIFY(!store.find(made.at(7).id));
        // Oldest first: the states before the restores to 5, 6 and 7 (trees 7, 5 and 6).
        const RestoreOutcome back = store.restore(undos.at(1));
        QVERIFY2(back.ok(), qPrintable(back.error + back.failed.join(QLatin1Char('\n'))));
        QCOMPARE(fingerprint(m_root), trees.at(5));
    }

    // The checkpoints of a session whose file is gone go, with the content only they held;
    // the other session's stay and restore. Within the grace period (a session another
    // window is starting) nothing goes.
    void deletedSessionFreesItsCheckpoints()
    {
        CheckpointStore store(m_root, m_store);
        QVERIFY(writeFile(m_root + QStringLiteral("/kept.txt"), "kept\n"));
        Checkpoint request;
        request.sessionId = QStringLiteral("live");
        const CheckpointOutcome live = store.create(request);
        QVERIFY(live.ok());
        const QMap<QString, QString> liveTree = fingerprint(m_root);

        const QByteArray secret = "only the deleted session saw this\n";
        QVERIFY(writeFile(m_root + QStringLiteral("/scratch.txt"), secret));
        request.sessionId = QStringLiteral("deleted");
        QVERIFY(store.create(request).ok());
        QVERIFY(store.create(request).ok());
        QVERIFY(QFile::remove(m_root + QStringLiteral("/scratch.txt")));
        request.sessionId = QStringLiteral("live"); // the next snapshot: the file is gone
        QVERIFY(store.create(request).ok());
        QVERIFY(storeHas(store, blobOf(secret)));

        CheckpointPruner::Limits limits;
        limits.unreachableExpiry = QStringLiteral("now");
        const CheckpointPruner::Outcome early = CheckpointPruner::prune(store,
                                                                        {QStringLiteral("live")},
                                                                        limits);
        QVERIFY(early.droppedSessions.isEmpty());
        QCOMPARE(store.list(QStringLiteral("deleted")).size(), 2);

        limits.deletedSessionGraceSeconds = 0;
        const CheckpointPruner::Outcome outcome = CheckpointPruner::prune(store,
                                                                          {QStringLiteral("live")},
                                                                          limits);
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        QCOMPARE(outcome.droppedSessions, QStringList{QStringLiteral("deleted")});
        QVERIFY(store.list(QStringLiteral("deleted")).isEmpty());
        QVERIFY(!storeHas(store, blobOf(secret)));

        QVERIFY(writeFile(m_root + QStringLiteral("/kept.txt"), "changed\n"));
        const RestoreOutcome restored = store.restore(*live.checkpoint);
        QVERIFY2(restored.ok(), qPrintable(restored.error));
        QCOMPARE(fingerprint(m_root), liveTree);
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_root;
    QString m_store;
};

AGENTDESK_GUILESS_TEST_MAIN(TestCheckpointPruner)

} // namespace tst_checkpointpruner

#include "tst_checkpointpruner.moc"
