// "Rewind to here" in the window, end to end with a scripted model session that edits a file
// and writes another with Bash: the dialog's choice and diff, the files back to their exact old
// bytes (a file kept as it is when asked), the model's next request without the rewound
// messages, the rewound messages hidden behind the rewind (and the same after resuming), the
// rewind refused while a task runs, and "Undo rewind".
//
// The files side goes through Ui::RewindFiles; here a small snapshot store of the test stands
// in for the checkpoint store (agentcore/checkpoint) so the window's flow is tested on its own.
#include "../tools/toolstest.h"

#include <agentsession/agentsession.h>
#include <checkpoint/checkpointrecorder.h>
#include <checkpoint/checkpointstore.h>
#include <coding/checkpointrewind.h>
#include <composer/composer.h>
#include <context/contextview.h>
#include <conversation/conversationitem.h>
#include <conversation/conversationview.h>
#include <conversation/rewinditem.h>
#include <futureresult.h>
#include <page/conversationpage.h>
#include <review/filediffview.h>
#include <rewind/rewindcontroller.h>
#include <rewind/rewinddialog.h>
#include <scriptedmodel.h>
#include <session/sessionlog.h>
#include <settings/appsettings.h>
#include <testmain.h>
#include <window/mainwindow.h>

#include <QAction>
#include <QApplication>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPointer>
#include <QPushButton>
#include <QRadioButton>
#include <QSemaphore>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>

using namespace AgentCore;
namespace tst_rewindflow {

using TestSupport::ModelStep;
using TestSupport::ScriptedModel;
using Ui::AgentSession;

namespace {

constexpr int runTimeoutMs = 15'000;
const QStringList trackedFiles{QStringLiteral("a.txt"), QStringLiteral("b.txt")};

/// The repository's two files as they were at points of the conversation: what the checkpoint
/// store does, reduced to what the window's flow needs.
class SnapshotFiles final : public Ui::RewindFiles
{
public:
    explicit SnapshotFiles(const ToolsTest::Repo &repo)
        : m_repo(repo)
    {}

    /// Records the files as they are now as the state before raw message \a messageIndex.
    void take(qsizetype messageIndex) { m_points.append({messageIndex, snapshot()}); }
    int restores() const { return m_restores; }

    Ui::RewindFilesPreview preview(qsizetype messageIndex) override
    {
        Ui::RewindFilesPreview preview;
        qsizetype found = -1;
        for (qsizetype i = 0; i < m_points.size(); ++i) {
            if (m_points.at(i).first <= messageIndex)
                found = i;
        }
        if (found < 0) {
            preview.unavailable = QStringLiteral("No checkpoint was recorded there.");
            return preview;
        }
        preview.checkpoint = QString::number(found);
        const Files then = m_points.at(found).second;
        const Files now = snapshot();
        for (const QString &path : trackedFiles) {
            if (then.value(path) == now.value(path))
                continue;
            Ui::RewindFile file;
            file.path = path;
            file.current = now.value(path).value_or(QByteArray());
            file.restored = then.value(path).value_or(QByteArray());
            file.kind = !then.value(path)  ? Ui::RewindFile::Kind::Added
                        : !now.value(path) ? Ui::RewindFile::Kind::Deleted
                                           : Ui::RewindFile::Kind::Modified;
            preview.files.append(file);
        }
        return preview;
    }

    Ui::RewindFilesOutcome restore(const QString &checkpoint, const QSet<QString> &keep) override
    {
        ++m_restores;
        Ui::RewindFilesOutcome outcome;
        const Files then = m_points.value(checkpoint.toInt()).second;
        m_points.append({-1, snapshot()}); // the undo state, recorded first
        outcome.undoCheckpoint = QString::number(m_points.size() - 1);
        for (const QString &path : trackedFiles) {
            if (keep.contains(path)) {
                outcome.kept.append(path);
                continue;
            }
            if (then.value(path))
                m_repo.write(path, *then.value(path));
            else
                QFile::remove(m_repo.path(path));
            outcome.restored.append(path);
        }
        return outcome;
    }

private:
    using Files = QHash<QString, std::optional<QByteArray>>;
    Files snapshot() const
    {
        Files files;
        for (const QString &path : trackedFiles) {
            const QByteArray bytes = m_repo.read(path);
            files.insert(path, bytes == "<missing>" ? std::nullopt : std::optional(bytes));
        }
        return files;
    }

    const ToolsTest::Repo &m_repo;
    QList<std::pair<qsizetype, Files>> m_points;
    int m_restores = 0;
};

/// A files side whose preview lasts until the test lets it go, as the diff of a huge change
/// does. A preview made on the window's thread would hold the test for ten seconds and then be
/// shown at once: the test sees no "computing" state and fails.
class SlowFiles final : public Ui::RewindFiles
{
public:
    void release() { m_go.release(); }
    /// Waits until a preview has started on the worker.
    bool waitStarted() { return m_started.tryAcquire(1, runTimeoutMs); }
    int restores() const { return m_restores; }

