// Notifications: while the window is not active, a review that opens and a task that ends are
// announced through org.freedesktop.Notifications, and a click on one brings the window up
// on its session. The service is a test server on a private session bus (a real dbus-daemon
// of our own): the window talks real D-Bus to it, exactly as to a desktop's.
#include "../tools/toolstest.h"

#include <agentsession/agentsession.h>
#include <composer/composer.h>
#include <loop/agent.h>
#include <page/conversationpage.h>
#include <permissions/permissionbroker.h>
#include <review/reviewqueue.h>
#include <scriptedmodel.h>
#include <sessions/sessionspanel.h>
#include <settings/settingsdialog.h>
#include <testmain.h>
#include <testtools.h>
#include <window/desktopnotifier.h>
#include <window/mainwindow.h>

#include <QApplication>
#include <QCheckBox>
#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDialogButtonBox>
#include <QFile>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSemaphore>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <memory>

using namespace AgentCore;
namespace tst_notifications {

using TestSupport::FunctionTool;
using TestSupport::ModelStep;
using TestSupport::ScriptedModel;
using Ui::AgentSession;
using Ui::DesktopNotifier;

namespace {

constexpr int runTimeoutMs = 15'000;
const QString serviceName = QStringLiteral("org.freedesktop.Notifications");
const QString servicePath = QStringLiteral("/org/freedesktop/Notifications");

/// A dbus-daemon of the test's own, with nothing to activate: no desktop's notification
/// daemon is ever started by a call nobody answers.
class PrivateBus
{
public:
    bool start(QString *error)
    {
        if (!m_dir.isValid()) {
            *error = QStringLiteral("no temporary folder");
            return false;
        }
        const QString config = m_dir.filePath(QStringLiteral("bus.conf"));
        QFile file(config);
        if (!file.open(QIODevice::WriteOnly)) {
            *error = file.errorString();
            return false;
        }
        file.write(
            QStringLiteral(
                "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration "
                "1.0//EN\" \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
                "<busconfig><type>session</type><listen>unix:dir=%1</listen>"
                "<auth>EXTERNAL</auth><policy context=\"default\">"
                "<allow send_destination=\"*\" eavesdrop=\"true\"/>"
                "<allow eavesdrop=\"true\"/><allow own=\"*\"/></policy></busconfig>\n")
                .arg(m_dir.path())
                .toUtf8());
        file.close();
        m_daemon.setProgram(QStringLiteral("dbus-daemon"));
        m_daemon.setArguments({QStringLiteral("--config-file=") + config,
                               QStringLiteral("--nofork"),
                               QStringLiteral("--print-address")});
        m_daemon.start();
        if (!m_daemon.waitForStarted(10'000)) {
            *error = QStringLiteral("dbus-daemon: ") + m_daemon.errorString();
            return false;
        }
        while (!m_daemon.canReadLine() && m_daemon.waitForReadyRead(10'000)) {
        }
        m_address = QString::fromUtf8(m_daemon.readLine()).trimmed();
        if (m_address.isEmpty())
            *error = QStringLiteral("dbus-daemon printed no address");
        return !m_address.isEmpty();
    }
    ~PrivateBus()
    {
        m_daemon.kill();
        m_daemon.waitForFinished(5000);
    }
    QString address() const { return m_address; }

private:
    QTemporaryDir m_dir{QDir::tempPath() + QStringLiteral("/agentdesk-bus-XXXXXX")};
    QProcess m_daemon;
    QString m_address;
};

/// org.freedesktop.Notifications as a desktop's daemon offers it: records every Notify.
class NotificationServer : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Notifications")
public:
    struct Call
    {
        QString appName;
        uint replacesId = 0;
        QString appIcon;
        QString summary;
        QString body;
        QStringList actions;
        QVariantMap hints;
        int expireTimeout = 0;
        uint id = 0; ///< what the server answered
    };
    QList<Call> calls;

public slots:
    uint Notify(const QString &appName,
                uint replacesId,
                const QString &appIcon,
                const QString &summary,
                const QString &body,
                const QStringList &actions,
                const QVariantMap &hints,
                int expireTimeout)
    {
        const uint id = replacesId ? replacesId : ++m_lastId;
        calls.append(
            {appName, replacesId, appIcon, summary, body, actions, hints, expireTimeout, id});
        return id;
    }
    void CloseNotification(uint id) { Q_UNUSED(id) }
    QStringList GetCapabilities()
    {
        return {QStringLiteral("actions"), QStringLiteral("body"), QStringLiteral("body-markup")};
    }
    QString GetServerInformation(QString &vendor, QString &version, QString &specVersion)
    {
        vendor = QStringLiteral("AgentDesk tests");
        version = QStringLiteral("1");
        specVersion = QStringLiteral("1.2");
        return QStringLiteral("tst_notifications");
    }

private:
    uint m_lastId = 100;
};

PermissionRequest bashRequest(const QString &command)
{
    PermissionRequest request;
    request.toolName = QStringLiteral("Bash");
    request.arguments.insert(QStringLiteral("command"), command);
    return request;
}

Message user(const QString &text, MessageOrigin origin = MessageOrigin::Prompt)
{
    Message message = Message::makeUser(text);
    message.origin = origin;
    return message;
}

Message assistant(StopReason reason, const QString &error = {})
{
    Message message;
    message.role = Message::Role::Assistant;
    message.stopReason = reason;
    message.errorMessage = error;
    return message;
}

PermissionAnswer allowOnce()
{
    PermissionAnswer answer;
    answer.choice = PermissionAnswer::Choice::AllowOnce;
    return answer;
}

AgentEvent agentEnd(const QList<Message> &messages)
{
    AgentEvent event;
    event.type = AgentEvent::Type::AgentEnd;
    event.newMessages = messages;
    return event;
}

} // namespace

class tst_Notifications : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void approvalTexts_data();
    void approvalTexts();
    void finishedTexts_data();
    void finishedTexts();

