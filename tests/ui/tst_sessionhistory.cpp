// What a session shows is what happened, live and after resume: a command the user stopped keeps
// the output it showed (in its card, the session file and the model's next request), and the
// files the session changed are listed again when it is resumed.
#include "../tools/toolstest.h"

#include <agentsession/agentsession.h>
#include <composer/composer.h>
#include <context/rewind.h>
#include <conversation/conversationitem.h>
#include <conversation/conversationview.h>
#include <conversation/toolcarditem.h>
#include <futureresult.h>
#include <page/conversationpage.h>
#include <review/filediffview.h>
#include <scriptedmodel.h>
#include <testmain.h>
#include <testtools.h>
#include <tools/unifieddiff.h>
#include <window/changedfilespanel.h>
#include <window/mainwindow.h>

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QListWidget>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <algorithm>
#include <memory>

using namespace AgentCore;
namespace tst_sessionhistory {

using TestSupport::FunctionTool;
using TestSupport::ModelStep;
using TestSupport::ScriptedModel;
using Ui::AgentSession;
using Ui::FileDiffView;
using Ui::ToolCardItem;

namespace {

constexpr int runTimeoutMs = 15'000;

const ToolCardItem *cardOf(const Ui::ConversationView *view, const QString &toolName)
{
    for (int i = 0; i < view->itemCount(); ++i) {
        const Ui::ConversationItem *item = view->itemAt(i);
        if (item->kind() == Ui::ConversationItem::Kind::ToolCard) {
            auto card = static_cast<const ToolCardItem *>(item);
            if (card->toolName() == toolName)
                return card;
        }
    }
    return nullptr;
}

QByteArray fileBytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// An extension's tool that writes \a relative in \a root and reports it as Write does:
/// not called Edit or Write, but side-effecting.
AgentToolPtr stampTool(const QString &root, const QString &relative)
{
    return FunctionTool::make(QStringLiteral("Stamp"),
                              {},
                              ExecutionMode::Sequential,
                              [root, relative](const ToolCallContext &) {
                                  QFile file(root + QLatin1Char('/') + relative);
                                  if (!file.open(QIODevice::WriteOnly)
                                      || file.write("stamped\n") != 8)
                                      return ToolResult::makeError(QStringLiteral("cannot write"));
                                  ToolDetails details
                                      = UnifiedDiff::compute({}, QStringLiteral("stamped\n"))
                                            .toDetails(QStringLiteral("/dev/null"),
                                                       QStringLiteral("b/") + relative);
                                  details.path = file.fileName();
                                  details.displayPath = relative;
                                  details.created = true;
                                  return ToolResult::makeText(QStringLiteral("Stamped."), details);
                              });
}

QString lastToolResult(const Context &context)
{
    for (auto it = context.messages.crbegin(); it != context.messages.crend(); ++it) {
        if (it->isToolResult())
            return it->text();
    }
    return {};
}

} // namespace

class tst_SessionHistory : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_sessionhistory"));
    }
    void init()
    {
        m_repo = std::make_unique<ToolsTest::Repo>();
        QVERIFY(m_repo->isValid());
        m_sessionsDir = std::make_unique<QTemporaryDir>();
    }
    void cleanup()
    {
        m_window.reset();
        m_repo.reset();
        m_extraTools.clear();
        m_checkpointStore.reset();
    }

    void stopKeepsTheCommandsOutput();
    void resumedSessionListsTheChangedFiles();
    void changedFilesComeFromTheEffectHooks();
    void doubleClickShowsTheChangesInTheApp();
    void revertThisFileBringsBackOneFile();
    void aResumedLongOutputIsReadFromTheSessionFile();
    void aLongRunKeepsItsRecordedOutputsAsStubs();

private:
    void openWindow(const QList<ModelStep> &steps);
    void type(const QString &text)
    {
        Ui::Composer *composer = page()->composer();
        QTest::keyClicks(composer, text);
        QTest::keyClick(composer, Qt::Key_Return);
    }
    void waitForIdle()
    {
        QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
    }
    /// A new window on the same repository and sessions, resuming \a path.
    void resume(const QString &path, const QList<ModelStep> &steps)
    {
        openWindow(steps);
        QVERIFY(TestSupport::futureResult(m_window->resumeSession(path)));
        QTRY_COMPARE(session()->sessionPath(), path);
        QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    }

    Ui::ConversationPage *page() const { return m_window->conversationPage(); }
    AgentSession *session() const { return m_window->session(); }
    Ui::ConversationView *view() const { return page()->conversation(); }

    std::unique_ptr<ToolsTest::Repo> m_repo;
    std::unique_ptr<QTemporaryDir> m_sessionsDir;
    std::shared_ptr<ScriptedModel> m_model;
    std::unique_ptr<Ui::MainWindow> m_window;
    QList<AgentToolPtr> m_extraTools;                 ///< for the next openWindow
    std::unique_ptr<QTemporaryDir> m_checkpointStore; ///< for the next openWindow; none: no store
};

