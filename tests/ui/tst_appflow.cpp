// The whole window on a temporary git repository with a scripted model: what a user does
// (types, presses Enter, Alt+Enter, Esc, clicks Allow or Deny) and what they see and get
// (bubbles, reviews, files on disk, the next model request).
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
#include <review/diffreviewview.h>
#include <review/reviewqueue.h>
#include <scriptedmodel.h>
#include <sessions/sessionspanel.h>
#include <statusbar/agentstatusbar.h>
#include <testmain.h>
#include <testtools.h>
#include <window/changedfilespanel.h>
#include <window/followuppanel.h>
#include <window/mainwindow.h>

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QScrollBar>
#include <QSemaphore>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTest>
#include <QToolButton>

#include <memory>

using namespace AgentCore;
namespace tst_appflow {

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

/// "name: output" of each tool card, in order, with the card's state.
QStringList toolCards(const Ui::ConversationView *view)
{
    QStringList cards;
    for (int i = 0; i < view->itemCount(); ++i) {
        if (view->itemAt(i)->kind() != Ui::ConversationItem::Kind::ToolCard)
            continue;
        const auto card = static_cast<const Ui::ToolCardItem *>(view->itemAt(i));
        cards.append(card->toolName() + u": " + card->outputText().trimmed()
                     + (card->state() == Ui::ToolCardItem::State::Succeeded
                            ? QString()
                            : QStringLiteral(" (not done)")));
    }
    return cards;
}

/// The user messages of a model request, in order.
QStringList userTexts(const Context &context)
{
    QStringList texts;
    for (const Message &message : context.messages) {
        if (message.isUser())
            texts.append(message.text());
    }
    return texts;
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

class tst_AppFlow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_appflow"));
    }

    void cleanup()
    {
        m_gate.release(100); // a tool still waiting ends, so the window can close at once
        m_window.reset();
        m_repo.reset();
        m_gate.acquire(m_gate.available());
    }

    void streamedTextRendersAndEscStops();
    void discardRemovesTheDraftBubble();
    void overflowIsCompactedAndSaidSo();
    void stoppingWhileTheSummaryIsWrittenClearsItsStatus();
    void approveWritesTheFile();
    void denyKeepsTheFileAndTheModelSeesTheFeedback();
    void partlyApprovedChangeWritesOnlyTheCheckedHunks();
    void stopDuringAStubbornToolIsIdleWithin200ms();
    void steeringLandsBeforeTheNextModelCall();
    void followUpsRunInQueueOrderAfterTheTask();
    void reorderAndSendNow();
    void permissionModeSwitchReachesThePolicy();
    void idsRepeatedAcrossRepliesGetCardsOfTheirOwn();
    void escStopsWhereverTheFocusIs_data();
    void escStopsWhereverTheFocusIs();
    void ctrlEnterInTheComposerAnswersTheReview();
    void escInTheComposerGoesToTheReviewAndBack();
    void sendingShowsTheTaskEvenWhenScrolledUp();
    void arrivingReviewShowsItsCall();
    void tabFollowsTheLayout();

private:
    /// Opens a window on a fresh repository whose agent plays \a steps.
    void openWindow(const QList<ModelStep> &steps);
    /// A model step that calls the "Gate" tool, which waits until the test releases m_gate.
    static ModelStep gateCall(const QString &id = QStringLiteral("gate-1"))
    {
        return ModelStep::toolCall(id, QStringLiteral("Gate"), {});
    }
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
    /// Waits until the gate tool runs.
    void waitForGate() { QTRY_VERIFY_WITH_TIMEOUT(m_gateTool->calls() > 0, runTimeoutMs); }
    void clickAnswer(const char *buttonName)
    {
        auto button = page()->reviews()->currentView()->findChild<QAbstractButton *>(
            QLatin1String(buttonName));
        QVERIFY(button);
        QTest::mouseClick(button, Qt::LeftButton);
    }

    /// A first task whose answer is taller than the conversation, so that it can scroll.
    static ModelStep longAnswer()
    {
        QStringList lines;
        for (int i = 1; i <= 80; ++i)
            lines << QStringLiteral("%1. a finding about the overflow").arg(i);
        return ModelStep::text(lines.join(u'\n'));
    }
    /// Focuses \a widget the way Tab or a click would, in the active window.
    static bool focus(QWidget *widget)
    {
        widget->setFocus(Qt::TabFocusReason);
        return QTest::qWaitFor([widget] { return widget->hasFocus(); });
    }