    Ui::RewindFilesPreview preview(qsizetype) override
    {
        m_started.release();
        m_go.tryAcquire(1, 10'000);
        Ui::RewindFilesPreview preview;
        preview.checkpoint = QStringLiteral("slow");
        Ui::RewindFile file;
        file.path = QStringLiteral("huge.txt");
        file.current = "now\n";
        file.restored = "then\n";
        preview.files = {file};
        return preview;
    }
    /// restore() waits for releaseRestore() from now on.
    void holdRestore() { m_holdRestore = true; }
    void releaseRestore() { m_restoreGo.release(); }
    /// The thread the last restore() ran on.
    QThread *restoreThread() const { return m_restoreThread.loadAcquire(); }

    Ui::RewindFilesOutcome restore(const QString &, const QSet<QString> &) override
    {
        m_restoreThread.storeRelease(QThread::currentThread());
        if (m_holdRestore)
            m_restoreGo.tryAcquire(1, 10'000);
        ++m_restores;
        Ui::RewindFilesOutcome outcome;
        outcome.undoCheckpoint = QStringLiteral("undo");
        outcome.restored = {QStringLiteral("huge.txt")};
        return outcome;
    }

private:
    QSemaphore m_go;
    QSemaphore m_started;
    QSemaphore m_restoreGo;
    std::atomic<bool> m_holdRestore = false;
    QAtomicPointer<QThread> m_restoreThread;
    std::atomic<int> m_restores = 0;
};

QStringList requestTexts(const Context &context)
{
    QStringList texts;
    for (const Message &message : context.messages)
        texts.append(message.text());
    return texts;
}

} // namespace

class tst_RewindFlow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_rewindflow"));
        Ui::AppSettings settings;
        settings.autoCompact = false; // a summary would take the scripted model's replies
        QSettings stored;
        settings.save(stored);
    }
    void cleanup()
    {
        if (m_window) // a preview still being worked out reads the test's repository
            controller()->preview().waitForFinished();
        m_window.reset();
        m_storeRoot.reset();
        m_files.reset();
        m_repo.reset();
    }

    void rewindBothRestoresTheFilesAndTheModelForgets()
    {
        openWindow();
        runTwoTasks();
        QCOMPARE(m_repo->read("a.txt"), QByteArray("two\n"));
        QCOMPARE(m_repo->read("b.txt"), QByteArray("made\n"));

        // Rewind to right before the first message: the dialog shows both files' changes.
        Ui::RewindDialog *dialog = openDialog(0);
        QVERIFY(dialog);
        QVERIFY(dialog->findChild<QLabel *>("rewindTarget")->text().contains("edit a.txt"));
        QCOMPARE(dialog->fileList()->count(), 2);
        QVERIFY2(dialog->diffView()->diffText().contains("+ one"),
                 qPrintable(dialog->diffView()->diffText()));
        QCOMPARE(m_repo->read("a.txt"), QByteArray("two\n")); // nothing changes before Rewind
        dialog->rewindButton()->click();
        waitForRewind();

        QCOMPARE(m_repo->read("a.txt"), QByteArray("one\n"));
        QCOMPARE(m_repo->read("b.txt"), QByteArray("<missing>"));
        // The rewound messages hide behind the rewind; the message comes back to the composer.
        view()->flush();
        const Ui::RewindItem *rewind = rewindItem();
        QVERIFY(rewind);
        QCOMPARE(rewind->rewind().scope, Rewind::Scope::Both);
        QCOMPARE(rewind->rewoundCount(), shownBefore());
        QVERIFY(rewind->undoable());
        QCOMPARE(shownKinds(),
                 QList<Ui::ConversationItem::Kind>{Ui::ConversationItem::Kind::Rewind});
        QCOMPARE(page()->composer()->toPlainText(), QStringLiteral("edit a.txt"));

        // The next request starts afresh; the session keeps every original.
        page()->composer()->clear();
        send(QStringLiteral("third task"));
        const QStringList request = requestTexts(m_model->contexts().last());
        QCOMPARE(request, QStringList{QStringLiteral("third task")});
        QCOMPARE(session()->conversation().at(8).text(), QStringLiteral("second task"));
    }

