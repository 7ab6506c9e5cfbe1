// Sessions in the window: a conversation survives the window (and the app) being closed and
// opened again, with its follow-up queue and permission choices; the sessions list renames,
// deletes and reports files it cannot read, without ever writing to them.
#include "../tools/toolstest.h"

#include <agentsession/agentsession.h>
#include <composer/composer.h>
#include <conversation/conversationitem.h>
#include <conversation/conversationview.h>
#include <conversation/messageitem.h>
#include <conversation/toolcarditem.h>
#include <futureresult.h>
#include <loop/agent.h>
#include <page/conversationpage.h>
#include <page/leftoversteeringview.h>
#include <scriptedmodel.h>
#include <session/sessionlog.h>
#include <sessions/opensessions.h>
#include <sessions/sessionitemdelegate.h>
#include <sessions/sessionlist.h>
#include <sessions/sessionspanel.h>
#include <statusbar/agentstatusbar.h>
#include <testmain.h>
#include <testtools.h>
#include <window/followuppanel.h>
#include <window/mainwindow.h>

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QSemaphore>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>

#include <memory>

using namespace AgentCore;
namespace tst_sessions {

using TestSupport::FunctionTool;
using TestSupport::ModelStep;
using TestSupport::ScriptedModel;
using Ui::AgentSession;

namespace {

constexpr int runTimeoutMs = 15'000;

QStringList itemTexts(const Ui::ConversationView *view, Ui::ConversationItem::Kind kind)
{
    QStringList texts;
    for (int i = 0; i < view->itemCount(); ++i) {
        if (view->itemAt(i)->kind() == kind)
            texts.append(view->itemAt(i)->plainText());
    }
    return texts;
}

/// The captions of the user bubbles ("" for a task typed while idle).
QStringList userCaptions(const Ui::ConversationView *view)
{
    QStringList captions;
    for (int i = 0; i < view->itemCount(); ++i) {
        if (view->itemAt(i)->kind() == Ui::ConversationItem::Kind::User)
            captions.append(static_cast<const Ui::MessageItem *>(view->itemAt(i))->caption());
    }
    return captions;
}

QStringList userTexts(const Context &context)
{
    QStringList texts;
    for (const Message &message : context.messages) {
        if (message.isUser())
            texts.append(message.text());
    }
    return texts;
}

QByteArray fileBytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// Clicks the button called \a text of the next message box, once it is shown.
void answerNextMessageBox(const QString &text)
{
    QTimer::singleShot(0, qApp, [text] {
        auto box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        QVERIFY(box);
        const QList<QAbstractButton *> buttons = box->buttons();
        for (QAbstractButton *button : buttons) {
            if (button->text() == text) {
                button->click();
                return;
            }
        }
        QFAIL("no such button");
    });
}

} // namespace

class tst_Sessions : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_sessions"));
    }
    void init()
    {
        m_repo = std::make_unique<ToolsTest::Repo>();
        QVERIFY(m_repo->isValid());
        m_sessionsDir = std::make_unique<QTemporaryDir>();
    }
    void cleanup()
    {
        m_gate.release(100);
        m_window.reset();
        m_repo.reset();
        m_gate.acquire(m_gate.available());
    }

    void resumesAfterTheWindowIsRebuiltWithItsQueue();
    void steeringAndFollowUpsAreShownAsSuchLiveAndResumed();
    void tornLastLineLoadsWithAWarning();
    void unreadableSessionIsReportedAndLeftUntouched();
    void renameAndDeleteFromTheList();
    void newConversationKeepsTheOldOneListed();
    void resumeWhileATaskRunsOpensItBeside();
    void resumedInBypassAsksFirst_data();
    void resumedInBypassAsksFirst();
    void newConversationTakesTheKeysToTheMessageBox();
    void escCancelsARenameBeforeItStopsTheRun();
    void secondWindowIsReadOnlyAndLosesNothing();
    void crashKeepsDraftSteeringAndQueueAndMarksTheCall();
    void crashMidAnswerKeepsWhatStreamedMarked();