    /// Presses Tab until the focus is back where it started: the names of the widgets it met.
    QStringList tabAround();
    static void checkOrder(const QStringList &visited, const QStringList &expected);

    Ui::ConversationPage *page() const { return m_window->conversationPage(); }
    AgentSession *session() const { return m_window->session(); }
    Ui::ConversationView *view() const { return page()->conversation(); }

    std::unique_ptr<ToolsTest::Repo> m_repo;
    std::shared_ptr<ScriptedModel> m_model;
    std::shared_ptr<FunctionTool> m_gateTool;
    std::unique_ptr<Ui::MainWindow> m_window;
    QSemaphore m_gate;
};

void tst_AppFlow::openWindow(const QList<ModelStep> &steps)
{
    m_repo = std::make_unique<ToolsTest::Repo>();
    QVERIFY(m_repo->isValid());
    m_model = std::make_shared<ScriptedModel>(steps);
    // A read-only tool that ignores its abort token: it waits for the test, up to 10 s.
    m_gateTool = FunctionTool::make(QStringLiteral("Gate"),
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
    setup.options.tools.extra = {m_gateTool};
    m_window = std::make_unique<Ui::MainWindow>(setup);
    m_window->resize(1100, 760);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get())); // shortcuts need the active window
    QVERIFY(m_window->openRepository(m_repo->root()));
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    page()->composer()->setFocus();
}

void tst_AppFlow::streamedTextRendersAndEscStops()
{
    ModelStep step = ModelStep::text(QStringLiteral("Reading loop.ts first, then crash.log."));
    step.chunkSize = 4;
    openWindow({step.stallingAfter(4)});

    type(QStringLiteral("fix the crash"));
    QTRY_COMPARE(session()->state(), AgentSession::State::Running);
    QCOMPARE(page()->sendStopButton()->text(), QStringLiteral("Stop"));
    // The first pieces are on screen while the model is still writing.
    // (The bubble may show before its first words: wait for them, not for the bubble.)
    QTRY_VERIFY(!itemTexts(view(), Ui::ConversationItem::Kind::Assistant).isEmpty()
                && !itemTexts(view(), Ui::ConversationItem::Kind::Assistant).constFirst().isEmpty());
    const QString partial = itemTexts(view(), Ui::ConversationItem::Kind::Assistant).constFirst();
    QVERIFY2(partial.startsWith(QStringLiteral("Read")), qPrintable(partial));
    QVERIFY(partial.size() < step.message.text().size());
    QCOMPARE(itemTexts(view(), Ui::ConversationItem::Kind::User),
             QStringList{QStringLiteral("fix the crash")});
    QVERIFY(m_window->agentStatusBar()->runStateText().startsWith(QStringLiteral("Working")));

    QTest::keyClick(page()->composer(), Qt::Key_Escape);
    waitForIdle();
    QCOMPARE(page()->sendStopButton()->text(), QStringLiteral("Send"));
    QVERIFY(
        itemTexts(view(), Ui::ConversationItem::Kind::Note).contains(QStringLiteral("Stopped.")));
    QCOMPARE(m_window->agentStatusBar()->runStateText(), QStringLiteral("Ready"));
}

void tst_AppFlow::discardRemovesTheDraftBubble()
{
    openWindow({ModelStep::fakeToolCall(), ModelStep::text(QStringLiteral("Done natively."))});
    type(QStringLiteral("read loop.ts"));
    waitForIdle();
    // The draft with the fake call is gone once its fade-out ends; the retried answer stays.
    QTRY_COMPARE(itemTexts(view(), Ui::ConversationItem::Kind::Assistant),
                 QStringList{QStringLiteral("Done natively.")});
    QVERIFY(itemTexts(view(), Ui::ConversationItem::Kind::Note)
                .contains(QStringLiteral(
                    "The model wrote its tool calls as text; retrying with native tool calls.")));
}