    void keepAFileAsItIs()
    {
        openWindow();
        runTwoTasks();
        Ui::RewindDialog *dialog = openDialog(0);
        QVERIFY(dialog);
        const QList<QListWidgetItem *> items = dialog->fileList()->findItems("b.txt",
                                                                             Qt::MatchStartsWith);
        QCOMPARE(items.size(), 1);
        dialog->fileList()->setCurrentItem(items.first());
        dialog->fileList()->setFocus();
        QTest::keyClick(dialog->fileList(), Qt::Key_Space);
        QCOMPARE(dialog->keptFiles(), QSet<QString>{"b.txt"});
        QTest::keyClick(dialog->fileList(), Qt::Key_Return);
        waitForRewind();

        QCOMPARE(m_repo->read("a.txt"), QByteArray("one\n"));
        QCOMPARE(m_repo->read("b.txt"), QByteArray("made\n")); // kept
        QCOMPARE(rewindItem()->rewind().keptFiles, QStringList{"b.txt"});
        QVERIFY(rewindItem()->byline().contains("1 kept"));
    }

    void conversationOnlyLeavesTheFiles()
    {
        openWindow();
        runTwoTasks();
        Ui::RewindDialog *dialog = openDialog(8); // before "second task"
        QVERIFY(dialog);
        dialog->conversationButton()->click();
        dialog->rewindButton()->click();
        waitForRewind();
        QCOMPARE(m_repo->read("a.txt"), QByteArray("two\n"));
        QCOMPARE(m_files->restores(), 0);
        page()->composer()->clear();
        send(QStringLiteral("third task"));
        const QStringList request = requestTexts(m_model->contexts().last());
        QVERIFY(request.contains("edit a.txt"));
        QVERIFY(request.contains("done"));
        QVERIFY(!request.contains("second task"));
        QVERIFY(!request.contains("ok"));
    }

    void undoRewindBringsBothBack()
    {
        openWindow();
        runTwoTasks();
        QVERIFY(openDialog(0));
        controller()->dialog()->rewindButton()->click();
        waitForRewind();
        QCOMPARE(m_repo->read("a.txt"), QByteArray("one\n"));
        const qsizetype marker = rewindItem()->sourceIndex();

        // "Undo rewind" on the rewind: the files and the conversation as they were before it.
        QVERIFY(controller()->undoRewind(marker));
        waitForRewind();
        QCOMPARE(m_repo->read("a.txt"), QByteArray("two\n"));
        QCOMPARE(m_repo->read("b.txt"), QByteArray("made\n"));
        view()->flush();
        QVERIFY(!rewindItem(0)->undoable()); // rewound itself by the undo
        QVERIFY(shownKinds().contains(Ui::ConversationItem::Kind::User));
        page()->composer()->clear();
        send(QStringLiteral("third task"));
        const QStringList request = requestTexts(m_model->contexts().last());
        QVERIFY(request.contains("edit a.txt"));
        QVERIFY(request.contains("second task"));
        QCOMPARE(request.last(), QStringLiteral("third task"));
    }

    void checkpointStoreRestoresTheExactBytes()
    {
        // The real store: a shadow git repository of the working tree (agentcore/checkpoint).
        m_storeRoot = std::make_unique<QTemporaryDir>();
        openWindow();
        controller()->setFiles(nullptr); // the session's checkpoints
        QVERIFY(session()->checkpoints());
        runTwoTasks();
        Ui::RewindDialog *dialog = openDialog(0);
        QVERIFY(dialog);
        QVERIFY2(dialog->files().unavailable.isEmpty(), qPrintable(dialog->files().unavailable));
        QCOMPARE(dialog->fileList()->count(), 2);
        dialog->rewindButton()->click();
        waitForRewind();
        QCOMPARE(m_repo->read("a.txt"), QByteArray("one\n"));
        QCOMPARE(m_repo->read("b.txt"), QByteArray("<missing>"));
        QVERIFY(!rewindItem()->rewind().undoCheckpoint.isEmpty());

        QVERIFY(controller()->undoRewind(rewindItem()->sourceIndex()));
        waitForRewind();
        QCOMPARE(m_repo->read("a.txt"), QByteArray("two\n"));
        QCOMPARE(m_repo->read("b.txt"), QByteArray("made\n"));
    }

    // Issue #31, item 12: after the agent's work the user edits a.txt by hand and creates
    // new.txt. Rewinding to before the agent's edit (real checkpoint store) names both as the
    // user's and keeps them unless the user unchecks them (overwrite); the agent's b.txt is
    // rewound as before.
    void usersLaterChangesAreKeptUnlessOverwritten_data()
    {
        QTest::addColumn<bool>("overwrite");
        QTest::newRow("keep") << false;
        QTest::newRow("overwrite") << true;
    }

