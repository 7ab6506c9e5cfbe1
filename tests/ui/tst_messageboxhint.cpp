// Issue #34, item 7: the message box's hint says what Enter and Esc do now, and the box shows
// it as the session's state changes, without the user typing or resizing first: idle on a new
// conversation, a review waiting, the review answered elsewhere (the task runs on), stopped,
// and a new conversation after a run. Real window, real session, scripted model.
#include "../tools/toolstest.h"

#include <agentsession/agentsession.h>
#include <composer/composer.h>
#include <page/conversationpage.h>
#include <permissions/permissionbroker.h>
#include <review/reviewqueue.h>
#include <scriptedmodel.h>
#include <sessions/sessionspanel.h>
#include <testmain.h>
#include <window/mainwindow.h>

#include <QAbstractButton>
#include <QApplication>
#include <QEvent>
#include <QStandardPaths>
#include <QTest>

namespace tst_messageboxhint {

using TestSupport::ModelStep;
using TestSupport::ScriptedModel;

/// Remembers the hint the composer's empty box was last painted with.
class PaintedHint final : public QObject
{
public:
    explicit PaintedHint(Ui::Composer *composer)
        : m_composer(composer)
    {
        composer->viewport()->installEventFilter(this);
    }
    QString last() const { return m_last; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_composer->viewport() && event->type() == QEvent::Paint
            && m_composer->toPlainText().isEmpty())
            m_last = m_composer->placeholderText();
        return false;
    }

private:
    Ui::Composer *m_composer;
    QString m_last;
};

class tst_MessageBoxHint : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_messageboxhint"));
    }

    // The box alone: nothing else moves that would repaint it by chance.
    void hintIsRepaintedAtOnce()
    {
        QWidget host;
        host.resize(1400, 120);
        auto composer = new Ui::Composer(&host);
        composer->setGeometry(10, 10, 1300, 60);
        host.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host));
        PaintedHint painted(composer);
        composer->viewport()->update();
        QTRY_VERIFY(painted.last().startsWith(QStringLiteral("Ask the agent")));
        composer->setRunning(true);
        QTRY_VERIFY2(painted.last().startsWith(QStringLiteral("Enter steers")),
                     qPrintable(painted.last()));
        composer->setReviewWaiting(true);
        QTRY_VERIFY2(painted.last().startsWith(QStringLiteral("A review waits")),
                     qPrintable(painted.last()));
        composer->setReviewWaiting(false);
        QTRY_VERIFY2(painted.last().startsWith(QStringLiteral("Enter steers")),
                     qPrintable(painted.last()));
        composer->setRunning(false);
        QTRY_VERIFY2(painted.last().startsWith(QStringLiteral("Ask the agent")),
                     qPrintable(painted.last()));
    }

    void hintFollowsTheSession()
    {
        ToolsTest::Repo repo;
        QVERIFY(repo.isValid());
        auto model = std::make_shared<ScriptedModel>(
            QList<ModelStep>{ModelStep::toolCall(QStringLiteral("w1"),
                                                 QStringLiteral("Write"),
                                                 {{"file_path", "notes.txt"},
                                                  {"content", "kept\n"}}),
                             ModelStep::waitForAbort()});
        Ui::AgentSetup setup;
        setup.model.client = model;
        setup.model.label = QStringLiteral("scripted");
        setup.options.systemPrompt = QStringLiteral("You are tested.");
        Ui::MainWindow window(setup);
        window.resize(1600, 900); // every hint whole
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openRepository(repo.root()));
        QTRY_VERIFY(window.session()->agent());

        const QString idle = QStringLiteral(
            "Ask the agent · Enter sends · Shift+Enter adds a line · @ mentions a file");
        const QString running = QStringLiteral(
            "Enter steers the running task · Alt+Enter queues a follow-up · Esc stops");
        const QString review = QStringLiteral(
            "A review waits: Ctrl+Enter allows · Esc to deny with feedback · Ctrl+. stops");
        Ui::Composer *composer = window.conversationPage()->composer();
        PaintedHint painted(composer);
        composer->viewport()->update();
        QTRY_COMPARE(painted.last(), idle);

        QTest::keyClicks(composer, QStringLiteral("Write the notes"));
        QTest::keyClick(composer, Qt::Key_Return);
        Ui::ReviewQueue *reviews = window.conversationPage()->reviews();
        QTRY_COMPARE(reviews->count(), 1);
        QTRY_COMPARE(painted.last(), review);

        // Answered elsewhere (the approvals inbox answers the broker): the task runs on.
        AgentCore::PermissionAnswer allow;
        allow.choice = AgentCore::PermissionAnswer::Choice::AllowOnce;
        QVERIFY(window.session()->broker()->answer(reviews->currentRequestId(), allow));
        QTRY_COMPARE(reviews->count(), 0);
        QCOMPARE(window.session()->state(), Ui::AgentSession::State::Running);
        QTRY_COMPARE(painted.last(), running);

        window.session()->stop();
        QTRY_COMPARE(window.session()->state(), Ui::AgentSession::State::Idle);
        QTRY_COMPARE(painted.last(), idle);

        // A new conversation after a run: idle, said so on its own page.
        auto newButton = window.sessionsPanel()->findChild<QAbstractButton *>(
            QStringLiteral("newSessionButton"));
        QVERIFY(newButton);
        newButton->click();
        QTRY_VERIFY(window.session()->conversation().isEmpty());
        Ui::Composer *fresh = window.conversationPage()->composer();
        PaintedHint freshPainted(fresh);
        fresh->viewport()->update();
        QTRY_COMPARE(freshPainted.last(), idle);
    }
};

AGENTDESK_TEST_MAIN(tst_MessageBoxHint)

} // namespace tst_messageboxhint

#include "tst_messageboxhint.moc"