private:
    void openWindow(const QList<ModelStep> &steps);
    void type(const QString &text, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
    {
        Ui::Composer *composer = page()->composer();
        QTest::keyClicks(composer, text);
        QTest::keyClick(composer, Qt::Key_Return, modifiers);
    }
    void waitForIdle()
    {
        QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
    }
    /// Runs one task to its end in a fresh window and closes the window: one session on disk,
    /// in \a path.
    void recordOneSession(const QString &task, const QString &answer, QString *path);
    /// Resumes the session at \a row of the list the way a user does: select it, press Enter.
    void activateRow(int row)
    {
        QListWidget *list = m_window->sessionsPanel()->list();
        list->setFocus();
        list->setCurrentRow(row);
        QTest::keyClick(list, Qt::Key_Return);
    }

    Ui::ConversationPage *page() const { return m_window->conversationPage(); }
    AgentSession *session() const { return m_window->session(); }
    Ui::ConversationView *view() const { return page()->conversation(); }
    Ui::SessionsPanel *panel() const { return m_window->sessionsPanel(); }

    std::unique_ptr<ToolsTest::Repo> m_repo;
    /// A copy of the session file as it is on disk now, under a name of its own: what SIGKILL
    /// at this moment would leave (the copy has no lock, as a dead process's is taken over).
    QString snapshot(const QString &path)
    {
        const QString copy = m_sessionsDir->filePath(QStringLiteral("20000101-killed.jsonl"));
        QFile::remove(copy);
        return QFile::copy(path, copy) ? copy : QString();
    }
    const Ui::ToolCardItem *card(int index) const
    {
        for (int i = 0, seen = 0; i < view()->itemCount(); ++i) {
            if (view()->itemAt(i)->kind() == Ui::ConversationItem::Kind::ToolCard && seen++ == index)
                return static_cast<const Ui::ToolCardItem *>(view()->itemAt(i));
        }
        return nullptr;
    }

    std::unique_ptr<QTemporaryDir> m_sessionsDir;
    std::shared_ptr<ScriptedModel> m_model;
    std::unique_ptr<Ui::MainWindow> m_window;
    QSemaphore m_gate;
};

void tst_Sessions::openWindow(const QList<ModelStep> &steps)
{
    m_window.reset();
    m_model = std::make_shared<ScriptedModel>(steps);
    auto gateTool = FunctionTool::make(QStringLiteral("Gate"),
                                       {},
                                       ExecutionMode::Parallel,
                                       [this](const ToolCallContext &) {
                                           m_gate.tryAcquire(1, 10'000);
                                           return ToolResult::makeText(QStringLiteral("opened"));
                                       });
    Ui::AgentSetup setup;
    setup.model.client = m_model;
    setup.model.label = QStringLiteral("scripted");
    setup.options.systemPrompt = QStringLiteral("You are tested.");
    setup.options.tools.extra = {gateTool};
    setup.sessionsDirectory = m_sessionsDir->path();
    m_window = std::make_unique<Ui::MainWindow>(setup);
    m_window->resize(1200, 760);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QVERIFY(m_window->openRepository(m_repo->root()));
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    QTRY_VERIFY(!m_window->sessionList()->isScanning()); // read on a worker thread
    page()->composer()->setFocus();
}

void tst_Sessions::recordOneSession(const QString &task, const QString &answer, QString *path)
{
    openWindow({ModelStep::text(answer)});
    type(task);
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 1, runTimeoutMs);
    waitForIdle();
    *path = session()->sessionPath();
    m_window.reset();
}