// Issue #34, item 6: the provider refuses a request as too long; the conversation is compacted
// and the request sent again. The withdrawn attempt is not called tool calls written as text,
// and "Summarising…" leaves the status bar with the compaction.
void tst_AppFlow::overflowIsCompactedAndSaidSo()
{
    openWindow(
        {ModelStep::toolCall(QStringLiteral("r1"),
                             QStringLiteral("Read"),
                             {{"file_path", "notes.txt"}}),
         ModelStep::failure(StopReason::ContextOverflow, QStringLiteral("prompt is too long")),
         ModelStep::text(QStringLiteral("The user asked to fix the notes; they were read.")),
         ModelStep::text(QStringLiteral("The notes are fine."))});
    QVERIFY(m_repo->write(QStringLiteral("notes.txt"), QByteArray("1.0: first release\n")));
    QStringList shown;
    connect(m_window->statusBar(), &QStatusBar::messageChanged, this, [&shown](const QString &text) {
        shown.append(text);
    });
    // Long enough that its summary makes the request smaller (one that does not is refused).
    page()->composer()->setPlainText(
        QStringLiteral("Fix the notes. ")
        + QStringLiteral("They list every release with its date and changes; ").repeated(60));
    QTest::keyClick(page()->composer(), Qt::Key_Return);
    waitForIdle();
    QTRY_COMPARE(itemTexts(view(), Ui::ConversationItem::Kind::Assistant).constLast(),
                 QStringLiteral("The notes are fine."));
    QCOMPARE(m_model->callCount(), 4);
    const QStringList notes = itemTexts(view(), Ui::ConversationItem::Kind::Note);
    QVERIFY2(!notes.join(u'\n').contains(QStringLiteral("tool calls as text")),
             qPrintable(notes.join(u'\n')));
    QVERIFY2(notes.contains(QStringLiteral("The request did not fit the model's context: the "
                                           "conversation was compacted and the request sent "
                                           "again.")),
             qPrintable(notes.join(u'\n')));
    QVERIFY2(shown.join(u'\n').contains(QStringLiteral("Summarising")),
             qPrintable(shown.join(u'\n')));
    QVERIFY2(!m_window->statusBar()->currentMessage().startsWith(QStringLiteral("Summarising")),
             qPrintable(m_window->statusBar()->currentMessage()));
}

// Stopped while the summary the run waits for is written: the status bar does not go on
// saying it is being written.
void tst_AppFlow::stoppingWhileTheSummaryIsWrittenClearsItsStatus()
{
    openWindow(
        {ModelStep::toolCall(QStringLiteral("r1"),
                             QStringLiteral("Read"),
                             {{"file_path", "notes.txt"}}),
         ModelStep::failure(StopReason::ContextOverflow, QStringLiteral("prompt is too long")),
         ModelStep::waitForAbort()});
    QVERIFY(m_repo->write(QStringLiteral("notes.txt"), QByteArray("1.0: first release\n")));
    page()->composer()->setPlainText(
        QStringLiteral("Fix the notes. ")
        + QStringLiteral("They list every release with its date and changes; ").repeated(60));
    QTest::keyClick(page()->composer(), Qt::Key_Return);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->statusBar()->currentMessage().startsWith(
                                 QStringLiteral("Summarising")),
                             runTimeoutMs);
    QTest::keyClick(page()->composer(), Qt::Key_Escape);
    waitForIdle();
    QTRY_VERIFY2(!m_window->statusBar()->currentMessage().startsWith(QStringLiteral("Summarising")),
                 qPrintable(m_window->statusBar()->currentMessage()));
    // Not for a moment longer: the status bar says so by the time the session is idle.
    QTest::qWait(300);
    QVERIFY2(!m_window->statusBar()->currentMessage().startsWith(QStringLiteral("Summarising")),
             qPrintable(m_window->statusBar()->currentMessage()));
}

void tst_AppFlow::approveWritesTheFile()
{
    const QString content = QStringLiteral("int answer() { return 42; }\n");
    openWindow({ModelStep::toolCall(QStringLiteral("w1"),
                                    QStringLiteral("Write"),
                                    {{"file_path", "answer.cpp"}, {"content", content}}),
                ModelStep::text(QStringLiteral("Wrote answer.cpp."))});
    type(QStringLiteral("add answer.cpp"));

    QTRY_COMPARE_WITH_TIMEOUT(page()->reviews()->count(), 1, runTimeoutMs);
    QVERIFY(page()->reviews()->isVisible());
    // The review waits; the user's typing place keeps the focus.
    QCOMPARE(QApplication::focusWidget(), page()->composer());
    QVERIFY(m_window->agentStatusBar()->runStateText().startsWith(
        QStringLiteral("Waiting for your review (1)")));
    QCOMPARE(m_repo->read(QStringLiteral("answer.cpp")), QByteArray("<missing>"));

    clickAnswer("allowOnceButton");
    waitForIdle();
    QCOMPARE(m_repo->read(QStringLiteral("answer.cpp")), content.toUtf8());
    QCOMPARE(page()->reviews()->count(), 0);
    QVERIFY(!page()->reviews()->isVisible());
    QCOMPARE(m_window->changedFilesPanel()->rows(),
             QStringList{QStringLiteral("answer.cpp  +1 −0")});
}