    void nameIsTheTaskBeforeItsMessageArrives();
    void reviewAndEndWhileInactiveAreNotified();
    void activeWindowIsNotNotified();
    void approvalsTurnedOffInTheSettings();
    void clickBringsTheWindowUpOnItsSession();
    void noBusNoCrashNoMessage();

private:
    void openWindow(const QList<ModelStep> &steps);
    void type(const QString &text)
    {
        QTest::keyClicks(m_window->conversationPage()->composer(), text);
        QTest::keyClick(m_window->conversationPage()->composer(), Qt::Key_Return);
    }
    /// Another window of the desktop takes the focus.
    void deactivate()
    {
        m_other = std::make_unique<QWidget>();
        m_other->setWindowTitle(QStringLiteral("another program"));
        m_other->resize(300, 200);
        m_other->show();
        m_other->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_other.get()));
        QVERIFY(!m_window->isActiveWindow());
    }
    /// Every Notify the window sent so far has reached the server: a call made after them on
    /// the same connection is answered after them.
    void roundTrip()
    {
        QDBusMessage call = QDBusMessage::createMethodCall(serviceName,
                                                           servicePath,
                                                           serviceName,
                                                           QStringLiteral("GetCapabilities"));
        QDBusPendingCallWatcher watcher(QDBusConnection::sessionBus().asyncCall(call));
        QTRY_VERIFY_WITH_TIMEOUT(watcher.isFinished(), runTimeoutMs);
        QVERIFY(!watcher.isError());
    }
    void emitActionInvoked(uint id, const QString &action)
    {
        QDBusMessage signal = QDBusMessage::createSignal(servicePath,
                                                         serviceName,
                                                         QStringLiteral("ActionInvoked"));
        signal << id << action;
        QVERIFY(m_serverBus->send(signal));
    }
    AgentSession *session() const { return m_window->session(); }
    Ui::ReviewQueue *reviews() const { return m_window->conversationPage()->reviews(); }

    PrivateBus m_bus;
    std::unique_ptr<QDBusConnection> m_serverBus;
    NotificationServer m_server;
    std::unique_ptr<ToolsTest::Repo> m_repo;
    std::unique_ptr<QTemporaryDir> m_sessionsDir;
    std::shared_ptr<ScriptedModel> m_model;
    std::unique_ptr<Ui::MainWindow> m_window;
    std::unique_ptr<QWidget> m_other;
    QSemaphore m_gate;
};