void tst_Sessions::resumesAfterTheWindowIsRebuiltWithItsQueue()
{
    openWindow({ModelStep::toolCall(QStringLiteral("gate-1"), QStringLiteral("Gate"), {}),
                ModelStep::text(QStringLiteral("Overflow fixed."))});
    type(QStringLiteral("fix the overflow"));
    QTRY_COMPARE(session()->state(), AgentSession::State::Running);
    // The queue waits: paused, the task ends and the follow-ups stay queued.
    auto pause = m_window->followUpPanel()->findChild<QAbstractButton *>(
        QStringLiteral("pauseButton"));
    QVERIFY(pause);
    type(QStringLiteral("run the tests"), Qt::AltModifier);
    type(QStringLiteral("commit it"), Qt::AltModifier);
    QTRY_COMPARE(m_window->followUpPanel()->texts().size(), 2);
    QTest::mouseClick(pause, Qt::LeftButton);
    QVERIFY(session()->agent()->followUpsPaused());
    auto mode = m_window->agentStatusBar()->findChild<QComboBox *>(
        QStringLiteral("permissionMode"));
    mode->setCurrentIndex(mode->findData(int(PermissionMode::AcceptEdits)));
    emit mode->activated(mode->currentIndex());
    QCOMPARE(session()->permissionMode(), PermissionMode::AcceptEdits);
    m_gate.release();
    waitForIdle();
    QCOMPARE(m_window->followUpPanel()->texts().size(), 2);
    const QString path = session()->sessionPath();

    // The window goes away, as when the app is quit; a new one opens on the repository.
    openWindow({ModelStep::text(QStringLiteral("Tests pass.")),
                ModelStep::text(QStringLiteral("Committed."))});
    QCOMPARE(panel()->titles(),
             (QStringList{QStringLiteral("New conversation"), QStringLiteral("fix the overflow")}));
    activateRow(1);
    QTRY_COMPARE(session()->sessionPath(), path);
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);

    QCOMPARE(itemTexts(view(), Ui::ConversationItem::Kind::User),
             QStringList{QStringLiteral("fix the overflow")});
    QCOMPARE(itemTexts(view(), Ui::ConversationItem::Kind::Assistant).constLast(),
             QStringLiteral("Overflow fixed."));
    QTRY_COMPARE(m_window->followUpPanel()->texts(),
                 (QStringList{QStringLiteral("run the tests"), QStringLiteral("commit it")}));
    QCOMPARE(session()->permissionMode(), PermissionMode::AcceptEdits);
    QCOMPARE(panel()->titles(), QStringList{QStringLiteral("fix the overflow")});

    // Still paused, as the user left it; resuming the queue runs the follow-ups in order, and
    // the model sees the whole conversation before them.
    QVERIFY(m_window->followUpPanel()->isPaused());
    QVERIFY(session()->agent()->isIdle());
    m_window->followUpPanel()->setPaused(false);
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 2, runTimeoutMs);
    waitForIdle();
    QCOMPARE(userTexts(m_model->contexts().constFirst()),
             (QStringList{QStringLiteral("fix the overflow"), QStringLiteral("run the tests")}));
    QCOMPARE(userTexts(m_model->contexts().constLast()).constLast(), QStringLiteral("commit it"));
    // Both came from the queue, also the first, which the resumed queue started as a new run.
    QCOMPARE(userCaptions(view()),
             (QStringList{QString(), QStringLiteral("Follow-up"), QStringLiteral("Follow-up")}));
    m_window.reset();

    QString error;
    const auto contents = SessionLog::load(path, &error);
    QVERIFY2(contents, qPrintable(error));
    QCOMPARE(contents->messages.constLast().text(), QStringLiteral("Committed."));
    QCOMPARE(contents->state.value(u"followUps").toArray().size(), 0);
}

void tst_Sessions::steeringAndFollowUpsAreShownAsSuchLiveAndResumed()
{
    openWindow({ModelStep::toolCall(QStringLiteral("gate-1"), QStringLiteral("Gate"), {}),
                ModelStep::text(QStringLiteral("Reformatted with tabs.")),
                ModelStep::text(QStringLiteral("Tests pass."))});
    type(QStringLiteral("reformat main.cpp"));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 1, runTimeoutMs);
    type(QStringLiteral("use tabs, not spaces")); // Enter while running steers
    type(QStringLiteral("run the tests"), Qt::AltModifier);
    QTRY_COMPARE(session()->agent()->steeringQueue().size(), 1);
    QTRY_COMPARE(m_window->followUpPanel()->texts().size(), 1);
    m_gate.release();
    waitForIdle();
    QCOMPARE(m_model->callCount(), 3);
    const QStringList texts{QStringLiteral("reformat main.cpp"),
                            QStringLiteral("use tabs, not spaces"),
                            QStringLiteral("run the tests")};
    const QStringList captions{QString(), QStringLiteral("Steering"), QStringLiteral("Follow-up")};
    QCOMPARE(itemTexts(view(), Ui::ConversationItem::Kind::User), texts);
    QCOMPARE(userCaptions(view()), captions);
    const QString path = session()->sessionPath();

    // Read back from the session file, in a new window, the bubbles say the same.
    openWindow({});
    activateRow(1);
    QTRY_COMPARE(session()->sessionPath(), path);
    QCOMPARE(itemTexts(view(), Ui::ConversationItem::Kind::User), texts);
    QCOMPARE(userCaptions(view()), captions);
}

void tst_Sessions::tornLastLineLoadsWithAWarning()
{
    QString path;
    recordOneSession(QStringLiteral("explain main.cpp"),
                     QStringLiteral("It starts the app."),
                     &path);
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::Append));
        file.write(R"({"message":{"role":"user","content":[{"type":"text","text":"and th)");
    }
    openWindow({});
    QVERIFY(TestSupport::futureResult(m_window->resumeSession(path)));
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    QCOMPARE(itemTexts(view(), Ui::ConversationItem::Kind::Assistant),
             QStringList{QStringLiteral("It starts the app.")});
    QTRY_VERIFY2(m_window->statusBar()->currentMessage().contains(QStringLiteral("cut off")),
                 qPrintable(m_window->statusBar()->currentMessage()));
}

