// The window's tokens and cost count every reply the provider billed, also one the loop
// withdrew (it wrote its tool calls as text and was retried), live and after a resume.
#include "../tools/toolstest.h"

#include <agentsession/agentsession.h>
#include <common/usagesummary.h>
#include <composer/composer.h>
#include <futureresult.h>
#include <loop/agent.h>
#include <page/conversationpage.h>
#include <scriptedmodel.h>
#include <statusbar/agentstatusbar.h>
#include <testmain.h>
#include <window/mainwindow.h>

#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace AgentCore;
namespace tst_billedusage {

using TestSupport::ModelStep;
using TestSupport::ScriptedModel;
using Ui::AgentSession;

namespace {

constexpr int runTimeoutMs = 15'000;

ModelStep billed(ModelStep step, qint64 input, qint64 output, double cost)
{
    // A priced model, so the window shows a cost rather than "cost unknown".
    step.message.provider = QStringLiteral("anthropic");
    step.message.model = QStringLiteral("claude-sonnet-4-5");
    step.message.usage.input = input;
    step.message.usage.output = output;
    step.message.usage.cost = cost;
    return step;
}

} // namespace

class tst_BilledUsage : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_billedusage"));
    }

    void withdrawnAttemptCountsInTheCost();
    void withdrawnAttemptIsNotContext();
    void compactionSummaryCountsInTheCost();

private:
    void openWindow(const QList<ModelStep> &steps);
    AgentSession *session() const { return m_window->session(); }
    QString usageText() const { return m_window->agentStatusBar()->usageText(); }

    std::unique_ptr<ToolsTest::Repo> m_repo = std::make_unique<ToolsTest::Repo>();
    QTemporaryDir m_sessionsDir;
    std::shared_ptr<ScriptedModel> m_model;
    std::unique_ptr<Ui::MainWindow> m_window;
};

void tst_BilledUsage::openWindow(const QList<ModelStep> &steps)
{
    m_window.reset();
    m_model = std::make_shared<ScriptedModel>(steps);
    Ui::AgentSetup setup;
    setup.model.client = m_model;
    setup.model.label = QStringLiteral("scripted");
    setup.options.systemPrompt = QStringLiteral("You are tested.");
    setup.sessionsDirectory = m_sessionsDir.path();
    m_window = std::make_unique<Ui::MainWindow>(setup);
    m_window->resize(1200, 760);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QVERIFY(m_window->openRepository(m_repo->root()));
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
}

void tst_BilledUsage::withdrawnAttemptCountsInTheCost()
{
    QVERIFY(m_repo->isValid());
    openWindow({billed(ModelStep::fakeToolCall(), 100'000, 2'000, 0.33),
                billed(ModelStep::text(QStringLiteral("loop.ts reads the file twice.")),
                       101'000,
                       1'000,
                       0.318)});
    Ui::Composer *composer = m_window->conversationPage()->composer();
    QTest::keyClicks(composer, QStringLiteral("read loop.ts"));
    QTest::keyClick(composer, Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 2, runTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);

    // 102k tokens and $0.32 were the answer alone; the withdrawn attempt was billed as well.
    QVERIFY2(usageText().contains(QStringLiteral("204k tokens")), qPrintable(usageText()));
    QVERIFY2(usageText().contains(QStringLiteral("$0.65")), qPrintable(usageText()));
    const QString live = usageText();

    // Resumed, the session file says the same.
    const QString path = session()->sessionPath();
    openWindow({});
    QVERIFY(TestSupport::futureResult(m_window->resumeSession(path)));
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    QCOMPARE(usageText(), live);
}

void tst_BilledUsage::withdrawnAttemptIsNotContext()
{
    Message answer = billed(ModelStep::text(QStringLiteral("done")), 101'000, 1'000, 0.318).message;
    answer.role = Message::Role::Assistant;
    answer.discardedUsage = billed(ModelStep::fakeToolCall(), 100'000, 2'000, 0.33).message.usage;
    const Ui::UsageSummary summary = Ui::summarizeUsage({answer}, 200'000);
    QCOMPARE(summary.totalTokens(), 204'000);
    QCOMPARE(summary.contextTokens, 102'000); // the next request carries the answer only
    QVERIFY(qFuzzyCompare(summary.cost, 0.648));
    QVERIFY(summary.costKnown);
}

void tst_BilledUsage::compactionSummaryCountsInTheCost()
{
    Message answer = billed(ModelStep::text(QStringLiteral("done")), 10'000, 1'000, 0.1).message;
    answer.role = Message::Role::Assistant;
    Message compaction;
    compaction.role = Message::Role::Custom;
    compaction.customType = QStringLiteral("compaction");
    compaction.provider = answer.provider;
    compaction.model = answer.model;
    compaction.usage = billed(ModelStep::text(QStringLiteral("summary")), 9'000, 500, 0.05)
                           .message.usage;
    const Ui::UsageSummary summary = Ui::summarizeUsage({answer, compaction}, 200'000);
    QCOMPARE(summary.totalTokens(), 20'500);
    QCOMPARE(summary.contextTokens, 11'000); // the summary's request is not the context
    QVERIFY(qFuzzyCompare(summary.cost, 0.15));
}

AGENTDESK_TEST_MAIN(tst_BilledUsage)

} // namespace tst_billedusage

#include "tst_billedusage.moc"