void tst_SessionHistory::openWindow(const QList<ModelStep> &steps)
{
    m_window.reset();
    m_model = std::make_shared<ScriptedModel>(steps);
    Ui::AgentSetup setup;
    setup.model.client = m_model;
    setup.model.label = QStringLiteral("scripted");
    setup.options.systemPrompt = QStringLiteral("You are tested.");
    setup.sessionsDirectory = m_sessionsDir->path();
    setup.options.tools.extra = m_extraTools;
    if (m_checkpointStore)
        setup.options.checkpoints.storeRoot = m_checkpointStore->path();
    m_window = std::make_unique<Ui::MainWindow>(setup);
    m_window->resize(1200, 760);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QVERIFY(m_window->openRepository(m_repo->root()));
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    page()->composer()->setFocus();
}

// The real Bash prints four ticks and sleeps; the user presses Stop. The ticks stay: in the
// card (which says it was stopped), in the session file, after resume, and in what the model
// is sent next.
void tst_SessionHistory::stopKeepsTheCommandsOutput()
{
    const QJsonObject command{
        {QStringLiteral("command"),
         QStringLiteral("echo tick 1; echo tick 2; echo tick 3; echo tick 4; sleep 30")}};
    openWindow({ModelStep::toolCall(QStringLiteral("bash-1"), QStringLiteral("Bash"), command),
                ModelStep::text(QStringLiteral("never asked"))});
    type(QStringLiteral("count to four"));

    QTRY_VERIFY_WITH_TIMEOUT(cardOf(view(), QStringLiteral("Bash"))
                                 && cardOf(view(), QStringLiteral("Bash"))
                                        ->outputText()
                                        .contains(QLatin1String("tick 4")),
                             runTimeoutMs);
    QTest::mouseClick(page()->sendStopButton(), Qt::LeftButton);
    waitForIdle();

    const ToolCardItem *card = cardOf(view(), QStringLiteral("Bash"));
    QCOMPARE(card->state(), ToolCardItem::State::Stopped);
    QVERIFY2(card->stateText(0).startsWith(QLatin1String("stopped")),
             qPrintable(card->stateText(0)));
    const QString shown = card->outputText();
    QVERIFY2(shown.startsWith(QLatin1String("tick 1\ntick 2\ntick 3\ntick 4\n")), qPrintable(shown));
    // Marked by the loop (it stopped waiting) or by Bash itself (its result came first).
    QVERIFY2(shown.contains(QLatin1String("Stopped by the user"))
                 || shown.contains(QLatin1String("Command aborted")),
             qPrintable(shown));

    const QString path = session()->sessionPath();
    const QByteArray file = fileBytes(path);
    QVERIFY2(file.contains("tick 1\\ntick 2\\ntick 3\\ntick 4\\n"), file.constData());
    QVERIFY(!file.contains("Tool execution aborted."));

    resume(path, {ModelStep::text(QStringLiteral("It printed four ticks."))});
    const ToolCardItem *resumed = cardOf(view(), QStringLiteral("Bash"));
    QVERIFY(resumed);
    QCOMPARE(resumed->state(), ToolCardItem::State::Stopped);
    QCOMPARE(resumed->outputText(), shown);

    type(QStringLiteral("what did it print?"));
    waitForIdle();
    QCOMPARE(m_model->callCount(), 1);
    QCOMPARE(lastToolResult(m_model->contexts().at(0)), shown);
}

