// Steering typed before Stop, in the window: shown above the message box as not sent, never
// prepended to the next task, sent or discarded only with its buttons (reachable with Tab),
// and shown the same way when the session is resumed.
#include "../tools/toolstest.h"

#include <agentsession/agentsession.h>
#include <composer/composer.h>
#include <futureresult.h>
#include <loop/agent.h>
#include <page/conversationpage.h>
#include <page/leftoversteeringview.h>
#include <scriptedmodel.h>
#include <session/sessionlog.h>
#include <testmain.h>
#include <window/mainwindow.h>

#include <QApplication>
#include <QJsonArray>
#include <QLabel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <memory>

using namespace AgentCore;
namespace tst_unsentsteering {

using TestSupport::ModelStep;
using TestSupport::ScriptedModel;
using Ui::AgentSession;

namespace {

constexpr int runTimeoutMs = 15'000;

QStringList userTexts(const Context &context)
{
    QStringList texts;
    for (const Message &message : context.messages) {
        if (message.isUser())
            texts.append(message.text());
    }
    return texts;
}

const QString steering = QStringLiteral("use tabs, not spaces");

} // namespace

class tst_UnsentSteering : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_unsentsteering"));
    }
    void init()
    {
        m_repo = std::make_unique<ToolsTest::Repo>();
        QVERIFY(m_repo->isValid());
        m_sessionsDir = std::make_unique<QTemporaryDir>();
    }
    void cleanup()
    {
        m_window.reset();
        m_repo.reset();
    }

    void stopShowsItAsNotSentAndTheNextTaskGoesAlone();
    void sendNowFromTheKeyboardStartsItAsATask();
    void discardDropsItForGood();
    void resumedSessionShowsItAsNotSent();

private:
    void openWindow(const QList<ModelStep> &steps);
    void type(const QString &text)
    {
        QTest::keyClicks(page()->composer(), text);
        QTest::keyClick(page()->composer(), Qt::Key_Return);
    }
    void waitForIdle()
    {
        QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
    }
    /// "reformat main.cpp", the steering typed while the model works, then Esc.
    void stopWithSteering();

    Ui::ConversationPage *page() const { return m_window->conversationPage(); }
    AgentSession *session() const { return m_window->session(); }
    Ui::LeftoverSteeringView *leftover() const { return page()->leftoverSteering(); }

    std::unique_ptr<ToolsTest::Repo> m_repo;
    std::unique_ptr<QTemporaryDir> m_sessionsDir;
    std::shared_ptr<ScriptedModel> m_model;
    std::unique_ptr<Ui::MainWindow> m_window;
};

void tst_UnsentSteering::openWindow(const QList<ModelStep> &steps)
{
    m_window.reset();
    m_model = std::make_shared<ScriptedModel>(steps);
    Ui::AgentSetup setup;
    setup.model.client = m_model;
    setup.model.label = QStringLiteral("scripted");
    setup.options.systemPrompt = QStringLiteral("You are tested.");
    setup.sessionsDirectory = m_sessionsDir->path();
    m_window = std::make_unique<Ui::MainWindow>(setup);
    m_window->resize(1200, 760);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QVERIFY(m_window->openRepository(m_repo->root()));
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    page()->composer()->setFocus();
}

void tst_UnsentSteering::stopWithSteering()
{
    type(QStringLiteral("reformat main.cpp"));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 1, runTimeoutMs);
    type(steering); // Enter while running steers
    QTRY_COMPARE(session()->agent()->steeringQueue().size(), 1);
    QVERIFY(!leftover()->isVisible());
    QTest::keyClick(page()->composer(), Qt::Key_Escape);
    waitForIdle();
}