    void usersLaterChangesAreKeptUnlessOverwritten()
    {
        QFETCH(bool, overwrite);
        m_storeRoot = std::make_unique<QTemporaryDir>();
        openWindow();
        controller()->setFiles(nullptr); // the session's checkpoints
        runTwoTasks();
        QVERIFY(m_repo->write("a.txt", "mine\n"));
        QVERIFY(m_repo->write("new.txt", "new\n"));

        Ui::RewindDialog *dialog = openDialog(0);
        QVERIFY(dialog);
        QVERIFY2(dialog->files().unavailable.isEmpty(), qPrintable(dialog->files().unavailable));
        QStringList lines;
        for (int i = 0; i < dialog->fileList()->count(); ++i)
            lines.append(dialog->fileList()->item(i)->text());
        QCOMPARE(lines,
                 (QStringList{QStringLiteral("a.txt — yours, kept"),
                              QStringLiteral("b.txt — deleted (created since)"),
                              QStringLiteral("new.txt — yours, kept")}));
        QCOMPARE(dialog->keptFiles(), (QSet<QString>{"a.txt", "new.txt"}));
        const QString note = dialog->findChild<QLabel *>("rewindFilesNote")->text();
        QVERIFY2(note.contains("You changed a.txt, new.txt yourself since"), qPrintable(note));
        if (!overwrite) {
            // Looked at by a person: /tmp/rewind-yours.png at the size the brief asks.
            dialog->resize(1000, 700);
            QApplication::processEvents();
            QVERIFY(dialog->grab().save(QStringLiteral("/tmp/rewind-yours.png")));
        }
        if (overwrite) {
            // Space on each of the user's files: overwritten, and the summary says so.
            dialog->fileList()->setFocus();
            for (const char *path : {"a.txt", "new.txt"}) {
                dialog->fileList()->setCurrentItem(
                    dialog->fileList()->findItems(path, Qt::MatchStartsWith).constFirst());
                QTest::keyClick(dialog->fileList(), Qt::Key_Space);
            }
            QVERIFY(dialog->keptFiles().isEmpty());
            QVERIFY(dialog->fileList()->item(0)->text().startsWith("a.txt — yours, overwritten"));
            QVERIFY2(dialog->summaryText().contains("2 of your own later changes"),
                     qPrintable(dialog->summaryText()));
        }
        dialog->rewindButton()->click();
        waitForRewind();

        QCOMPARE(m_repo->read("b.txt"), QByteArray("<missing>"));
        QCOMPARE(m_repo->read("a.txt"), overwrite ? QByteArray("one\n") : QByteArray("mine\n"));
        QCOMPARE(m_repo->read("new.txt"), overwrite ? QByteArray("<missing>") : QByteArray("new\n"));
        // Undo brings the user's work back either way.
        QVERIFY(controller()->undoRewind(rewindItem()->sourceIndex()));
        waitForRewind();
        QCOMPARE(m_repo->read("a.txt"), QByteArray("mine\n"));
        QCOMPARE(m_repo->read("new.txt"), QByteArray("new\n"));
    }

    // Issue #31, item 12: a hand edit made before the user's next message is recorded in that
    // message's checkpoint, and stays the user's. The agent edits a.txt (message 1); the user
    // edits b.txt and creates c.txt; the agent writes d.txt (message 2). Rewinding to before
    // message 1 (real checkpoint store) lists b.txt and c.txt as the user's, kept unless
    // unchecked; a.txt and d.txt are rewound. Undo brings everything back.
    void usersEditsBetweenMessagesAreKeptUnlessOverwritten_data()
    {
        QTest::addColumn<bool>("overwrite");
        QTest::newRow("keep") << false;
        QTest::newRow("overwrite") << true;
    }