void tst_Sessions::unreadableSessionIsReportedAndLeftUntouched()
{
    const QString path = m_sessionsDir->filePath(QStringLiteral("20260101-000000-000-beef.jsonl"));
    const QByteArray bytes = "{\"this is\": \"not a session\"}\n";
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
    }
    openWindow({});
    QCOMPARE(panel()->list()->count(), 2); // the new conversation, and the broken file
    const QString current = session()->sessionPath();
    activateRow(1);
    QVERIFY(!TestSupport::futureResult(m_window->resumeSession(path)));
    QCOMPARE(session()->sessionPath(), current);
    QVERIFY(m_window->statusBar()->currentMessage().contains(QStringLiteral("not an AgentDesk")));
    // Renaming it is refused too (on a worker thread); nothing is ever written to it.
    QSignalSpy refused(m_window->sessionList(), &Ui::SessionList::renameFailed);
    emit panel()->renameRequested(path, QStringLiteral("mine now"));
    QVERIFY(refused.wait(runTimeoutMs));
    QVERIFY(m_window->statusBar()->currentMessage().contains(QStringLiteral("not an AgentDesk")));
    QCOMPARE(fileBytes(path), bytes);
}

void tst_Sessions::renameAndDeleteFromTheList()
{
    QString first;
    QString second;
    recordOneSession(QStringLiteral("first task"), QStringLiteral("One."), &first);
    QTest::qWait(20); // the list orders by last write
    recordOneSession(QStringLiteral("second task"), QStringLiteral("Two."), &second);
    openWindow({});
    QCOMPARE(panel()->titles(),
             (QStringList{QStringLiteral("New conversation"),
                          QStringLiteral("second task"),
                          QStringLiteral("first task")}));

    // F2 on "first task", a new name, Enter.
    QListWidget *list = panel()->list();
    list->setFocus();
    list->setCurrentRow(2);
    QTest::keyClick(list, Qt::Key_F2);
    auto editor = list->findChild<QLineEdit *>();
    QTRY_VERIFY(editor && editor->isVisible());
    editor->selectAll();
    QTest::keyClicks(editor, QStringLiteral("Parser work"));
    QSignalSpy renamed(m_window->sessionList(), &Ui::SessionList::renamed);
    QTest::keyClick(editor, Qt::Key_Return);
    QVERIFY(renamed.wait(runTimeoutMs)); // written on a worker thread
    QVERIFY(panel()->titles().contains(QStringLiteral("Parser work")));
    QCOMPARE(SessionStore::describe(first).title, QStringLiteral("Parser work"));

    // Del on "second task", confirmed.
    list->setCurrentRow(panel()->titles().indexOf(QStringLiteral("second task")));
    answerNextMessageBox(QStringLiteral("Delete"));
    QTest::keyClick(list, Qt::Key_Delete);
    QTRY_VERIFY(!QFile::exists(second));
    QTRY_COMPARE(panel()->titles(),
                 (QStringList{QStringLiteral("New conversation"), QStringLiteral("Parser work")}));

    // Cancelled: nothing happens.
    list->setCurrentRow(1);
    answerNextMessageBox(QStringLiteral("Cancel"));
    QTest::keyClick(list, Qt::Key_Delete);
    QVERIFY(QFile::exists(first));
}

void tst_Sessions::newConversationKeepsTheOldOneListed()
{
    openWindow({ModelStep::text(QStringLiteral("Done."))});
    type(QStringLiteral("a task"));
    waitForIdle();
    QTRY_COMPARE(panel()->titles(), QStringList{QStringLiteral("a task")});
    const QString old = session()->sessionPath();
    QTest::mouseClick(panel()->findChild<QToolButton *>(QStringLiteral("newSessionButton")),
                      Qt::LeftButton);
    QVERIFY(session()->sessionPath() != old);
    QVERIFY(itemTexts(view(), Ui::ConversationItem::Kind::User).isEmpty());
    QCOMPARE(panel()->titles(),
             (QStringList{QStringLiteral("New conversation"), QStringLiteral("a task")}));
    QVERIFY(!QFile::exists(session()->sessionPath())); // nothing written before a task
}