void tst_Notifications::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_notifications"));
    QString error;
    if (!m_bus.start(&error))
        QSKIP(qPrintable(QStringLiteral("no private session bus (package dbus-daemon): ") + error));
    // Before anything asks for the session bus: the window's is this one.
    qputenv("DBUS_SESSION_BUS_ADDRESS", m_bus.address().toUtf8());
    m_serverBus = std::make_unique<QDBusConnection>(
        QDBusConnection::connectToBus(m_bus.address(), QStringLiteral("notificationServer")));
    QVERIFY2(m_serverBus->isConnected(), qPrintable(m_serverBus->lastError().message()));
    QVERIFY(m_serverBus->registerObject(servicePath, &m_server, QDBusConnection::ExportAllSlots));
    QVERIFY(m_serverBus->registerService(serviceName));
    QDBusConnection session = QDBusConnection::sessionBus();
    QVERIFY(session.isConnected());
    QVERIFY2(session.interface()->isServiceRegistered(serviceName).value(),
             "the session bus is not the test's own");
}

void tst_Notifications::init()
{
    QSettings().clear();
    m_server.calls.clear();
    m_repo = std::make_unique<ToolsTest::Repo>();
    QVERIFY(m_repo->isValid());
    m_sessionsDir = std::make_unique<QTemporaryDir>();
}

void tst_Notifications::cleanup()
{
    m_gate.release(100);
    m_window.reset();
    m_other.reset();
    m_repo.reset();
    m_gate.acquire(m_gate.available());
    QSettings().clear();
}

