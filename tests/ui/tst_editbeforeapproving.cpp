// Edit before approving: the review of an Edit or Write turns its new side into the user's own
// version (Edit, Ctrl+E), with real key presses, undo, and "Apply My Version"; the file gets
// exactly that text, the model's next request carries the user's changes as a diff, its next
// edit goes through, and the card says the change was applied with the user's changes. The
// whole window on a temporary git repository with a scripted model.
#include "../tools/toolstest.h"

#include <agentsession/agentsession.h>
#include <composer/composer.h>
#include <conversation/conversationitem.h>
#include <conversation/conversationview.h>
#include <conversation/toolcarditem.h>
#include <page/conversationpage.h>
#include <review/diffreviewview.h>
#include <review/proposaleditor.h>
#include <review/reviewqueue.h>
#include <scriptedmodel.h>
#include <testmain.h>
#include <window/mainwindow.h>

#include <QAbstractButton>
#include <QApplication>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QStandardPaths>
#include <QTest>

#include <memory>

using namespace AgentCore;
namespace tst_editbeforeapproving {

using TestSupport::ModelStep;
using TestSupport::ScriptedModel;
using Ui::AgentSession;

namespace {

constexpr int editRunTimeoutMs = 15'000;

// "line 1\n" ... "line N\n", with lines replaced as \a changes says.
QString numberedLines(int count, const QHash<int, QString> &changes = {})
{
    QString text;
    for (int i = 1; i <= count; ++i)
        text += changes.value(i, QStringLiteral("line %1").arg(i)) + u'\n';
    return text;
}

QString toolResultOf(const Context &context, const QString &toolCallId)
{
    for (const Message &message : context.messages) {
        if (message.isToolResult() && message.toolCallId == toolCallId)
            return message.text();
    }
    return {};
}

} // namespace

class tst_EditBeforeApproving : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_editbeforeapproving"));
    }

    void cleanup()
    {
        m_window.reset();
        m_repo.reset();
    }

    void editedVersionIsWrittenAndTheModelIsToldTheDiff();
    void editingStartsWithoutTheUncheckedHunks();
    void escLeavesTheEditorAndAsksOnlyWhenSomethingWouldBeLost();
    void theEditorGetsTheRoomWhileEditing();

private:
    void openWindow(const QList<ModelStep> &steps);
    /// Types \a task, waits for the review of the Write that follows.
    Ui::DiffReviewView *reviewAfter(const QString &task);
    /// Puts the editor's cursor at the end of line \a line (1-based) with the keyboard.
    static void goToEndOfLine(QPlainTextEdit *editor, int line);
    /// A QTRY in a helper would only end the helper: the test reads on from a run not done.
    [[nodiscard]] bool waitForIdle()
    {
        return QTest::qWaitFor([this] { return session()->state() == AgentSession::State::Idle; },
                               editRunTimeoutMs);
    }
    /// Clicks \a button once it is on screen, as a user can: a review that just arrived may
    /// not be laid out yet, and a click on its zero-height button would miss.
    [[nodiscard]] static bool clickWhenShown(QAbstractButton *button)
    {
        if (!button || !QTest::qWaitFor([button] { return !button->visibleRegion().isEmpty(); }))
            return false;
        QTest::mouseClick(button, Qt::LeftButton);
        return true;
    }
    Ui::ConversationPage *page() const { return m_window->conversationPage(); }
    AgentSession *session() const { return m_window->session(); }
    const Ui::ToolCardItem *card(const QString &toolName, int nth = 0) const;

    std::unique_ptr<ToolsTest::Repo> m_repo;
    std::shared_ptr<ScriptedModel> m_model;
    std::unique_ptr<Ui::MainWindow> m_window;
};

void tst_EditBeforeApproving::openWindow(const QList<ModelStep> &steps)
{
    m_repo = std::make_unique<ToolsTest::Repo>();
    QVERIFY(m_repo->isValid());
    QVERIFY(m_repo->write(QStringLiteral("list.txt"), numberedLines(30).toUtf8()));
    m_model = std::make_shared<ScriptedModel>(steps);
    Ui::AgentSetup setup;
    setup.model.client = m_model;
    setup.model.label = QStringLiteral("scripted");
    setup.options.systemPrompt = QStringLiteral("You are tested.");
    m_window = std::make_unique<Ui::MainWindow>(setup);
    m_window->resize(1100, 760);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get())); // shortcuts need the active window
    QVERIFY(m_window->openRepository(m_repo->root()));
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), editRunTimeoutMs);
    page()->composer()->setFocus();
}