void tst_Sessions::newConversationTakesTheKeysToTheMessageBox()
{
    openWindow({ModelStep::text(QStringLiteral("Done."))});
    QVERIFY(QTest::qWaitForWindowActive(m_window.get())); // Ctrl+N needs the active window
    type(QStringLiteral("a task"));
    waitForIdle();
    QListWidget *list = panel()->list();
    QTRY_COMPARE(list->count(), 1);

    // Ctrl+N while the sessions list has the focus: the new conversation's message box gets it.
    list->setFocus();
    QTRY_VERIFY(list->hasFocus());
    const QString old = session()->sessionPath();
    QTest::keyClick(list, Qt::Key_N, Qt::ControlModifier);
    QTRY_VERIFY(session()->sessionPath() != old);
    QTRY_COMPARE(QApplication::focusWidget(), page()->composer());

    // The New button too.
    list->setFocus();
    QTRY_VERIFY(list->hasFocus());
    waitForIdle();
    const QString second = session()->sessionPath();
    QTest::mouseClick(panel()->findChild<QToolButton *>(QStringLiteral("newSessionButton")),
                      Qt::LeftButton);
    QTRY_VERIFY(session()->sessionPath() != second);
    QTRY_COMPARE(QApplication::focusWidget(), page()->composer());

    // A task typed while the list has the focus is not a search in the list.
    list->setFocus();
    QTRY_VERIFY(list->hasFocus());
    list->setCurrentRow(1);
    QTest::keyClicks(list, QStringLiteral("add"));
    QTest::keyClicks(QApplication::focusWidget(), QStringLiteral(" a test"));
    QCOMPARE(page()->composer()->toPlainText(), QStringLiteral("add a test"));
    QCOMPARE(QApplication::focusWidget(), page()->composer());
    QCOMPARE(list->currentRow(), 1);
}

void tst_Sessions::escCancelsARenameBeforeItStopsTheRun()
{
    QString old;
    recordOneSession(QStringLiteral("old task"), QStringLiteral("Old."), &old);
    openWindow({ModelStep::toolCall(QStringLiteral("gate-1"), QStringLiteral("Gate"), {}),
                ModelStep::text(QStringLiteral("never asked"))});
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    type(QStringLiteral("wait for the gate"));
    QTRY_COMPARE(session()->state(), AgentSession::State::Running);
    QTRY_COMPARE(m_model->callCount(), 1); // the Gate holds the run from here on
    QListWidget *list = panel()->list();
    QTRY_VERIFY(panel()->titles().contains(QStringLiteral("old task")));

    // The rename editor's Esc is its own: the edit ends, the run goes on.
    list->setFocus();
    QTRY_VERIFY(list->hasFocus());
    list->setCurrentRow(panel()->titles().indexOf(QStringLiteral("old task")));
    QTest::keyClick(list, Qt::Key_F2);
    auto editor = list->findChild<QLineEdit *>();
    QTRY_VERIFY(editor && editor->isVisible());
    QTest::keyClicks(editor, QStringLiteral("renamed"));
    QTest::keyClick(editor, Qt::Key_Escape);
    QTRY_VERIFY(!editor || !editor->isVisible());
    QCOMPARE(session()->state(), AgentSession::State::Running);
    QVERIFY(panel()->titles().contains(QStringLiteral("old task")));

    // Esc again, in the list: now it stops.
    QTRY_VERIFY(list->hasFocus());
    QTest::keyClick(list, Qt::Key_Escape);
    waitForIdle();
    QCOMPARE(m_model->callCount(), 1);
}

// Issue #19: resuming another session while a task runs opens it beside the running one, which
// goes on (and is shown again, as it was, when resumed from the list).
void tst_Sessions::resumeWhileATaskRunsOpensItBeside()
{
    QString path;
    recordOneSession(QStringLiteral("old task"), QStringLiteral("Old."), &path);
    openWindow({ModelStep::toolCall(QStringLiteral("gate-1"), QStringLiteral("Gate"), {}),
                ModelStep::text(QStringLiteral("Done."))});
    type(QStringLiteral("a long task"));
    QTRY_COMPARE(session()->state(), AgentSession::State::Running);
    AgentSession *running = session();
    Ui::ConversationPage *runningPage = page();
    QVERIFY(TestSupport::futureResult(m_window->resumeSession(path)));
    QCOMPARE(session()->sessionPath(), path);
    QVERIFY(page() != runningPage);
    QCOMPARE(running->state(), AgentSession::State::Running);
    m_gate.release();
    QTRY_COMPARE_WITH_TIMEOUT(running->state(), AgentSession::State::Idle, runTimeoutMs);
    QVERIFY(TestSupport::futureResult(m_window->resumeSession(running->sessionPath())));
    QCOMPARE(session(), running);
    QCOMPARE(page(), runningPage);
    QCOMPARE(itemTexts(view(), Ui::ConversationItem::Kind::Assistant).constLast(),
             QStringLiteral("Done."));
}