void tst_Notifications::openWindow(const QList<ModelStep> &steps)
{
    m_model = std::make_shared<ScriptedModel>(steps);
    auto gate = FunctionTool::make(QStringLiteral("Gate"),
                                   {},
                                   ExecutionMode::Parallel,
                                   [this](const ToolCallContext &) {
                                       m_gate.tryAcquire(1, 10'000);
                                       return ToolResult::makeText(QStringLiteral("opened"));
                                   });
    Ui::AgentSetup setup;
    setup.model.client = m_model;
    setup.model.label = QStringLiteral("scripted");
    setup.options.systemPrompt = QStringLiteral("You are tested.");
    setup.options.tools.extra = {gate};
    setup.sessionsDirectory = m_sessionsDir->path();
    m_window = std::make_unique<Ui::MainWindow>(setup);
    m_window->resize(1200, 760);
    m_window->show();
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QVERIFY(m_window->openRepository(m_repo->root()));
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
}

void tst_Notifications::approvalTexts_data()
{
    QTest::addColumn<PermissionRequest>("request");
    QTest::addColumn<QString>("text");

    QTest::newRow("bash") << bashRequest(QStringLiteral("npm test"))
                          << QStringLiteral("Approve: Bash `npm test`");
    QTest::newRow("a key in the command")
        << bashRequest(QStringLiteral("OPENAI_API_KEY=sk-proj-abcdefghijklmnop123 npm run e2e"))
        << QStringLiteral("Approve: Bash `OPENAI_API_KEY=\u2026 npm run e2e`");
    QTest::newRow("a bearer token") << bashRequest(
        QStringLiteral("curl -H 'Authorization: Bearer abcdefghijklmnop' https://u:pw@host/x"))
                                    << QStringLiteral("Approve: Bash `curl -H 'Authorization: "
                                                      "Bearer \u2026' https://\u2026@host/x`");
    QTest::newRow("a script: its first line")
        << bashRequest(QStringLiteral("\nset -e\nmake\nmake check\n"))
        << QStringLiteral("Approve: Bash `set -e \u2026`");
    QTest::newRow("a long command: capped")
        << bashRequest(QStringLiteral("echo ") + QString(200, u'x'))
        << QStringLiteral("Approve: Bash `echo ") + QString(54, u'x') + QStringLiteral("\u2026`");

    PermissionRequest edit;
    edit.toolName = QStringLiteral("Edit");
    edit.filePath = QStringLiteral("/repo/src/main.cpp");
    edit.displayPath = QStringLiteral("src/main.cpp");
    QTest::newRow("edit") << edit << QStringLiteral("Approve: Edit src/main.cpp");
    PermissionRequest write = edit;
    write.toolName = QStringLiteral("Write");
    write.newFile = true;
    QTest::newRow("new file") << write << QStringLiteral("Approve: Write src/main.cpp (new file)");

    PermissionRequest writes = bashRequest(QStringLiteral("npm install"));
    writes.shellWrites = {ShellWrite{}, ShellWrite{}};
    QTest::newRow("what a command wrote")
        << writes << QStringLiteral("Approve: what Bash `npm install` wrote");

    PermissionRequest bySubagent = edit;
    bySubagent.subagent = QStringLiteral("general: Rename the parser");
    QTest::newRow("a subagent's call")
        << bySubagent
        << QStringLiteral(
               "Approve: Edit src/main.cpp (asked by subagent general: Rename the parser)");
}

void tst_Notifications::approvalTexts()
{
    QFETCH(PermissionRequest, request);
    QFETCH(QString, text);
    QCOMPARE(DesktopNotifier::approvalText(request), text);
}

void tst_Notifications::finishedTexts_data()
{
    QTest::addColumn<QList<Message>>("messages");
    QTest::addColumn<QString>("text");

    QTest::newRow("done") << QList<Message>{user(QStringLiteral("fix the overflow")),
                                            assistant(StopReason::Stop)}
                          << QStringLiteral("Finished: fix the overflow");
    QTest::newRow("steering is not the task")
        << QList<Message>{user(QStringLiteral("fix the overflow")),
                          user(QStringLiteral("use tabs"), MessageOrigin::Steering),
                          assistant(StopReason::Stop)}
        << QStringLiteral("Finished: fix the overflow");
    QTest::newRow("a follow-up is")
        << QList<Message>{user(QStringLiteral("fix the overflow")),
                          assistant(StopReason::Stop),
                          user(QStringLiteral("run the tests"), MessageOrigin::FollowUp),
                          assistant(StopReason::Stop)}
        << QStringLiteral("Finished: run the tests");
    QTest::newRow("failed") << QList<Message>{user(QStringLiteral("fix the overflow")),
                                              assistant(StopReason::Error,
                                                        QStringLiteral("HTTP 529: overloaded\n"
                                                                       "{\"type\":\"error\"}"))}
                            << QStringLiteral(
                                   "Failed: fix the overflow (HTTP 529: overloaded \u2026)");
    QTest::newRow("stopped by the user")
        << QList<Message>{user(QStringLiteral("fix the overflow")), assistant(StopReason::Aborted)}
        << QString();
}

void tst_Notifications::finishedTexts()
{
    QFETCH(QList<Message>, messages);
    QFETCH(QString, text);
    QCOMPARE(DesktopNotifier::finishedText(agentEnd(messages)), text);
}

void tst_Notifications::nameIsTheTaskBeforeItsMessageArrives()
{
    // The agent's events come to the window in batches, a review request on its own: the
    // request for the task's first edit may be shown before the task's message has arrived.
    openWindow({ModelStep::text(QStringLiteral("Done."))});
    QCOMPARE(DesktopNotifier::sessionName(session()), QStringLiteral("New conversation"));
    session()->send(QStringLiteral("tidy the build"));
    QCOMPARE(DesktopNotifier::sessionName(session()), QStringLiteral("tidy the build"));
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
    QCOMPARE(DesktopNotifier::sessionName(session()), QStringLiteral("tidy the build"));
}

void tst_Notifications::reviewAndEndWhileInactiveAreNotified()
{
    openWindow({ModelStep::toolCall(QStringLiteral("gate-1"), QStringLiteral("Gate"), {}),
                ModelStep::toolCall(QStringLiteral("w1"),
                                    QStringLiteral("Write"),
                                    {{QStringLiteral("file_path"), QStringLiteral("notes.txt")},
                                     {QStringLiteral("content"), QStringLiteral("hello\n")}}),
                ModelStep::text(QStringLiteral("Wrote the notes."))});
    type(QStringLiteral("write the notes"));
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Running, runTimeoutMs);
    deactivate();
    m_gate.release();

    // The review opens in the window and, the window being in the background, on the desktop.
    QTRY_COMPARE_WITH_TIMEOUT(m_server.calls.size(), 1, runTimeoutMs);
    QCOMPARE(reviews()->count(), 1);
    const NotificationServer::Call approval = m_server.calls.constFirst();
    QCOMPARE(approval.appName, QStringLiteral("AgentDesk"));
    QCOMPARE(approval.summary, QStringLiteral("write the notes")); // the session's name
    QCOMPARE(approval.body, QStringLiteral("Approve: Write notes.txt (new file)"));
    QCOMPARE(approval.replacesId, 0u);
    QVERIFY(approval.actions.contains(QStringLiteral("default")));
    QCOMPARE(approval.hints.value(QStringLiteral("desktop-entry")).toString(),
             QStringLiteral("io.github.agentdesk.AgentDesk"));

    // Approved; the task ends: the same notification now says so, rather than a second one.
    QVERIFY(session()->broker()->answer(reviews()->currentRequestId(), allowOnce()));
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(m_server.calls.size(), 2, runTimeoutMs);
    const NotificationServer::Call finished = m_server.calls.constLast();
    QCOMPARE(finished.summary, QStringLiteral("write the notes"));
    QCOMPARE(finished.body, QStringLiteral("Finished: write the notes"));
    QCOMPARE(finished.replacesId, approval.id);
    QVERIFY(QFile::exists(m_repo->path(QStringLiteral("notes.txt"))));
}

