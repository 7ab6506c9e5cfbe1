// Subagents in the window (#37), through the real CodingSession and its Task tool with a
// scripted model: the Task card shows the child's tool cards once opened; a child's review
// comes to the session's review area and the approvals inbox labelled with the subagent, and
// approving it lets the child's write land; Esc in an open child's card stops that child while
// the parent finishes; Stop stops them all; a resumed session shows the child's transcript;
// the status bar's totals count the child's replies.
#include "../tools/toolstest.h"

#include <agentsession/agentsession.h>
#include <composer/composer.h>
#include <conversation/conversationmodel.h>
#include <conversation/conversationview.h>
#include <conversation/taskcarditem.h>
#include <conversation/toolcarditem.h>
#include <futureresult.h>
#include <loop/agent.h>
#include <page/conversationpage.h>
#include <review/reviewqueue.h>
#include <scriptedmodel.h>
#include <sessions/approvalinbox.h>
#include <sessions/approvalinboxdialog.h>
#include <statusbar/agentstatusbar.h>
#include <testmain.h>
#include <window/mainwindow.h>

#include <QLabel>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

#include <memory>

using namespace AgentCore;
namespace tst_subagentwindow {

using TestSupport::ModelStep;
using TestSupport::ScriptedModel;
using Ui::AgentSession;
using Ui::TaskCardItem;
using Ui::ToolCardItem;

namespace {

constexpr int subagentRunTimeoutMs = 20'000;

/// A reply at a known price with \a tokens input tokens, so that totals can be told apart.
ModelStep priced(ModelStep step, qint64 tokens)
{
    step.message.provider = QStringLiteral("anthropic");
    step.message.model = QStringLiteral("claude-sonnet-4-5");
    step.message.usage.input = tokens;
    step.message.usage.cost = double(tokens) * 3e-6;
    return step;
}

ModelStep taskCall(const QString &type, const QString &description)
{
    return priced(ModelStep::toolCall(QStringLiteral("task_1"),
                                      QStringLiteral("Task"),
                                      {{"description", description},
                                       {"prompt",
                                        QString(description + QStringLiteral(". Say where."))},
                                       {"subagent_type", type}}),
                  1'000);
}

} // namespace

class tst_SubagentWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_subagentwindow"));
    }
    void init()
    {
        m_repo = std::make_unique<ToolsTest::Repo>();
        QVERIFY(m_repo->isValid());
        QVERIFY(m_repo->write(QStringLiteral("src/sse.cpp"), "int parse(const char *line);\n"));
        QVERIFY(m_repo->write(QStringLiteral("src/main.cpp"), "int main() { return 0; }\n"));
    }
    void cleanup()
    {
        m_window.reset();
        m_repo.reset();
    }

    void taskCardOpensOnTheChildsToolCards();
    void childsReviewIsLabelledAndItsWriteLands();
    void escInAnOpenChildStopsOnlyIt();
    void stopStopsTheParentAndTheChild();
    void resumeShowsTheChildsTranscript();

private:
    void openWindow(const QList<ModelStep> &steps, PermissionMode mode = PermissionMode::Default)
    {
        m_window.reset();
        m_model = std::make_shared<ScriptedModel>(steps);
        Ui::AgentSetup setup;
        setup.model.client = m_model;
        setup.model.label = QStringLiteral("scripted");
        setup.options.systemPrompt = QStringLiteral("You are tested.");
        setup.options.permissions.mode = mode;
        setup.sessionsDirectory = m_sessionsDir.path();
        m_window = std::make_unique<Ui::MainWindow>(setup);
        m_window->resize(1200, 760);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QVERIFY(m_window->openRepository(m_repo->root()));
        QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), subagentRunTimeoutMs);
    }
    AgentSession *session() const { return m_window->session(); }
    Ui::ConversationPage *page() const { return m_window->conversationPage(); }
    Ui::ConversationView *view() const { return page()->conversation(); }
    void send(const QString &text)
    {
        Ui::Composer *composer = page()->composer();
        QTest::keyClicks(composer, text);
        QTest::keyClick(composer, Qt::Key_Return);
    }
    TaskCardItem *card() const { return view()->task({QStringLiteral("task_1")}); }
    /// Clicks \a card's header, as a user opens or folds it.
    void clickHeader(const TaskCardItem *card)
    {
        view()->flush();
        const QRect rect = view()->itemRect(view()->indexOf(card));
        QTest::mouseClick(view()->viewport(),
                          Qt::LeftButton,
                          {},
                          rect.topLeft() + card->headerRect().center());
        view()->flush();
    }
    static QStringList childToolNames(const TaskCardItem *card)
    {
        QStringList names;
        for (int i = 0; i < card->child()->count(); ++i) {
            if (card->child()->at(i)->kind() == Ui::ConversationItem::Kind::ToolCard)
                names << static_cast<const ToolCardItem *>(card->child()->at(i))->toolName();
        }
        return names;
    }
    QString usageText() const { return m_window->agentStatusBar()->usageText(); }

    std::unique_ptr<ToolsTest::Repo> m_repo;
    QTemporaryDir m_sessionsDir;
    std::shared_ptr<ScriptedModel> m_model;
    std::unique_ptr<Ui::MainWindow> m_window;
};