// Issue #34: a session file in bypass (a headless run's, or one any tool wrote) does not
// bring bypass back unasked: the question of the switch comes as it opens, the mode it would
// have had without the file applies meanwhile and after Cancel; "Turn on bypass" turns it on.
void tst_Sessions::resumedInBypassAsksFirst_data()
{
    QTest::addColumn<bool>("confirm");
    QTest::newRow("declined") << false;
    QTest::newRow("confirmed") << true;
}

void tst_Sessions::resumedInBypassAsksFirst()
{
    QFETCH(bool, confirm);
    openWindow({ModelStep::text(QStringLiteral("Done."))});
    session()->setPermissionMode(PermissionMode::Bypass);
    type(QStringLiteral("a task in bypass"));
    waitForIdle();
    const QString path = session()->sessionPath();

    openWindow({ModelStep::text(QStringLiteral("Again."))});
    Ui::AgentStatusBar *bar = m_window->agentStatusBar();
    QWidget *warning = bar->findChild<QWidget *>(QStringLiteral("bypassWarning"));
    QVERIFY(warning);
    QVERIFY(!warning->isVisible());
    QCOMPARE(session()->permissionMode(), PermissionMode::Default);
    activateRow(1);
    QTRY_COMPARE(session()->sessionPath(), path);
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    QMessageBox *question = nullptr;
    QTRY_VERIFY(question = bar->findChild<QMessageBox *>(QStringLiteral("bypassConfirmation")));
    QTRY_VERIFY(question->isVisible());
    QVERIFY(question->windowModality() == Qt::WindowModal);
    QCOMPARE(question->window()->parentWidget()->window(), m_window.get());
    QVERIFY(session()->bypassUnconfirmed());
    QCOMPARE(session()->permissionMode(), PermissionMode::Default);
    QCOMPARE(bar->permissionMode(), PermissionMode::Default);
    QVERIFY(!warning->isVisible());

    auto turnOn = question->findChild<QAbstractButton *>(QStringLiteral("confirmBypassButton"));
    QVERIFY(turnOn);
    if (confirm)
        turnOn->click();
    else
        question->button(QMessageBox::Cancel)->click();
    const PermissionMode expected = confirm ? PermissionMode::Bypass : PermissionMode::Default;
    QTRY_COMPARE(session()->permissionMode(), expected);
    QCOMPARE(bar->permissionMode(), expected);
    QCOMPARE(warning->isVisible(), confirm);
    QVERIFY(!session()->bypassUnconfirmed());
    // Asked once: showing the session again does not ask again.
    QTest::mouseClick(panel()->findChild<QToolButton *>(QStringLiteral("newSessionButton")),
                      Qt::LeftButton);
    QVERIFY(session()->sessionPath() != path);
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    QVERIFY(TestSupport::futureResult(m_window->resumeSession(path)));
    QTRY_COMPARE(session()->sessionPath(), path);
    QTest::qWait(50);
    QTRY_VERIFY(!bar->findChild<QMessageBox *>(QStringLiteral("bypassConfirmation")));
    QCOMPARE(session()->permissionMode(), expected);
}

