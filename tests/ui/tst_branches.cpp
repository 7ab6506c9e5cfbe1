// Branches in the window, end to end with a scripted model and real widgets: "Edit and resend"
// makes branch 2 / 2 (the request carries the edited message, not the first attempt), the
// switcher (Alt+Left) shows the first attempt again as 1 / 2, the tree view lists both and Enter
// jumps, a window opened again shows the active branch, and a switch while the agent works is
// refused with the reason.
#include "../tools/toolstest.h"

#include <agentsession/agentsession.h>
#include <composer/composer.h>
#include <conversation/conversationitem.h>
#include <conversation/conversationview.h>
#include <conversation/messageitem.h>
#include <futureresult.h>
#include <page/conversationpage.h>
#include <rewind/branchcontroller.h>
#include <rewind/branchtreedialog.h>
#include <scriptedmodel.h>
#include <testmain.h>
#include <window/mainwindow.h>

#include <QAction>
#include <QCheckBox>
#include <QLabel>
#include <QMenu>
#include <QPointer>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <memory>

using namespace AgentCore;
namespace tst_branches {

using TestSupport::ModelStep;
using TestSupport::ScriptedModel;
using Ui::AgentSession;

namespace {

constexpr int branchRunTimeoutMs = 15'000;

// The bubble showing \a text, or nullptr.
const Ui::MessageItem *bubbleWithText(const Ui::ConversationView *view, const QString &text)
{
    for (int i = 0; i < view->itemCount(); ++i) {
        const Ui::ConversationItem *item = view->itemAt(i);
        if ((item->kind() == Ui::ConversationItem::Kind::User
             || item->kind() == Ui::ConversationItem::Kind::Assistant)
            && item->plainText().trimmed() == text)
            return static_cast<const Ui::MessageItem *>(item);
    }
    return nullptr;
}

QStringList shownTexts(const Ui::ConversationView *view)
{
    QStringList texts;
    for (int i = 0; i < view->itemCount(); ++i)
        texts.append(view->itemAt(i)->plainText().trimmed());
    return texts;
}

QStringList contextTexts(const Context &context)
{
    QStringList texts;
    for (const Message &message : context.messages)
        texts.append(message.text());
    return texts;
}

QTreeWidgetItem *treeRowStartingWith(QTreeWidget *tree, const QString &prefix)
{
    for (QTreeWidgetItemIterator it(tree); *it; ++it) {
        if ((*it)->text(0).startsWith(prefix))
            return *it;
    }
    return nullptr;
}

} // namespace

class tst_Branches : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_branches"));
        m_repo = std::make_unique<ToolsTest::Repo>();
        QVERIFY(m_repo->isValid());
    }
    void cleanupTestCase()
    {
        m_window.reset();
        m_repo.reset();
    }

    void editAndResendSwitchTreeAndRestart();
    void forkFromHere();

private:
    void openBranchWindow(const QList<ModelStep> &steps)
    {
        m_window.reset();
        m_model = std::make_shared<ScriptedModel>(steps);
        Ui::AgentSetup setup;
        setup.model.client = m_model;
        setup.model.label = QStringLiteral("scripted");
        setup.options.systemPrompt = QStringLiteral("You are tested.");
        setup.sessionsDirectory = m_sessions.path();
        m_window = std::make_unique<Ui::MainWindow>(setup);
        m_window->resize(1000, 700);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QVERIFY(m_window->openRepository(m_repo->root()));
        QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), branchRunTimeoutMs);
        page()->composer()->setFocus();
    }
    void typeAndSend(const QString &text)
    {
        QTest::keyClicks(page()->composer(), text);
        QTest::keyClick(page()->composer(), Qt::Key_Return);
    }
    bool idle()
    {
        return QTest::qWaitFor([this] { return session()->state() == AgentSession::State::Idle; },
                               branchRunTimeoutMs);
    }
    QAction *menuAction(const Ui::ConversationItem *item, const QString &name)
    {
        delete m_menu; // the view's child: gone with its window
        m_menu = view()->createItemMenu(view()->indexOf(item));
        return m_menu->findChild<QAction *>(name);
    }

    Ui::ConversationPage *page() const { return m_window->conversationPage(); }
    AgentSession *session() const { return m_window->session(); }
    Ui::ConversationView *view() const { return page()->conversation(); }

    std::unique_ptr<ToolsTest::Repo> m_repo;
    QTemporaryDir m_sessions;
    std::shared_ptr<ScriptedModel> m_model;
    std::unique_ptr<Ui::MainWindow> m_window;
    QPointer<QMenu> m_menu;
};