void tst_AppFlow::denyKeepsTheFileAndTheModelSeesTheFeedback()
{
    openWindow({ModelStep::toolCall(QStringLiteral("w1"),
                                    QStringLiteral("Write"),
                                    {{"file_path", "answer.cpp"}, {"content", "return 41;\n"}}),
                ModelStep::text(QStringLiteral("Understood."))});
    type(QStringLiteral("add answer.cpp"));
    QTRY_COMPARE_WITH_TIMEOUT(page()->reviews()->count(), 1, runTimeoutMs);

    auto feedback = page()->reviews()->currentView()->findChild<QLineEdit *>(
        QStringLiteral("denyFeedback"));
    QVERIFY(feedback);
    QTest::keyClicks(feedback, QStringLiteral("the answer is 42, not 41"));
    QTest::keyClick(feedback, Qt::Key_Return);
    waitForIdle();

    QCOMPARE(m_repo->read(QStringLiteral("answer.cpp")), QByteArray("<missing>"));
    QCOMPARE(m_model->callCount(), 2);
    const QString result = lastToolResult(m_model->contexts().at(1));
    QVERIFY2(result.contains(QStringLiteral("the answer is 42, not 41")), qPrintable(result));
    QVERIFY(m_window->changedFilesPanel()->rows().isEmpty());
}

void tst_AppFlow::partlyApprovedChangeWritesOnlyTheCheckedHunks()
{
    QStringList lines;
    for (int i = 1; i <= 30; ++i)
        lines.append(QStringLiteral("line %1").arg(i));
    const QString before = lines.join(u'\n') + u'\n';
    QStringList changed = lines;
    changed[2] = QStringLiteral("line 3, checked");
    changed[24] = QStringLiteral("line 25, rejected");
    const QString proposed = changed.join(u'\n') + u'\n';
    QStringList kept = lines;
    kept[2] = changed[2];

    openWindow({ModelStep::toolCall(QStringLiteral("r1"),
                                    QStringLiteral("Read"),
                                    {{"file_path", "list.txt"}}),
                ModelStep::toolCall(QStringLiteral("w1"),
                                    QStringLiteral("Write"),
                                    {{"file_path", "list.txt"}, {"content", proposed}}),
                ModelStep::text(QStringLiteral("Kept line 25 as it was."))});
    QVERIFY(m_repo->write(QStringLiteral("list.txt"), before.toUtf8()));
    type(QStringLiteral("renumber the list"));
    QTRY_COMPARE_WITH_TIMEOUT(page()->reviews()->count(), 1, runTimeoutMs);

    auto review = qobject_cast<Ui::DiffReviewView *>(page()->reviews()->currentView());
    QVERIFY(review);
    QCOMPARE(review->hunkCount(), 2);
    review->setHunkAccepted(1, false);
    clickAnswer("allowOnceButton");
    waitForIdle();

    QCOMPARE(QString::fromUtf8(m_repo->read(QStringLiteral("list.txt"))), kept.join(u'\n') + u'\n');
    const QString result = lastToolResult(m_model->contexts().at(2));
    QVERIFY2(result.contains(QStringLiteral("line 25, rejected")), qPrintable(result));
    QVERIFY2(result.contains(QStringLiteral("reject")), qPrintable(result));
    QCOMPARE(m_window->changedFilesPanel()->rows(), QStringList{QStringLiteral("list.txt  +1 −1")});
}

