// The window and agentdesk --print share one session store: a session a headless run recorded
// is listed in the window for its repository with its title, and resumes there with its
// conversation and model; a session a headless run is still writing opens read-only, naming the
// process, and the window never writes to it. The headless runs are the real binary against a
// scripted provider on 127.0.0.1 (tests/support/headlessrun.h); the window uses the default
// session folder of the same data folder.
#include "fakekeystore.h"

#include <agentsession/agentsession.h>
#include <composer/composer.h>
#include <conversation/conversationitem.h>
#include <conversation/conversationview.h>
#include <headlessrun.h>
#include <httptestserver.h>
#include <modelreplies.h>
#include <page/conversationpage.h>
#include <scriptedmodel.h>
#include <session/sessionlog.h>
#include <session/sessionstore.h>
#include <sessions/sessionlist.h>
#include <sessions/sessionspanel.h>
#include <testmain.h>
#include <window/mainwindow.h>

#include <QApplication>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include <memory>

#include <signal.h>

using namespace TestSupport;
namespace tst_headlesssessionsinwindow {

using Ui::AgentSession;

namespace {

constexpr int runTimeoutMs = 15'000;
const ReplyApi api = ReplyApi::OpenAiChat;

QStringList itemTexts(const Ui::ConversationView *view, Ui::ConversationItem::Kind kind)
{
    QStringList texts;
    for (int i = 0; i < view->itemCount(); ++i) {
        if (view->itemAt(i)->kind() == kind)
            texts.append(view->itemAt(i)->plainText());
    }
    return texts;
}

QByteArray fileBytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QString sessionFileOf(const HeadlessRun &run)
{
    const QList<QJsonObject> lines = run.jsonLines();
    return lines.isEmpty() ? QString() : lines.first().value(u"sessionFile").toString();
}

} // namespace

class tst_HeadlessSessionsInWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
        // The names agentdesk itself uses, so that the window's default session folder is
        // the one the headless runs write (under each test's data folder, below).
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDesk"));
        QCoreApplication::setApplicationName(QStringLiteral("agentdesk"));
    }
    void cleanup() { m_window.reset(); }

    void headlessRunIsListedAndResumesWithItsModel();
    void sessionAHeadlessRunHoldsOpensReadOnly();
    void aKilledRunIsPointedAtWithWhatItShowed();

