// The follow-up panel on a real Agent whose run waits in a gate tool: queue, reorder, edit,
// delete, send now, pause. The model is scripted.
#include <testmain.h>
#include <window/followuppanel.h>

#include <loop/agent.h>
#include <scriptedmodel.h>
#include <testtools.h>

#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSemaphore>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QToolButton>

#include <atomic>
#include <memory>

using namespace AgentCore;
namespace tst_followuppanel {

using TestSupport::FunctionTool;
using TestSupport::ModelStep;
using TestSupport::ScriptedModel;
using Ui::FollowUpPanel;

namespace {

QStringList texts(const QList<Message> &messages)
{
    QStringList out;
    for (const Message &message : messages)
        out.append(message.text());
    return out;
}

} // namespace

class tst_FollowUpPanel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();

    void emptyStateExplainsAltEnter();
    void showsTheQueueInOrder();
    void reorderByMovingRows();
    void editInPlace();
    void deleteWithTheKey();
    void sendNowBecomesSteering();
    void pauseEndsTheRunWithoutFollowUps();
    void screenshot();

private:
    /// An agent whose run waits in the gate, with three follow-ups, shown in a panel.
    void startBusyAgent(FollowUpPanel &panel, const QList<ModelStep> &after = {});
    QListWidget *list(FollowUpPanel &panel) { return panel.listWidget(); }
    QToolButton *button(FollowUpPanel &panel, const char *name)
    {
        return panel.findChild<QToolButton *>(QLatin1String(name));
    }

    std::unique_ptr<Agent> m_agent;
    std::shared_ptr<ScriptedModel> m_model;
    std::shared_ptr<QSemaphore> m_gate;
    std::shared_ptr<std::atomic_int> m_entered;
};

void tst_FollowUpPanel::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_FollowUpPanel::cleanup()
{
    if (m_gate)
        m_gate->release(16); // a tool left waiting must not outlive the test
    m_agent.reset();
    m_model.reset();
    m_gate.reset();
}

void tst_FollowUpPanel::startBusyAgent(FollowUpPanel &panel, const QList<ModelStep> &after)
{
    m_gate = std::make_shared<QSemaphore>();
    m_entered = std::make_shared<std::atomic_int>(0);
    m_model = std::make_shared<ScriptedModel>(
        QList<ModelStep>{ModelStep::toolCall(QStringLiteral("g1"),
                                             QStringLiteral("Gate"),
                                             {{QStringLiteral("path"), QStringLiteral("ci.log")}})}
        + after);
    AgentConfig config;
    config.loop.model = m_model;
    config.systemPrompt = QStringLiteral("You are a test.");
    const std::shared_ptr<QSemaphore> gate = m_gate;
    const std::shared_ptr<std::atomic_int> entered = m_entered;
    config.tools = {FunctionTool::make(QStringLiteral("Gate"),
                                       {QStringLiteral("path")},
                                       ExecutionMode::Sequential,
                                       [gate, entered](const ToolCallContext &) {
                                           ++*entered;
                                           const bool opened = gate->tryAcquire(1, 10'000);
                                           return ToolResult::makeText(
                                               opened ? QStringLiteral("opened")
                                                      : QStringLiteral("slept"));
                                       })};
    m_agent = std::make_unique<Agent>(std::move(config));
    panel.setAgent(m_agent.get());
    panel.resize(320, 360);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));

    QCOMPARE(m_agent->prompt(QStringLiteral("fix the flaky test")), Agent::PromptResult::Started);
    QTRY_COMPARE(m_entered->load(), 1);
    m_agent->followUp(QStringLiteral("run the whole suite"));
    m_agent->followUp(QStringLiteral("update the changelog"));
    m_agent->followUp(QStringLiteral("commit with a short message"));
    QTRY_COMPARE(panel.texts().size(), 3);
}

void tst_FollowUpPanel::emptyStateExplainsAltEnter()
{
    FollowUpPanel panel;
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    const auto empty = panel.findChild<QLabel *>(QStringLiteral("followUpEmpty"));
    QVERIFY(empty);
    QVERIFY(empty->isVisible());
    QVERIFY(empty->text().contains(QStringLiteral("Alt+Enter")));
    QVERIFY(!list(panel)->isVisible());
    QVERIFY(!button(panel, "sendNowButton")->isEnabled());
    QVERIFY(!button(panel, "pauseButton")->isEnabled());
}

void tst_FollowUpPanel::showsTheQueueInOrder()
{
    FollowUpPanel panel;
    startBusyAgent(panel);
    QCOMPARE(panel.texts(),
             (QStringList{"run the whole suite",
                          "update the changelog",
                          "commit with a short message"}));
    QVERIFY(list(panel)->isVisible());
    QVERIFY(!panel.findChild<QLabel *>(QStringLiteral("followUpEmpty"))->isVisible());
}

void tst_FollowUpPanel::reorderByMovingRows()
{
    FollowUpPanel panel;
    startBusyAgent(panel);
    // What an internal drag and drop does to the list's model.
    QVERIFY(list(panel)->model()->moveRow(QModelIndex(), 2, QModelIndex(), 0));
    const QStringList expected{"commit with a short message",
                               "run the whole suite",
                               "update the changelog"};
    QTRY_COMPARE(texts(m_agent->followUpQueue()), expected);
    QCOMPARE(panel.texts(), expected);
}