void tst_AppFlow::stopDuringAStubbornToolIsIdleWithin200ms()
{
    openWindow({gateCall(), ModelStep::text(QStringLiteral("never asked"))});
    type(QStringLiteral("wait for the gate"));
    waitForGate();

    QElapsedTimer clock;
    clock.start();
    QTest::mouseClick(page()->sendStopButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, 1'000);
    const qint64 elapsed = clock.elapsed();
    QVERIFY2(elapsed < 200, qPrintable(QStringLiteral("idle after %1 ms").arg(elapsed)));
    QCOMPARE(page()->sendStopButton()->text(), QStringLiteral("Send"));
    QVERIFY(!page()->composer()->isRunning());
    QCOMPARE(m_model->callCount(), 1);
}

void tst_AppFlow::steeringLandsBeforeTheNextModelCall()
{
    openWindow({gateCall(), ModelStep::text(QStringLiteral("Using tabs."))});
    type(QStringLiteral("reformat main.cpp"));
    waitForGate();

    type(QStringLiteral("use tabs, not spaces")); // Enter while running steers
    QTRY_COMPARE(session()->agent()->steeringQueue().size(), 1);
    // Until the loop takes it, the user sees it waiting above the message box.
    auto pending = page()->findChild<QLabel *>(QStringLiteral("pendingSteering"));
    QVERIFY(pending);
    QTRY_VERIFY(pending->isVisible());
    QVERIFY2(pending->text().contains(QStringLiteral("use tabs, not spaces")),
             qPrintable(pending->text()));
    m_gate.release();
    waitForIdle();
    QVERIFY(!pending->isVisible());

    QCOMPARE(m_model->callCount(), 2);
    const Context second = m_model->contexts().at(1);
    QCOMPARE(userTexts(second),
             (QStringList{QStringLiteral("reformat main.cpp"),
                          QStringLiteral("use tabs, not spaces")}));
    // After the gate's result: the steering goes in right before the call.
    QVERIFY(second.messages.constLast().isUser());
    QCOMPARE(itemTexts(view(), Ui::ConversationItem::Kind::User),
             (QStringList{QStringLiteral("reformat main.cpp"),
                          QStringLiteral("use tabs, not spaces")}));
}

void tst_AppFlow::followUpsRunInQueueOrderAfterTheTask()
{
    openWindow({gateCall(),
                ModelStep::text(QStringLiteral("Task done.")),
                ModelStep::text(QStringLiteral("Tests pass.")),
                ModelStep::text(QStringLiteral("Committed."))});
    type(QStringLiteral("fix the overflow"));
    waitForGate();

    type(QStringLiteral("run the tests"), Qt::AltModifier);
    type(QStringLiteral("commit it"), Qt::AltModifier);
    QTRY_COMPARE(m_window->followUpPanel()->texts(),
                 (QStringList{QStringLiteral("run the tests"), QStringLiteral("commit it")}));
    m_gate.release();
    waitForIdle();

    QCOMPARE(m_model->callCount(), 4);
    QCOMPARE(userTexts(m_model->contexts().at(1)).size(), 1); // the task first, undisturbed
    QCOMPARE(userTexts(m_model->contexts().at(2)).constLast(), QStringLiteral("run the tests"));
    QCOMPARE(userTexts(m_model->contexts().at(3)).constLast(), QStringLiteral("commit it"));
    QVERIFY(m_window->followUpPanel()->texts().isEmpty());
    QCOMPARE(itemTexts(view(), Ui::ConversationItem::Kind::Assistant).constLast(),
             QStringLiteral("Committed."));
    QCOMPARE(userCaptions(view()),
             (QStringList{QString(), QStringLiteral("Follow-up"), QStringLiteral("Follow-up")}));
}

void tst_AppFlow::reorderAndSendNow()
{
    openWindow({gateCall(),
                ModelStep::text(QStringLiteral("Docs first.")),
                ModelStep::text(QStringLiteral("Changelog.")),
                ModelStep::text(QStringLiteral("Tests."))});
    type(QStringLiteral("fix the overflow"));
    waitForGate();
    for (const char *text : {"run the tests", "update the changelog", "update the docs"})
        type(QLatin1String(text), Qt::AltModifier);
    Ui::FollowUpPanel *panel = m_window->followUpPanel();
    QTRY_COMPARE(panel->texts().size(), 3);

    // Drag "update the changelog" to the top, then send "update the docs" now.
    QVERIFY(panel->listWidget()->model()->moveRow(QModelIndex(), 1, QModelIndex(), 0));
    QTRY_COMPARE(panel->texts(),
                 (QStringList{QStringLiteral("update the changelog"),
                              QStringLiteral("run the tests"),
                              QStringLiteral("update the docs")}));
    QVERIFY(panel->sendNow(2));
    QTRY_COMPARE(session()->agent()->steeringQueue().size(), 1);
    m_gate.release();
    waitForIdle();

    QCOMPARE(m_model->callCount(), 4);
    // Sent now: steering, before the task's next model call; then the queue in its new order.
    QCOMPARE(userTexts(m_model->contexts().at(1)).constLast(), QStringLiteral("update the docs"));
    QCOMPARE(userTexts(m_model->contexts().at(2)).constLast(),
             QStringLiteral("update the changelog"));
    QCOMPARE(userTexts(m_model->contexts().at(3)).constLast(), QStringLiteral("run the tests"));
}

void tst_AppFlow::permissionModeSwitchReachesThePolicy()
{
    openWindow({ModelStep::toolCall(QStringLiteral("w1"),
                                    QStringLiteral("Write"),
                                    {{"file_path", "notes.md"}, {"content", "# Notes\n"}}),
                ModelStep::text(QStringLiteral("Done."))});
    auto modes = m_window->agentStatusBar()->findChild<QComboBox *>(
        QStringLiteral("permissionMode"));
    QVERIFY(modes);
    // Accept edits: the Write is applied without a review.
    modes->setCurrentIndex(modes->findData(int(PermissionMode::AcceptEdits)));
    emit modes->activated(modes->currentIndex());
    QCOMPARE(session()->permissionMode(), PermissionMode::AcceptEdits);

    type(QStringLiteral("start the notes"));
    waitForIdle();
    QCOMPARE(page()->reviews()->count(), 0);
    QCOMPARE(m_repo->read(QStringLiteral("notes.md")), QByteArray("# Notes\n"));
}

void tst_AppFlow::escStopsWhereverTheFocusIs_data()
{
    QTest::addColumn<QString>("widget");
    QTest::newRow("composer") << QStringLiteral("composer");
    QTest::newRow("conversation") << QStringLiteral("conversation");
    QTest::newRow("sessions list") << QStringLiteral("sessionsList");
    QTest::newRow("permission mode") << QStringLiteral("permissionMode");
}

void tst_AppFlow::escStopsWhereverTheFocusIs()
{
    QFETCH(QString, widget);
    openWindow({gateCall(), ModelStep::text(QStringLiteral("never asked"))});
    type(QStringLiteral("wait for the gate"));
    waitForGate();
    auto target = m_window->findChild<QWidget *>(widget);
    QVERIFY2(target, qPrintable(widget));
    QVERIFY(focus(target));

    QTest::keyClick(target, Qt::Key_Escape);
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
    QCOMPARE(m_model->callCount(), 1); // not after the gate gave up waiting: stopped
}

void tst_AppFlow::ctrlEnterInTheComposerAnswersTheReview()
{
    const QString content = QStringLiteral("int answer() { return 42; }\n");
    openWindow({ModelStep::toolCall(QStringLiteral("w1"),
                                    QStringLiteral("Write"),
                                    {{"file_path", "answer.cpp"}, {"content", content}}),
                ModelStep::text(QStringLiteral("Wrote answer.cpp."))});
    type(QStringLiteral("add answer.cpp"));
    QTRY_COMPARE_WITH_TIMEOUT(page()->reviews()->count(), 1, runTimeoutMs);
    QCOMPARE(QApplication::focusWidget(), page()->composer());

    // A half-typed steering message stays a draft: Ctrl+Enter is the review's.
    QTest::keyClicks(page()->composer(), QStringLiteral("and a test"));
    QTest::keyClick(page()->composer(), Qt::Key_Return, Qt::ControlModifier);
    waitForIdle();
    QCOMPARE(m_repo->read(QStringLiteral("answer.cpp")), content.toUtf8());
    QCOMPARE(page()->composer()->toPlainText(), QStringLiteral("and a test"));
    QCOMPARE(userTexts(m_model->contexts().at(1)), QStringList{QStringLiteral("add answer.cpp")});
    QCOMPARE(QApplication::focusWidget(), page()->composer());
}

void tst_AppFlow::escInTheComposerGoesToTheReviewAndBack()
{
    openWindow({ModelStep::toolCall(QStringLiteral("w1"),
                                    QStringLiteral("Write"),
                                    {{"file_path", "answer.cpp"}, {"content", "return 41;\n"}}),
                ModelStep::text(QStringLiteral("Understood."))});
    type(QStringLiteral("add answer.cpp"));
    QTRY_COMPARE_WITH_TIMEOUT(page()->reviews()->count(), 1, runTimeoutMs);

    // Esc while a review waits does not stop the run: it goes to the review's feedback, as
    // the message box says.
    QVERIFY2(page()->composer()->placeholderText().contains(QStringLiteral("Esc to deny")),
             qPrintable(page()->composer()->placeholderText()));
    QTest::keyClick(page()->composer(), Qt::Key_Escape);
    QVERIFY(page()->reviews()->currentView());
    auto feedback = page()->reviews()->currentView()->findChild<QLineEdit *>(
        QStringLiteral("denyFeedback"));
    QVERIFY(feedback);
    QTRY_COMPARE(QApplication::focusWidget(), feedback);
    QCOMPARE(session()->state(), AgentSession::State::Running);
    QTest::keyClicks(feedback, QStringLiteral("the answer is 42"));
    QTest::keyClick(feedback, Qt::Key_Return);
    waitForIdle();
    QCOMPARE(m_repo->read(QStringLiteral("answer.cpp")), QByteArray("<missing>"));
    QVERIFY(lastToolResult(m_model->contexts().at(1)).contains(QStringLiteral("the answer is 42")));
    // Answered: the keyboard is back where the user types.
    QTRY_COMPARE(QApplication::focusWidget(), page()->composer());
    QVERIFY(!page()->composer()->placeholderText().contains(QStringLiteral("review")));
}

void tst_AppFlow::sendingShowsTheTaskEvenWhenScrolledUp()
{
    openWindow({longAnswer(), ModelStep::text(QStringLiteral("Second answer."))});
    type(QStringLiteral("list the findings"));
    waitForIdle();
    view()->flush();
    QScrollBar *bar = view()->verticalScrollBar();
    QVERIFY(bar->maximum() > 0);
    bar->setValue(0); // the user reads the findings from the top
    QVERIFY(view()->jumpToLatestButton()->isVisible());

    type(QStringLiteral("fix the third one"));
    waitForIdle();
    view()->flush();
    QVERIFY(view()->isStuckToBottom());
    QCOMPARE(bar->value(), bar->maximum());
    QVERIFY(!view()->jumpToLatestButton()->isVisible());
}

void tst_AppFlow::arrivingReviewShowsItsCall()
{
    openWindow({longAnswer(),
                gateCall(),
                ModelStep::toolCall(QStringLiteral("w1"),
                                    QStringLiteral("Write"),
                                    {{"file_path", "answer.cpp"}, {"content", "return 42;\n"}}),
                ModelStep::text(QStringLiteral("Done."))});
    type(QStringLiteral("list the findings"));
    waitForIdle();
    type(QStringLiteral("fix them"));
    waitForGate();
    view()->flush();
    QScrollBar *bar = view()->verticalScrollBar();
    bar->setValue(0); // reading back while the agent works
    QVERIFY(!view()->isStuckToBottom());

    m_gate.release();
    QTRY_COMPARE_WITH_TIMEOUT(page()->reviews()->count(), 1, runTimeoutMs);
    view()->flush();
    QVERIFY(view()->isStuckToBottom());
    QCOMPARE(bar->value(), bar->maximum());
    clickAnswer("allowOnceButton");
    waitForIdle();
}

void tst_AppFlow::tabFollowsTheLayout()
{
    openWindow({ModelStep::toolCall(QStringLiteral("w1"),
                                    QStringLiteral("Write"),
                                    {{"file_path", "answer.cpp"}, {"content", "return 42;\n"}}),
                ModelStep::text(QStringLiteral("Done.")),
                ModelStep::text(QStringLiteral("Committed."))});
    type(QStringLiteral("add answer.cpp"));
    QTRY_COMPARE_WITH_TIMEOUT(page()->reviews()->count(), 1, runTimeoutMs);
    type(QStringLiteral("then commit"), Qt::AltModifier); // the queue shows its list
    QTRY_COMPARE(m_window->followUpPanel()->texts().size(), 1);

    QListWidget *sessions = m_window->sessionsPanel()->list();
    QVERIFY(focus(sessions));
    QStringList visited = tabAround();
    // Left to right, top to bottom, as the window is laid out, and round to the sessions
    // again (the model cannot be switched while the agent works).
    checkOrder(visited,
               {QStringLiteral("conversation"),
                QStringLiteral("denyFeedback"),
                QStringLiteral("denyButton"),
                QStringLiteral("allowOnceButton"),
                QStringLiteral("composer"),
                QStringLiteral("followUpList"),
                QStringLiteral("permissionMode")});
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(visited.constLast(), QStringLiteral("sessionsList"));

    QTest::keyClick(page()->composer(), Qt::Key_Return, Qt::ControlModifier);
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 3, runTimeoutMs); // the follow-up too
    waitForIdle();
    QVERIFY(focus(sessions));
    visited = tabAround();
    checkOrder(visited,
               {QStringLiteral("conversation"),
                QStringLiteral("composer"),
                QStringLiteral("modelButton"),
                QStringLiteral("permissionMode"),
                QStringLiteral("newSessionButton")});
}

