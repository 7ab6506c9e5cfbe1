// Several sessions at once in one window: three run side by side with models of their own, the
// user switches between them with the keyboard while they stream, each page shows its own
// conversation and every session's file records what its page showed; the sessions list's
// badges follow (running, waiting for approval, failed, done unseen, seen), and closing the
// window while some run asks, stops them and records their end. A crash (SIGKILL) with three
// sessions streaming loses at most each one's line being written, and all three resume.
#include "../tools/toolstest.h"

#include <agentsession/agentsession.h>
#include <composer/composer.h>
#include <conversation/conversationitem.h>
#include <conversation/conversationview.h>
#include <futureresult.h>
#include <page/conversationpage.h>
#include <permissions/permissionbroker.h>
#include <review/reviewqueue.h>
#include <scriptedmodel.h>
#include <session/sessionlog.h>
#include <session/sessionstore.h>
#include <sessions/opensessions.h>
#include <sessions/sessionitemdelegate.h>
#include <sessions/sessionlist.h>
#include <sessions/sessionspanel.h>
#include <testmain.h>
#include <testtools.h>
#include <window/desktopnotifier.h>
#include <window/mainwindow.h>

#include <QAbstractButton>
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QListWidget>
#include <QMessageBox>
#include <QProcess>
#include <QSemaphore>
#include <QSet>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>
#include <QTimer>

#include <memory>

using namespace AgentCore;
namespace tst_opensessions {

using TestSupport::FunctionTool;
using TestSupport::ModelStep;
using TestSupport::ScriptedModel;
using Ui::AgentSession;
using Ui::SessionActivity;

namespace {

constexpr int runTimeoutMs = 15'000;

/// What a page shows of its conversation: user and assistant texts, in order.
QStringList shownTexts(const Ui::ConversationView *view)
{
    QStringList texts;
    for (int i = 0; i < view->itemCount(); ++i) {
        const Ui::ConversationItem *item = view->itemAt(i);
        if (item->kind() == Ui::ConversationItem::Kind::User
            || item->kind() == Ui::ConversationItem::Kind::Assistant)
            texts.append(item->plainText().trimmed());
    }
    texts.removeAll(QString()); // an assistant turn that only called a tool
    return texts;
}

/// The same of a session file.
QStringList recordedTexts(const QString &path)
{
    QString error;
    const std::optional<SessionLog::Contents> contents = SessionLog::load(path, &error);
    if (!contents)
        return {error};
    QStringList texts;
    for (const Message &message : contents->messages) {
        if ((message.isUser() || message.isAssistant()) && !message.text().trimmed().isEmpty())
            texts.append(message.text().trimmed());
    }
    return texts;
}

void answerNextMessageBox(const QString &text, QString *shownText)
{
    QTimer::singleShot(0, qApp, [text, shownText] {
        auto box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        QVERIFY(box);
        *shownText = box->text();
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

/// What session \a index of the crash test is asked, and streams (slowly, for half a minute:
/// it is killed long before the end).
QString crashTask(int index)
{
    return QStringLiteral("crash task %1").arg(index);
}
QString crashAnswer(int index)
{
    return QStringLiteral("Session %1 goes on writing its answer. ")
        .arg(index)
        .repeated(300)
        .trimmed();
}

void applyOrganisation()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_opensessions"));
}

/// The child process of threeSessionsKilledMidStreamAllResume: a window on \a repository with
/// three sessions (Ctrl+N, as the user makes them), each streaming its answer from a model of
/// its own. Once every session file holds part of its answer (a partial record), prints the
/// three files and "ready", then streams on until it is killed.
int streamThreeUntilKilled(const QString &repository, const QString &sessionsDirectory)
{
    applyOrganisation();
    Ui::AgentSetup setup;
    setup.model.client = std::make_shared<ScriptedModel>();
    setup.model.label = QStringLiteral("scripted");
    setup.options.systemPrompt = QStringLiteral("You are tested.");
    setup.options.context.autoCompact = false;
    setup.sessionsDirectory = sessionsDirectory;
    Ui::MainWindow window(setup);
    window.resize(1200, 760);
    window.show();
    if (!QTest::qWaitForWindowActive(&window) || !window.openRepository(repository))
        return 2;
    QStringList paths;
    for (int i = 0; i < 3; ++i) {
        if (i > 0)
            QTest::keyClick(&window, Qt::Key_N, Qt::ControlModifier);
        AgentSession *session = window.session();
        if (paths.contains(session->sessionPath()))
            return 3;
        Ui::ModelChoice choice;
        choice.client = std::make_shared<ScriptedModel>(
            QList<ModelStep>{ModelStep::text(crashAnswer(i)).withChunkPause(25)});
        choice.label = QStringLiteral("scripted %1").arg(i);
        session->setModel(choice);
        if (!QTest::qWaitFor([session] { return session->agent() != nullptr; }, runTimeoutMs))
            return 4;
        session->send(crashTask(i));
        paths.append(session->sessionPath());
    }
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &window, [&] {
        for (const QString &path : std::as_const(paths)) {
            QString error;
            const std::optional<SessionLog::Contents> contents = SessionLog::load(path, &error);
            if (!contents || !contents->partial || contents->partial->text().isEmpty())
                return;
        }
        poll.stop();
        QTextStream out(stdout);
        for (const QString &path : std::as_const(paths))
            out << path << Qt::endl;
        out << "ready" << Qt::endl;
    });
    poll.start(20);
    return QCoreApplication::exec();
}

} // namespace

class tst_OpenSessions : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { applyOrganisation(); }
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