void tst_Sessions::secondWindowIsReadOnlyAndLosesNothing()
{
    QString path;
    recordOneSession(QStringLiteral("explain main.cpp"),
                     QStringLiteral("It starts the app."),
                     &path);
    openWindow({ModelStep::text(QStringLiteral("It also reads the options."))});
    QVERIFY(TestSupport::futureResult(m_window->resumeSession(path)));
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    QVERIFY(!session()->isReadOnly());
    QVERIFY(!page()->readOnlyNotice()->isVisible());

    // A second window on the same session.
    auto secondModel = std::make_shared<ScriptedModel>(
        QList<ModelStep>{ModelStep::text(QStringLiteral("The copy goes on."))});
    Ui::AgentSetup setup;
    setup.model.client = secondModel;
    setup.model.label = QStringLiteral("scripted");
    setup.options.systemPrompt = QStringLiteral("You are tested.");
    setup.sessionsDirectory = m_sessionsDir->path();
    Ui::MainWindow second(setup);
    second.resize(1200, 760);
    second.show();
    QVERIFY(QTest::qWaitForWindowExposed(&second));
    QVERIFY(second.openRepository(m_repo->root()));
    QVERIFY(TestSupport::futureResult(second.resumeSession(path)));
    QTRY_VERIFY_WITH_TIMEOUT(second.session()->agent(), runTimeoutMs);
    Ui::ConversationPage *secondPage = second.conversationPage();

    // It shows the conversation, says why it cannot add to it, and cannot send.
    QVERIFY(second.session()->isReadOnly());
    QVERIFY(secondPage->readOnlyNotice()->isVisible());
    const QString notice
        = secondPage->readOnlyNotice()->findChild<QLabel *>(QStringLiteral("readOnlyText"))->text();
    QVERIFY2(notice.contains(QStringLiteral("open in another AgentDesk window")),
             qPrintable(notice));
    QVERIFY(!secondPage->composer()->isEnabled());
    QVERIFY(!secondPage->sendStopButton()->isEnabled());
    QCOMPARE(itemTexts(secondPage->conversation(), Ui::ConversationItem::Kind::User),
             QStringList{QStringLiteral("explain main.cpp")});
    QVERIFY(!second.followUpPanel()->agent());
    second.session()->send(QStringLiteral("sent anyway"));

    // The first window goes on; everything it did is in the file, in order.
    type(QStringLiteral("and the options?"));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 1, runTimeoutMs);
    waitForIdle();
    QString error;
    auto contents = SessionLog::load(path, &error);
    QVERIFY2(contents, qPrintable(error));
    QStringList texts;
    for (const Message &message : std::as_const(contents->messages))
        texts.append(message.text());
    QCOMPARE(texts,
             (QStringList{QStringLiteral("explain main.cpp"),
                          QStringLiteral("It starts the app."),
                          QStringLiteral("and the options?"),
                          QStringLiteral("It also reads the options.")}));
    QCOMPARE(secondModel->callCount(), 0);

    // The second window continues in a copy of its own, which it may write. Its row says it
    // is a copy from the moment it is selected (not "New conversation", nor the original's
    // title).
    QStringList selectedRows;
    QListWidget *secondList = second.sessionsPanel()->list();
    connect(secondList,
            &QListWidget::currentItemChanged,
            secondList,
            [&selectedRows, path](QListWidgetItem *item) {
                if (item && item->data(Ui::SessionItemDelegate::PathRole).toString() != path)
                    selectedRows.append(item->text());
            });
    QTest::mouseClick(secondPage->readOnlyNotice()->findChild<QToolButton *>(
                          QStringLiteral("forkButton")),
                      Qt::LeftButton);
    QTRY_VERIFY(second.session()->sessionPath() != path);
    // The copy has a page of its own (issue #19: a page per open session), in the read-only
    // one's place.
    secondPage = second.conversationPage();
    QVERIFY(!second.openSessions()->find(path));
    const QString copy = second.session()->sessionPath();
    QTRY_VERIFY_WITH_TIMEOUT(second.session()->agent(), runTimeoutMs);
    QCOMPARE(selectedRows, QStringList{QStringLiteral("explain main.cpp (copy)")});
    QCOMPARE(second.session()->title(), QStringLiteral("explain main.cpp (copy)"));
    QVERIFY(!second.session()->isReadOnly());
    QVERIFY(!secondPage->readOnlyNotice()->isVisible());
    QVERIFY(secondPage->composer()->isEnabled());
    secondPage->composer()->setFocus();
    QTest::keyClicks(secondPage->composer(), QStringLiteral("and in the copy?"));
    QTest::keyClick(secondPage->composer(), Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(secondModel->callCount(), 1, runTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(second.session()->state(), AgentSession::State::Idle, runTimeoutMs);
    QCOMPARE(userTexts(secondModel->contexts().constFirst()),
             (QStringList{QStringLiteral("explain main.cpp"),
                          QStringLiteral("and the options?"),
                          QStringLiteral("and in the copy?")}));
    QCOMPARE(SessionLog::load(path, &error)->messages.size(), 4); // the original is untouched
    QCOMPARE(SessionLog::load(copy, &error)->messages.size(), 6);
}

void tst_Sessions::crashKeepsDraftSteeringAndQueueAndMarksTheCall()
{
    openWindow({ModelStep::toolCall(QStringLiteral("gate-1"), QStringLiteral("Gate"), {})});
    type(QStringLiteral("fix the overflow"));
    QTRY_COMPARE_WITH_TIMEOUT(card(0) ? card(0)->state() : Ui::ToolCardItem::State::Pending,
                              Ui::ToolCardItem::State::Running,
                              runTimeoutMs);
    // Accepted while the Gate call runs: a steering message, a follow-up, and a draft.
    type(QStringLiteral("use index.ts instead"));
    type(QStringLiteral("run the tests"), Qt::AltModifier);
    QTest::keyClicks(page()->composer(), QStringLiteral("half a thought"));
    const QString path = session()->sessionPath();
    QString error;
    std::optional<SessionLog::Contents> contents;
    QTRY_VERIFY((contents = SessionLog::load(path, &error))
                && contents->state.value(u"draft").toString() == QStringLiteral("half a thought")
                && contents->state.value(u"steering").toArray().size() == 1
                && contents->state.value(u"followUps").toArray().size() == 1);
    const QString killed = snapshot(path);
    QVERIFY(!killed.isEmpty());
    m_gate.release();
    m_window.reset();

    openWindow({ModelStep::text(QStringLiteral("I will check it first.")),
                ModelStep::text(QStringLiteral("Tests pass."))});
    QVERIFY(TestSupport::futureResult(m_window->resumeSession(killed)));
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    QCOMPARE(page()->composer()->toPlainText(), QStringLiteral("half a thought"));
    // The steering was for the run the crash cut off: shown as not sent, sent only on request.
    QTRY_VERIFY(page()->leftoverSteering()->isVisible());
    QCOMPARE(page()->leftoverSteering()->texts(),
             QStringList{QStringLiteral("use index.ts instead")});
    QVERIFY(!page()->findChild<QLabel *>(QStringLiteral("pendingSteering"))->isVisible());
    QTRY_COMPARE(m_window->followUpPanel()->texts(), QStringList{QStringLiteral("run the tests")});
    QVERIFY(card(0));
    QCOMPARE(card(0)->state(), Ui::ToolCardItem::State::Failed);
    QVERIFY2(card(0)->outputText().startsWith(QStringLiteral("Interrupted")),
             qPrintable(card(0)->outputText()));
    contents = SessionLog::load(killed, &error);
    QVERIFY(contents->messages.constLast().isToolResult());
    QVERIFY(contents->messages.constLast().isError);
    QCOMPARE(contents->state.value(u"runInProgress").toBool(), false);

    // The model's history is consistent: the call has its result, saying what happened.
    page()->composer()->clear();
    type(QStringLiteral("did it finish?"));
    // Sent, the draft is gone from the file at once: a crash now does not bring it back.
    QCOMPARE(SessionLog::load(killed, &error)->state.value(u"draft").toString(), QString());
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 2, runTimeoutMs);
    waitForIdle();
    const QList<Message> sent = m_model->contexts().constFirst().messages;
    QCOMPARE(sent.at(2).toolCallId, QStringLiteral("gate-1"));
    QVERIFY(sent.at(2).text().startsWith(QStringLiteral("Interrupted")));
    QVERIFY(!userTexts(m_model->contexts().constFirst())
                 .contains(QStringLiteral("use index.ts instead")));
    QCOMPARE(userTexts(m_model->contexts().constLast()).constLast(),
             QStringLiteral("run the tests"));
}