QStringList tst_AppFlow::tabAround()
{
    QWidget *start = QApplication::focusWidget();
    QStringList visited;
    for (int i = 0; i < 60; ++i) {
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QWidget *focused = QApplication::focusWidget();
        visited << (focused ? focused->objectName() : QStringLiteral("<none>"));
        if (focused == start)
            break;
    }
    return visited;
}

void tst_AppFlow::checkOrder(const QStringList &visited, const QStringList &expected)
{
    qsizetype last = -1;
    for (const QString &name : expected) {
        const qsizetype at = visited.indexOf(name);
        QVERIFY2(at > last,
                 qPrintable(QStringLiteral("%1 out of order in %2").arg(name, visited.join(u' '))));
        last = at;
    }
}

AGENTDESK_TEST_MAIN(tst_AppFlow)

// A server that numbers tool calls per reply sends call_0 in both replies: the second call
// gets a card of its own instead of overwriting the first one's, live, in the session file
// and after resuming it.
void tst_AppFlow::idsRepeatedAcrossRepliesGetCardsOfTheirOwn()
{
    openWindow({ModelStep::toolCall(QStringLiteral("g"),
                                    QStringLiteral("Glob"),
                                    {{QStringLiteral("pattern"), QStringLiteral("*.txt")}}),
                ModelStep::toolCall(QStringLiteral("r"),
                                    QStringLiteral("Read"),
                                    {{QStringLiteral("file_path"), QStringLiteral("notes.txt")}}),
                ModelStep::text(QStringLiteral("The notes are about pie."))});
    m_model->setPerResponseToolCallIds(true);
    QVERIFY(m_repo->write(QStringLiteral("notes.txt"), "apple pie\n"));
    type(QStringLiteral("what do the notes say?"));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 3, runTimeoutMs);
    waitForIdle();
    const QStringList cards = toolCards(view());
    QCOMPARE(cards.size(), 2);
    QVERIFY2(cards.at(0).startsWith(u"Glob: Found 1 file.") && cards.at(0).endsWith(u"notes.txt"),
             qPrintable(cards.at(0)));
    QVERIFY2(cards.at(1).startsWith(u"Read: ") && cards.at(1).endsWith(u"apple pie"),
             qPrintable(cards.at(1)));

    // The file has both calls, each answered by its own result.
    const QString path = session()->sessionPath();
    QString error;
    const auto contents = SessionLog::load(path, &error);
    QVERIFY2(contents, qPrintable(error));
    QStringList recorded; // "id name" of each call, "id: text" of each result
    for (const Message &message : contents->messages) {
        for (const ContentBlock &call : message.toolCalls())
            recorded << call.id + u' ' + call.name;
        if (message.isToolResult())
            recorded << message.toolCallId + u": " + message.text().trimmed();
    }
    QCOMPARE(recorded.size(), 4);
    const QString secondId = recorded.at(2).section(u' ', 0, 0);
    QVERIFY(secondId != QStringLiteral("call_0"));
    QCOMPARE(recorded.at(0), QStringLiteral("call_0 Glob"));
    QVERIFY2(recorded.at(1).startsWith(u"call_0: ") && recorded.at(1).endsWith(u"notes.txt"),
             qPrintable(recorded.at(1)));
    QCOMPARE(recorded.at(2), secondId + QStringLiteral(" Read"));
    QVERIFY2(recorded.at(3).startsWith(secondId + u": ") && recorded.at(3).endsWith(u"apple pie"),
             qPrintable(recorded.at(3)));

    // Another conversation, then this one again from its file.
    QTest::mouseClick(m_window->sessionsPanel()->findChild<QToolButton *>(
                          QStringLiteral("newSessionButton")),
                      Qt::LeftButton);
    QVERIFY(toolCards(view()).isEmpty());
    QVERIFY(TestSupport::futureResult(m_window->resumeSession(path)));
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    QCOMPARE(toolCards(view()), cards);
}

} // namespace tst_appflow

#include "tst_appflow.moc"