void tst_Notifications::activeWindowIsNotNotified()
{
    openWindow({ModelStep::toolCall(QStringLiteral("w1"),
                                    QStringLiteral("Write"),
                                    {{QStringLiteral("file_path"), QStringLiteral("notes.txt")},
                                     {QStringLiteral("content"), QStringLiteral("hello\n")}}),
                ModelStep::text(QStringLiteral("Wrote the notes."))});
    type(QStringLiteral("write the notes"));
    QTRY_COMPARE_WITH_TIMEOUT(reviews()->count(), 1, runTimeoutMs);
    QVERIFY(session()->broker()->answer(reviews()->currentRequestId(), allowOnce()));
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
    roundTrip();
    QCOMPARE(m_server.calls.size(), 0);
    QCOMPARE(m_window->notifier()->requestedCount(), 0);
}

void tst_Notifications::approvalsTurnedOffInTheSettings()
{
    openWindow({ModelStep::toolCall(QStringLiteral("gate-1"), QStringLiteral("Gate"), {}),
                ModelStep::toolCall(QStringLiteral("w1"),
                                    QStringLiteral("Write"),
                                    {{QStringLiteral("file_path"), QStringLiteral("notes.txt")},
                                     {QStringLiteral("content"), QStringLiteral("hello\n")}}),
                ModelStep::text(QStringLiteral("Wrote the notes."))});
    m_window->showSettings();
    auto dialog = m_window->findChild<Ui::SettingsDialog *>();
    QVERIFY(dialog);
    auto approvals = dialog->findChild<QCheckBox *>(QStringLiteral("notifyApprovalsCheck"));
    auto finished = dialog->findChild<QCheckBox *>(QStringLiteral("notifyFinishedCheck"));
    QVERIFY(approvals && finished);
    QVERIFY(approvals->isChecked() && finished->isChecked()); // on at first
    approvals->click();
    dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
    QVERIFY(!m_window->settings().notifyApprovals);
    QVERIFY(m_window->settings().notifyFinished);
    QCOMPARE(QSettings().value(QStringLiteral("Notifications/approvals")).toBool(), false);

    type(QStringLiteral("write the notes"));
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Running, runTimeoutMs);
    deactivate();
    m_gate.release();
    QTRY_COMPARE_WITH_TIMEOUT(reviews()->count(), 1, runTimeoutMs);
    roundTrip();
    QCOMPARE(m_server.calls.size(), 0);

    // Finished ones are still on.
    QVERIFY(session()->broker()->answer(reviews()->currentRequestId(), allowOnce()));
    QTRY_COMPARE_WITH_TIMEOUT(m_server.calls.size(), 1, runTimeoutMs);
    QCOMPARE(m_server.calls.constFirst().body, QStringLiteral("Finished: write the notes"));
}