    void usersEditsBetweenMessagesAreKeptUnlessOverwritten()
    {
        QFETCH(bool, overwrite);
        m_storeRoot = std::make_unique<QTemporaryDir>();
        openWindow();
        controller()->setFiles(nullptr); // the session's checkpoints
        QVERIFY(m_repo->write("b.txt", "b\n"));
        QVERIFY(m_repo->write("d.txt", "d\n"));
        m_model->enqueue(ModelStep::toolCall("r1", "Read", {{"file_path", "a.txt"}}));
        m_model->enqueue(ModelStep::toolCall("e1",
                                             "Edit",
                                             {{"file_path", "a.txt"},
                                              {"old_string", "one"},
                                              {"new_string", "two"}}));
        m_model->enqueue(ModelStep::text("done"));
        send(QStringLiteral("edit a.txt"));
        QCOMPARE(m_repo->read("a.txt"), QByteArray("two\n"));

        // By hand, between the two messages.
        QVERIFY(m_repo->write("b.txt", "my b\n"));
        QVERIFY(m_repo->write("c.txt", "my c\n"));

        m_model->enqueue(
            ModelStep::toolCall("b1", "Bash", {{"command", "printf 'agent d\\n' > d.txt"}}));
        m_model->enqueue(ModelStep::text("ok"));
        send(QStringLiteral("write d.txt"));
        QCOMPARE(m_repo->read("d.txt"), QByteArray("agent d\n"));

        Ui::RewindDialog *dialog = openDialog(0);
        QVERIFY(dialog);
        QVERIFY2(dialog->files().unavailable.isEmpty(), qPrintable(dialog->files().unavailable));
        QStringList lines;
        for (int i = 0; i < dialog->fileList()->count(); ++i)
            lines.append(dialog->fileList()->item(i)->text());
        QCOMPARE(lines,
                 (QStringList{QStringLiteral("a.txt — restored"),
                              QStringLiteral("b.txt — yours, kept"),
                              QStringLiteral("c.txt — yours, kept"),
                              QStringLiteral("d.txt — restored")}));
        QCOMPARE(dialog->keptFiles(), (QSet<QString>{"b.txt", "c.txt"}));
        const QString note = dialog->findChild<QLabel *>("rewindFilesNote")->text();
        QVERIFY2(note.contains("You changed b.txt, c.txt yourself since"), qPrintable(note));
        if (overwrite) {
            dialog->fileList()->setFocus();
            for (const char *path : {"b.txt", "c.txt"}) {
                dialog->fileList()->setCurrentItem(
                    dialog->fileList()->findItems(path, Qt::MatchStartsWith).constFirst());
                QTest::keyClick(dialog->fileList(), Qt::Key_Space);
            }
            QVERIFY(dialog->keptFiles().isEmpty());
            QVERIFY2(dialog->summaryText().contains("2 of your own later changes"),
                     qPrintable(dialog->summaryText()));
        }
        dialog->rewindButton()->click();
        waitForRewind();

        // The agent's changes are rewound either way.
        QCOMPARE(m_repo->read("a.txt"), QByteArray("one\n"));
        QCOMPARE(m_repo->read("d.txt"), QByteArray("d\n"));
        QCOMPARE(m_repo->read("b.txt"), overwrite ? QByteArray("b\n") : QByteArray("my b\n"));
        QCOMPARE(m_repo->read("c.txt"), overwrite ? QByteArray("<missing>") : QByteArray("my c\n"));
        QCOMPARE(rewindItem()->rewind().keptFiles,
                 overwrite ? QStringList() : (QStringList{"b.txt", "c.txt"}));
        // Undo brings everything back either way.
        QVERIFY(controller()->undoRewind(rewindItem()->sourceIndex()));
        waitForRewind();
        QCOMPARE(m_repo->read("a.txt"), QByteArray("two\n"));
        QCOMPARE(m_repo->read("b.txt"), QByteArray("my b\n"));
        QCOMPARE(m_repo->read("c.txt"), QByteArray("my c\n"));
        QCOMPARE(m_repo->read("d.txt"), QByteArray("agent d\n"));
    }

    void diffIsWorkedOutOffTheWindowThread()
    {
        openWindow();
        runTwoTasks();
        auto slow = std::make_shared<SlowFiles>();
        controller()->setFiles(slow);
        // The dialog opens at once and says it is working out the change.
        QVERIFY(controller()->requestRewind(0));
        Ui::RewindDialog *dialog = controller()->dialog();
        QVERIFY(dialog);
        QVERIFY(slow->waitStarted());
        QTRY_VERIFY(dialog->isVisible());
        QVERIFY(dialog->isComputing());
        QVERIFY(dialog->findChild<QWidget *>("rewindComputing")->isVisible());
        QVERIFY(!dialog->rewindButton()->isEnabled());
        // The window goes on meanwhile: the composer takes typing.
        page()->composer()->setPlainText(QStringLiteral("typed while computing"));
        QCOMPARE(page()->composer()->toPlainText(), QStringLiteral("typed while computing"));
        page()->composer()->clear();

        slow->release();
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isComputing(), runTimeoutMs);
        QCOMPARE(dialog->fileList()->count(), 1);
        QVERIFY(dialog->fileList()->item(0)->text().startsWith("huge.txt"));
        QVERIFY(dialog->rewindButton()->isEnabled());
        dialog->rewindButton()->click();
        waitForRewind();
        QCOMPARE(slow->restores(), 1);
        QCOMPARE(rewindItem()->rewind().restoredFiles, QStringList{"huge.txt"});
    }

    // The files are restored on a worker thread; a task sent meanwhile waits for the rewind
    // and goes on the rewound conversation, and the page says what is going on.
    void sendingWhileTheFilesAreRestoredWaitsForTheRewind()
    {
        openWindow();
        runTwoTasks();
        auto slow = std::make_shared<SlowFiles>();
        controller()->setFiles(slow);
        slow->release();
        slow->holdRestore();
        Ui::RewindDialog *dialog = openDialog(0);
        QVERIFY(dialog);
        dialog->rewindButton()->click();
        QVERIFY(session()->codingSession()->isRewinding());
        QVERIFY(page()->findChild<QLabel *>("rewindNotice")->isVisible());
        QVERIFY(!session()->rewindRefusal().isEmpty()); // no second rewind meanwhile
        const int calls = m_model->callCount();
        page()->composer()->clear();
        send(QStringLiteral("third task"), false);
        QTest::qWait(200);
        QCOMPARE(m_model->callCount(), calls);

        slow->releaseRestore();
        waitForRewind();
        QVERIFY(slow->restoreThread() != qApp->thread());
        QCOMPARE(slow->restores(), 1);
        QCOMPARE(rewindItem()->rewind().restoredFiles, QStringList{"huge.txt"});
        QTRY_VERIFY_WITH_TIMEOUT(m_model->callCount() > calls, runTimeoutMs);
        QCOMPARE(requestTexts(m_model->contexts().last()), QStringList{"third task"});
        QVERIFY(!page()->findChild<QLabel *>("rewindNotice")->isVisible());
    }