void tst_UnsentSteering::stopShowsItAsNotSentAndTheNextTaskGoesAlone()
{
    openWindow({ModelStep::waitForAbort(),
                ModelStep::text(QStringLiteral("The README says how to build."))});
    stopWithSteering();

    QTRY_VERIFY(leftover()->isVisible());
    QCOMPARE(leftover()->texts(), QStringList{steering});
    auto label = leftover()->findChild<QLabel *>(QStringLiteral("leftoverText"));
    QVERIFY(label && label->isVisible());
    QVERIFY2(label->text().contains(QStringLiteral("Not sent")), qPrintable(label->text()));
    QVERIFY(label->text().contains(steering));
    QVERIFY(leftover()->sendButton(0)->isVisible());
    QVERIFY(leftover()->discardButton(0)->isVisible());
    // No longer "goes in before the next model call".
    QVERIFY(!page()->findChild<QLabel *>(QStringLiteral("pendingSteering"))->isVisible());

    type(QStringLiteral("what does the README say?"));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 2, runTimeoutMs);
    waitForIdle();
    QCOMPARE(userTexts(m_model->contexts().at(1)),
             (QStringList{"reformat main.cpp", "what does the README say?"}));
    // Still there, still the user's to decide.
    QCOMPARE(leftover()->texts(), QStringList{steering});
    QVERIFY(leftover()->isVisible());
}

void tst_UnsentSteering::sendNowFromTheKeyboardStartsItAsATask()
{
    openWindow({ModelStep::waitForAbort(), ModelStep::text(QStringLiteral("Tabs it is."))});
    stopWithSteering();
    QTRY_VERIFY(leftover()->isVisible());

    // Right before the message box in the tab chain: Discard, then Send Now.
    page()->composer()->setFocus();
    QTRY_VERIFY(page()->composer()->hasFocus());
    QTest::keyClick(page()->composer(), Qt::Key_Backtab, Qt::ShiftModifier);
    QCOMPARE(QApplication::focusWidget(), leftover()->discardButton(0));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Backtab, Qt::ShiftModifier);
    QCOMPARE(QApplication::focusWidget(), leftover()->sendButton(0));
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space);

    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 2, runTimeoutMs);
    waitForIdle();
    QCOMPARE(userTexts(m_model->contexts().at(1)).constLast(), steering);
    QVERIFY(!leftover()->isVisible());
    QVERIFY(session()->agent()->leftoverSteering().isEmpty());
    QVERIFY(page()->composer()->hasFocus()); // the last one answered: back to typing
}

void tst_UnsentSteering::discardDropsItForGood()
{
    openWindow({ModelStep::waitForAbort(),
                ModelStep::text(QStringLiteral("The README says how to build."))});
    stopWithSteering();
    QTRY_VERIFY(leftover()->isVisible());
    const QString path = session()->sessionPath();
    QString error;
    QTRY_COMPARE(SessionLog::load(path, &error)->state.value(u"leftoverSteering").toArray().size(),
                 1);

    QTest::mouseClick(leftover()->discardButton(0), Qt::LeftButton);
    QVERIFY(!leftover()->isVisible());
    QVERIFY(session()->agent()->leftoverSteering().isEmpty());
    QTRY_COMPARE(SessionLog::load(path, &error)->state.value(u"leftoverSteering").toArray().size(),
                 0);
    QCOMPARE(m_model->callCount(), 1); // discarding sends nothing

    type(QStringLiteral("what does the README say?"));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 2, runTimeoutMs);
    waitForIdle();
    QVERIFY(!userTexts(m_model->contexts().at(1)).contains(steering));
}

void tst_UnsentSteering::resumedSessionShowsItAsNotSent()
{
    openWindow({ModelStep::waitForAbort()});
    stopWithSteering();
    QTRY_VERIFY(leftover()->isVisible());
    const QString path = session()->sessionPath();

    openWindow({ModelStep::text(QStringLiteral("The README says how to build.")),
                ModelStep::text(QStringLiteral("Tabs it is."))});
    QVERIFY(TestSupport::futureResult(m_window->resumeSession(path)));
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    QTRY_VERIFY(leftover()->isVisible());
    QCOMPARE(leftover()->texts(), QStringList{steering});

    type(QStringLiteral("what does the README say?"));
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 1, runTimeoutMs);
    waitForIdle();
    QVERIFY(!userTexts(m_model->contexts().at(0)).contains(steering));

    QTest::mouseClick(leftover()->sendButton(0), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(m_model->callCount(), 2, runTimeoutMs);
    waitForIdle();
    QCOMPARE(userTexts(m_model->contexts().at(1)).constLast(), steering);
    QVERIFY(!leftover()->isVisible());
}

AGENTDESK_TEST_MAIN(tst_UnsentSteering)

} // namespace tst_unsentsteering

#include "tst_unsentsteering.moc"