void tst_Branches::editAndResendSwitchTreeAndRestart()
{
    openBranchWindow({ModelStep::text(QStringLiteral("Answer one")),
                      ModelStep::text(QStringLiteral("Answer two")),
                      ModelStep::text(QStringLiteral("Answer two again"))});
    typeAndSend(QStringLiteral("first"));
    QVERIFY(idle());
    typeAndSend(QStringLiteral("second"));
    QVERIFY(idle());
    QTRY_VERIFY(bubbleWithText(view(), QStringLiteral("Answer two")));

    // Edit and resend: the message in the box, the notice says what sending does.
    QAction *edit = menuAction(bubbleWithText(view(), QStringLiteral("second")),
                               QStringLiteral("editAndResendAction"));
    QVERIFY(edit && edit->isEnabled());
    QVERIFY(!menuAction(bubbleWithText(view(), QStringLiteral("Answer two")),
                        QStringLiteral("editAndResendAction")));
    edit = menuAction(bubbleWithText(view(), QStringLiteral("second")),
                      QStringLiteral("editAndResendAction"));
    edit->trigger();
    QVERIFY(page()->editNotice()->isVisible());
    QCOMPARE(page()->composer()->toPlainText(), QStringLiteral("second"));
    QTest::keyClicks(page()->composer(), QStringLiteral(", edited"));
    QTest::keyClick(page()->composer(), Qt::Key_Return);
    QVERIFY(idle());
    QTRY_VERIFY(bubbleWithText(view(), QStringLiteral("Answer two again")));
    QVERIFY(!page()->editNotice()->isVisible());
    QCOMPARE(contextTexts(m_model->contexts().last()),
             (QStringList{QStringLiteral("first"),
                          QStringLiteral("Answer one"),
                          QStringLiteral("second, edited")}));
    QCOMPARE(shownTexts(view()),
             (QStringList{QStringLiteral("first"),
                          QStringLiteral("Answer one"),
                          QStringLiteral("second, edited"),
                          QStringLiteral("Answer two again")}));
    const Ui::MessageItem *edited = bubbleWithText(view(), QStringLiteral("second, edited"));
    QTRY_VERIFY(edited->hasBranches());
    QCOMPARE(edited->branchLabel(), QStringLiteral("‹  2 / 2  ›"));

    // The switcher from the keyboard: Alt+Up picks the message, Alt+Left shows branch 1.
    view()->setFocus();
    view()->setKeyItem(edited);
    QTest::keyClick(view(), Qt::Key_Left, Qt::AltModifier);
    QTRY_VERIFY(bubbleWithText(view(), QStringLiteral("Answer two")));
    QCOMPARE(shownTexts(view()),
             (QStringList{QStringLiteral("first"),
                          QStringLiteral("Answer one"),
                          QStringLiteral("second"),
                          QStringLiteral("Answer two")}));
    QCOMPARE(bubbleWithText(view(), QStringLiteral("second"))->branchLabel(),
             QStringLiteral("‹  1 / 2  ›"));
    QCOMPARE(session()->agent()->messages().last().text(), QStringLiteral("Answer two"));

    // The tree view: both branches under the first exchange, the current one picked; Enter on
    // the other goes there.
    QTest::keyClick(view(), Qt::Key_G, Qt::ControlModifier | Qt::ShiftModifier);
    Ui::BranchTreeDialog *dialog = page()->branchController()->treeDialog();
    QVERIFY(dialog);
    QTRY_VERIFY(dialog->isVisible());
    QTreeWidget *tree = dialog->tree();
    QCOMPARE(tree->topLevelItemCount(), 1);
    QCOMPARE(tree->topLevelItem(0)->childCount(), 2);
    QVERIFY(tree->currentItem()->text(0).startsWith(QStringLiteral("● second")));
    QTreeWidgetItem *other = treeRowStartingWith(tree, QStringLiteral("second, edited"));
    QVERIFY(other);
    tree->setCurrentItem(other);
    QTest::keyClick(tree, Qt::Key_Return);
    QTRY_VERIFY(bubbleWithText(view(), QStringLiteral("Answer two again")));
    QVERIFY(!bubbleWithText(view(), QStringLiteral("Answer two")));

    // A window opened again shows the branch that was active, with its switcher.
    const QString path = session()->sessionPath();
    openBranchWindow({ModelStep::waitForAbort()});
    QVERIFY(TestSupport::futureResult(m_window->resumeSession(path)));
    QTRY_COMPARE(session()->sessionPath(), path);
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), branchRunTimeoutMs);
    QTRY_VERIFY(bubbleWithText(view(), QStringLiteral("Answer two again")));
    QVERIFY(!bubbleWithText(view(), QStringLiteral("Answer two")));
    QTRY_COMPARE(bubbleWithText(view(), QStringLiteral("second, edited"))->branchLabel(),
                 QStringLiteral("‹  2 / 2  ›"));

    // While the agent works, a switch is refused and says why; the run goes on.
    typeAndSend(QStringLiteral("third"));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 1, branchRunTimeoutMs);
    QVERIFY(!page()->branchController()->step(2, -1));
    QVERIFY(page()->rewindNotice()->isVisible());
    QVERIFY2(page()->rewindNotice()->text().contains(QStringLiteral("working")),
             qPrintable(page()->rewindNotice()->text()));
    QVERIFY(!menuAction(bubbleWithText(view(), QStringLiteral("first")),
                        QStringLiteral("forkFromHereAction"))
                 ->isEnabled());
    QCOMPARE(session()->state(), AgentSession::State::Running);
    session()->stop();
    QVERIFY(idle());
}

