// Issue #19 item 3: after the user allowed the same command once three times, the window offers
// the rule that would allow it from now on (its exact text and what it allows), with Add Rule
// and Not Now. Nothing is added without Add Rule; a declined rule is not offered again in the
// session; a dangerous command is never offered.
#include "../tools/toolstest.h"

#include <agentsession/agentsession.h>
#include <composer/composer.h>
#include <loop/agent.h>
#include <page/conversationpage.h>
#include <permissions/permissionsettings.h>
#include <review/reviewqueue.h>
#include <review/ruleofferbar.h>
#include <scriptedmodel.h>
#include <settings/appsettings.h>
#include <testmain.h>
#include <window/mainwindow.h>

#include <QAbstractButton>
#include <QApplication>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace AgentCore;
namespace tst_ruleoffer {

using TestSupport::ModelStep;
using TestSupport::ScriptedModel;
using Ui::AgentSession;

namespace {

constexpr int runTimeoutMs = 15'000;
const QString touch = QStringLiteral("touch stamp.txt");

// One task: the model runs \a command \a times, then says it is done.
QList<ModelStep> task(const QString &command, int times, const QString &idPrefix)
{
    QList<ModelStep> steps;
    for (int i = 1; i <= times; ++i) {
        steps.append(ModelStep::toolCall(idPrefix + QString::number(i),
                                         QStringLiteral("Bash"),
                                         {{"command", command}}));
    }
    steps.append(ModelStep::text(QStringLiteral("Done.")));
    return steps;
}

} // namespace

class tst_RuleOffer : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_ruleoffer"));
        Ui::AppSettings settings;
        settings.autoCompact = false; // a summary would take the scripted model's replies
        // Each command's review alone: what it then writes is not reviewed a second time.
        settings.reviewShellWrites = false;
        QSettings stored;
        settings.save(stored);
    }

    void cleanup()
    {
        m_window.reset();
        m_repo.reset();
    }

    // Three approvals, the offer with the exact rule, Add Rule: the fourth run is not asked,
    // and the rule is in the project's local settings, where Always allow writes.
    void addRuleAllowsTheNextRun()
    {
        openWindow(task(touch, 3, QStringLiteral("a")) + task(touch, 1, QStringLiteral("b")));
        session()->send(QStringLiteral("touch the stamp three times"));
        approveOnce(3);
        waitForIdle();

        Ui::RuleOfferBar *offer = page()->ruleOffer();
        QTRY_VERIFY(offer->isVisible());
        QCOMPARE(label(QStringLiteral("ruleOfferRule")), QStringLiteral("Bash(touch stamp.txt)"));
        QCOMPARE(label(QStringLiteral("ruleOfferQuestion")),
                 QStringLiteral("You approved “touch stamp.txt” 3 times. Allow it from now on?"));
        QVERIFY(label(QStringLiteral("ruleOfferExplanation")).contains(touch));
        // Offered, not added, and it did not take the focus.
        QVERIFY(!settingsRules().contains(QStringLiteral("Bash(touch stamp.txt)")));
        QVERIFY(!offer->isAncestorOf(QApplication::focusWidget()));

        click(offer, QStringLiteral("addRuleButton"));
        QVERIFY(!offer->isVisible());
        QCOMPARE(settingsRules(), QStringList{QStringLiteral("Bash(touch stamp.txt)")});

        QSignalSpy reviews(page()->reviews(), &Ui::ReviewQueue::countChanged);
        session()->send(QStringLiteral("once more"));
        QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 6, runTimeoutMs);
        waitForIdle();
        QCOMPARE(reviews.size(), 0);
        QVERIFY(!offer->isVisible());
    }

    // Not Now, from the keyboard (Shift+Tab from the message box reaches it): nothing is
    // written, the next approvals still ask and the rule is not offered again.
    void notNowIsNotAskedAgain()
    {
        openWindow(task(touch, 3, QStringLiteral("a")) + task(touch, 3, QStringLiteral("b")));
        session()->send(QStringLiteral("touch the stamp three times"));
        approveOnce(3);
        waitForIdle();
        Ui::RuleOfferBar *offer = page()->ruleOffer();
        QTRY_VERIFY(offer->isVisible());
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);

        page()->composer()->setFocus();
        QTRY_VERIFY(page()->composer()->hasFocus());
        QTest::keyClick(page()->composer(), Qt::Key_Backtab, Qt::ShiftModifier);
        QCOMPARE(focusedName(), QStringLiteral("notNowButton"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Backtab, Qt::ShiftModifier);
        QCOMPARE(focusedName(), QStringLiteral("addRuleButton"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space);
        QVERIFY(!offer->isVisible());
        QTRY_VERIFY(page()->composer()->hasFocus()); // back to typing

        session()->send(QStringLiteral("and three more"));
        approveOnce(3);
        waitForIdle();
        QTest::qWait(50);
        QVERIFY(!offer->isVisible());
        QVERIFY(settingsRules().isEmpty());
    }

    // A command the analysis finds dangerous is never offered, however often it is allowed.
    void dangerousCommandsAreNeverOffered()
    {
        openWindow(task(QStringLiteral("rm -rf build"), 4, QStringLiteral("r")));
        session()->send(QStringLiteral("clean the build four times"));
        approveOnce(4);
        waitForIdle();
        QTest::qWait(50);
        QVERIFY(!page()->ruleOffer()->isVisible());
        QVERIFY(settingsRules().isEmpty());
    }

    // The bar alone: Esc with the focus in it is Not Now; nothing is added.
    void escapeIsNotNow()
    {
        Ui::RuleOfferBar bar;
        QSignalSpy added(&bar, &Ui::RuleOfferBar::addRequested);
        QSignalSpy declined(&bar, &Ui::RuleOfferBar::declined);
        ApprovalHabits::Offer offer;
        offer.rule = *PermissionRule::parse(QStringLiteral("Bash(make)"), PermissionBehavior::Allow);
        offer.approved = QStringLiteral("make");
        offer.approvals = 3;
        bar.showOffer(offer);
        bar.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&bar));
        bar.buttons().constFirst()->setFocus();
        QTRY_VERIFY(bar.buttons().constFirst()->hasFocus());
        QTest::keyClick(bar.buttons().constFirst(), Qt::Key_Escape);
        QVERIFY(!bar.isVisible());
        QCOMPARE(declined.size(), 1);
        QCOMPARE(declined.constFirst().constFirst().value<PermissionRule>().toString(),
                 QStringLiteral("Bash(make)"));
        QCOMPARE(added.size(), 0);
    }