    void threeSessionsRunAtOnceAndSwitchWithTheKeyboard();
    void closingWithRunningSessionsAsksAndRecordsTheirEnd();
    void notificationClickShowsItsSession();
    void deletingARunningSessionStopsIt();
    void switchingBackToALongConversationDoesNotRebuildIt();
    void threeSessionsKilledMidStreamAllResume();
    void aMessageRereadsNoOtherSessionFile();

private:
    void openWindow();
    /// A new session with Ctrl+N, on a model of its own.
    AgentSession *newSession(const QList<ModelStep> &steps);
    void type(const QString &text)
    {
        Ui::Composer *composer = page()->composer();
        QTest::keyClicks(composer, text);
        QTest::keyClick(composer, Qt::Key_Return);
    }
    void press(Qt::Key key, Qt::KeyboardModifiers modifiers = Qt::ControlModifier)
    {
        QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : m_window.get(),
                        key,
                        modifiers);
    }
    SessionActivity badge(const AgentSession *session) const
    {
        return m_window->openSessions()->activity(session);
    }
    /// The badge the sessions list paints for \a session's row.
    SessionActivity listedBadge(const AgentSession *session) const
    {
        QListWidget *list = m_window->sessionsPanel()->list();
        for (int row = 0; row < list->count(); ++row) {
            const QListWidgetItem *item = list->item(row);
            if (item->data(Ui::SessionItemDelegate::PathRole).toString() == session->sessionPath())
                return SessionActivity(item->data(Ui::SessionItemDelegate::ActivityRole).toInt());
        }
        return SessionActivity(-1);
    }

    Ui::ConversationPage *page() const { return m_window->conversationPage(); }
    AgentSession *session() const { return m_window->session(); }

    std::unique_ptr<ToolsTest::Repo> m_repo;
    std::unique_ptr<QTemporaryDir> m_sessionsDir;
    std::unique_ptr<Ui::MainWindow> m_window;
    QList<std::shared_ptr<ScriptedModel>> m_models;
    QSemaphore m_gate;
};