Ui::DiffReviewView *tst_EditBeforeApproving::reviewAfter(const QString &task)
{
    QTest::keyClicks(page()->composer(), task);
    QTest::keyClick(page()->composer(), Qt::Key_Return);
    if (!QTest::qWaitFor([this] { return page()->reviews()->count() == 1; }, editRunTimeoutMs))
        return nullptr;
    return qobject_cast<Ui::DiffReviewView *>(page()->reviews()->currentView());
}

void tst_EditBeforeApproving::goToEndOfLine(QPlainTextEdit *editor, int line)
{
    QTest::keyClick(editor, Qt::Key_Home, Qt::ControlModifier);
    for (int i = 1; i < line; ++i)
        QTest::keyClick(editor, Qt::Key_Down);
    QTest::keyClick(editor, Qt::Key_End);
}

const Ui::ToolCardItem *tst_EditBeforeApproving::card(const QString &toolName, int nth) const
{
    const Ui::ConversationView *view = page()->conversation();
    for (int i = 0; i < view->itemCount(); ++i) {
        if (view->itemAt(i)->kind() != Ui::ConversationItem::Kind::ToolCard)
            continue;
        const auto item = static_cast<const Ui::ToolCardItem *>(view->itemAt(i));
        if (item->toolName() == toolName && nth-- == 0)
            return item;
    }
    return nullptr;
}

