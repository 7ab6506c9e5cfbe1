// The window on a temporary git repository with a scripted model: a Bash `sed -i` runs on an
// overlay of the repository (real bwrap), its writes open as a review, the user keeps one hunk
// and rejects another; the tree gets exactly the kept change and the model is told so.
#include "../tools/toolstest.h"

#include <agentsession/agentsession.h>
#include <composer/composer.h>
#include <page/conversationpage.h>
#include <review/bashreviewview.h>
#include <review/reviewqueue.h>
#include <review/shellwritesreviewview.h>
#include <scriptedmodel.h>
#include <testmain.h>
#include <tools/shelloverlay.h>
#include <window/mainwindow.h>

#include <QAbstractButton>
#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QStandardPaths>
#include <QTest>
#include <QTreeWidget>

using namespace AgentCore;
namespace tst_shellwritesreview {

using TestSupport::ModelStep;
using TestSupport::ScriptedModel;
using Ui::AgentSession;

namespace {

constexpr int runTimeoutMs = 15'000;

QString lastToolResult(const Context &context)
{
    for (auto it = context.messages.crbegin(); it != context.messages.crend(); ++it) {
        if (it->isToolResult())
            return it->text();
    }
    return {};
}

QByteArray numbered(int count, const QHash<int, QByteArray> &changed = {})
{
    QByteArray text;
    for (int i = 1; i <= count; ++i)
        text += changed.value(i, "line " + QByteArray::number(i)) + '\n';
    return text;
}

} // namespace

class tst_ShellWritesReview : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_shellwritesreview"));
    }

    void cleanup()
    {
        m_window.reset();
        m_repo.reset();
    }

    // sed -i changes two distant lines: the user keeps the first hunk, rejects the second
    // with feedback. Nothing reaches the file before the answer; afterwards exactly the kept
    // hunk; the model's result names both.
    void acceptOneHunkRejectAnother()
    {
        if (const QString why = ShellOverlay::unsupportedReason(); !why.isEmpty())
            QSKIP(qPrintable(why));
        openWindow({ModelStep::toolCall(QStringLiteral("b1"),
                                        QStringLiteral("Bash"),
                                        {{"command",
                                          "sed -i -e 's/^line 3$/line 3, kept/' -e "
                                          "'s/^line 25$/line 25, rejected/' list.txt"}}),
                    ModelStep::text(QStringLiteral("Only line 3 changed."))});
        QVERIFY(m_repo->write(QStringLiteral("list.txt"), numbered(30)));
        type(QStringLiteral("renumber the list"));

        // First the command itself, as today.
        QTRY_VERIFY_WITH_TIMEOUT(qobject_cast<Ui::BashReviewView *>(
                                     page()->reviews()->currentView()),
                                 runTimeoutMs);
        clickAnswer("allowOnceButton");

        // Then what it wrote.
        QTRY_VERIFY_WITH_TIMEOUT(qobject_cast<Ui::ShellWritesReviewView *>(
                                     page()->reviews()->currentView()),
                                 runTimeoutMs);
        auto review = qobject_cast<Ui::ShellWritesReviewView *>(page()->reviews()->currentView());
        auto tree = review->findChild<QTreeWidget *>(QStringLiteral("writesTree"));
        QVERIFY(tree);
        QCOMPARE(tree->topLevelItemCount(), 1);
        QCOMPARE(tree->topLevelItem(0)->text(0), QStringLiteral("list.txt"));
        QCOMPARE(tree->topLevelItem(0)->childCount(), 2);
        QVERIFY2(review->shownText().contains(QStringLiteral("line 25, rejected")),
                 qPrintable(review->shownText()));
        // The command ran, but the repository is untouched until the answer.
        QCOMPARE(m_repo->read(QStringLiteral("list.txt")), numbered(30));

        review->setHunkAccepted(0, 1, false);
        auto feedback = review->findChild<QLineEdit *>(QStringLiteral("denyFeedback"));
        QVERIFY(feedback);
        QTest::keyClicks(feedback, QStringLiteral("leave line 25 alone"));
        clickAnswer("allowOnceButton");
        QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);

        QCOMPARE(m_repo->read(QStringLiteral("list.txt")), numbered(30, {{3, "line 3, kept"}}));
        const QString result = lastToolResult(m_model->contexts().at(1));
        QVERIFY2(result.contains(QStringLiteral("Applied to the repository: list.txt (modified; "
                                                "hunk 2 of 2 rejected)")),
                 qPrintable(result));
        QVERIFY2(result.contains(QStringLiteral("Their feedback: leave line 25 alone")),
                 qPrintable(result));
    }

    // Reject all: the command ran, nothing of it reaches the tree, the model is told.
    void rejectAllKeepsTheTree()
    {
        if (const QString why = ShellOverlay::unsupportedReason(); !why.isEmpty())
            QSKIP(qPrintable(why));
        openWindow({ModelStep::toolCall(QStringLiteral("b1"),
                                        QStringLiteral("Bash"),
                                        {{"command", "rm list.txt && touch new.txt"}}),
                    ModelStep::text(QStringLiteral("ok"))});
        QVERIFY(m_repo->write(QStringLiteral("list.txt"), numbered(3)));
        type(QStringLiteral("clean up"));
        QTRY_VERIFY_WITH_TIMEOUT(qobject_cast<Ui::BashReviewView *>(
                                     page()->reviews()->currentView()),
                                 runTimeoutMs);
        clickAnswer("allowOnceButton");
        QTRY_VERIFY_WITH_TIMEOUT(qobject_cast<Ui::ShellWritesReviewView *>(
                                     page()->reviews()->currentView()),
                                 runTimeoutMs);
        clickAnswer("denyButton");
        QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
        QCOMPARE(m_repo->read(QStringLiteral("list.txt")), numbered(3));
        QVERIFY(!QFileInfo::exists(m_repo->path(QStringLiteral("new.txt"))));
        const QString result = lastToolResult(m_model->contexts().at(1));
        QVERIFY2(result.contains(QStringLiteral("Rejected by the user, not in the repository: "
                                                "list.txt (deleted); new.txt (added)")),
                 qPrintable(result));
    }