    void closingTheDialogWhileComputingIsSafe()
    {
        openWindow();
        runTwoTasks();
        auto slow = std::make_shared<SlowFiles>();
        controller()->setFiles(slow);
        QVERIFY(controller()->requestRewind(0));
        QPointer<Ui::RewindDialog> dialog = controller()->dialog();
        QVERIFY(slow->waitStarted());
        QTRY_VERIFY(dialog->isVisible());
        QVERIFY(dialog->isComputing());
        // The keys go to the dialog once it is the active window (it has the focus then).
        QTRY_COMPARE(QApplication::activeWindow(), static_cast<QWidget *>(dialog.data()));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
        QTRY_VERIFY(!dialog); // closed and gone while the worker still diffs
        QVERIFY(!controller()->dialog());

        // The diff finishes with nowhere to go: dropped, nothing restored.
        slow->release();
        QTRY_VERIFY_WITH_TIMEOUT(controller()->preview().isFinished(), runTimeoutMs);
        QTest::qWait(50); // the finished() delivery, had anything stayed connected
        QVERIFY(!controller()->dialog());
        QCOMPARE(slow->restores(), 0);
        QVERIFY(!rewindItem());

        // A new rewind opens afresh, also when one is replaced while computing.
        QVERIFY(controller()->requestRewind(0));
        QVERIFY(slow->waitStarted());
        QVERIFY(controller()->requestRewind(8));
        slow->release();
        slow->release();
        QVERIFY(slow->waitStarted());
        QTRY_VERIFY_WITH_TIMEOUT(!controller()->dialog()->isComputing(), runTimeoutMs);
        QVERIFY(controller()
                    ->dialog()
                    ->findChild<QLabel *>("rewindTarget")
                    ->text()
                    .contains("second task"));
        QCOMPARE(controller()->dialog()->fileList()->count(), 1);
    }

    void commandLineRewindShowsInTheWindow()
    {
        // agentdesk --rewind records its rewind through AgentCore::CheckpointRewind (see
        // tests/app/tst_headlessrewindkeep.cpp); the window opening the session shows it, and
        // "Undo rewind" brings the files back through the real store.
        m_storeRoot = std::make_unique<QTemporaryDir>();
        openWindow();
        controller()->setFiles(nullptr);
        runTwoTasks();
        const std::optional<Checkpoint> first
            = CheckpointRewind::before(session()->checkpoints()->checkpoints(), 0, {});
        QVERIFY(first);
        const QString path = session()->sessionPath();
        m_window.reset();
        {
            CheckpointStore store(QFileInfo(m_repo->root()).canonicalFilePath(),
                                  m_storeRoot->path());
            QString error;
            const std::unique_ptr<SessionLog> log = SessionLog::open(path, {}, &error);
            QVERIFY2(log, qPrintable(error));
            const std::optional<SessionLog::Contents> contents = SessionLog::load(path, &error);
            QVERIFY2(contents, qPrintable(error));
            Rewind rewind;
            rewind.scope = Rewind::Scope::Files;
            rewind.toIndex = first->messageIndex;
            const RestoreOutcome outcome = CheckpointRewind::restore(store,
                                                                     *first,
                                                                     {QStringLiteral("b.txt")},
                                                                     &rewind);
            QVERIFY2(outcome.ok(), qPrintable(outcome.error));
            QVERIFY(CheckpointRewind::record(*log, contents->state, rewind, outcome.undo, &error));
        }
        QCOMPARE(m_repo->read("a.txt"), QByteArray("one\n"));
        QCOMPARE(m_repo->read("b.txt"), QByteArray("made\n")); // kept

        makeWindow({});
        controller()->setFiles(nullptr);
        QVERIFY(TestSupport::futureResult(m_window->resumeSession(path)));
        QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
        view()->flush();
        QVERIFY(rewindItem());
        QCOMPARE(rewindItem()->rewind().scope, Rewind::Scope::Files);
        QCOMPARE(rewindItem()->rewind().keptFiles, QStringList{"b.txt"});
        QVERIFY(rewindItem()->undoable());
        QVERIFY(controller()->undoRewind(rewindItem()->sourceIndex()));
        waitForRewind();
        QCOMPARE(m_repo->read("a.txt"), QByteArray("two\n"));
        QCOMPARE(m_repo->read("b.txt"), QByteArray("made\n"));
    }