// Edits and a created file, accepted without review: after resume the panel lists them as it
// did live, with the same counts.
void tst_SessionHistory::resumedSessionListsTheChangedFiles()
{
    QVERIFY(m_repo->write(QStringLiteral("src/main.txt"), "one\ntwo\nthree\n"));
    openWindow({ModelStep::toolCall(QStringLiteral("w1"),
                                    QStringLiteral("Write"),
                                    {{QStringLiteral("file_path"), QStringLiteral("notes.txt")},
                                     {QStringLiteral("content"), QStringLiteral("a\nb\n")}}),
                ModelStep::toolCall(QStringLiteral("r1"),
                                    QStringLiteral("Read"),
                                    {{QStringLiteral("file_path"), QStringLiteral("src/main.txt")}}),
                ModelStep::toolCall(QStringLiteral("e1"),
                                    QStringLiteral("Edit"),
                                    {{QStringLiteral("file_path"), QStringLiteral("src/main.txt")},
                                     {QStringLiteral("old_string"), QStringLiteral("two")},
                                     {QStringLiteral("new_string"), QStringLiteral("2\nzwei")}}),
                ModelStep::text(QStringLiteral("Done."))});
    session()->setPermissionMode(PermissionMode::AcceptEdits);
    type(QStringLiteral("take notes and fix main"));
    waitForIdle();
    const QStringList live = m_window->changedFilesPanel()->rows();

    QCOMPARE(live.size(), 2);
    QVERIFY2(live.at(0).startsWith(QLatin1String("notes.txt")), qPrintable(live.join(u'|')));
    const QString path = session()->sessionPath();

    resume(path, {});
    QCOMPARE(m_window->changedFilesPanel()->rows(), live);
}

// The panel lists what the loop's afterEffect hook saw a call change, whatever the tool is
// called (here an extension's), and lists it again after resume.
void tst_SessionHistory::changedFilesComeFromTheEffectHooks()
{
    m_extraTools = {stampTool(m_repo->root(), QStringLiteral("stamp.txt"))};
    openWindow({ModelStep::toolCall(QStringLiteral("s1"), QStringLiteral("Stamp"), {}),
                ModelStep::text(QStringLiteral("Stamped."))});
    session()->setPermissionMode(PermissionMode::Bypass);
    type(QStringLiteral("stamp it"));
    waitForIdle();
    QCOMPARE(m_repo->read(QStringLiteral("stamp.txt")), QByteArray("stamped\n"));
    const QStringList live = m_window->changedFilesPanel()->rows();
    QCOMPARE(live, QStringList{QStringLiteral("stamp.txt  +1 −0")});

    resume(session()->sessionPath(), {});
    QCOMPARE(m_window->changedFilesPanel()->rows(), live);
}

// Double-clicking a changed file opens its diff against the last commit in the app, after
// resume too; a file that has gone since says so in the same place.
void tst_SessionHistory::doubleClickShowsTheChangesInTheApp()
{
    QVERIFY(m_repo->write(QStringLiteral("src/main.txt"), "one\ntwo\nthree\n"));
    m_repo->git({QStringLiteral("add"), QStringLiteral(".")});
    m_repo->git({QStringLiteral("-c"),
                 QStringLiteral("user.name=T"),
                 QStringLiteral("-c"),
                 QStringLiteral("user.email=t@example.org"),
                 QStringLiteral("commit"),
                 QStringLiteral("-qm"),
                 QStringLiteral("start")});
    openWindow({ModelStep::toolCall(QStringLiteral("w1"),
                                    QStringLiteral("Write"),
                                    {{QStringLiteral("file_path"), QStringLiteral("notes.txt")},
                                     {QStringLiteral("content"), QStringLiteral("a\nb\n")}}),
                ModelStep::toolCall(QStringLiteral("r1"),
                                    QStringLiteral("Read"),
                                    {{QStringLiteral("file_path"), QStringLiteral("src/main.txt")}}),
                ModelStep::toolCall(QStringLiteral("e1"),
                                    QStringLiteral("Edit"),
                                    {{QStringLiteral("file_path"), QStringLiteral("src/main.txt")},
                                     {QStringLiteral("old_string"), QStringLiteral("two")},
                                     {QStringLiteral("new_string"), QStringLiteral("2\nzwei")}}),
                ModelStep::text(QStringLiteral("Done."))});
    session()->setPermissionMode(PermissionMode::AcceptEdits);
    type(QStringLiteral("take notes and fix main"));
    waitForIdle();
    resume(session()->sessionPath(), {});

    auto list = m_window->changedFilesPanel()->findChild<QListWidget *>(
        QStringLiteral("changedFilesList"));
    QVERIFY(list);
    QCOMPARE(list->count(), 2);
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    const auto doubleClick = [list](int row) {
        const QRect rect = list->visualItemRect(list->item(row));
        // Select, then double-click: QTest's first double-click on this list did not activate
        // it (Qt 6.8, offscreen), one after a click does, as after a user's selection.
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, rect.center());
        QTest::mouseDClick(list->viewport(), Qt::LeftButton, {}, rect.center());
    };
    doubleClick(1);
    FileDiffView *view = nullptr;
    QTRY_VERIFY((view = m_window->findChild<FileDiffView *>()));
    QTRY_VERIFY(view->isVisible());
    QTRY_VERIFY(!view->isLoading()); // the file and git are read on a worker thread
    QCOMPARE(view->filePath(), m_repo->path(QStringLiteral("src/main.txt")));
    QCOMPARE(view->errorText(), QString());
    QCOMPARE(view->additions(), 2);
    QCOMPARE(view->deletions(), 1);
    QVERIFY2(view->diffText().contains(QLatin1String("zwei")), qPrintable(view->diffText()));
    auto dialog = qobject_cast<QDialog *>(view->window());
    QVERIFY(dialog);
    QCOMPARE(dialog->windowTitle(), QStringLiteral("Changes to src/main.txt"));
    dialog->close();
    QTRY_VERIFY(!m_window->findChild<FileDiffView *>()); // deleted on close

    QVERIFY(QFile::remove(m_repo->path(QStringLiteral("notes.txt"))));
    doubleClick(0);
    QTRY_VERIFY((view = m_window->findChild<FileDiffView *>()));
    QTRY_VERIFY(!view->isLoading());
    QVERIFY2(view->errorText().contains(QLatin1String("no longer exists")),
             qPrintable(view->errorText()));
}

