// One approval inbox for every open session: three sessions wait for a review each, the user
// answers all of them from the inbox with the keyboard, in order, while the window keeps
// showing the session it showed; each session's page, badge and recorded file follow as if
// answered there. "Approve all like this" allows the identical low-risk requests, never a
// different or riskier one.
#include "../tools/toolstest.h"

#include <agentsession/agentsession.h>
#include <composer/composer.h>
#include <page/conversationpage.h>
#include <review/diffreviewview.h>
#include <review/reviewqueue.h>
#include <scriptedmodel.h>
#include <session/sessionlog.h>
#include <sessions/approvalinbox.h>
#include <sessions/approvalinboxdialog.h>
#include <sessions/opensessions.h>
#include <settings/appsettings.h>
#include <testmain.h>
#include <window/mainwindow.h>

#include <QAbstractButton>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

#include <memory>

using namespace AgentCore;
namespace tst_approvalinbox {

using TestSupport::ModelStep;
using TestSupport::ScriptedModel;
using Ui::AgentSession;
using Ui::SessionActivity;

namespace {

constexpr int runTimeoutMs = 15'000;

QList<ModelStep> runs(const QString &id, const QString &tool, const QJsonObject &arguments)
{
    return {ModelStep::toolCall(id, tool, arguments), ModelStep::text(QStringLiteral("Done."))};
}

QList<ModelStep> runsBash(const QString &id, const QString &command)
{
    return runs(id, QStringLiteral("Bash"), {{QStringLiteral("command"), command}});
}

/// The result \a path recorded for the tool call \a callId: "ok", "error", or "missing".
QString recordedResult(const QString &path, const QString &callId)
{
    QString error;
    const std::optional<SessionLog::Contents> contents = SessionLog::load(path, &error);
    if (!contents)
        return error;
    for (const Message &message : contents->messages) {
        if (message.isToolResult() && message.toolCallId == callId)
            return message.isError ? QStringLiteral("error") : QStringLiteral("ok");
    }
    return QStringLiteral("missing");
}

} // namespace

class tst_ApprovalInbox : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_approvalinbox"));
        Ui::AppSettings settings;
        settings.autoCompact = false; // a summary would take the scripted models' replies
        // Each command's review alone: what it then writes is not reviewed a second time.
        settings.reviewShellWrites = false;
        settings.notifyApprovals = false;
        settings.notifyFinished = false;
        QSettings stored;
        settings.save(stored);
    }
    void init()
    {
        m_repo = std::make_unique<ToolsTest::Repo>();
        QVERIFY(m_repo->isValid());
        m_config = std::make_unique<QTemporaryDir>();
    }
    void cleanup()
    {
        m_window.reset();
        m_repo.reset();
    }

    void answersEverySessionInOrderByKeyboard();
    void approvesIdenticalLowRiskRequestsAtOnce();
    void stoppedSessionLeavesTheInbox();
    void editedInTheInboxIsWhatLands();

private:
    void openWindow();
    /// A new session with Ctrl+N, on a model of its own, given \a task; returns when its
    /// review is in the inbox (the \a waiting-th).
    AgentSession *startWaiting(const QList<ModelStep> &steps, const QString &task, int waiting);
    void press(QWidget *widget, Qt::Key key, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
    {
        QTest::keyClick(widget, key, modifiers);
    }
    Ui::ApprovalInboxDialog *inbox() const { return m_window->approvalInbox(); }
    QTreeWidget *list() const { return inbox()->list(); }
    QString row(int index) const
    {
        const QTreeWidgetItem *item = list()->topLevelItem(index);
        return item ? QStringList{item->text(0), item->text(1), item->text(2), item->text(3)}.join(
                   QLatin1String(" | "))
                    : QString();
    }
    /// Waits until the inbox's current review can be answered.
    void waitForCurrentReview()
    {
        QTRY_VERIFY(inbox()->currentView());
        auto allow = inbox()->currentView()->findChild<QPushButton *>(
            QStringLiteral("allowOnceButton"));
        QVERIFY(allow);
        QTRY_VERIFY(allow->isVisible());
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    }
    Ui::ConversationPage *pageOf(const AgentSession *session) const;
    AgentSession *session() const { return m_window->session(); }
    SessionActivity badge(const AgentSession *session) const
    {
        return m_window->openSessions()->activity(session);
    }

    std::unique_ptr<ToolsTest::Repo> m_repo;
    std::unique_ptr<QTemporaryDir> m_config;
    std::unique_ptr<Ui::MainWindow> m_window;
    QList<std::shared_ptr<ScriptedModel>> m_models;
    QHash<const AgentSession *, Ui::ConversationPage *> m_pages;
};