void tst_EditBeforeApproving::editedVersionIsWrittenAndTheModelIsToldTheDiff()
{
    const QString proposed = numberedLines(30, {{3, QStringLiteral("line three")}});
    openWindow({ModelStep::toolCall(QStringLiteral("r1"),
                                    QStringLiteral("Read"),
                                    {{"file_path", "list.txt"}}),
                ModelStep::toolCall(QStringLiteral("w1"),
                                    QStringLiteral("Write"),
                                    {{"file_path", "list.txt"}, {"content", proposed}}),
                // The model goes on from the user's version: its old_string is their line.
                ModelStep::toolCall(QStringLiteral("e1"),
                                    QStringLiteral("Edit"),
                                    {{"file_path", "list.txt"},
                                     {"old_string", "line 20 and mine"},
                                     {"new_string", "line 20 and ours"}}),
                ModelStep::text(QStringLiteral("Kept your line 20."))});
    Ui::DiffReviewView *review = reviewAfter(QStringLiteral("spell out line 3"));
    QVERIFY(review);
    QVERIFY(!review->isEditing());

    // Ctrl+E from inside the review opens the editor on the proposal, with the keyboard in it.
    auto diff = review->findChild<QWidget *>(QStringLiteral("unifiedView"));
    diff->setFocus(Qt::TabFocusReason);
    QTRY_VERIFY(diff->hasFocus());
    QTest::keyClick(diff, Qt::Key_E, Qt::ControlModifier);
    QVERIFY(review->isEditing());
    auto editor = review->findChild<QPlainTextEdit *>(QStringLiteral("proposalEditor"));
    QVERIFY(editor);
    QTRY_VERIFY(editor->hasFocus());
    QCOMPARE(editor->toPlainText(), proposed);
    auto apply = review->findChild<QAbstractButton *>(QStringLiteral("applyMyVersionButton"));
    QVERIFY(apply);
    QVERIFY(apply->isVisible());
    QVERIFY(!apply->isEnabled()); // nothing changed yet

    // A mistake, undone with Ctrl+Z; then the change the user means.
    goToEndOfLine(editor, 5);
    QTest::keyClicks(editor, QStringLiteral(" oops"));
    QVERIFY(editor->toPlainText().contains(QLatin1String("line 5 oops\n")));
    QVERIFY(apply->isEnabled());
    QTest::keyClick(editor, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(editor->toPlainText(), proposed);
    QVERIFY(!apply->isEnabled());
    goToEndOfLine(editor, 20);
    QTest::keyClicks(editor, QStringLiteral(" and mine"));
    const QString mine = numberedLines(30,
                                       {{3, QStringLiteral("line three")},
                                        {20, QStringLiteral("line 20 and mine")}});
    QCOMPARE(editor->toPlainText(), mine);
    auto stats = review->findChild<QLabel *>(QStringLiteral("editStats"));
    QTRY_COMPARE(stats->text(), QStringLiteral("Your changes: +1 −1"));

    QVERIFY(clickWhenShown(apply));
    // The model's own next Edit asks too.
    QTRY_COMPARE_WITH_TIMEOUT(page()->reviews()->count(), 1, editRunTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 3, editRunTimeoutMs);
    QCOMPARE(QString::fromUtf8(m_repo->read(QStringLiteral("list.txt"))), mine);
    const QString told = toolResultOf(m_model->contexts().at(2), QStringLiteral("w1"));
    QVERIFY2(told.startsWith(QLatin1String("The user edited your proposed Write of list.txt")),
             qPrintable(told));
    QVERIFY2(told.contains(QLatin1String("-line 20\n+line 20 and mine\n")), qPrintable(told));
    QVERIFY2(!told.contains(QLatin1String("line three")), qPrintable(told)); // theirs: not a change

    auto allowOnce = page()->reviews()->currentView()->findChild<QAbstractButton *>(
        QStringLiteral("allowOnceButton"));
    QVERIFY(clickWhenShown(allowOnce));
    QVERIFY(waitForIdle());
    const QString edited = toolResultOf(m_model->contexts().at(3), QStringLiteral("e1"));
    QVERIFY2(edited.startsWith(QLatin1String("Edited list.txt")), qPrintable(edited));
    QCOMPARE(QString::fromUtf8(m_repo->read(QStringLiteral("list.txt"))),
             numberedLines(30,
                           {{3, QStringLiteral("line three")},
                            {20, QStringLiteral("line 20 and ours")}}));

    // The card: applied with the user's changes, and the diff that landed.
    const Ui::ToolCardItem *write = card(QStringLiteral("Write"));
    QVERIFY(write);
    QVERIFY(write->isUserEdited());
    QVERIFY2(write->plainText().contains(QLatin1String("applied with your changes")),
             qPrintable(write->plainText()));
    QVERIFY2(write->outputText().contains(QLatin1String("+line 20 and mine")),
             qPrintable(write->outputText()));
    QVERIFY(!card(QStringLiteral("Edit"))->isUserEdited());
}

// Hunk choices first, then the edit: the editor starts from the proposal without the unchecked
// hunk, says so, and holds the choices while it is open; what it shows is what lands.
void tst_EditBeforeApproving::editingStartsWithoutTheUncheckedHunks()
{
    const QString proposed = numberedLines(30,
                                           {{3, QStringLiteral("line three")},
                                            {25, QStringLiteral("line twenty-five")}});
    openWindow({ModelStep::toolCall(QStringLiteral("r1"),
                                    QStringLiteral("Read"),
                                    {{"file_path", "list.txt"}}),
                ModelStep::toolCall(QStringLiteral("w1"),
                                    QStringLiteral("Write"),
                                    {{"file_path", "list.txt"}, {"content", proposed}}),
                ModelStep::text(QStringLiteral("Done."))});
    Ui::DiffReviewView *review = reviewAfter(QStringLiteral("spell out lines 3 and 25"));
    QVERIFY(review);
    QCOMPARE(review->hunkCount(), 2);
    auto hunks = review->findChild<QListWidget *>(QStringLiteral("hunkList"));
    // Unchecked with the keyboard, as a user would: the second hunk, Space.
    hunks->setFocus(Qt::TabFocusReason);
    hunks->setCurrentRow(1);
    QTest::keyClick(hunks, Qt::Key_Space);
    QCOMPARE(review->rejectedHunks(), QList<int>{1});

    auto edit = review->findChild<QAbstractButton *>(QStringLiteral("editProposalButton"));
    QVERIFY(clickWhenShown(edit));
    QVERIFY(review->isEditing());
    auto editor = review->findChild<QPlainTextEdit *>(QStringLiteral("proposalEditor"));
    QCOMPARE(editor->toPlainText(), numberedLines(30, {{3, QStringLiteral("line three")}}));
    auto note = review->findChild<QLabel *>(QStringLiteral("editNote"));
    QVERIFY2(note->text().contains(
                 QStringLiteral("without the changes you unchecked (Lines 22–28)")),
             qPrintable(note->text()));
    QVERIFY(!hunks->isVisible()); // the choices are made: the note names them

    goToEndOfLine(editor, 3);
    QTest::keyClick(editor, Qt::Key_Backspace);
    QTest::keyClicks(editor, QStringLiteral("E (3)"));
    const QString mine = numberedLines(30, {{3, QStringLiteral("line threE (3)")}});
    QCOMPARE(editor->toPlainText(), mine);
    // Ctrl+Enter in the editor allows once: the version as shown.
    QTest::keyClick(editor, Qt::Key_Return, Qt::ControlModifier);
    QVERIFY(waitForIdle());

    QCOMPARE(QString::fromUtf8(m_repo->read(QStringLiteral("list.txt"))), mine);
    const QString told = toolResultOf(m_model->contexts().at(2), QStringLiteral("w1"));
    // Against the proposal: their line 3, and line 25 as it was.
    QVERIFY2(told.contains(QLatin1String("-line three\n+line threE (3)\n")), qPrintable(told));
    QVERIFY2(told.contains(QLatin1String("-line twenty-five\n+line 25\n")), qPrintable(told));
}

// At 1000x700 the review's first share left the editor five lines: while editing, the reviews
// take most of the page's height, and give it back when the user leaves the editor.
void tst_EditBeforeApproving::theEditorGetsTheRoomWhileEditing()
{
    openWindow({ModelStep::toolCall(QStringLiteral("r1"),
                                    QStringLiteral("Read"),
                                    {{"file_path", "list.txt"}}),
                ModelStep::toolCall(QStringLiteral("w1"),
                                    QStringLiteral("Write"),
                                    {{"file_path", "list.txt"}, {"content", numberedLines(60, {})}}),
                ModelStep::text(QStringLiteral("Done."))});
    m_window->resize(1000, 700);
    Ui::DiffReviewView *review = reviewAfter(QStringLiteral("number the lines"));
    QVERIFY(review);
    QWidget *reviews = page()->reviews();
    const int before = reviews->height();
    auto editor = review->findChild<QPlainTextEdit *>(QStringLiteral("proposalEditor"));
    review->startEditing();
    QTRY_VERIFY(editor->hasFocus());
    QTRY_VERIFY2(reviews->height() > before + 100,
                 qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(reviews->height())));
    const int lineHeight = editor->fontMetrics().lineSpacing();
    QVERIFY2(editor->viewport()->height() >= 12 * lineHeight,
             qPrintable(QString::number(editor->viewport()->height() / lineHeight)));
    QTest::keyClick(editor, Qt::Key_Escape); // unchanged: leaves at once
    QVERIFY(!review->isEditing());
    QTRY_COMPARE(reviews->height(), before);
}