private:
    /// A window on \a sandbox's repository with the sandbox's data and config folders, the
    /// headless runs' own.
    void openWindow(const HeadlessSandbox &sandbox)
    {
        qputenv("XDG_DATA_HOME", (sandbox.home() + QStringLiteral("/.local/share")).toLocal8Bit());
        qputenv("XDG_CONFIG_HOME", (sandbox.home() + QStringLiteral("/.config")).toLocal8Bit());
        m_model = std::make_shared<ScriptedModel>(
            QList<ModelStep>{ModelStep::text(QStringLiteral("Never asked."))});
        Ui::AgentSetup setup;
        setup.model.client = m_model;
        setup.model.label = QStringLiteral("scripted");
        setup.options.systemPrompt = QStringLiteral("You are tested.");
        setup.keyStore = &m_keys;
        m_window = std::make_unique<Ui::MainWindow>(setup);
        m_window->resize(1200, 760);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QVERIFY(m_window->openRepository(sandbox.root()));
        QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
        QTRY_VERIFY(!m_window->sessionList()->isScanning()); // read on a worker thread
    }
    /// Resumes the session titled \a title the way a user does: select it, press Enter.
    /// Resumes the listed session \a title, whose file is \a path: read on a worker thread, the
    /// window shows it once read.
    void resume(const QString &title, const QString &path)
    {
        const int row = panel()->titles().indexOf(title);
        QVERIFY2(row >= 0, qPrintable(panel()->titles().join(u'|')));
        QListWidget *list = panel()->list();
        list->setFocus();
        list->setCurrentRow(row);
        QTest::keyClick(list, Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(session()->sessionPath(), path, runTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    }

    AgentSession *session() const { return m_window->session(); }
    Ui::ConversationPage *page() const { return m_window->conversationPage(); }
    Ui::SessionsPanel *panel() const { return m_window->sessionsPanel(); }

    FakeKeyStore m_keys;
    std::shared_ptr<ScriptedModel> m_model;
    std::unique_ptr<Ui::MainWindow> m_window;
};

void tst_HeadlessSessionsInWindow::headlessRunIsListedAndResumesWithItsModel()
{
    HeadlessSandbox sandbox;
    QVERIFY(sandbox.isValid());
    HttpTestServer server;
    server.enqueue(scriptedReply(api, QStringLiteral("It says apple pie.")));
    HeadlessRun run(sandbox,
                    server,
                    api,
                    {QStringLiteral("--output-format"), QStringLiteral("stream-json")},
                    QStringLiteral("What do the notes say?"));
    run.start();
    QVERIFY(run.finish());
    QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
    const QString path = sessionFileOf(run);
    QVERIFY(QFileInfo(path).isFile());

    openWindow(sandbox);
    QVERIFY2(panel()->titles().contains(QStringLiteral("What do the notes say?")),
             qPrintable(panel()->titles().join(u'|')));

    resume(QStringLiteral("What do the notes say?"), path);
    QVERIFY(!session()->isReadOnly());
    Ui::ConversationView *view = page()->conversation();
    QTRY_COMPARE(itemTexts(view, Ui::ConversationItem::Kind::User),
                 QStringList{QStringLiteral("What do the notes say?")});
    QVERIFY(itemTexts(view, Ui::ConversationItem::Kind::Assistant)
                .contains(QStringLiteral("It says apple pie.")));
    // The run's model, as the window names the same endpoint.
    QTRY_VERIFY(session()->model().selection.has_value());
    QCOMPARE(session()->model().selection->model, QStringLiteral("test-model"));
    QCOMPARE(session()->model().selection->baseUrl, server.url(QStringLiteral("/v1")).toString());
    m_window.reset(); // before the sandbox goes
}

void tst_HeadlessSessionsInWindow::sessionAHeadlessRunHoldsOpensReadOnly()
{
    HeadlessSandbox sandbox;
    QVERIFY(sandbox.isValid());
    // A headless run whose provider hangs mid-answer: it holds its session meanwhile.
    HttpTestServer server;
    server.enqueue(stalledReply(api));
    QSignalSpy stalled(&server, &HttpTestServer::responseFinished);
    HeadlessRun run(sandbox,
                    server,
                    api,
                    {QStringLiteral("--output-format"), QStringLiteral("stream-json")},
                    QStringLiteral("Think slowly."));
    run.start();
    QVERIFY(stalled.wait(HeadlessTimeoutMs));
    // stdout is read when the process ends; its session is the one file of the folder (made
    // when the run's first event reaches its main thread, which may follow the request).
    const AgentCore::SessionStore store(
        sandbox.home() + QStringLiteral("/.local/share/AgentDesk/agentdesk/sessions/")
        + QFileInfo(AgentCore::SessionStore::defaultDirectory(sandbox.root())).fileName());
    QTRY_COMPARE_WITH_TIMEOUT(store.list().size(), 1, runTimeoutMs);
    const QString path = store.list().constFirst().path;

    openWindow(sandbox);
    resume(QStringLiteral("Think slowly."), path);
    QVERIFY(session()->isReadOnly());
    QVERIFY(page()->readOnlyNotice()->isVisible());
    const QString notice
        = page()->readOnlyNotice()->findChild<QLabel *>(QStringLiteral("readOnlyText"))->text();
    QVERIFY2(notice.contains(QStringLiteral("open in another AgentDesk window or headless run "
                                            "(process %1")
                                 .arg(run.process.processId())),
             qPrintable(notice));
    QVERIFY(!page()->composer()->isEnabled());
    const QByteArray before = fileBytes(path);
    session()->send(QStringLiteral("sent anyway"));
    QTest::qWait(200);
    QCOMPARE(fileBytes(path), before);
    QCOMPARE(m_model->callCount(), 0);

    // The run ends (interrupted); its session is whole and holds nothing of the window's.
    QCOMPARE(::kill(pid_t(run.process.processId()), SIGINT), 0);
    QVERIFY(run.finish());
    QCOMPARE(run.exitCode(), 130);
    m_window.reset();
    QString error;
    const auto contents = AgentCore::SessionLog::load(path, &error);
    QVERIFY2(contents, qPrintable(error));
    QCOMPARE(contents->messages.first().text(), QStringLiteral("Think slowly."));
    for (const AgentCore::Message &message : contents->messages)
        QVERIFY(message.text() != QStringLiteral("sent anyway"));
}

// Issue #34, item 10: AgentDesk is killed (SIGKILL) while a Bash command it ran has printed
// four lines. The session file keeps those lines; the window opened afterwards points at the
// interrupted session, and opened from there its card shows the lines and that it was
// interrupted, as the model is told at the next request.
void tst_HeadlessSessionsInWindow::aKilledRunIsPointedAtWithWhatItShowed()
{
    HeadlessSandbox sandbox;
    QVERIFY(sandbox.isValid());
    HttpTestServer server;
    server.enqueue(
        scriptedReply(api,
                      {},
                      {headlessBashCall(QStringLiteral(
                          "echo tick 1; echo tick 2; echo tick 3; echo tick 4; sleep 4733"))}));
    HeadlessRun run(sandbox,
                    server,
                    api,
                    headlessBypass(
                        {QStringLiteral("--output-format"), QStringLiteral("stream-json")}),
                    QStringLiteral("Count to four."));
    // A killed AgentDesk leaves its log folder for the next start to remove: not in /tmp.
    run.environment.insert(QStringLiteral("TMPDIR"), sandbox.home());
    run.start();
    const AgentCore::SessionStore store(
        sandbox.home() + QStringLiteral("/.local/share/AgentDesk/agentdesk/sessions/")
        + QFileInfo(AgentCore::SessionStore::defaultDirectory(sandbox.root())).fileName());
    QTRY_COMPARE_WITH_TIMEOUT(store.list().size(), 1, runTimeoutMs);
    const QString path = store.list().constFirst().path;
    // What the command printed reaches the file while it runs (at most a second later).
    QTRY_VERIFY_WITH_TIMEOUT(fileBytes(path).contains("\"type\":\"toolOutput\"")
                                 && fileBytes(path).contains("tick 4"),
                             runTimeoutMs);
    QCOMPARE(::kill(pid_t(run.process.processId()), SIGKILL), 0);
    QVERIFY(run.finish());
    QCOMPARE(run.process.exitStatus(), QProcess::CrashExit);
    QVERIFY(AgentCore::SessionStore::describe(path).interrupted);

    openWindow(sandbox);
    QVERIFY(session()->sessionPath() != path); // a new conversation, as always
    auto bar = m_window->findChild<QWidget *>(QStringLiteral("interruptedSessionBar"));
    QVERIFY(bar);
    QTRY_VERIFY(bar->isVisible());
    const QString said = bar->findChild<QLabel *>(QStringLiteral("interruptedSessionText"))->text();
    QVERIFY2(said.contains(QStringLiteral("“Count to four.” was running")), qPrintable(said));
    QTest::mouseClick(bar->findChild<QPushButton *>(QStringLiteral("interruptedSessionOpen")),
                      Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(session()->sessionPath(), path, runTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    QVERIFY(!bar->isVisible());
    Ui::ConversationView *view = page()->conversation();
    QStringList cards;
    QTRY_VERIFY(!(cards = itemTexts(view, Ui::ConversationItem::Kind::ToolCard)).isEmpty());
    QVERIFY2(cards.constFirst().contains(QStringLiteral("tick 1\ntick 2\ntick 3\ntick 4")),
             qPrintable(cards.constFirst()));
    QVERIFY2(cards.constFirst().contains(QStringLiteral("Interrupted: AgentDesk ended")),
             qPrintable(cards.constFirst()));
    m_window.reset(); // before the sandbox goes
    // Opened, it is no longer interrupted: its run was closed.
    QVERIFY(!AgentCore::SessionStore::describe(path).interrupted);
}

AGENTDESK_TEST_MAIN(tst_HeadlessSessionsInWindow)

} // namespace tst_headlesssessionsinwindow

#include "tst_headlesssessionsinwindow.moc"
