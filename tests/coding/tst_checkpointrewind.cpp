// CheckpointRewind::userChanges on a real checkpoint store, with the chain of checkpoints the
// recorder makes (a prompt's UserMessage, a BeforeTool at the turn after each of the agent's
// effects, a rewind's BeforeRestore): which files a rewind names as the user's (issue #31,
// item 12). The window (tst_rewindflow) and `agentdesk --rewind` (tst_headlessrewindkeep) test
// the same end to end.
#include <checkpoint/checkpointstore.h>
#include <coding/checkpointrewind.h>
#include <testmain.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace AgentCore;

namespace tst_checkpointrewind {

namespace {

const QString sessionId = QStringLiteral("s1");

class Tree
{
public:
    Tree()
        : m_root(QFileInfo(m_dir.path()).canonicalFilePath() + QStringLiteral("/work"))
    {
        QDir().mkpath(m_root);
        m_store = std::make_unique<CheckpointStore>(m_root, m_dir.path() + QStringLiteral("/store"));
    }

    bool write(const QString &path, const QByteArray &bytes) const
    {
        QFile file(m_root + u'/' + path);
        return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
    }
    QByteArray read(const QString &path) const
    {
        QFile file(m_root + u'/' + path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
    }

    /// A checkpoint of the tree now, as the recorder takes it.
    Checkpoint take(Checkpoint::Reason reason, int messageIndex)
    {
        Checkpoint request;
        request.sessionId = sessionId;
        request.reason = reason;
        request.messageIndex = messageIndex;
        const CheckpointOutcome outcome = m_store->create(request);
        return outcome.ok() ? *outcome.checkpoint : Checkpoint();
    }

    /// What userChanges names for a rewind to \a checkpoint now.
    QStringList yours(const Checkpoint &checkpoint, QString *error = nullptr)
    {
        const CheckpointDiff diff = m_store->diff(checkpoint);
        if (!diff.ok())
            return {QStringLiteral("diff failed: ") + diff.error};
        return CheckpointRewind::userChanges(*m_store, checkpoint, diff, error);
    }

    CheckpointStore &store() { return *m_store; }

private:
    QTemporaryDir m_dir;
    QString m_root;
    std::unique_ptr<CheckpointStore> m_store;
};

} // namespace

class tst_CheckpointRewind : public QObject
{
    Q_OBJECT

private slots:
    // Message 1: the agent edits a.txt. By hand: b.txt edited, c.txt created, e.txt edited.
    // Message 2: the agent edits d.txt and e.txt (after the user). A rewind to before message
    // 1 names b.txt, c.txt and e.txt (the user's part of e.txt would be lost), not a.txt or
    // d.txt; a rewind to before message 2 names none of them; a hand edit after the agent's
    // last change is named either way.
    void theUsersStepsAreNamedWhoeverChangedAFileLast()
    {
        Tree tree;
        for (const char *name : {"a.txt", "b.txt", "d.txt", "e.txt"})
            QVERIFY(tree.write(QString::fromLatin1(name), "old\n"));
        const Checkpoint first = tree.take(Checkpoint::Reason::UserMessage, 0);
        QVERIFY(!first.isNull());
        QVERIFY(tree.write(QStringLiteral("a.txt"), "agent\n"));
        QVERIFY(!tree.take(Checkpoint::Reason::BeforeTool, 2).isNull());

        QVERIFY(tree.write(QStringLiteral("b.txt"), "mine\n"));
        QVERIFY(tree.write(QStringLiteral("c.txt"), "mine\n"));
        QVERIFY(tree.write(QStringLiteral("e.txt"), "mine\n"));
        const Checkpoint second = tree.take(Checkpoint::Reason::UserMessage, 4);
        QVERIFY(!second.isNull());
        QVERIFY(tree.write(QStringLiteral("d.txt"), "agent\n"));
        QVERIFY(tree.write(QStringLiteral("e.txt"), "mine, then the agent's\n"));
        QVERIFY(!tree.take(Checkpoint::Reason::BeforeTool, 6).isNull());

        QString error;
        QCOMPARE(tree.yours(first, &error), (QStringList{"b.txt", "c.txt", "e.txt"}));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(tree.yours(second), QStringList());

        QVERIFY(tree.write(QStringLiteral("d.txt"), "mine at last\n"));
        QCOMPARE(tree.yours(first), (QStringList{"b.txt", "c.txt", "d.txt", "e.txt"}));
        QCOMPARE(tree.yours(second), (QStringList{"d.txt"}));
    }