// Issue #34, item 5: "Revert This File" in the panel's menu brings one file back to how it was
// before the agent changed it, every other file kept; the panel drops it. From the file's diff
// a file the session created goes (a rewind deleted it: no longer listed). After resume too.
void tst_SessionHistory::revertThisFileBringsBackOneFile()
{
    QVERIFY(m_repo->write(QStringLiteral("src/main.txt"), "one\ntwo\nthree\n"));
    QVERIFY(m_repo->write(QStringLiteral("other.txt"), "left alone\n"));
    m_checkpointStore = std::make_unique<QTemporaryDir>(); // the real store: a shadow git
    openWindow({ModelStep::toolCall(QStringLiteral("w1"),
                                    QStringLiteral("Write"),
                                    {{QStringLiteral("file_path"), QStringLiteral("notes.txt")},
                                     {QStringLiteral("content"), QStringLiteral("a\nb\n")}}),
                ModelStep::toolCall(QStringLiteral("r1"),
                                    QStringLiteral("Read"),
                                    {{QStringLiteral("file_path"), QStringLiteral("src/main.txt")}}),
                ModelStep::toolCall(QStringLiteral("e1"),
                                    QStringLiteral("Edit"),
                                    {{QStringLiteral("file_path"), QStringLiteral("src/main.txt")},
                                     {QStringLiteral("old_string"), QStringLiteral("two")},
                                     {QStringLiteral("new_string"), QStringLiteral("2\nzwei")}}),
                ModelStep::text(QStringLiteral("Done."))});
    session()->setPermissionMode(PermissionMode::AcceptEdits);
    type(QStringLiteral("take notes and fix main"));
    waitForIdle();
    // The user's own change after the agent's: the revert of another file keeps it.
    QVERIFY(m_repo->write(QStringLiteral("other.txt"), "changed by hand\n"));
    QCOMPARE(m_window->changedFilesPanel()->rows().size(), 2);

    auto list = m_window->changedFilesPanel()->findChild<QListWidget *>(
        QStringLiteral("changedFilesList"));
    QVERIFY(list);
    auto revert = list->findChild<QAction *>(QStringLiteral("revertFileAction"));
    QVERIFY(revert);
    QVERIFY(list->actions().contains(revert)); // in the row's context menu
    list->setCurrentRow(1);
    QCOMPARE(list->currentItem()->data(Qt::UserRole + 1).toString(),
             m_repo->path(QStringLiteral("src/main.txt")));
    revert->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(m_window->changedFilesPanel()->rows(),
                              QStringList{QStringLiteral("notes.txt  +2 −0")},
                              runTimeoutMs);
    QCOMPARE(m_repo->read(QStringLiteral("src/main.txt")), QByteArray("one\ntwo\nthree\n"));
    QCOMPARE(m_repo->read(QStringLiteral("notes.txt")), QByteArray("a\nb\n"));
    QCOMPARE(m_repo->read(QStringLiteral("other.txt")), QByteArray("changed by hand\n"));
    // The model is told, as of any rewind of the files.
    QTRY_VERIFY(std::any_of(session()->conversation().cbegin(),
                            session()->conversation().cend(),
                            [](const Message &message) {
                                const auto rewind = Rewind::of(message);
                                return rewind
                                       && rewind->restoredFiles
                                              == QStringList{QStringLiteral("src/main.txt")};
                            }));

    // From the diff of the file the session created: it goes, and so does its row.
    list->setCurrentRow(0);
    list->findChild<QAction *>(QStringLiteral("showFileChangesAction"))->trigger();
    FileDiffView *view = nullptr;
    QTRY_VERIFY((view = m_window->findChild<FileDiffView *>()));
    auto button = view->findChild<QAbstractButton *>(QStringLiteral("revertFileButton"));
    QVERIFY(button);
    QTRY_VERIFY(button->isVisible());
    button->click();
    QTRY_VERIFY_WITH_TIMEOUT(m_window->changedFilesPanel()->rows().isEmpty(), runTimeoutMs);
    QVERIFY(!QFileInfo::exists(m_repo->path(QStringLiteral("notes.txt"))));
    QCOMPARE(m_repo->read(QStringLiteral("other.txt")), QByteArray("changed by hand\n"));
    qobject_cast<QDialog *>(view->window())->close();

    // Resumed: what was reverted stays out of the list.
    resume(session()->sessionPath(), {});
    QVERIFY(m_window->changedFilesPanel()->rows().isEmpty());
}