private:
    void openWindow(const QList<ModelStep> &steps)
    {
        m_repo = std::make_unique<ToolsTest::Repo>();
        QVERIFY(m_repo->isValid());
        m_model = std::make_shared<ScriptedModel>(steps);
        Ui::AgentSetup setup;
        setup.model.client = m_model;
        setup.model.label = QStringLiteral("scripted");
        setup.options.systemPrompt = QStringLiteral("You are tested.");
        setup.options.shellWrites.folder = m_scratch.path();
        m_window = std::make_unique<Ui::MainWindow>(setup);
        m_window->resize(1100, 760);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QVERIFY(m_window->openRepository(m_repo->root()));
        QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    }
    void type(const QString &text)
    {
        Ui::Composer *composer = page()->composer();
        QTest::keyClicks(composer, text);
        QTest::keyClick(composer, Qt::Key_Return);
    }
    void clickAnswer(const char *buttonName)
    {
        auto button = page()->reviews()->currentView()->findChild<QAbstractButton *>(
            QLatin1String(buttonName));
        QVERIFY(button);
        // A review made current a moment ago is laid out on a later pass of the event loop;
        // a click before that lands where its button is not yet (QTest delivers it through
        // the window, by position).
        QTRY_VERIFY(button->isVisible());
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QTest::mouseClick(button, Qt::LeftButton);
    }
    Ui::ConversationPage *page() const { return m_window->conversationPage(); }
    AgentSession *session() const { return m_window->session(); }

    QTemporaryDir m_scratch;
    std::unique_ptr<ToolsTest::Repo> m_repo;
    std::shared_ptr<ScriptedModel> m_model;
    std::unique_ptr<Ui::MainWindow> m_window;
};

AGENTDESK_TEST_MAIN(tst_ShellWritesReview)

} // namespace tst_shellwritesreview

#include "tst_shellwritesreview.moc"