private:
    void openWindow(const QList<ModelStep> &steps)
    {
        m_repo = std::make_unique<ToolsTest::Repo>();
        QVERIFY(m_repo->isValid());
        QVERIFY(m_config.isValid());
        ++m_windows;
        m_model = std::make_shared<ScriptedModel>(steps);
        Ui::AgentSetup setup;
        setup.model.client = m_model;
        setup.model.label = QStringLiteral("scripted");
        setup.options.systemPrompt = QStringLiteral("You are tested.");
        setup.options.permissions.projectTrustPath = m_config.filePath(
            QStringLiteral("trusted-%1.json").arg(m_windows));
        setup.options.permissions.mode = PermissionMode::Default;
        setup.sessionsDirectory = m_config.filePath(QStringLiteral("sessions-%1").arg(m_windows));
        m_window = std::make_unique<Ui::MainWindow>(setup);
        m_window->resize(1000, 700);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QVERIFY(m_window->openRepository(m_repo->root()));
        QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    }

    // Answers the next \a times reviews with Allow once; the offer stays away until the last.
    void approveOnce(int times)
    {
        for (int i = 0; i < times; ++i) {
            QTRY_COMPARE_WITH_TIMEOUT(page()->reviews()->count(), 1, runTimeoutMs);
            if (i + 1 < times)
                QVERIFY(!page()->ruleOffer()->isVisible());
            click(page()->reviews()->currentView(), QStringLiteral("allowOnceButton"));
            QCOMPARE(page()->reviews()->count(), 0);
        }
    }

    static void click(QWidget *parent, const QString &name)
    {
        auto button = parent->findChild<QAbstractButton *>(name);
        QVERIFY(button);
        QTRY_VERIFY(button->isVisible());
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QTest::mouseClick(button, Qt::LeftButton);
    }

    static QString focusedName()
    {
        const QWidget *focus = QApplication::focusWidget();
        return focus ? focus->objectName() : QStringLiteral("(no focus)");
    }

    QString label(const QString &name) const
    {
        auto widget = page()->ruleOffer()->findChild<QLabel *>(name);
        return widget ? widget->text() : QString();
    }

    QStringList settingsRules() const
    {
        QStringList texts;
        const auto settings = PermissionSettings::load(
            PermissionSettings::projectLocalSettingsPath(m_repo->root()));
        for (const PermissionRule &rule : settings ? settings->rules : QList<PermissionRule>())
            texts.append(rule.toString());
        return texts;
    }

    void waitForIdle()
    {
        QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
    }

    Ui::ConversationPage *page() const { return m_window->conversationPage(); }
    AgentSession *session() const { return m_window->session(); }

    QTemporaryDir m_config;
    int m_windows = 0;
    std::shared_ptr<ScriptedModel> m_model;
    std::unique_ptr<ToolsTest::Repo> m_repo;
    std::unique_ptr<Ui::MainWindow> m_window;
};

AGENTDESK_TEST_MAIN(tst_RuleOffer)

} // namespace tst_ruleoffer

#include "tst_ruleoffer.moc"
