// The side panel's background commands (#38): the real window, a scripted model that starts a
// command with Bash run_in_background, the real process. The panel appears with the command
// line, its state and its live output; Stop (the button, or Del in the list) ends its whole
// process group and the row says so; the window's end takes a running one with it.

#include <agentsession/agentsession.h>
#include <scriptedmodel.h>
#include <sessions/opensessions.h>
#include <testmain.h>
#include <tools/backgroundshells.h>
#include <window/backgroundshellspanel.h>
#include <window/mainwindow.h>

#include <QDir>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace AgentCore;
using TestSupport::ModelStep;

namespace tst_backgroundshellspanel {

namespace {

// Alive, and not a zombie nobody reaped yet.
bool processLives(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (pid <= 1 || !stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    const QByteArray state = text.mid(text.lastIndexOf(')') + 2, 1);
    return state != "Z" && state != "X";
}

ModelStep backgroundCall(const QString &command)
{
    return ModelStep::toolCall(QStringLiteral("bg1"),
                               QStringLiteral("Bash"),
                               {{"command", command},
                                {"description", "Serve the pages"},
                                {"run_in_background", true}});
}

} // namespace

class tst_BackgroundShellsPanel : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_repositories = 0;

    QString makeRepository()
    {
        const QString root = m_dir.filePath(QStringLiteral("repo%1").arg(++m_repositories));
        QDir().mkpath(root);
        QProcess::execute(QStringLiteral("git"),
                          {QStringLiteral("-C"), root, QStringLiteral("init"), QStringLiteral("-q")});
        return root;
    }

    Ui::AgentSetup setup(const QList<ModelStep> &steps)
    {
        Ui::AgentSetup result;
        result.model.client = std::make_shared<TestSupport::ScriptedModel>(steps);
        result.model.label = QStringLiteral("scripted");
        result.sessionsDirectory = m_dir.filePath(QStringLiteral("sessions"));
        result.options.permissions.projectTrustPath = m_dir.filePath(
            QStringLiteral("trusted.json"));
        result.options.permissions.mode = PermissionMode::Bypass;
        result.options.systemPrompt = QStringLiteral("You are a test.");
        return result;
    }

    // The window's shown session's first background command, once it has one.
    static qint64 firstPid(Ui::MainWindow &window)
    {
        const CodingSession *session = window.session()->codingSession();
        const QList<BackgroundShell> shells = session->parts().shells->shells();
        return shells.isEmpty() ? 0 : shells.first().pid;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_backgroundshellspanel"));
        QSettings().clear();
        QVERIFY(m_dir.isValid());
    }