    void refusedWhileATaskRuns()
    {
        openWindow({ModelStep::waitForAbort()});
        send(QStringLiteral("first"), false);
        QTRY_COMPARE(session()->state(), AgentSession::State::Running);
        QTRY_VERIFY(view()->itemCount() > 0); // the message's events come in batches
        QVERIFY(!controller()->requestRewind(0));
        QVERIFY(!controller()->dialog());
        QVERIFY(page()->rewindNotice()->isVisible());
        QVERIFY2(page()->rewindNotice()->text().contains("working"),
                 qPrintable(page()->rewindNotice()->text()));
        // The message's menu offers it disabled, with the reason.
        std::unique_ptr<QMenu> menu(view()->createItemMenu(0));
        QCOMPARE(view()->itemAt(0)->kind(), Ui::ConversationItem::Kind::User);
        QAction *action = menu->findChild<QAction *>("rewindToHereAction");
        QVERIFY2(action, qPrintable(QString::number(view()->itemAt(0)->sourceIndex())));
        QVERIFY(!action->isEnabled());
        QVERIFY(action->toolTip().contains("working"));
        session()->stop();
        QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
        std::unique_ptr<QMenu> after(view()->createItemMenu(0));
        QVERIFY(after->findChild<QAction *>("rewindToHereAction")->isEnabled());
    }

    void keyboardReachesRewindToHere()
    {
        openWindow();
        runTwoTasks();
        view()->setFocus(Qt::TabFocusReason);
        QTRY_VERIFY(view()->hasFocus());
        // Alt+Up picks the latest message that can be rewound to, then the one before.
        QTest::keyClick(view(), Qt::Key_Up, Qt::AltModifier);
        QVERIFY(view()->keyItem());
        QCOMPARE(view()->keyItem()->kind(), Ui::ConversationItem::Kind::Assistant);
        QTest::keyClick(view(), Qt::Key_Up, Qt::AltModifier);
        QCOMPARE(view()->keyItem()->kind(), Ui::ConversationItem::Kind::User);
        QCOMPARE(view()->keyItem()->sourceIndex(), 8);
        // Its menu's action opens the dialog for that point.
        std::unique_ptr<QMenu> menu(view()->createItemMenu(view()->indexOf(view()->keyItem())));
        menu->findChild<QAction *>("rewindToHereAction")->trigger();
        QVERIFY(controller()->dialog());
        QTRY_VERIFY(controller()->dialog()->isVisible());
        QTRY_VERIFY(!controller()->dialog()->isComputing());
        QVERIFY(controller()
                    ->dialog()
                    ->findChild<QLabel *>("rewindTarget")
                    ->text()
                    .contains("second task"));
        QTest::keyClick(controller()->dialog(), Qt::Key_Escape);
        QTRY_VERIFY(!controller()->dialog());
        QCOMPARE(m_repo->read("a.txt"), QByteArray("two\n"));
    }

    void resumedSessionShowsTheSameRewind()
    {
        openWindow();
        runTwoTasks();
        QVERIFY(openDialog(8));
        controller()->dialog()->conversationButton()->click();
        controller()->dialog()->rewindButton()->click();
        waitForRewind();
        const QList<Message> before = contextView(session()->conversation());
        const QString path = session()->sessionPath();
        QVERIFY(!path.isEmpty());
        m_window.reset();

        makeWindow({});
        QVERIFY(TestSupport::futureResult(m_window->resumeSession(path)));
        QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
        view()->flush();
        QVERIFY(rewindItem());
        QCOMPARE(rewindItem()->rewoundCount(), 2);
        QCOMPARE(contextView(session()->agent()->messages()), before);
        QCOMPARE(session()->conversation().size(), 11); // the originals and the rewind
        int shown = 0;
        for (int i = 0; i < view()->itemCount(); ++i)
            shown += view()->isItemShown(i) ? 1 : 0;
        QCOMPARE(shown, view()->itemCount() - 2);
    }

private:
    /// Opens the dialog for a rewind to right before raw message \a messageIndex and waits
    /// for the files' change to be shown in it.
    /// The files of a confirmed rewind are restored on a worker thread: until it is recorded.
    void waitForRewind()
    {
        QTRY_VERIFY_WITH_TIMEOUT(!session()->codingSession()->isRewinding(), runTimeoutMs);
    }