void tst_Sessions::crashMidAnswerKeepsWhatStreamedMarked()
{
    openWindow({ModelStep::text(QStringLiteral("The overflow comes from the loop in main.cpp."))
                    .stallingAfter(5)});
    type(QStringLiteral("why does it overflow?"));
    const QString path = session()->sessionPath();
    QString error;
    std::optional<SessionLog::Contents> contents;
    QTRY_VERIFY((contents = SessionLog::load(path, &error)) && contents->partial);
    const QString streamed = contents->partial->text();
    const QString killed = snapshot(path);
    m_window.reset();

    openWindow({});
    QVERIFY(TestSupport::futureResult(m_window->resumeSession(killed)));
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    QCOMPARE(itemTexts(view(), Ui::ConversationItem::Kind::Assistant),
             QStringList{streamed.trimmed()});
    const QStringList notes = itemTexts(view(), Ui::ConversationItem::Kind::Note);
    QCOMPARE(notes.size(), 1);
    QVERIFY2(notes.constFirst().startsWith(QStringLiteral("Interrupted")),
             qPrintable(notes.constFirst()));
    // Kept as a message now: a second resume shows it once, not again as a partial.
    m_window.reset();
    openWindow({});
    QVERIFY(TestSupport::futureResult(m_window->resumeSession(killed)));
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    QCOMPARE(itemTexts(view(), Ui::ConversationItem::Kind::Assistant),
             QStringList{streamed.trimmed()});
    QCOMPARE(itemTexts(view(), Ui::ConversationItem::Kind::Note).size(), 1);
}

AGENTDESK_TEST_MAIN(tst_Sessions)

} // namespace tst_sessions

#include "tst_sessions.moc"