    void runningCommandIsListedAndStopped()
    {
        Ui::MainWindow window(
            setup({backgroundCall(QStringLiteral(
                       "for i in 1 2 3; do echo tick$i; sleep 0.1; done; sleep 300")),
                   ModelStep::text(QStringLiteral("It runs."))}));
        window.resize(1100, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        Ui::BackgroundShellsPanel *panel = window.backgroundShellsPanel();
        QVERIFY(panel);
        QVERIFY(!panel->isVisible()); // nothing started yet
        QVERIFY(window.openRepository(makeRepository()));
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->agent(), 10000);
        window.session()->send(QStringLiteral("Start the server."));

        QTRY_VERIFY_WITH_TIMEOUT(panel->isVisible(), 10000);
        QCOMPARE(panel->rows().size(), 1);
        QVERIFY2(panel->rows().first().startsWith(QLatin1String("running")),
                 qPrintable(panel->rows().first()));
        QVERIFY(panel->rows().first().contains(QLatin1String("for i in 1 2 3; do echo tick$i")));
        QTRY_VERIFY_WITH_TIMEOUT(panel->shownOutput().contains(QLatin1String("tick3")), 10000);
        QVERIFY(panel->shownOutput().startsWith(QLatin1String("tick1\ntick2\n")));
        const qint64 pid = firstPid(window);
        QVERIFY(processLives(pid));

        // Keyboard: the list, the output and Stop are on the Tab chain.
        QVERIFY(panel->listWidget()->focusPolicy() & Qt::TabFocus);
        QVERIFY(panel->stopButton()->focusPolicy() & Qt::TabFocus);
        QVERIFY(panel->findChild<QPlainTextEdit *>()->focusPolicy() & Qt::TabFocus);
        QVERIFY(panel->stopButton()->isEnabled());
        QTest::mouseClick(panel->stopButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(panel->rows().first().startsWith(QLatin1String("stopped")), 5000);
        QVERIFY(!processLives(pid));
        QVERIFY(!panel->stopButton()->isEnabled());
        QVERIFY(panel->shownOutput().contains(QLatin1String("tick3"))); // still there to read
    }

    // Del in the list stops the selected one; a command that ended says its exit code.
    void deleteKeyStopsAndExitCodesShow()
    {
        Ui::MainWindow window(setup(
            {ModelStep::toolCalls(
                 {ContentBlock::makeToolCall(QStringLiteral("a"),
                                             QStringLiteral("Bash"),
                                             {{"command", "exit 4"}, {"run_in_background", true}}),
                  ContentBlock::makeToolCall(QStringLiteral("b"),
                                             QStringLiteral("Bash"),
                                             {{"command", "sleep 300"},
                                              {"run_in_background", true}})}),
             ModelStep::text(QStringLiteral("Both started."))}));
        window.resize(1100, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openRepository(makeRepository()));
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->agent(), 10000);
        window.session()->send(QStringLiteral("Start both."));
        Ui::BackgroundShellsPanel *panel = window.backgroundShellsPanel();
        QTRY_COMPARE_WITH_TIMEOUT(panel->rows().size(), 2, 10000);
        QTRY_VERIFY(panel->rows().at(0).startsWith(QLatin1String("exit code 4")));
        QVERIFY(panel->rows().at(1).startsWith(QLatin1String("running")));
        QCOMPARE(panel->listWidget()->currentRow(), 1); // the newest
        panel->listWidget()->setFocus();
        QTest::keyClick(panel->listWidget(), Qt::Key_Delete);
        QTRY_VERIFY_WITH_TIMEOUT(panel->rows().at(1).startsWith(QLatin1String("stopped")), 5000);
    }

    // A session closed in a window that stays: its command goes, the panel forgets it.
    void closingTheSessionEndsTheCommand()
    {
        Ui::MainWindow window(setup({backgroundCall(QStringLiteral("sleep 300")),
                                     ModelStep::text(QStringLiteral("It runs."))}));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openRepository(makeRepository()));
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->agent(), 10000);
        window.session()->send(QStringLiteral("Start it."));
        qint64 pid = 0;
        QTRY_VERIFY_WITH_TIMEOUT((pid = firstPid(window)) > 0, 10000);
        const auto cleanUp = qScopeGuard([pid] {
            if (QTest::currentTestFailed() && processLives(pid))
                ::kill(pid_t(pid), SIGKILL);
        });
        QTRY_COMPARE(window.session()->state(), Ui::AgentSession::State::Idle);
        Ui::BackgroundShellsPanel *panel = window.backgroundShellsPanel();
        QTRY_VERIFY(panel->isVisible());
        QVERIFY(processLives(pid));
        window.openSessions()->close(window.session());
        QVERIFY(!processLives(pid));
        QTRY_VERIFY(!panel->isVisible());
    }

    // The window closed with a command running: it goes with the session.
    void closingTheWindowEndsTheCommand()
    {
        qint64 pid = 0;
        {
            Ui::MainWindow window(setup({backgroundCall(QStringLiteral("sleep 300")),
                                         ModelStep::text(QStringLiteral("It runs."))}));
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(window.openRepository(makeRepository()));
            QTRY_VERIFY_WITH_TIMEOUT(window.session()->agent(), 10000);
            window.session()->send(QStringLiteral("Start it."));
            QTRY_VERIFY_WITH_TIMEOUT((pid = firstPid(window)) > 0, 10000);
            QVERIFY(processLives(pid));
            const auto cleanUp = qScopeGuard([pid] {
                if (QTest::currentTestFailed() && processLives(pid))
                    ::kill(pid_t(pid), SIGKILL);
            });
            QTRY_COMPARE(window.session()->state(), Ui::AgentSession::State::Idle);
        }
        QVERIFY(!processLives(pid));
    }
};

AGENTDESK_TEST_MAIN(tst_BackgroundShellsPanel)

} // namespace tst_backgroundshellspanel

#include "tst_backgroundshellspanel.moc"