void tst_OpenSessions::openWindow()
{
    m_window.reset();
    m_models.clear();
    auto gateTool = FunctionTool::make(QStringLiteral("Gate"),
                                       {},
                                       ExecutionMode::Parallel,
                                       [this](const ToolCallContext &) {
                                           m_gate.tryAcquire(1, 10'000);
                                           return ToolResult::makeText(QStringLiteral("opened"));
                                       });
    Ui::AgentSetup setup;
    // Each session gets a model of its own (newSession); this one is never asked.
    setup.model.client = std::make_shared<ScriptedModel>();
    setup.model.label = QStringLiteral("scripted");
    setup.options.systemPrompt = QStringLiteral("You are tested.");
    setup.options.tools.extra = {gateTool};
    setup.options.context.autoCompact = false;
    setup.sessionsDirectory = m_sessionsDir->path();
    m_window = std::make_unique<Ui::MainWindow>(setup);
    m_window->resize(1200, 760);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QVERIFY(m_window->openRepository(m_repo->root()));
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    page()->composer()->setFocus();
}

AgentSession *tst_OpenSessions::newSession(const QList<ModelStep> &steps)
{
    AgentSession *before = session();
    if (before->state() != AgentSession::State::Idle
        || QFile::exists(before->sessionPath())) { // the window's first one is reused
        press(Qt::Key_N);
    }
    auto model = std::make_shared<ScriptedModel>(steps);
    m_models.append(model);
    Ui::ModelChoice choice;
    choice.client = model;
    choice.label = QStringLiteral("scripted %1").arg(m_models.size());
    session()->setModel(choice);
    [&] { QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs); }();
    [&] { QTRY_COMPARE(QApplication::focusWidget(), page()->composer()); }();
    return session();
}