// A Read of 3,000 lines, resumed in a new window: its card holds the stub's beginning (the
// session file has the rest, issue #39) and "show all" reads the whole output from the file.
void tst_SessionHistory::aResumedLongOutputIsReadFromTheSessionFile()
{
    QString text;
    for (int i = 1; i <= 3000; ++i)
        text += QStringLiteral("row %1 of the big file\n").arg(i);
    QVERIFY(m_repo->write(QStringLiteral("big.txt"), text.toUtf8()));
    openWindow({ModelStep::toolCall(QStringLiteral("r1"),
                                    QStringLiteral("Read"),
                                    {{QStringLiteral("file_path"), QStringLiteral("big.txt")},
                                     {QStringLiteral("limit"), 3000}}),
                ModelStep::text(QStringLiteral("Read it."))});
    type(QStringLiteral("read big.txt"));
    waitForIdle();
    QVERIFY(cardOf(view(), QStringLiteral("Read"))
                ->outputText()
                .contains(QLatin1String("row 3000 of the big file")));
    const QString path = session()->sessionPath();

    resume(path, {});
    const ToolCardItem *card = cardOf(view(), QStringLiteral("Read"));
    QVERIFY(card);
    if (!card->isPaged())
        QSKIP("the resumed history holds no stub: needs the paged SessionLog (pagescore)");
    QCOMPARE(card->page(), ToolCardItem::Page::Preview);
    QVERIFY(!card->outputText().contains(QLatin1String("row 3000 of")));
    view()->flush();
    const int index = view()->indexOf(card);
    QVERIFY(!card->outputToggleRect().isEmpty());
    QTest::mouseClick(view()->viewport(),
                      Qt::LeftButton,
                      {},
                      view()->itemRect(index).topLeft() + card->outputToggleRect().center());
    QTRY_COMPARE(card->page(), ToolCardItem::Page::Loaded);
    QVERIFY(card->outputText().contains(QLatin1String("row 3000 of the big file")));
}

// One run of many long outputs (bench_ui's live session: a thousand turns) must not pile them
// up whole in the window's copy of the conversation until the run ends: each becomes its stub
// once the session file holds it.
void tst_SessionHistory::aLongRunKeepsItsRecordedOutputsAsStubs()
{
    QList<ModelStep> steps;
    for (int file = 1; file <= 4; ++file) {
        QString text;
        for (int i = 1; i <= 1000; ++i)
            text += QStringLiteral("row %1 of file %2\n").arg(i).arg(file);
        const QString name = QStringLiteral("big%1.txt").arg(file);
        QVERIFY(m_repo->write(name, text.toUtf8()));
        steps.append(ModelStep::toolCall(QStringLiteral("r%1").arg(file),
                                         QStringLiteral("Read"),
                                         {{QStringLiteral("file_path"), name},
                                          {QStringLiteral("limit"), 1000}}));
    }
    steps.append(ModelStep::text(QStringLiteral("Read them.")));
    openWindow(steps);
    int mostStubsWhileRunning = 0;
    connect(session(),
            &AgentSession::eventEmitted,
            this,
            [this, &mostStubsWhileRunning](const AgentCore::AgentEvent &event) {
                if (event.type != AgentCore::AgentEvent::Type::MessageEnd)
                    return;
                int stubs = 0;
                for (const AgentCore::Message &message : session()->conversation())
                    stubs += message.isPaged();
                mostStubsWhileRunning = std::max(mostStubsWhileRunning, stubs);
            });
    type(QStringLiteral("read the big files"));
    waitForIdle();
    QVERIFY2(mostStubsWhileRunning >= 2, qPrintable(QString::number(mostStubsWhileRunning)));
}

AGENTDESK_TEST_MAIN(tst_SessionHistory)

} // namespace tst_sessionhistory

#include "tst_sessionhistory.moc"
