// A language server's view of a proposal in its review (issue #40): the whole window on a
// temporary git repository with a scripted model and the real pylsp. The review of an Edit that
// would introduce an undefined name says so above the diff and marks its line before the user
// answers; once allowed, the model is told the same problem in the Edit's result. A file no
// server is for shows nothing of it.
#include "../tools/toolstest.h"

#include <agentsession/agentsession.h>
#include <composer/composer.h>
#include <i18n/translations.h>
#include <page/conversationpage.h>
#include <review/diffreviewview.h>
#include <review/difftextview.h>
#include <review/proposalproblemsview.h>
#include <review/reviewqueue.h>
#include <scriptedmodel.h>
#include <testmain.h>
#include <window/changedfilespanel.h>
#include <window/mainwindow.h>

#include <QAbstractButton>
#include <QStandardPaths>
#include <QTest>

#include <memory>

using namespace AgentCore;
using namespace Qt::StringLiterals;
namespace tst_reviewdiagnostics {

using TestSupport::ModelStep;
using TestSupport::ScriptedModel;
using Ui::AgentSession;

namespace {

// A cold server on a loaded 2-core machine: the test is about what is shown, not when.
constexpr int serverTimeoutMs = 60'000;
constexpr int runTimeoutMs = 15'000;

QString toolResultOf(const Context &context, const QString &toolCallId)
{
    for (const Message &message : context.messages) {
        if (message.isToolResult() && message.toolCallId == toolCallId)
            return message.text();
    }
    return {};
}

} // namespace

class tst_ReviewDiagnostics : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(u"AgentDeskTests"_s);
        QCoreApplication::setApplicationName(u"tst_reviewdiagnostics"_s);
        Ui::Translations::install(u"en"_s); // "1 new error", as the window says it
    }

    void cleanup()
    {
        m_window.reset();
        m_repo.reset();
    }

    void theReviewShowsTheErrorTheProposalWouldIntroduce()
    {
        openWindow(u"tool.py"_s,
                   "import os\n\n\ndef twice(x):\n    return 2 * x\n",
                   {ModelStep::toolCall(u"r1"_s, u"Read"_s, {{"file_path", "tool.py"}}),
                    ModelStep::toolCall(u"e1"_s,
                                        u"Edit"_s,
                                        {{"file_path", "tool.py"},
                                         {"old_string", "return 2 * x"},
                                         {"new_string", "return 2 * y"}}),
                    ModelStep::text(u"Done."_s)});
        Ui::DiffReviewView *review = reviewAfter(u"use y"_s);
        QVERIFY(review);
        auto problems = review->findChild<Ui::ProposalProblemsView *>(u"proposalProblems"_s);
        QVERIFY(problems);
        QVERIFY(problems->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(problems->result().has_value(), serverTimeoutMs);
        const QString shown = problems->text();
        QVERIFY2(shown.contains(u"pylsp finds 1 new error in this change"_s), qPrintable(shown));
        QVERIFY2(shown.contains(u"line 5"_s) && shown.contains(u"undefined name"_s),
                 qPrintable(shown));
        QCOMPARE(problems->result()->introduced.size(), 1);
        // What the file had before is not the change's.
        QVERIFY2(!shown.contains(u"imported but unused"_s), qPrintable(shown));
        auto unified = review->findChild<Ui::DiffTextView *>(u"unifiedView"_s);
        QCOMPARE(unified->problemLines(), QList<int>{5});
        // Side by side, the new side has the mark too.
        review->setSideBySide(true);
        QCOMPARE(review->findChild<Ui::DiffTextView *>(u"newView"_s)->problemLines(), QList<int>{5});

        // Allowed as it is: the model hears the same problem, checked once.
        auto allow = review->findChild<QAbstractButton *>(u"allowOnceButton"_s);
        QTRY_VERIFY(!allow->visibleRegion().isEmpty());
        QTest::mouseClick(allow, Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([this] { return session()->state() == AgentSession::State::Idle; },
                                runTimeoutMs));
        QCOMPARE(m_model->callCount(), 3);
        const QString edited = toolResultOf(m_model->contexts().at(2), u"e1"_s);
        QVERIFY2(edited.contains(u"pylsp reports 1 new problem"_s) && edited.contains(u"5:"_s)
                     && edited.contains(u"undefined name 'y'"_s),
                 qPrintable(edited));
    }

    void aFileNoServerIsForShowsNothing()
    {
        openWindow(u"notes.txt"_s,
                   "alpha\n",
                   {ModelStep::toolCall(u"r1"_s, u"Read"_s, {{"file_path", "notes.txt"}}),
                    ModelStep::toolCall(u"e1"_s,
                                        u"Edit"_s,
                                        {{"file_path", "notes.txt"},
                                         {"old_string", "alpha"},
                                         {"new_string", "beta"}}),
                    ModelStep::text(u"Done."_s)});
        Ui::DiffReviewView *review = reviewAfter(u"say beta"_s);
        QVERIFY(review);
        auto problems = review->findChild<Ui::ProposalProblemsView *>(u"proposalProblems"_s);
        QVERIFY(problems);
        QVERIFY(problems->isHidden());
        QVERIFY(review->findChild<Ui::DiffTextView *>(u"unifiedView"_s)->problemLines().isEmpty());
    }

private:
    void openWindow(const QString &file, const QByteArray &text, const QList<ModelStep> &steps)
    {
        m_repo = std::make_unique<ToolsTest::Repo>();
        QVERIFY(m_repo->isValid());
        QVERIFY(m_repo->write(file, text));
        m_model = std::make_shared<ScriptedModel>(steps);
        Ui::AgentSetup setup;
        setup.model.client = m_model;
        setup.model.label = u"scripted"_s;
        setup.options.systemPrompt = u"You are tested."_s;
        // A cold server may take a while to start here; the review does not wait for it.
        setup.options.languageServers.editWaitMs = serverTimeoutMs;
        m_window = std::make_unique<Ui::MainWindow>(setup);
        m_window->resize(1100, 760);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        QVERIFY(m_window->openRepository(m_repo->root()));
        QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
        page()->composer()->setFocus();
    }

    /// Types \a task, waits for the review of the Edit that follows.
    Ui::DiffReviewView *reviewAfter(const QString &task)
    {
        QTest::keyClicks(page()->composer(), task);
        QTest::keyClick(page()->composer(), Qt::Key_Return);
        if (!QTest::qWaitFor([this] { return page()->reviews()->count() == 1; }, runTimeoutMs))
            return nullptr;
        return qobject_cast<Ui::DiffReviewView *>(page()->reviews()->currentView());
    }

    Ui::ConversationPage *page() const { return m_window->conversationPage(); }
    AgentSession *session() const { return m_window->session(); }

    std::unique_ptr<ToolsTest::Repo> m_repo;
    std::shared_ptr<ScriptedModel> m_model;
    std::unique_ptr<Ui::MainWindow> m_window;
};

} // namespace tst_reviewdiagnostics

AGENTDESK_TEST_MAIN(tst_reviewdiagnostics::tst_ReviewDiagnostics)
#include "tst_reviewdiagnostics.moc"