void tst_Notifications::clickBringsTheWindowUpOnItsSession()
{
    openWindow({ModelStep::toolCall(QStringLiteral("gate-1"), QStringLiteral("Gate"), {}),
                ModelStep::text(QStringLiteral("Overflow fixed."))});
    type(QStringLiteral("fix the overflow"));
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Running, runTimeoutMs);
    const QString finishedSession = session()->sessionPath();
    deactivate();
    m_gate.release();
    QTRY_COMPARE_WITH_TIMEOUT(m_server.calls.size(), 1, runTimeoutMs);
    QCOMPARE(m_server.calls.constFirst().body, QStringLiteral("Finished: fix the overflow"));
    QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);

    // Meanwhile the user went on with a new conversation, and left the window again.
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    m_window->sessionsPanel()->findChild<QToolButton *>(QStringLiteral("newSessionButton"))->click();
    QVERIFY(session()->sessionPath() != finishedSession);
    deactivate();

    // Another program's notification is not ours.
    emitActionInvoked(m_server.calls.constFirst().id + 1000, QStringLiteral("default"));
    roundTrip();
    QVERIFY(!m_window->isActiveWindow());

    emitActionInvoked(m_server.calls.constFirst().id, QStringLiteral("default"));
    QTRY_VERIFY_WITH_TIMEOUT(m_window->isActiveWindow(), runTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(session()->sessionPath(), finishedSession, runTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    QCOMPARE(m_window->sessionsPanel()->currentPath(), finishedSession);
}

void tst_Notifications::noBusNoCrashNoMessage()
{
    // No session bus at all (a bare X session, a container): no service, and offscreen no
    // tray either. Only the urgency hint; not a word on the console or anywhere.
    QWidget window;
    window.show();
    m_other = std::make_unique<QWidget>();
    m_other->show();
    m_other->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_other.get()));
    const QDBusConnection none
        = QDBusConnection::connectToBus(QStringLiteral("unix:path=/nonexistent/agentdesk-test-bus"),
                                        QStringLiteral("nobus"));
    QVERIFY(!none.isConnected());
    QTest::failOnWarning(QRegularExpression(QStringLiteral(".*")));
    DesktopNotifier notifier(&window, none);
    QVERIFY(notifier.notify(DesktopNotifier::Kind::Approval,
                            QStringLiteral("/sessions/a.jsonl"),
                            QStringLiteral("fix the overflow"),
                            QStringLiteral("Approve: Bash `npm test`")));
    QCOMPARE(notifier.requestedCount(), 1);
    QCOMPARE(notifier.lastBackend(), DesktopNotifier::Backend::None);
    QDBusConnection::disconnectFromBus(QStringLiteral("nobus"));
}

AGENTDESK_TEST_MAIN(tst_Notifications)

} // namespace tst_notifications

#include "tst_notifications.moc"
