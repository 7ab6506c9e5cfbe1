#include "checkpointtesttree.h"

#include <checkpoint/checkpointrecorder.h>
#include <checkpoint/checkpointstore.h>
#include <testmain.h>

#include <QMutex>
#include <QTemporaryDir>
#include <QTest>

using namespace AgentCore;
using namespace CheckpointTest;

namespace tst_checkpointrecorder {

namespace {

// What the recorder told, from whichever thread.
struct Told
{
    QMutex mutex;
    QList<Checkpoint> recorded;
    QStringList failed;

    CheckpointRecorder::Events events()
    {
        CheckpointRecorder::Events events;
        events.recorded = [this](const Checkpoint &checkpoint) {
            QMutexLocker locker(&mutex);
            recorded.append(checkpoint);
        };
        events.failed = [this](const QString &message) {
            QMutexLocker locker(&mutex);
            failed.append(message);
        };
        return events;
    }
};

} // namespace

class TestCheckpointRecorder : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_root;

    std::shared_ptr<CheckpointStore> store(const QString &storeRoot = {})
    {
        return std::make_shared<CheckpointStore>(m_root,
                                                 storeRoot.isEmpty()
                                                     ? m_dir->path() + QStringLiteral("/store")
                                                     : storeRoot);
    }

private slots:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        m_root = m_dir->path() + QStringLiteral("/work");
        QVERIFY(writeFile(m_root + QStringLiteral("/a.txt"), "one\n"));
    }

    // A user message starts a snapshot; the turn's first effect waits for it, and it holds
    // the tree as it was before the effect.
    void userMessageCheckpointCoversTheFirstEffect()
    {
        Told told;
        CheckpointRecorder recorder(store(), told.events());
        recorder.setSessionId(QStringLiteral("session-1"));
        recorder.turnStarted(1, true, 100);
        recorder.beforeEffect(QStringLiteral("Edit"));
        QCOMPARE(told.recorded.size(), 1);
        // Index 0 (before the prompt): every branch starts there.
        QCOMPARE(told.recorded.first().afterMessageTime, 0);
        QVERIFY(writeFile(m_root + QStringLiteral("/a.txt"), "edited\n"));
        recorder.afterEffect();

        const Checkpoint checkpoint = told.recorded.first();
        QCOMPARE(checkpoint.reason, Checkpoint::Reason::UserMessage);
        QCOMPARE(checkpoint.messageIndex, 0);
        QCOMPARE(checkpoint.sessionId, QStringLiteral("session-1"));
        QCOMPARE(recorder.checkpoints().size(), 1);
        QVERIFY(recorder.store()->restore(checkpoint).ok());
        QCOMPARE(readFile(m_root + QStringLiteral("/a.txt")), QByteArray("one\n"));
    }

    // Turns that changed nothing take no snapshot; a turn after an effect does, and a second
    // effect in the same turn does not.
    void snapshotsOnlyWhenSomethingMayHaveChanged()
    {
        Told told;
        CheckpointRecorder recorder(store(), told.events());
        recorder.turnStarted(1, true);
        recorder.waitForIdle();
        recorder.turnStarted(3, false); // after a Read: nothing changed
        recorder.waitForIdle();
        QCOMPARE(told.recorded.size(), 1);

        recorder.beforeEffect(QStringLiteral("Write"));
        recorder.afterEffect();
        recorder.beforeEffect(QStringLiteral("Edit")); // same turn
        recorder.afterEffect();
        QCOMPARE(told.recorded.size(), 1);

        recorder.turnStarted(7, false, 700, 600);
        recorder.beforeEffect(QStringLiteral("Bash"));
        QCOMPARE(told.recorded.size(), 2);
        QCOMPARE(told.recorded.last().reason, Checkpoint::Reason::BeforeTool);
        QCOMPARE(told.recorded.last().messageIndex, 7);
        // Tied to the message before it on its branch (the last one: the assistant's call).
        QCOMPARE(told.recorded.last().afterMessageTime, 700);
    }

    // Without a turn start (an effect hook alone) the effect records its own checkpoint, named
    // after the tool.
    void effectWithoutTurnStartRecordsNow()
    {
        Told told;
        CheckpointRecorder recorder(store(), told.events());
        recorder.beforeEffect(QStringLiteral("Bash"));
        QCOMPARE(told.recorded.size(), 1);
        QCOMPARE(told.recorded.first().toolName, QStringLiteral("Bash"));
        QCOMPARE(told.recorded.first().reasonText(), QStringLiteral("before Bash"));
    }

    // A checkpoint that cannot be written is reported, and the effect is not held up.
    void failureIsReportedAndTheEffectGoesOn()
    {
        QVERIFY(writeFile(m_dir->path() + QStringLiteral("/blocker"), "a file, not a folder\n"));
        Told told;
        CheckpointRecorder recorder(store(m_dir->path() + QStringLiteral("/blocker/store")),
                                    told.events());
        recorder.turnStarted(1, true);
        recorder.beforeEffect(QStringLiteral("Edit"));
        QCOMPARE(told.recorded.size(), 0);
        QCOMPARE(told.failed.size(), 1);
        QVERIFY2(told.failed.first().contains(QLatin1String("No checkpoint could be recorded")),
                 qPrintable(told.failed.first()));
    }

    void abortStopsTheWait()
    {
        Told told;
        CheckpointRecorder recorder(store(), told.events());
        recorder.turnStarted(1, true);
        recorder.beforeEffect(QStringLiteral("Edit"), [] { return true; });
        recorder.waitForIdle();
        QCOMPARE(told.recorded.size(), 1);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(TestCheckpointRecorder)

} // namespace tst_checkpointrecorder

#include "tst_checkpointrecorder.moc"