void tst_EditBeforeApproving::escLeavesTheEditorAndAsksOnlyWhenSomethingWouldBeLost()
{
    const QString proposed = numberedLines(30, {{3, QStringLiteral("line three")}});
    openWindow({ModelStep::toolCall(QStringLiteral("r1"),
                                    QStringLiteral("Read"),
                                    {{"file_path", "list.txt"}}),
                ModelStep::toolCall(QStringLiteral("w1"),
                                    QStringLiteral("Write"),
                                    {{"file_path", "list.txt"}, {"content", proposed}}),
                ModelStep::text(QStringLiteral("Done."))});
    Ui::DiffReviewView *review = reviewAfter(QStringLiteral("spell out line 3"));
    QVERIFY(review);
    auto editor = review->findChild<QPlainTextEdit *>(QStringLiteral("proposalEditor"));
    auto question = review->findChild<QWidget *>(QStringLiteral("discardQuestion"));

    // Unchanged: Esc leaves at once, asking nothing.
    review->startEditing();
    QTRY_VERIFY(editor->hasFocus());
    QTest::keyClick(editor, Qt::Key_Escape);
    QVERIFY(!review->isEditing());
    QVERIFY(question->isHidden());

    // From the editor's buttons as well.
    review->startEditing();
    auto back = review->findChild<QWidget *>(QStringLiteral("leaveEditButton"));
    back->setFocus(Qt::TabFocusReason);
    QTRY_VERIFY(back->hasFocus());
    QTest::keyClick(back, Qt::Key_Escape);
    QVERIFY(!review->isEditing());

    // Changed: Esc asks in the view; Esc again keeps editing, with the text as it was.
    review->startEditing();
    QTRY_VERIFY(editor->hasFocus());
    QTest::keyClicks(editor, QStringLiteral("# "));
    QTest::keyClick(editor, Qt::Key_Escape);
    QVERIFY(review->isEditing());
    QVERIFY(question->isVisible());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
    QVERIFY(review->isEditing());
    QVERIFY(question->isHidden());
    QVERIFY(editor->toPlainText().startsWith(QLatin1String("# line 1\n")));

    // Discarding goes back to the diff; an allow then writes the proposal as it was.
    QTest::keyClick(editor, Qt::Key_Escape);
    QVERIFY(clickWhenShown(
        question->findChild<QAbstractButton *>(QStringLiteral("discardChangesButton"))));
    QVERIFY(!review->isEditing());
    QVERIFY(
        clickWhenShown(review->findChild<QAbstractButton *>(QStringLiteral("allowOnceButton"))));
    QVERIFY(waitForIdle());
    QCOMPARE(QString::fromUtf8(m_repo->read(QStringLiteral("list.txt"))), proposed);
    QVERIFY(!card(QStringLiteral("Write"))->isUserEdited());
}

} // namespace tst_editbeforeapproving

AGENTDESK_TEST_MAIN(tst_editbeforeapproving::tst_EditBeforeApproving)
#include "tst_editbeforeapproving.moc"