void tst_OpenSessions::threeSessionsRunAtOnceAndSwitchWithTheKeyboard()
{
    openWindow();
    // A: held by the gate, then answers slowly, in many pieces.
    const QString longAnswer
        = QStringLiteral("Alpha answer, streamed in small pieces. ").repeated(8).trimmed();
    AgentSession *a = newSession(
        {ModelStep::toolCall(QStringLiteral("gate-1"), QStringLiteral("Gate"), {}),
         ModelStep::text(longAnswer).withChunkPause(10)});
    Ui::ConversationPage *pageA = page();
    type(QStringLiteral("task alpha"));
    QTRY_COMPARE_WITH_TIMEOUT(badge(a), SessionActivity::Running, runTimeoutMs);

    // B, with Ctrl+N while A runs: writes a file, which waits for the user's approval.
    AgentSession *b = newSession(
        {ModelStep::toolCall(QStringLiteral("w1"),
                             QStringLiteral("Write"),
                             {{QStringLiteral("file_path"), QStringLiteral("notes.txt")},
                              {QStringLiteral("content"), QStringLiteral("hello\n")}}),
         ModelStep::text(QStringLiteral("Bravo wrote the notes."))});
    QVERIFY(b != a);
    Ui::ConversationPage *pageB = page();
    QVERIFY(pageB != pageA);
    type(QStringLiteral("task bravo"));
    QTRY_COMPARE_WITH_TIMEOUT(badge(b), SessionActivity::Waiting, runTimeoutMs);
    // The badge and the review card each take their own queued copy of the broker's signal,
    // posted one after the other from the agent's thread: the card may come a moment later.
    QTRY_COMPARE(pageB->reviews()->count(), 1);
    QCOMPARE(badge(a), SessionActivity::Running); // A never stopped

    // C fails.
    AgentSession *c = newSession(
        {ModelStep::failure(StopReason::Error, QStringLiteral("HTTP 529: overloaded"))});
    Ui::ConversationPage *pageC = page();
    type(QStringLiteral("task charlie"));
    QTRY_COMPARE_WITH_TIMEOUT(badge(c), SessionActivity::Failed, runTimeoutMs);
    QCOMPARE(m_window->openSessions()->sessions(), (QList<AgentSession *>{a, b, c}));
    QCOMPARE(m_window->openSessions()->runningCount(), 2);
    QTRY_COMPARE(listedBadge(a), SessionActivity::Running);
    QCOMPARE(listedBadge(b), SessionActivity::Waiting);
    QCOMPARE(listedBadge(c), SessionActivity::Failed);

    // Ctrl+1: A's page as it was, not rebuilt; then A streams while the user looks at C.
    press(Qt::Key_1);
    QCOMPARE(session(), a);
    QCOMPARE(page(), pageA);
    QCOMPARE(QApplication::focusWidget(), pageA->composer());
    const Ui::ConversationItem *firstItem = pageA->conversation()->itemAt(0);
    QVERIFY(shownTexts(pageA->conversation()).contains(QStringLiteral("task alpha")));
    m_gate.release();
    QTRY_VERIFY_WITH_TIMEOUT(m_models.at(0)->emittedEvents() > 0 && m_models.at(0)->callCount() == 2,
                             runTimeoutMs);
    press(Qt::Key_3);
    QCOMPARE(session(), c);
    QCOMPARE(page(), pageC);
    // Back and forth while it streams: each page keeps its own conversation.
    press(Qt::Key_Tab);
    QCOMPARE(session(), a);
    QCOMPARE(pageA->conversation()->itemAt(0), firstItem);
    press(Qt::Key_Backtab, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(session(), c);
    QVERIFY(!shownTexts(pageC->conversation()).contains(QStringLiteral("task alpha")));
    QTRY_COMPARE_WITH_TIMEOUT(a->state(), AgentSession::State::Idle, runTimeoutMs);
    QCOMPARE(badge(a), SessionActivity::Unseen); // it ended out of sight
    QTRY_COMPARE(listedBadge(a), SessionActivity::Unseen);
    QCOMPARE(shownTexts(pageA->conversation()).constLast(), longAnswer);

    // Looking at it clears the badge.
    press(Qt::Key_1);
    QCOMPARE(session(), a);
    QCOMPARE(badge(a), SessionActivity::None);
    QTRY_COMPARE(listedBadge(a), SessionActivity::None);

    // Ctrl+Tab to B, whose review waited all along; Ctrl+Enter approves it.
    press(Qt::Key_Tab);
    QCOMPARE(session(), b);
    QCOMPARE(page(), pageB);
    QTRY_VERIFY(pageB->reviews()->isVisible());
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QTest::keyClick(pageB->composer(), Qt::Key_Return, Qt::ControlModifier);
    QTRY_COMPARE_WITH_TIMEOUT(b->state(), AgentSession::State::Idle, runTimeoutMs);
    QCOMPARE(badge(b), SessionActivity::None); // finished in sight
    QVERIFY(QFile::exists(m_repo->path(QStringLiteral("notes.txt"))));

    // Every session's file holds what its page showed, and only that.
    const QList<std::pair<AgentSession *, Ui::ConversationPage *>> pairs{{a, pageA},
                                                                         {b, pageB},
                                                                         {c, pageC}};
    for (const auto &[s, p] : pairs) {
        const QStringList shown = shownTexts(p->conversation());
        QVERIFY2(!shown.isEmpty(), qPrintable(s->sessionPath()));
        QCOMPARE(recordedTexts(s->sessionPath()), shown);
    }
    QCOMPARE(shownTexts(pageA->conversation()),
             (QStringList{QStringLiteral("task alpha"), longAnswer}));
    QCOMPARE(shownTexts(pageB->conversation()),
             (QStringList{QStringLiteral("task bravo"), QStringLiteral("Bravo wrote the notes.")}));
    QCOMPARE(shownTexts(pageC->conversation()).constFirst(), QStringLiteral("task charlie"));
    // Each model saw its own session's task only.
    QCOMPARE(m_models.at(0)->contexts().constFirst().messages.constLast().text(),
             QStringLiteral("task alpha"));
    QCOMPARE(m_models.at(1)->contexts().constFirst().messages.constLast().text(),
             QStringLiteral("task bravo"));
    QCOMPARE(m_models.at(2)->contexts().constFirst().messages.constLast().text(),
             QStringLiteral("task charlie"));
}

void tst_OpenSessions::closingWithRunningSessionsAsksAndRecordsTheirEnd()
{
    openWindow();
    AgentSession *a = newSession(
        {ModelStep::toolCall(QStringLiteral("gate-1"), QStringLiteral("Gate"), {}),
         ModelStep::text(QStringLiteral("never asked"))});
    type(QStringLiteral("long task one"));
    AgentSession *b = newSession({ModelStep::waitForAbort()});
    type(QStringLiteral("long task two"));
    QTRY_COMPARE_WITH_TIMEOUT(m_window->openSessions()->runningCount(), 2, runTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(m_models.at(0)->callCount(), 1, runTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(m_models.at(1)->callCount(), 1, runTimeoutMs);
    const QString pathA = a->sessionPath();
    const QString pathB = b->sessionPath();

    // Cancel: nothing stops.
    QString asked;
    answerNextMessageBox(QStringLiteral("Cancel"), &asked);
    m_window->close();
    QVERIFY(m_window->isVisible());
    QVERIFY2(asked.startsWith(QStringLiteral("2 session")), qPrintable(asked));
    QCOMPARE(m_window->openSessions()->runningCount(), 2);

    // Stop and Close: both end, their ends are recorded, then the window closes.
    answerNextMessageBox(QStringLiteral("Stop and Close"), &asked);
    m_window->close();
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->isVisible(), runTimeoutMs);
    QCOMPARE(m_window->openSessions()->runningCount(), 0);
    QCOMPARE(m_models.at(0)->callCount(), 1); // the gate's run never went on
    for (const QString &path : {pathA, pathB}) {
        QString error;
        const std::optional<SessionLog::Contents> contents = SessionLog::load(path, &error);
        QVERIFY2(contents, qPrintable(error));
        QVERIFY(!contents->partial); // no answer left cut off
        QVERIFY(!contents->messages.isEmpty());
        // The run's last message is its end: the aborted answer, or the aborted call's result.
        const Message &last = contents->messages.constLast();
        QVERIFY2((last.isAssistant() && last.stopReason == StopReason::Aborted)
                     || (last.isToolResult() && last.isError),
                 qPrintable(path));
    }
}

void tst_OpenSessions::notificationClickShowsItsSession()
{
    openWindow();
    AgentSession *a = newSession({ModelStep::text(QStringLiteral("First."))});
    type(QStringLiteral("first task"));
    QTRY_COMPARE_WITH_TIMEOUT(a->state(), AgentSession::State::Idle, runTimeoutMs);
    Ui::ConversationPage *pageA = page();
    AgentSession *b = newSession({ModelStep::text(QStringLiteral("Second."))});
    QVERIFY(b != a);
    emit m_window->notifier()->activated(a->sessionPath());
    QCOMPARE(session(), a);
    QCOMPARE(page(), pageA); // shown, not resumed again
    QCOMPARE(m_window->openSessions()->count(), 2);
}

void tst_OpenSessions::deletingARunningSessionStopsIt()
{
    openWindow();
    AgentSession *a = newSession({ModelStep::waitForAbort()});
    type(QStringLiteral("doomed task"));
    QTRY_COMPARE_WITH_TIMEOUT(m_models.at(0)->callCount(), 1, runTimeoutMs);
    const QString path = a->sessionPath();
    QTRY_VERIFY(QFile::exists(path));
    AgentSession *b = newSession({ModelStep::text(QStringLiteral("Kept."))});
    Q_UNUSED(b);
    QListWidget *list = m_window->sessionsPanel()->list();
    int row = -1;
    for (int i = 0; i < list->count(); ++i) {
        if (list->item(i)->data(Ui::SessionItemDelegate::PathRole).toString() == path)
            row = i;
    }
    QVERIFY(row >= 0);
    QString asked;
    answerNextMessageBox(QStringLiteral("Delete"), &asked);
    m_window->sessionsPanel()->confirmDelete(row);
    QTRY_VERIFY(!QFile::exists(path));
    QVERIFY(!m_window->openSessions()->find(path));
    QCOMPARE(m_window->openSessions()->runningCount(), 0);
}

void tst_OpenSessions::switchingBackToALongConversationDoesNotRebuildIt()
{
    // 2,000 messages on disk, resumed once (built once), then left and come back to.
    const QString path = QDir(m_sessionsDir->path()).filePath(QStringLiteral("20260101-long.jsonl"));
    {
        QString error;
        const std::unique_ptr<SessionLog> log
            = SessionLog::open(path, SessionStore::newHeader(m_repo->root()), &error);
        QVERIFY2(log, qPrintable(error));
        for (int i = 0; i < 1000; ++i) {
            Message answer;
            answer.role = Message::Role::Assistant;
            answer.content << ContentBlock::makeText(
                QStringLiteral("Answer %1: the *parser* reads `line %1` again.").arg(i));
            answer.stopReason = StopReason::Stop;
            QVERIFY(log->appendMessage(Message::makeUser(QStringLiteral("task %1").arg(i)), &error));
            QVERIFY(log->appendMessage(answer, &error));
        }
    }
    openWindow();
    QVERIFY(TestSupport::futureResult(m_window->resumeSession(path)));
    AgentSession *longSession = session();
    Ui::ConversationPage *longPage = page();
    QTRY_VERIFY_WITH_TIMEOUT(longSession->agent(), runTimeoutMs);
    const int items = longPage->conversation()->itemCount();
    QVERIFY(items >= 2000);
    const Ui::ConversationItem *first = longPage->conversation()->itemAt(0);
    const Ui::ConversationItem *last = longPage->conversation()->itemAt(items - 1);

    newSession({ModelStep::text(QStringLiteral("Short."))});
    type(QStringLiteral("a short task"));
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
    QVERIFY(session() != longSession);

    // The sessions list is not read again from disk for a switch (every file, the long one
    // too): its rows stay, only the marker of the one shown moves. A row made again would
    // not carry this mark.
    QListWidget *list = m_window->sessionsPanel()->list();
    const auto rowOf = [list](const AgentSession *of) -> QListWidgetItem * {
        for (int row = 0; row < list->count(); ++row) {
            if (list->item(row)->data(Ui::SessionItemDelegate::PathRole).toString()
                == of->sessionPath())
                return list->item(row);
        }
        return nullptr;
    };
    constexpr int markRole = Qt::UserRole + 999;
    AgentSession *shortSession = session();
    QVERIFY(rowOf(longSession) && rowOf(shortSession));
    {
        const QSignalBlocker quiet(list); // a changed item is otherwise taken for a rename
        rowOf(longSession)->setData(markRole, true);
    }
    QVERIFY(rowOf(shortSession)->data(Ui::SessionItemDelegate::CurrentRole).toBool());

    QElapsedTimer timer;
    timer.start();
    press(Qt::Key_1);
    QCoreApplication::processEvents(); // the page is laid out and painted as it is shown
    const qint64 elapsed = timer.elapsed();
    QCOMPARE(session(), longSession);
    QCOMPARE(page(), longPage);
    // The same items, not made again.
    QCOMPARE(longPage->conversation()->itemCount(), items);
    QCOMPARE(longPage->conversation()->itemAt(0), first);
    QCOMPARE(longPage->conversation()->itemAt(items - 1), last);
    QVERIFY(rowOf(longSession)->data(markRole).toBool());
    QVERIFY(rowOf(longSession)->data(Ui::SessionItemDelegate::CurrentRole).toBool());
    QVERIFY(!rowOf(shortSession)->data(Ui::SessionItemDelegate::CurrentRole).toBool());
    qInfo("switching to a session of 2,000 messages: %lld ms", elapsed);
}

// Issue #19, faults: a crash with three running sessions loses at most each one's line being
// written, and all three resume. A child process runs the window and is killed (SIGKILL: no
// destructor, no last record) while the three stream; a window here resumes each file.
void tst_OpenSessions::threeSessionsKilledMidStreamAllResume()
{
    QProcess child;
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    child.start(QCoreApplication::applicationFilePath(),
                TestSupport::thisTestWith({QStringLiteral("--stream-three-until-killed"),
                                           m_repo->root(),
                                           m_sessionsDir->path()}));
    QStringList paths;
    while (!paths.contains(QStringLiteral("ready"))) {
        QVERIFY2(child.canReadLine() || child.waitForReadyRead(60'000),
                 qPrintable(paths.join(u'|')));
        while (child.canReadLine())
            paths.append(QString::fromLocal8Bit(child.readLine().trimmed()));
    }
    paths.removeAll(QStringLiteral("ready"));
    QCOMPARE(paths.size(), 3);
    QCOMPARE(QSet<QString>(paths.cbegin(), paths.cend()).size(), 3); // a file each
    // The child holds all three: no other window or process may write them meanwhile.
    for (const QString &path : std::as_const(paths)) {
        QString holder;
        QVERIFY(SessionLog::isBusy(path, &holder));
        QVERIFY2(holder.contains(QString::number(child.processId())), qPrintable(holder));
    }
    child.kill(); // SIGKILL while the three stream
    QVERIFY(child.waitForFinished(30'000));
    QCOMPARE(child.exitStatus(), QProcess::CrashExit);

    // A kill in the middle of an append leaves half a line: the third file ends so.
    {
        QFile file(paths.at(2));
        QVERIFY(file.open(QIODevice::Append));
        file.write(R"({"message":{"content":[{"text":"Session 2 goes on wri)");
    }

    // Every file loads; what it holds is the task and a beginning of the answer being written.
    QStringList streamed;
    for (int i = 0; i < 3; ++i) {
        QString error;
        const std::optional<SessionLog::Contents> contents = SessionLog::load(paths.at(i), &error);
        QVERIFY2(contents, qPrintable(error));
        QCOMPARE(contents->warnings.size(), i == 2 ? 1 : 0);
        QCOMPARE(contents->messages.size(), 1);
        QCOMPARE(contents->messages.constFirst().text(), crashTask(i));
        QVERIFY(contents->partial);
        const QString text = contents->partial->text();
        QVERIFY(!text.isEmpty());
        QVERIFY2(crashAnswer(i).startsWith(text), qPrintable(text));
        QVERIFY(!SessionLog::isBusy(paths.at(i))); // the dead process's lock is taken over
        streamed.append(text.trimmed());
    }

    // A new window resumes each, shows what was written and goes on with it.
    openWindow();
    QList<AgentSession *> resumed;
    for (int i = 0; i < 3; ++i) {
        QVERIFY(TestSupport::futureResult(m_window->resumeSession(paths.at(i))));
        AgentSession *s = session();
        QVERIFY(!resumed.contains(s));
        resumed.append(s);
        auto model = std::make_shared<ScriptedModel>(
            QList<ModelStep>{ModelStep::text(QStringLiteral("Resumed %1.").arg(i))});
        m_models.append(model);
        Ui::ModelChoice choice;
        choice.client = model;
        choice.label = QStringLiteral("scripted after the crash %1").arg(i);
        s->setModel(choice);
        QTRY_VERIFY_WITH_TIMEOUT(s->agent(), runTimeoutMs);
        QVERIFY(!s->isReadOnly());
        if (i == 2) { // the torn line is said, not a failed load
            QTRY_VERIFY2(m_window->statusBar()->currentMessage().contains(
                             QStringLiteral("cut off")),
                         qPrintable(m_window->statusBar()->currentMessage()));
        }
        QCOMPARE(shownTexts(page()->conversation()), (QStringList{crashTask(i), streamed.at(i)}));
        page()->composer()->setFocus();
        type(QStringLiteral("go on %1").arg(i));
    }
    QCOMPARE(m_window->openSessions()->count(), 3);
    // Opening one of them again shows the open one: it is never opened (and written) twice.
    QVERIFY(TestSupport::futureResult(m_window->resumeSession(paths.at(0))));
    QCOMPARE(session(), resumed.at(0));
    QCOMPARE(m_window->openSessions()->count(), 3);

    for (int i = 0; i < 3; ++i) {
        AgentSession *s = resumed.at(i);
        QTRY_COMPARE_WITH_TIMEOUT(m_models.at(i)->callCount(), 1, runTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(s->state(), AgentSession::State::Idle, runTimeoutMs);
        // The model saw the conversation as it was cut off, then the new task.
        const QList<Message> sent = m_models.at(i)->contexts().constFirst().messages;
        QCOMPARE(sent.constFirst().text(), crashTask(i));
        QCOMPARE(sent.constLast().text(), QStringLiteral("go on %1").arg(i));
        QCOMPARE(recordedTexts(paths.at(i)),
                 (QStringList{crashTask(i),
                              streamed.at(i),
                              QStringLiteral("go on %1").arg(i),
                              QStringLiteral("Resumed %1.").arg(i)}));
    }
}

// The sessions list of a folder of 200 sessions: a message in one of them updates its row from
// what the session knows, without reading any file (the others were renamed on disk behind
// the window's back, and still show their old names); a file another process adds is found,
// and then every file is read again, off the UI thread.
void tst_OpenSessions::aMessageRereadsNoOtherSessionFile()
{
    QStringList paths;
    for (int i = 0; i < 200; ++i) {
        const QString path = QDir(m_sessionsDir->path())
                                 .filePath(QStringLiteral("20260101-000000-%1.jsonl")
                                               .arg(i, 3, 10, QLatin1Char('0')));
        QString error;
        const std::unique_ptr<SessionLog> log
            = SessionLog::open(path, SessionStore::newHeader(m_repo->root()), &error);
        QVERIFY2(log, qPrintable(error));
        QVERIFY(log->appendMessage(Message::makeUser(QStringLiteral("session %1").arg(i)), &error));
        paths.append(path);
    }
    openWindow();
    Ui::SessionList *sessionList = m_window->sessionList();
    Ui::SessionsPanel *panel = m_window->sessionsPanel();
    QTRY_VERIFY(!sessionList->isScanning());
    QCOMPARE(panel->list()->count(), 201); // and the new conversation

    QVERIFY(TestSupport::futureResult(m_window->resumeSession(paths.at(0))));
    AgentSession *resumed = session();
    auto model = std::make_shared<ScriptedModel>(
        QList<ModelStep>{ModelStep::text(QStringLiteral("Answered."))});
    m_models.append(model);
    Ui::ModelChoice choice;
    choice.client = model;
    choice.label = QStringLiteral("scripted");
    resumed->setModel(choice);
    QTRY_VERIFY_WITH_TIMEOUT(resumed->agent(), runTimeoutMs);
    QTRY_VERIFY(!sessionList->isScanning()); // its lock file was a change of the folder
    QCOMPARE(panel->list()->count(), 200);

    // Renamed behind the window's back: appended records change no folder.
    for (int i = 1; i < 200; ++i) {
        QFile file(paths.at(i));
        QVERIFY(file.open(QIODevice::Append));
        file.write(QStringLiteral("{\"title\":\"renamed elsewhere %1\",\"type\":\"state\"}\n")
                       .arg(i)
                       .toUtf8());
    }
    page()->composer()->setFocus();
    type(QStringLiteral("one more task"));
    QTRY_COMPARE_WITH_TIMEOUT(resumed->state(), AgentSession::State::Idle, runTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(model->callCount(), 1, runTimeoutMs);
    QVERIFY(!sessionList->isScanning());
    // Its row is the newest, with the messages it has now; no other file was read.
    QListWidgetItem *top = panel->list()->item(0);
    QCOMPARE(top->data(Ui::SessionItemDelegate::PathRole).toString(), paths.at(0));
    QCOMPARE(top->text(), QStringLiteral("session 0"));
    QVERIFY2(top->data(Ui::SessionItemDelegate::DetailRole).toString().startsWith(u'3'),
             qPrintable(top->data(Ui::SessionItemDelegate::DetailRole).toString()));
    QCOMPARE(recordedTexts(paths.at(0)).size(), 3);
    const QStringList titles = panel->titles();
    QCOMPARE(titles.size(), 200);
    for (const QString &title : titles)
        QVERIFY2(title.startsWith(QStringLiteral("session ")), qPrintable(title));

    // Another process adds a session: listed, and the folder read again.
    {
        QString error;
        const std::unique_ptr<SessionLog> log = SessionLog::open(
            QDir(m_sessionsDir->path()).filePath(QStringLiteral("elsewhere.jsonl")),
            SessionStore::newHeader(m_repo->root()),
            &error);
        QVERIFY2(log, qPrintable(error));
        QVERIFY(log->appendMessage(Message::makeUser(QStringLiteral("made elsewhere")), &error));
    }
    QTRY_VERIFY_WITH_TIMEOUT(panel->titles().contains(QStringLiteral("made elsewhere")),
                             runTimeoutMs);
    QTRY_VERIFY(!sessionList->isScanning());
    QCOMPARE(panel->list()->count(), 201);
    QVERIFY(panel->titles().contains(QStringLiteral("renamed elsewhere 199")));
    QCOMPARE(panel->currentPath(), paths.at(0));
}

static int openSessionsMain(int argc, char **argv)
{
    QApplication app(argc, argv);
    if (argc == 4 && qstrcmp(argv[1], "--stream-three-until-killed") == 0)
        return streamThreeUntilKilled(QString::fromLocal8Bit(argv[2]),
                                      QString::fromLocal8Bit(argv[3]));
    app.setAttribute(Qt::AA_Use96Dpi, true);
    tst_OpenSessions test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

AGENTDESK_TEST_ENTRY(openSessionsMain)

} // namespace tst_opensessions

#include "tst_opensessions.moc"