void tst_FollowUpPanel::editInPlace()
{
    FollowUpPanel panel;
    startBusyAgent(panel);
    QListWidget *view = list(panel);
    const QRect rect = view->visualItemRect(view->item(1));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, rect.center());
    QTRY_VERIFY(qobject_cast<QLineEdit *>(QApplication::focusWidget()));
    auto editor = qobject_cast<QLineEdit *>(QApplication::focusWidget());
    editor->selectAll();
    QTest::keyClicks(editor, QStringLiteral("add a changelog entry"));

    // The loop taking nothing meanwhile, a queue change must not throw the edit away.
    m_agent->followUp(QStringLiteral("push"));
    QTest::qWait(20);
    QCOMPARE(QApplication::focusWidget(), editor);

    QTest::keyClick(editor, Qt::Key_Return);
    const QStringList expected{"run the whole suite",
                               "add a changelog entry",
                               "commit with a short message",
                               "push"};
    QTRY_COMPARE(texts(m_agent->followUpQueue()), expected);
    QTRY_COMPARE(panel.texts(), expected);
}

void tst_FollowUpPanel::deleteWithTheKey()
{
    FollowUpPanel panel;
    startBusyAgent(panel);
    QListWidget *view = list(panel);
    view->setFocus();
    view->setCurrentRow(1);
    QTest::keyClick(view, Qt::Key_Delete);
    const QStringList expected{"run the whole suite", "commit with a short message"};
    QTRY_COMPARE(texts(m_agent->followUpQueue()), expected);
    QCOMPARE(panel.texts(), expected);

    view->setCurrentRow(0);
    QToolButton *deleteButton = button(panel, "deleteButton");
    QVERIFY(deleteButton->isVisible());
    QVERIFY(deleteButton->isEnabled());
    QTest::mouseClick(deleteButton, Qt::LeftButton);
    QTRY_COMPARE(texts(m_agent->followUpQueue()), QStringList{"commit with a short message"});
}

void tst_FollowUpPanel::sendNowBecomesSteering()
{
    FollowUpPanel panel;
    startBusyAgent(panel,
                   {ModelStep::text(QStringLiteral("Committed.")),
                    ModelStep::text(QStringLiteral("Suite passes.")),
                    ModelStep::text(QStringLiteral("Changelog updated."))});
    list(panel)->setCurrentRow(2);
    QTest::mouseClick(button(panel, "sendNowButton"), Qt::LeftButton);

    QCOMPARE(texts(m_agent->steeringQueue()), QStringList{"commit with a short message"});
    const QStringList left{"run the whole suite", "update the changelog"};
    QCOMPARE(texts(m_agent->followUpQueue()), left);
    QTRY_COMPARE(panel.texts(), left);

    m_gate->release();
    QVERIFY(m_agent->waitForIdle());
    // Steered into the running task, right after the tool result; then the follow-ups.
    const QList<Message> second = m_model->contexts().at(1).messages;
    QCOMPARE(second.at(second.size() - 2).role, Message::Role::ToolResult);
    QCOMPARE(second.last().text(), QStringLiteral("commit with a short message"));
    QCOMPARE(m_model->callCount(), 4);
    QTRY_VERIFY(panel.texts().isEmpty());
}

void tst_FollowUpPanel::pauseEndsTheRunWithoutFollowUps()
{
    FollowUpPanel panel;
    startBusyAgent(panel,
                   {ModelStep::text(QStringLiteral("Fixed.")),
                    ModelStep::text(QStringLiteral("Suite passes.")),
                    ModelStep::text(QStringLiteral("Changelog updated.")),
                    ModelStep::text(QStringLiteral("Committed."))});
    QToolButton *pause = button(panel, "pauseButton");
    QTest::mouseClick(pause, Qt::LeftButton);
    QVERIFY(pause->isChecked());
    QVERIFY(m_agent->followUpsPaused());

    m_gate->release();
    QVERIFY(m_agent->waitForIdle());
    QCOMPARE(m_model->callCount(), 2);
    QCOMPARE(m_agent->messages().last().text(), QStringLiteral("Fixed."));
    QCOMPARE(panel.texts().size(), 3);

    // Resuming while idle starts the first follow-up; the loop takes the rest.
    QTest::mouseClick(pause, Qt::LeftButton);
    QVERIFY(!m_agent->followUpsPaused());
    QVERIFY(!m_agent->isIdle());
    QVERIFY(m_agent->waitForIdle());
    QCOMPARE(m_model->callCount(), 5);
    QCOMPARE(texts(m_agent->messages()).mid(4),
             (QStringList{"run the whole suite",
                          "Suite passes.",
                          "update the changelog",
                          "Changelog updated.",
                          "commit with a short message",
                          "Committed."}));
    QTRY_VERIFY(panel.texts().isEmpty());
}

void tst_FollowUpPanel::screenshot()
{
    const QString directory = qEnvironmentVariable("AGENTDESK_SHOTS");
    if (directory.isEmpty())
        QSKIP("Set AGENTDESK_SHOTS to a directory to save screenshots.");
    QDir().mkpath(directory);
    {
        FollowUpPanel empty;
        empty.resize(300, 340);
        empty.show();
        QVERIFY(QTest::qWaitForWindowExposed(&empty));
        QVERIFY(empty.grab().save(directory + QStringLiteral("/followups-empty.png")));
    }
    FollowUpPanel panel;
    startBusyAgent(panel);
    panel.resize(300, 340);
    list(panel)->setCurrentRow(1);
    QVERIFY(panel.grab().save(directory + QStringLiteral("/followups-3.png")));

    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x30));
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
    dark.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2b));
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        dark.setColor(role, QColor(0xdf, 0xe1, 0xe5));
    dark.setColor(QPalette::Button, QColor(0x2b, 0x2d, 0x30));
    dark.setColor(QPalette::PlaceholderText, QColor(0x86, 0x8a, 0x91));
    panel.setPalette(dark);
    QVERIFY(panel.grab().save(directory + QStringLiteral("/followups-3-dark.png")));
}

AGENTDESK_TEST_MAIN(tst_FollowUpPanel)

} // namespace tst_followuppanel

#include "tst_followuppanel.moc"