void tst_ApprovalInbox::openWindow()
{
    QVERIFY(m_config->isValid());
    m_models.clear();
    m_pages.clear();
    Ui::AgentSetup setup;
    setup.model.client = std::make_shared<ScriptedModel>(); // each session gets its own
    setup.model.label = QStringLiteral("scripted");
    setup.options.systemPrompt = QStringLiteral("You are tested.");
    setup.options.context.autoCompact = false;
    setup.options.permissions.mode = PermissionMode::Default;
    setup.options.permissions.projectTrustPath = m_config->filePath(QStringLiteral("trusted.json"));
    setup.sessionsDirectory = m_config->filePath(QStringLiteral("sessions"));
    m_window = std::make_unique<Ui::MainWindow>(setup);
    m_window->resize(1200, 760);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QVERIFY(m_window->openRepository(m_repo->root()));
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    m_window->conversationPage()->composer()->setFocus();
}

AgentSession *tst_ApprovalInbox::startWaiting(const QList<ModelStep> &steps,
                                              const QString &task,
                                              int waiting)
{
    AgentSession *before = session();
    if (before->state() != AgentSession::State::Idle || QFile::exists(before->sessionPath()))
        press(QApplication::focusWidget(), Qt::Key_N, Qt::ControlModifier);
    auto model = std::make_shared<ScriptedModel>(steps);
    m_models.append(model);
    Ui::ModelChoice choice;
    choice.client = model;
    choice.label = QStringLiteral("scripted %1").arg(m_models.size());
    session()->setModel(choice);
    [&] { QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs); }();
    Ui::ConversationPage *page = m_window->conversationPage();
    m_pages.insert(session(), page);
    [&] { QTRY_COMPARE(QApplication::focusWidget(), page->composer()); }();
    QTest::keyClicks(page->composer(), task);
    QTest::keyClick(page->composer(), Qt::Key_Return);
    [&] {
        QTRY_COMPARE_WITH_TIMEOUT(inbox()->inbox()->count(), waiting, runTimeoutMs);
        QTRY_COMPARE(page->reviews()->count(), 1);
    }();
    return session();
}

Ui::ConversationPage *tst_ApprovalInbox::pageOf(const AgentSession *session) const
{
    return m_pages.value(session);
}