    // What a rewind wrote back is AgentDesk's, also once a later message recorded it: after a
    // rewind to before message 1 that kept the user's b.txt, and a new message, a rewind to the
    // same point names b.txt (still the user's) and a file edited by hand since, not the files
    // the first rewind restored. The undo of that rewind names nothing.
    void aRewindsOwnWritesAreNotTheUsers()
    {
        Tree tree;
        for (const char *name : {"a.txt", "b.txt", "c.txt"})
            QVERIFY(tree.write(QString::fromLatin1(name), "old\n"));
        const Checkpoint first = tree.take(Checkpoint::Reason::UserMessage, 0);
        QVERIFY(tree.write(QStringLiteral("a.txt"), "agent\n"));
        QVERIFY(tree.write(QStringLiteral("c.txt"), "agent\n"));
        QVERIFY(!tree.take(Checkpoint::Reason::BeforeTool, 2).isNull());
        QVERIFY(tree.write(QStringLiteral("b.txt"), "mine\n"));
        QCOMPARE(tree.yours(first), QStringList{"b.txt"});

        const RestoreOutcome rewound = tree.store().restore(first, {QStringLiteral("b.txt")});
        QVERIFY2(rewound.ok(), qPrintable(rewound.error));
        QCOMPARE(tree.read(QStringLiteral("a.txt")), QByteArray("old\n"));
        QCOMPARE(tree.read(QStringLiteral("b.txt")), QByteArray("mine\n"));
        // Undoing it overwrites nothing of the user's: the rewind's writes are AgentDesk's.
        QCOMPARE(tree.yours(rewound.undo), QStringList());

        QVERIFY(tree.write(QStringLiteral("c.txt"), "mine too\n"));
        QVERIFY(!tree.take(Checkpoint::Reason::UserMessage, 4).isNull());
        QVERIFY(tree.write(QStringLiteral("a.txt"), "agent again\n"));
        QVERIFY(!tree.take(Checkpoint::Reason::BeforeTool, 6).isNull());
        QCOMPARE(tree.yours(first), (QStringList{"b.txt", "c.txt"}));
    }

    void changedPathsComparesTwoCheckpoints()
    {
        Tree tree;
        QVERIFY(tree.write(QStringLiteral("a.txt"), "old\n"));
        QVERIFY(tree.write(QStringLiteral("b.txt"), "old\n"));
        const Checkpoint first = tree.take(Checkpoint::Reason::UserMessage, 0);
        QVERIFY(tree.write(QStringLiteral("b.txt"), "new\n"));
        QVERIFY(tree.write(QStringLiteral("c.txt"), "new\n"));
        QVERIFY(QFile::remove(QDir(tree.store().workTree()).filePath(QStringLiteral("a.txt"))));
        const Checkpoint second = tree.take(Checkpoint::Reason::BeforeTool, 2);
        QString error;
        QCOMPARE(tree.store().changedPaths(first, second, &error),
                 (QStringList{"a.txt", "b.txt", "c.txt"}));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(tree.store().changedPaths(second, second, &error), QStringList());

        Checkpoint unknown = first;
        unknown.id = QString(40, u'0');
        QVERIFY(tree.store().changedPaths(first, unknown, &error).isEmpty());
        QVERIFY(!error.isEmpty());
    }

    // A session with branches: the user went back to message 1 and wrote another one there, and
    // the agent worked on both branches, so each has checkpoints at the same indices. "Restore
    // the files" on a branch takes that branch's own, never the other's: it holds another
    // history of the files (kept in the store, read back by list()).
    void aBranchRewindsToItsOwnCheckpoints()
    {
        Tree tree;
        QVERIFY(tree.write(QStringLiteral("a.txt"), "start\n"));
        const auto take = [&tree](int messageIndex, qint64 afterMessageTime) {
            Checkpoint request;
            request.sessionId = sessionId;
            request.reason = Checkpoint::Reason::BeforeTool;
            request.messageIndex = messageIndex;
            request.afterMessageTime = afterMessageTime;
            const CheckpointOutcome outcome = tree.store().create(request);
            return outcome.ok() ? *outcome.checkpoint : Checkpoint();
        };
        // Branch A: messages at 100, 200, 300, 400; branch B shares the first and goes on
        // with 250, 350, 450.
        const QList<qint64> branchA{100, 200, 300, 400};
        const QList<qint64> branchB{100, 250, 350, 450};
        const Checkpoint shared = take(1, 100);
        QVERIFY(tree.write(QStringLiteral("a.txt"), "branch A\n"));
        const Checkpoint onA = take(2, 200);
        QVERIFY(tree.write(QStringLiteral("a.txt"), "branch B\n"));
        const Checkpoint onB = take(2, 250);
        QVERIFY(!shared.isNull() && !onA.isNull() && !onB.isNull());

        const QList<Checkpoint> all = tree.store().list(sessionId);
        QCOMPARE(all.size(), 3);
        QCOMPARE(all.at(1).afterMessageTime, 200);
        QCOMPARE(CheckpointRewind::before(all, 3, branchA)->id, onA.id);
        QCOMPARE(CheckpointRewind::before(all, 3, branchB)->id, onB.id);
        QCOMPARE(CheckpointRewind::before(all, 1, branchB)->id, shared.id);
        // A branch that left A before message 1 has only the first state in common.
        QCOMPARE(CheckpointRewind::before(all, 3, QList<qint64>{100, 260, 360})->id, shared.id);
        QVERIFY(!CheckpointRewind::before(all, 3, QList<qint64>{90, 260, 360}));
        // A checkpoint of an older version (no time) is on every branch, as before.
        Checkpoint old = onA;
        old.afterMessageTime = 0;
        QCOMPARE(CheckpointRewind::before({shared, old}, 3, branchB)->id, onA.id);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_CheckpointRewind)

} // namespace tst_checkpointrewind

#include "tst_checkpointrewind.moc"