void tst_SubagentWindow::taskCardOpensOnTheChildsToolCards()
{
    // The parent delegates; its child reads two files and answers; the parent answers.
    openWindow(
        {taskCall(QStringLiteral("explore"), QStringLiteral("Find the SSE parser")),
         priced(ModelStep::toolCall(QStringLiteral("c1"),
                                    QStringLiteral("Read"),
                                    {{"file_path", m_repo->path("src/sse.cpp")}}),
                10'000),
         priced(ModelStep::toolCall(QStringLiteral("c2"),
                                    QStringLiteral("Read"),
                                    {{"file_path", m_repo->path("src/main.cpp")}}),
                10'000),
         priced(ModelStep::text(QStringLiteral("parse() in src/sse.cpp.")), 10'000),
         priced(ModelStep::text(QStringLiteral("The parser is parse() in src/sse.cpp.")), 1'000)});
    send(QStringLiteral("Where is the SSE parser?"));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 5, subagentRunTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, subagentRunTimeoutMs);

    TaskCardItem *task = card();
    QVERIFY(task);
    QCOMPARE(task->agentType(), QStringLiteral("explore"));
    QCOMPARE(task->progress(), TaskCardItem::Progress::Done);
    QVERIFY(!task->isOpen());
    QCOMPARE(childToolNames(task), (QStringList{QStringLiteral("Read"), QStringLiteral("Read")}));
    for (int i = 0; i < task->child()->count(); ++i)
        QVERIFY(!task->child()->at(i)->hasLayout()); // folded: nothing of the child laid out

    clickHeader(task);
    QVERIFY(task->isOpen());
    QVERIFY2(task->plainText().contains(QStringLiteral("Read ") + m_repo->path("src/sse.cpp")),
             qPrintable(task->plainText()));
    QVERIFY(task->plainText().contains(QStringLiteral("parse() in src/sse.cpp.")));

    // The child's three replies (30k) count in the session's totals with the parent's two.
    QCOMPARE(task->usage().input, 30'000);
    QVERIFY2(task->usageText().contains(QStringLiteral("30k tokens")),
             qPrintable(task->usageText()));
    QVERIFY2(usageText().contains(QStringLiteral("32k tokens")), qPrintable(usageText()));
}

void tst_SubagentWindow::childsReviewIsLabelledAndItsWriteLands()
{
    openWindow({taskCall(QStringLiteral("general"), QStringLiteral("Write the notes")),
                ModelStep::toolCall(QStringLiteral("w1"),
                                    QStringLiteral("Write"),
                                    {{"file_path", m_repo->path("NOTES.md")},
                                     {"content", "parse() is in src/sse.cpp\n"}}),
                ModelStep::text(QStringLiteral("Wrote NOTES.md.")),
                ModelStep::text(QStringLiteral("The notes are written."))});
    send(QStringLiteral("Write down where the parser is."));

    // The review area: the child's Write, labelled with the subagent.
    Ui::ReviewQueue *reviews = page()->reviews();
    QTRY_COMPARE_WITH_TIMEOUT(reviews->count(), 1, subagentRunTimeoutMs);
    auto label = reviews->currentView()->findChild<QLabel *>(QStringLiteral("reviewSubagent"));
    QVERIFY(label);
    QVERIFY2(label->text().contains(QStringLiteral("general: Write the notes")),
             qPrintable(label->text()));
    QVERIFY(label->isVisible());

    // The approvals inbox: the same request, labelled.
    Ui::ApprovalInboxDialog *inbox = m_window->approvalInbox();
    QTRY_COMPARE_WITH_TIMEOUT(inbox->inbox()->count(), 1, subagentRunTimeoutMs);
    QCOMPARE(inbox->inbox()->items().first().request.subagent,
             QStringLiteral("general: Write the notes"));
    QTRY_COMPARE(inbox->list()->topLevelItemCount(), 1);
    QVERIFY2(inbox->list()->topLevelItem(0)->text(0).contains(
                 QStringLiteral("general: Write the notes")),
             qPrintable(inbox->list()->topLevelItem(0)->text(0)));

    QVERIFY(!QFileInfo::exists(m_repo->path("NOTES.md")));
    auto allow = reviews->currentView()->findChild<QPushButton *>(
        QStringLiteral("allowOnceButton"));
    QVERIFY(allow);
    allow->click();
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, subagentRunTimeoutMs);
    QCOMPARE(m_repo->read(QStringLiteral("NOTES.md")), QByteArray("parse() is in src/sse.cpp\n"));
    QCOMPARE(inbox->inbox()->count(), 0);
    QVERIFY(card());
    QCOMPARE(childToolNames(card()), QStringList{QStringLiteral("Write")});
    QCOMPARE(card()->progress(), TaskCardItem::Progress::Done);
}

void tst_SubagentWindow::escInAnOpenChildStopsOnlyIt()
{
    openWindow({taskCall(QStringLiteral("explore"), QStringLiteral("Find the SSE parser")),
                ModelStep::waitForAbort(),
                ModelStep::text(QStringLiteral("The search was stopped; I stop here too."))});
    send(QStringLiteral("Where is the SSE parser?"));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 2, subagentRunTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(card() && card()->progress() == TaskCardItem::Progress::Running,
                             subagentRunTimeoutMs);

    // Open the child's card (a click also gives the conversation the keys), then Esc.
    clickHeader(card());
    QVERIFY(card()->isOpen());
    QVERIFY(view()->hasFocus());
    QTest::keyClick(view(), Qt::Key_Escape);

    // The child stops; the parent goes on to its answer.
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, subagentRunTimeoutMs);
    QCOMPARE(m_model->callCount(), 3);
    QCOMPARE(card()->progress(), TaskCardItem::Progress::Stopped);
    const QList<Message> messages = session()->agent()->messages();
    QVERIFY(!messages.isEmpty());
    QCOMPARE(messages.last().text(), QStringLiteral("The search was stopped; I stop here too."));
    QCOMPARE(messages.last().stopReason, StopReason::Stop);
}

void tst_SubagentWindow::stopStopsTheParentAndTheChild()
{
    openWindow({taskCall(QStringLiteral("explore"), QStringLiteral("Find the SSE parser")),
                ModelStep::waitForAbort(),
                ModelStep::text(QStringLiteral("never asked"))});
    send(QStringLiteral("Where is the SSE parser?"));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 2, subagentRunTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(card() && card()->progress() == TaskCardItem::Progress::Running,
                             subagentRunTimeoutMs);
    page()->sendStopButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, subagentRunTimeoutMs);
    QCOMPARE(m_model->callCount(), 2); // the parent did not go on
    QCOMPARE(card()->progress(), TaskCardItem::Progress::Stopped);
}

void tst_SubagentWindow::resumeShowsTheChildsTranscript()
{
    openWindow({taskCall(QStringLiteral("explore"), QStringLiteral("Find the SSE parser")),
                priced(ModelStep::toolCall(QStringLiteral("c1"),
                                           QStringLiteral("Read"),
                                           {{"file_path", m_repo->path("src/sse.cpp")}}),
                       10'000),
                priced(ModelStep::text(QStringLiteral("parse() in src/sse.cpp.")), 10'000),
                priced(ModelStep::text(QStringLiteral("It is parse().")), 1'000)});
    send(QStringLiteral("Where is the SSE parser?"));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 4, subagentRunTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, subagentRunTimeoutMs);
    const QString live = usageText();
    const QString path = session()->sessionPath();

    openWindow({});
    QVERIFY(TestSupport::futureResult(m_window->resumeSession(path)));
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), subagentRunTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(card(), subagentRunTimeoutMs);
    QCOMPARE(card()->progress(), TaskCardItem::Progress::Done);
    QCOMPARE(childToolNames(card()), QStringList{QStringLiteral("Read")});
    clickHeader(card());
    QVERIFY2(card()->plainText().contains(QStringLiteral("parse() in src/sse.cpp.")),
             qPrintable(card()->plainText()));
    QCOMPARE(card()->usage().input, 20'000);
    QCOMPARE(usageText(), live); // the totals count the child's replies after a resume too
    QVERIFY2(live.contains(QStringLiteral("22k tokens")), qPrintable(live));
}

AGENTDESK_TEST_MAIN(tst_SubagentWindow)

} // namespace tst_subagentwindow

#include "tst_subagentwindow.moc"