    Ui::RewindDialog *openDialog(qsizetype messageIndex)
    {
        if (!controller()->requestRewind(messageIndex))
            return nullptr;
        QPointer<Ui::RewindDialog> dialog = controller()->dialog();
        if (!dialog
            || !QTest::qWaitFor(
                [dialog] { return dialog && dialog->isVisible() && !dialog->isComputing(); },
                runTimeoutMs))
            return nullptr;
        return dialog;
    }

    void makeWindow(const QList<ModelStep> &steps)
    {
        m_model = std::make_shared<ScriptedModel>(steps);
        Ui::AgentSetup setup;
        setup.model.client = m_model;
        setup.model.label = QStringLiteral("scripted");
        setup.options.systemPrompt = QStringLiteral("You are tested.");
        setup.options.permissions.mode = PermissionMode::Bypass;
        setup.sessionsDirectory = m_sessions.path();
        if (m_storeRoot)
            setup.options.checkpoints.storeRoot = m_storeRoot->path();
        m_window = std::make_unique<Ui::MainWindow>(setup);
        m_window->resize(1100, 760);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        QVERIFY(m_window->openRepository(m_repo->root()));
        controller()->setFiles(m_files);
    }

    void openWindow(const QList<ModelStep> &steps = {})
    {
        m_repo = std::make_unique<ToolsTest::Repo>();
        QVERIFY(m_repo->isValid());
        QVERIFY(m_repo->write("a.txt", "one\n"));
        m_files = std::make_shared<SnapshotFiles>(*m_repo);
        makeWindow(steps);
        QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    }

    /// "edit a.txt": a Read, an Edit, a Bash write, an answer (raw messages 0-7); then
    /// "second task" (8): an answer (9).
    void runTwoTasks()
    {
        m_model->enqueue(ModelStep::toolCall("r1", "Read", {{"file_path", "a.txt"}}));
        m_model->enqueue(ModelStep::toolCall("e1",
                                             "Edit",
                                             {{"file_path", "a.txt"},
                                              {"old_string", "one"},
                                              {"new_string", "two"}}));
        m_model->enqueue(
            ModelStep::toolCall("b1", "Bash", {{"command", "printf 'made\\n' > b.txt"}}));
        m_model->enqueue(ModelStep::text("done"));
        m_model->enqueue(ModelStep::text("ok"));
        m_files->take(0);
        send(QStringLiteral("edit a.txt"));
        QCOMPARE(m_repo->read("a.txt"), QByteArray("two\n"));
        m_files->take(8);
        send(QStringLiteral("second task"));
        QCOMPARE(session()->conversation().size(), 10);
    }

    void send(const QString &text, bool wait = true)
    {
        const int calls = m_model->callCount();
        QTest::keyClicks(page()->composer(), text);
        QTest::keyClick(page()->composer(), Qt::Key_Return);
        if (!wait)
            return;
        // A run without a scripted step left ends at once: wait for its request, then its end.
        QTRY_VERIFY_WITH_TIMEOUT(m_model->callCount() > calls, runTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(session()->state() == AgentSession::State::Idle
                                     && session()->agent()->isIdle(),
                                 runTimeoutMs);
    }

    int shownBefore() const
    {
        int count = 0;
        for (int i = 0; i < view()->itemCount(); ++i)
            count += view()->itemAt(i)->rewoundBy() ? 1 : 0;
        return count;
    }

    QList<Ui::ConversationItem::Kind> shownKinds() const
    {
        QList<Ui::ConversationItem::Kind> kinds;
        for (int i = 0; i < view()->itemCount(); ++i) {
            if (view()->isItemShown(i))
                kinds.append(view()->itemAt(i)->kind());
        }
        return kinds;
    }

    const Ui::RewindItem *rewindItem(int nth = -1) const
    {
        QList<const Ui::RewindItem *> found;
        for (int i = 0; i < view()->itemCount(); ++i) {
            if (view()->itemAt(i)->kind() == Ui::ConversationItem::Kind::Rewind)
                found.append(static_cast<const Ui::RewindItem *>(view()->itemAt(i)));
        }
        if (found.isEmpty())
            return nullptr;
        return nth < 0 ? found.last() : found.value(nth);
    }

    Ui::ConversationPage *page() const { return m_window->conversationPage(); }
    AgentSession *session() const { return m_window->session(); }
    Ui::ConversationView *view() const { return page()->conversation(); }
    Ui::RewindController *controller() const { return page()->rewindController(); }

    QTemporaryDir m_sessions;
    std::unique_ptr<QTemporaryDir> m_storeRoot; ///< set: the window keeps real checkpoints
    std::unique_ptr<ToolsTest::Repo> m_repo;
    std::shared_ptr<SnapshotFiles> m_files;
    std::shared_ptr<ScriptedModel> m_model;
    std::unique_ptr<Ui::MainWindow> m_window;
};

AGENTDESK_TEST_MAIN(tst_RewindFlow)

} // namespace tst_rewindflow

#include "tst_rewindflow.moc"