void tst_ApprovalInbox::answersEverySessionInOrderByKeyboard()
{
    QVERIFY(QDir(m_repo->root()).mkpath(QStringLiteral("build")));
    openWindow();
    QToolButton *count = inbox()->statusButton();
    QVERIFY(!count->isVisible()); // nothing waits
    AgentSession *a = startWaiting(runs(QStringLiteral("a1"),
                                        QStringLiteral("Write"),
                                        {{QStringLiteral("file_path"), QStringLiteral("notes.txt")},
                                         {QStringLiteral("content"), QStringLiteral("alpha\n")}}),
                                   QStringLiteral("task alpha"),
                                   1);
    AgentSession *b = startWaiting(runsBash(QStringLiteral("b1"), QStringLiteral("touch made.txt")),
                                   QStringLiteral("task bravo"),
                                   2);
    AgentSession *c = startWaiting(runsBash(QStringLiteral("c1"), QStringLiteral("rm -rf build")),
                                   QStringLiteral("task charlie"),
                                   3);
    QCOMPARE(session(), c);
    QTRY_VERIFY(count->isVisible());
    QCOMPARE(count->text(), QStringLiteral("3 to approve"));
    for (AgentSession *s : {a, b, c})
        QCOMPARE(badge(s), SessionActivity::Waiting);

    // Ctrl+Shift+A from the message box: the inbox, the oldest request current.
    press(QApplication::focusWidget(), Qt::Key_A, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_VERIFY(inbox()->isVisible());
    QTRY_COMPARE(QApplication::focusWidget(), list());
    QCOMPARE(list()->topLevelItemCount(), 3);
    QCOMPARE(row(0), QStringLiteral("task alpha | Write | notes.txt | new file"));
    QCOMPARE(row(1), QStringLiteral("task bravo | Bash | touch made.txt | low risk"));
    QCOMPARE(row(2), QStringLiteral("task charlie | Bash | rm -rf build | deletes files"));
    QCOMPARE(inbox()->currentRow(), 0);
    // The same review the page shows: the change as a diff, per hunk.
    QVERIFY(qobject_cast<Ui::DiffReviewView *>(inbox()->currentView()));
    QVERIFY(!inbox()->approveSimilarButton()->isVisible()); // nothing like it

    // The arrows move; the review follows the current row.
    press(list(), Qt::Key_Down);
    QCOMPARE(inbox()->currentRow(), 1);
    QCOMPARE(inbox()->currentView()->accessibleName(), QStringLiteral("Review: Bash"));
    press(list(), Qt::Key_Up);
    QCOMPARE(inbox()->currentRow(), 0);

    // Tab goes into the review (its hunks, rules, feedback), Shift+Tab back to the list.
    waitForCurrentReview();
    press(list(), Qt::Key_Tab);
    QVERIFY(inbox()->currentView()->isAncestorOf(QApplication::focusWidget()));
    press(QApplication::focusWidget(), Qt::Key_Backtab, Qt::ShiftModifier);
    QCOMPARE(QApplication::focusWidget(), list());

    // Enter allows A's write; B's command becomes current.
    press(list(), Qt::Key_Return);
    QCOMPARE(list()->topLevelItemCount(), 2);
    QCOMPARE(row(0), QStringLiteral("task bravo | Bash | touch made.txt | low risk"));
    QCOMPARE(inbox()->currentRow(), 0);
    QCOMPARE(pageOf(a)->reviews()->count(), 0); // the page's review closed with it
    QTRY_COMPARE_WITH_TIMEOUT(a->state(), AgentSession::State::Idle, runTimeoutMs);
    QVERIFY(QFile::exists(m_repo->path(QStringLiteral("notes.txt"))));
    QTRY_COMPARE(badge(a), SessionActivity::Unseen); // done out of sight, no longer waiting

    // Ctrl+Enter allows B's command.
    QCOMPARE(QApplication::focusWidget(), list());
    waitForCurrentReview();
    press(list(), Qt::Key_Return, Qt::ControlModifier);
    QCOMPARE(list()->topLevelItemCount(), 1);
    QCOMPARE(pageOf(b)->reviews()->count(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(b->state(), AgentSession::State::Idle, runTimeoutMs);
    QVERIFY(QFile::exists(m_repo->path(QStringLiteral("made.txt"))));

    // Delete denies C's deletion.
    QCOMPARE(QApplication::focusWidget(), list());
    waitForCurrentReview();
    press(list(), Qt::Key_Delete);
    QCOMPARE(list()->topLevelItemCount(), 0);
    QCOMPARE(inbox()->currentView(), nullptr);
    QCOMPARE(pageOf(c)->reviews()->count(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(c->state(), AgentSession::State::Idle, runTimeoutMs);
    QVERIFY(QDir(m_repo->path(QStringLiteral("build"))).exists());
    QTRY_VERIFY(!count->isVisible());

    // The user never left C; each session recorded what its answer did.
    QCOMPARE(session(), c);
    QCOMPARE(recordedResult(a->sessionPath(), QStringLiteral("a1")), QStringLiteral("ok"));
    QCOMPARE(recordedResult(b->sessionPath(), QStringLiteral("b1")), QStringLiteral("ok"));
    QCOMPARE(recordedResult(c->sessionPath(), QStringLiteral("c1")), QStringLiteral("error"));
    for (AgentSession *s : {a, b, c})
        QVERIFY(badge(s) != SessionActivity::Waiting);

    // Esc closes the inbox.
    press(list(), Qt::Key_Escape);
    QTRY_VERIFY(!inbox()->isVisible());
}

void tst_ApprovalInbox::approvesIdenticalLowRiskRequestsAtOnce()
{
    openWindow();
    AgentSession *a = startWaiting(runsBash(QStringLiteral("a1"), QStringLiteral("touch same.txt")),
                                   QStringLiteral("first"),
                                   1);
    // The same command written differently: the analysis' normal form is the same.
    AgentSession *b = startWaiting(runsBash(QStringLiteral("b1"), QStringLiteral("touch  same.txt")),
                                   QStringLiteral("second"),
                                   2);
    AgentSession *c = startWaiting(runsBash(QStringLiteral("c1"), QStringLiteral("touch other.txt")),
                                   QStringLiteral("different"),
                                   3);
    AgentSession *d = startWaiting(runsBash(QStringLiteral("d1"), QStringLiteral("rm -f same.txt")),
                                   QStringLiteral("riskier"),
                                   4);
    QCOMPARE(session(), d);

    // Opened from the status bar's count.
    QTRY_VERIFY(inbox()->statusButton()->isVisible());
    QCOMPARE(inbox()->statusButton()->text(), QStringLiteral("4 to approve"));
    inbox()->statusButton()->click();
    QTRY_COMPARE(QApplication::focusWidget(), list());
    QCOMPARE(inbox()->currentRow(), 0);
    waitForCurrentReview();
    QPushButton *similar = inbox()->approveSimilarButton();
    QTRY_VERIFY(similar->isVisible());
    QCOMPARE(similar->text(), QStringLiteral("Approve All 2 Like This"));

    // Alt+Enter: A's and B's, not C's (another command) nor D's (deletes).
    press(list(), Qt::Key_Return, Qt::AltModifier);
    QCOMPARE(list()->topLevelItemCount(), 2);
    QCOMPARE(row(0), QStringLiteral("different | Bash | touch other.txt | low risk"));
    QCOMPARE(row(1), QStringLiteral("riskier | Bash | rm -f same.txt | deletes files"));
    QTRY_COMPARE_WITH_TIMEOUT(a->state(), AgentSession::State::Idle, runTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(b->state(), AgentSession::State::Idle, runTimeoutMs);
    QCOMPARE(recordedResult(a->sessionPath(), QStringLiteral("a1")), QStringLiteral("ok"));
    QCOMPARE(recordedResult(b->sessionPath(), QStringLiteral("b1")), QStringLiteral("ok"));
    QCOMPARE(pageOf(c)->reviews()->count(), 1);
    QCOMPARE(pageOf(d)->reviews()->count(), 1);
    QCOMPARE(badge(c), SessionActivity::Waiting);
    QCOMPARE(badge(d), SessionActivity::Waiting);

    // Alone of its kind: no batch, and Alt+Enter approves nothing.
    QCOMPARE(inbox()->currentRow(), 0);
    QVERIFY(!similar->isVisible());
    press(list(), Qt::Key_Return, Qt::AltModifier);
    press(list(), Qt::Key_Down);
    QVERIFY(!similar->isVisible());
    press(list(), Qt::Key_Return, Qt::AltModifier);
    QCOMPARE(list()->topLevelItemCount(), 2);
    QCOMPARE(m_models.at(2)->callCount(), 1);
    QCOMPARE(m_models.at(3)->callCount(), 1);

    // "Show in Session" shows C's page; the inbox stays.
    QCOMPARE(inbox()->currentRow(), 1);
    press(list(), Qt::Key_Up);
    inbox()->findChild<QPushButton *>(QStringLiteral("showSessionButton"))->click();
    QCOMPARE(session(), c);
    QCOMPARE(m_window->conversationPage(), pageOf(c));
    QVERIFY(inbox()->isVisible());

    // Denied with feedback typed in the review: only that one; D stays, the list has the keys.
    waitForCurrentReview();
    auto feedback = inbox()->currentView()->findChild<QLineEdit *>();
    QVERIFY(feedback);
    feedback->setFocus();
    QTRY_VERIFY(feedback->hasFocus());
    QTest::keyClicks(feedback, QStringLiteral("not now"));
    press(feedback, Qt::Key_Return);
    QCOMPARE(list()->topLevelItemCount(), 1);
    QCOMPARE(row(0), QStringLiteral("riskier | Bash | rm -f same.txt | deletes files"));
    QCOMPARE(pageOf(d)->reviews()->count(), 1);
    QCOMPARE(m_models.at(3)->callCount(), 1);
    QTRY_COMPARE(QApplication::focusWidget(), list());
    QTRY_COMPARE_WITH_TIMEOUT(c->state(), AgentSession::State::Idle, runTimeoutMs);
    QVERIFY(m_models.at(2)->contexts().constLast().messages.constLast().text().contains(
        QStringLiteral("not now")));

    // The last one denied with Delete; the file stays.
    waitForCurrentReview();
    press(list(), Qt::Key_Delete);
    QCOMPARE(list()->topLevelItemCount(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(d->state(), AgentSession::State::Idle, runTimeoutMs);
    QVERIFY(QFile::exists(m_repo->path(QStringLiteral("same.txt"))));
    QVERIFY(!QFile::exists(m_repo->path(QStringLiteral("other.txt"))));
    QCOMPARE(session(), c);
}

// The inbox opens the same review as the page: Edit there, type, Apply My Version; the
// file gets the user's version and the session's card says so.
void tst_ApprovalInbox::editedInTheInboxIsWhatLands()
{
    openWindow();
    AgentSession *a = startWaiting(runs(QStringLiteral("a1"),
                                        QStringLiteral("Write"),
                                        {{QStringLiteral("file_path"), QStringLiteral("notes.txt")},
                                         {QStringLiteral("content"), QStringLiteral("alpha\n")}}),
                                   QStringLiteral("task alpha"),
                                   1);
    press(QApplication::focusWidget(), Qt::Key_A, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_VERIFY(inbox()->isVisible());
    waitForCurrentReview();
    auto review = qobject_cast<Ui::DiffReviewView *>(inbox()->currentView());
    QVERIFY(review);
    QTest::mouseClick(review->findChild<QAbstractButton *>(QStringLiteral("editProposalButton")),
                      Qt::LeftButton);
    QVERIFY(review->isEditing());
    auto editor = review->findChild<QPlainTextEdit *>(QStringLiteral("proposalEditor"));
    QTRY_COMPARE(QApplication::focusWidget(), editor);
    // Enter is a new line here, not the inbox's "allow".
    QTest::keyClick(editor, Qt::Key_End, Qt::ControlModifier);
    QTest::keyClicks(editor, QStringLiteral("bravo"));
    QTest::keyClick(editor, Qt::Key_Return);
    QCOMPARE(editor->toPlainText(), QStringLiteral("alpha\nbravo\n"));
    QCOMPARE(list()->topLevelItemCount(), 1);
    QTest::mouseClick(review->findChild<QAbstractButton *>(QStringLiteral("applyMyVersionButton")),
                      Qt::LeftButton);
    QTRY_COMPARE(list()->topLevelItemCount(), 0);
    QCOMPARE(pageOf(a)->reviews()->count(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(a->state(), AgentSession::State::Idle, runTimeoutMs);
    QCOMPARE(m_repo->read(QStringLiteral("notes.txt")), QByteArray("alpha\nbravo\n"));
    QCOMPARE(recordedResult(a->sessionPath(), QStringLiteral("a1")), QStringLiteral("ok"));
}

void tst_ApprovalInbox::stoppedSessionLeavesTheInbox()
{
    openWindow();
    AgentSession *a = startWaiting(runsBash(QStringLiteral("a1"), QStringLiteral("touch a.txt")),
                                   QStringLiteral("first"),
                                   1);
    AgentSession *b = startWaiting(runsBash(QStringLiteral("b1"), QStringLiteral("touch b.txt")),
                                   QStringLiteral("second"),
                                   2);
    press(QApplication::focusWidget(), Qt::Key_A, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_COMPARE(QApplication::focusWidget(), list());
    waitForCurrentReview();
    QCOMPARE(inbox()->currentRow(), 0);

    // The current request is withdrawn (its session stopped): the next one becomes current.
    a->stop();
    QTRY_COMPARE_WITH_TIMEOUT(list()->topLevelItemCount(), 1, runTimeoutMs);
    QCOMPARE(row(0), QStringLiteral("second | Bash | touch b.txt | low risk"));
    QCOMPARE(inbox()->currentRow(), 0);
    QCOMPARE(QApplication::focusWidget(), list());
    QCOMPARE(pageOf(a)->reviews()->count(), 0);

    // A session closed with its request waiting takes it along.
    m_window->openSessions()->close(b);
    QCOMPARE(list()->topLevelItemCount(), 0);
    QCOMPARE(inbox()->currentView(), nullptr);
    QTRY_VERIFY(!inbox()->statusButton()->isVisible());
    QVERIFY(!QFile::exists(m_repo->path(QStringLiteral("a.txt"))));
}

AGENTDESK_TEST_MAIN(tst_ApprovalInbox)

} // namespace tst_approvalinbox

#include "tst_approvalinbox.moc"