// Fork from here on an answer: the conversation ends there, the page says what sending does, and
// the next message continues from it, its bubble showing branch 2 / 2.
void tst_Branches::forkFromHere()
{
    openBranchWindow({ModelStep::text(QStringLiteral("A1")),
                      ModelStep::text(QStringLiteral("B1")),
                      ModelStep::text(QStringLiteral("C1"))});
    typeAndSend(QStringLiteral("alpha"));
    QVERIFY(idle());
    typeAndSend(QStringLiteral("beta"));
    QVERIFY(idle());
    QTRY_VERIFY(bubbleWithText(view(), QStringLiteral("B1")));
    QAction *fork = menuAction(bubbleWithText(view(), QStringLiteral("A1")),
                               QStringLiteral("forkFromHereAction"));
    QVERIFY(fork && fork->isEnabled());
    fork->trigger();
    QTRY_COMPARE(shownTexts(view()), (QStringList{QStringLiteral("alpha"), QStringLiteral("A1")}));
    QVERIFY(page()->rewindNotice()->isVisible());
    typeAndSend(QStringLiteral("gamma"));
    QVERIFY(idle());
    QTRY_VERIFY(bubbleWithText(view(), QStringLiteral("C1")));
    QCOMPARE(contextTexts(m_model->contexts().last()),
             (QStringList{QStringLiteral("alpha"), QStringLiteral("A1"), QStringLiteral("gamma")}));
    QTRY_COMPARE(bubbleWithText(view(), QStringLiteral("gamma"))->branchLabel(),
                 QStringLiteral("‹  2 / 2  ›"));
    QVERIFY(!page()->rewindNotice()->isVisible());
}

AGENTDESK_TEST_MAIN(tst_Branches)

} // namespace tst_branches

#include "tst_branches.moc"
