// The window's model as a user meets it: the offline demo when nothing is configured, which
// runs a whole task with a review; a configured provider whose key comes from the keyring and
// never lands in a file; a model switched from the status bar between turns, which the next
// request uses.
#include "../tools/toolstest.h"
#include "fakekeystore.h"

#include <agentsession/agentsession.h>
#include <composer/composer.h>
#include <conversation/conversationitem.h>
#include <conversation/conversationview.h>
#include <fixtures.h>
#include <futureresult.h>
#include <httptestserver.h>
#include <loop/agent.h>
#include <modelreplies.h>
#include <page/conversationpage.h>
#include <review/reviewqueue.h>
#include <sessions/sessionspanel.h>
#include <settings/appsettings.h>
#include <settings/settingsdialog.h>
#include <statusbar/agentstatusbar.h>
#include <testmain.h>
#include <window/followuppanel.h>
#include <window/mainwindow.h>

#include <QAbstractButton>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDirIterator>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>

#include <memory>

using namespace AgentCore;
namespace tst_modelsettings {

using TestSupport::HttpTestServer;
using TestSupport::ScriptedResponse;
using Ui::AgentSession;

namespace {

constexpr int runTimeoutMs = 20'000;
const QString secretKey = QStringLiteral("sk-ant-test-0123456789-never-on-disk");

QStringList itemTexts(const Ui::ConversationView *view, Ui::ConversationItem::Kind kind)
{
    QStringList texts;
    for (int i = 0; i < view->itemCount(); ++i) {
        if (view->itemAt(i)->kind() == kind)
            texts.append(view->itemAt(i)->plainText());
    }
    return texts;
}

/// Every file under \a directory whose bytes contain \a needle.
QStringList filesContaining(const QString &directory, const QByteArray &needle)
{
    QStringList found;
    QDirIterator it(directory, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile file(it.next());
        if (file.open(QIODevice::ReadOnly) && file.readAll().contains(needle))
            found.append(file.fileName());
    }
    return found;
}

} // namespace

class tst_ModelSettings : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_modelsettings"));
    }
    void init()
    {
        QSettings().clear();
        m_repo = std::make_unique<ToolsTest::Repo>();
        QVERIFY(m_repo->isValid());
        m_sessions = std::make_unique<QTemporaryDir>();
        m_keys = std::make_unique<FakeKeyStore>();
        m_commandLine.reset();
    }
    void cleanup()
    {
        m_window.reset();
        m_repo.reset();
        QSettings().clear();
    }

    void demoRunsAWholeTaskWithAReview();
    void keyFromTheKeyringReachesTheRequestButNoFile();
    void modelSwitchedBetweenTurnsChangesTheNextRequest();
    void missingKeyIsSaidWhenATaskIsSent();
    void commandLineModelWinsAndResumedSessionKeepsIt();
    void promptCacheKeyIsTheSessions();

private:
    void openWindow();
    void type(const QString &text, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
    {
        Ui::Composer *composer = page()->composer();
        QTest::keyClicks(composer, text);
        QTest::keyClick(composer, Qt::Key_Return, modifiers);
    }
    void waitForIdle()
    {
        QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
    }
    void chooseFromModelMenu(const QString &text);
    static Ui::ModelSelection serverSelection(const HttpTestServer &server, const QString &model)
    {
        Ui::ModelSelection selection;
        selection.provider = Ui::ProviderKind::Anthropic;
        selection.baseUrl = server.url().toString();
        selection.model = model;
        return selection;
    }
    static void saveModel(const Ui::ModelSelection &selection)
    {
        Ui::AppSettings settings;
        settings.model = selection;
        QSettings qsettings;
        settings.save(qsettings);
    }

    Ui::ConversationPage *page() const { return m_window->conversationPage(); }
    AgentSession *session() const { return m_window->session(); }
    Ui::ConversationView *view() const { return page()->conversation(); }

    std::unique_ptr<ToolsTest::Repo> m_repo;
    std::unique_ptr<QTemporaryDir> m_sessions;
    std::unique_ptr<FakeKeyStore> m_keys;
    std::unique_ptr<Ui::MainWindow> m_window;
    /// Set: the window is started as with --provider/--model/--base-url.
    std::optional<Ui::ModelChoice> m_commandLine;
};

// OpenAI routes requests with one prompt_cache_key to the machines that hold their cached
// prefix: every request of a session carries the same key, resumed too, and another session
// another one.
void tst_ModelSettings::promptCacheKeyIsTheSessions()
{
    HttpTestServer server;
    QVERIFY(server.isListening());
    for (int i = 0; i < 4; ++i) {
        server.enqueue(
            TestSupport::scriptedReply(TestSupport::ReplyApi::OpenAiChat, QStringLiteral("Done.")));
    }
    Ui::ModelSelection selection;
    selection.provider = Ui::ProviderKind::OpenAi;
    selection.baseUrl = server.url(QStringLiteral("/v1")).toString();
    selection.model = QStringLiteral("gpt-5");
    saveModel(selection);
    m_keys->keys.insert(selection.keyAccount(), secretKey);
    openWindow();
    const auto keyOf = [&server](int request) {
        return QJsonDocument::fromJson(server.requests().at(request).body)
            .object()
            .value(QLatin1StringView("prompt_cache_key"))
            .toString();
    };

    type(QStringLiteral("first"));
    QTRY_COMPARE_WITH_TIMEOUT(server.requests().size(), 1, runTimeoutMs);
    waitForIdle();
    type(QStringLiteral("second"));
    QTRY_COMPARE_WITH_TIMEOUT(server.requests().size(), 2, runTimeoutMs);
    waitForIdle();
    const QString firstSession = session()->sessionPath();
    QVERIFY(!keyOf(0).isEmpty());
    QCOMPARE(keyOf(1), keyOf(0));
    QCOMPARE(keyOf(0), QFileInfo(firstSession).completeBaseName());

    m_window->sessionsPanel()
        ->findChild<QAbstractButton *>(QStringLiteral("newSessionButton"))
        ->click();
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    type(QStringLiteral("elsewhere"));
    QTRY_COMPARE_WITH_TIMEOUT(server.requests().size(), 3, runTimeoutMs);
    waitForIdle();
    QVERIFY(!keyOf(2).isEmpty());
    QVERIFY(keyOf(2) != keyOf(0));

    QVERIFY(TestSupport::futureResult(m_window->resumeSession(firstSession)));
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    type(QStringLiteral("third"));
    QTRY_COMPARE_WITH_TIMEOUT(server.requests().size(), 4, runTimeoutMs);
    waitForIdle();
    QCOMPARE(keyOf(3), keyOf(0));
}

void tst_ModelSettings::openWindow()
{
    Ui::AgentSetup setup;
    setup.modelFromSettings = !m_commandLine;
    if (m_commandLine) {
        setup.model = *m_commandLine;
        setup.commandLineModel = true;
    }
    setup.keyStore = m_keys.get();
    setup.environment = QProcessEnvironment(); // no ANTHROPIC_API_KEY from the machine
    setup.sessionsDirectory = m_sessions->path();
    setup.options.systemPrompt = QStringLiteral("You are tested.");
    setup.options.permissions.auditLogPath = m_sessions->filePath(QStringLiteral("audit.jsonl"));
    m_window = std::make_unique<Ui::MainWindow>(setup);
    m_window->resize(1200, 760);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QVERIFY(m_window->openRepository(m_repo->root()));
    QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
    page()->composer()->setFocus();
}

void tst_ModelSettings::chooseFromModelMenu(const QString &text)
{
    auto button = m_window->agentStatusBar()->findChild<QToolButton *>(
        QStringLiteral("modelButton"));
    QVERIFY(button);
    bool clicked = false;
    // The menu runs its own event loop once open: click in it from there.
    QTimer::singleShot(0, this, [&] {
        QMenu *menu = button->menu();
        QTRY_VERIFY(menu->isVisible());
        for (QAction *action : menu->actions()) {
            if (action->text() == text) {
                const QPoint where = menu->actionGeometry(action).center();
                for (int step = 8; step >= 0; --step)
                    QTest::mouseMove(menu, where + QPoint(step * 3, 0));
                QTest::mouseClick(menu, Qt::LeftButton, {}, where);
                clicked = true;
                return;
            }
        }
        menu->close();
    });
    QTest::mouseClick(button, Qt::LeftButton);
    QTRY_VERIFY(!button->menu()->isVisible());
    QVERIFY2(clicked, qPrintable(QStringLiteral("no menu entry \"%1\"").arg(text)));
}

void tst_ModelSettings::demoRunsAWholeTaskWithAReview()
{
    // Long enough for the demo's edit in two places (a shorter one gets DEMO_NOTES.md first).
    QVERIFY(
        m_repo->write(QStringLiteral("README.md"),
                      "# Calc\n\nA small calculator.\nIt adds, subtracts, multiplies and divides.\n"
                      "It reads numbers from the command line.\nIt prints the result.\n"
                      "It says so when a number does not fit.\nIt never divides by zero.\n"
                      "It is written in C++.\nIt builds with CMake.\nIt has tests.\n"
                      "It has no dependencies.\n\n## Building\n\ncmake -B build\n"));
    openWindow(); // nothing configured: the offline demo
    QVERIFY(session()->model().isDemo);
    QVERIFY2(m_window->agentStatusBar()->modelText().contains(QStringLiteral("Demo")),
             qPrintable(m_window->agentStatusBar()->modelText()));
    auto demoNote = m_window->findChild<QLabel *>(QStringLiteral("demoNote"));
    QVERIFY(demoNote && demoNote->isVisible()); // the welcome page says the demo answers

    type(QStringLiteral("tidy up the README"));
    QTRY_COMPARE(session()->state(), AgentSession::State::Running);
    type(QStringLiteral("and summarise the changes"), Qt::AltModifier); // a follow-up
    // Each task's edit waits for the user's review (the follow-up gets a run of its own, which
    // edits the same file again); both are approved.
    int reviewed = 0;
    while (session()->state() != AgentSession::State::Idle) {
        QTRY_VERIFY_WITH_TIMEOUT(page()->reviews()->currentView()
                                     || session()->state() == AgentSession::State::Idle,
                                 runTimeoutMs);
        QPointer<QWidget> review = page()->reviews()->currentView();
        if (!review)
            break;
        auto allow = review->findChild<QAbstractButton *>(QStringLiteral("allowOnceButton"));
        QVERIFY(allow);
        // A review that just arrived may not be laid out yet: a mouse click at the centre of
        // a button without a size misses it.
        QTRY_VERIFY(allow->isVisible() && allow->isEnabled());
        allow->click();
        ++reviewed;
        QTRY_VERIFY_WITH_TIMEOUT(page()->reviews()->currentView() != review, runTimeoutMs);
    }
    QCOMPARE(reviewed, 2);

    QVERIFY2(m_repo->read(QStringLiteral("README.md")).contains("offline demo"),
             m_repo->read(QStringLiteral("README.md")).constData());
    const QStringList answers = itemTexts(view(), Ui::ConversationItem::Kind::Assistant);
    QVERIFY(answers.size() >= 2);
    QVERIFY(m_window->followUpPanel()->texts().isEmpty()); // the follow-up was answered
    QCOMPARE(itemTexts(view(), Ui::ConversationItem::Kind::User).constLast(),
             QStringLiteral("and summarise the changes"));
    QVERIFY(session()->changedFiles().size() == 1);
    QVERIFY(!m_window->agentStatusBar()->usageText().isEmpty());
}

void tst_ModelSettings::keyFromTheKeyringReachesTheRequestButNoFile()
{
    HttpTestServer server;
    QVERIFY(server.isListening());
    server.enqueue(
        ScriptedResponse::sse({TestSupport::readFixtureStream(QStringLiteral("anthropic"),
                                                              QStringLiteral("sonnet45-text"))}));
    const Ui::ModelSelection selection = serverSelection(server,
                                                         QStringLiteral("claude-sonnet-4-5"));
    saveModel(selection);
    m_keys->keys.insert(selection.keyAccount(), secretKey);
    openWindow();
    QVERIFY(!m_window->findChild<QLabel *>(QStringLiteral("demoNote"))->isVisible());

    type(QStringLiteral("say hello"));
    QTRY_COMPARE_WITH_TIMEOUT(server.requests().size(), 1, runTimeoutMs);
    waitForIdle();
    QCOMPARE(server.requests().constFirst().header("x-api-key"), secretKey.toUtf8());
    QVERIFY(!itemTexts(view(), Ui::ConversationItem::Kind::Assistant).isEmpty());
    m_window.reset(); // everything written and closed

    for (const QString &directory :
         {m_sessions->path(),
          QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation),
          QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation),
          QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)}) {
        const QStringList leaks = filesContaining(directory, secretKey.toUtf8());
        QVERIFY2(leaks.isEmpty(), qPrintable(leaks.join(u", ")));
    }
    QVERIFY(!QDir(m_sessions->path()).entryList({QStringLiteral("*.jsonl")}).isEmpty());
}

void tst_ModelSettings::modelSwitchedBetweenTurnsChangesTheNextRequest()
{
    HttpTestServer server;
    QVERIFY(server.isListening());
    const QByteArray stream = TestSupport::readFixtureStream(QStringLiteral("anthropic"),
                                                             QStringLiteral("sonnet45-text"));
    server.enqueue(ScriptedResponse::sse({stream}));
    server.enqueue(ScriptedResponse::sse({stream}));
    server.enqueue(ScriptedResponse::sse({stream}));
    saveModel(serverSelection(server, QStringLiteral("claude-sonnet-4-5")));
    openWindow();

    type(QStringLiteral("first"));
    QTRY_COMPARE_WITH_TIMEOUT(server.requests().size(), 1, runTimeoutMs);
    waitForIdle();
    chooseFromModelMenu(QStringLiteral("claude-opus-4-1"));
    QTRY_VERIFY(
        m_window->agentStatusBar()->modelText().contains(QStringLiteral("claude-opus-4-1")));
    type(QStringLiteral("second"));
    QTRY_COMPARE_WITH_TIMEOUT(server.requests().size(), 2, runTimeoutMs);
    waitForIdle();

    // Thinking turned on from the status bar, for the third request.
    auto thinking = m_window->agentStatusBar()->findChild<QComboBox *>(
        QStringLiteral("thinkingLevel"));
    QVERIFY(thinking && thinking->isEnabled());
    thinking->setCurrentIndex(thinking->findData(int(Ui::ThinkingLevel::High)));
    emit thinking->activated(thinking->currentIndex());
    type(QStringLiteral("third"));
    QTRY_COMPARE_WITH_TIMEOUT(server.requests().size(), 3, runTimeoutMs);
    waitForIdle();

    const auto body = [&server](int index) {
        return QJsonDocument::fromJson(server.requests().at(index).body).object();
    };
    QCOMPARE(body(0).value(u"model").toString(), QStringLiteral("claude-sonnet-4-5"));
    QCOMPARE(body(1).value(u"model").toString(), QStringLiteral("claude-opus-4-1"));
    QVERIFY(!body(1).contains(u"thinking"));
    QCOMPARE(body(2).value(u"model").toString(), QStringLiteral("claude-opus-4-1"));
    QVERIFY(body(2).contains(u"thinking"));
    // Remembered: the next window starts on the model chosen last.
    QCOMPARE(Ui::AppSettings::load(QSettings()).model->model, QStringLiteral("claude-opus-4-1"));
}

void tst_ModelSettings::missingKeyIsSaidWhenATaskIsSent()
{
    Ui::ModelSelection selection;
    selection.provider = Ui::ProviderKind::Anthropic;
    selection.model = QStringLiteral("claude-sonnet-4-5");
    saveModel(selection); // api.anthropic.com, and no key anywhere
    openWindow();
    type(QStringLiteral("hello"));
    waitForIdle();
    const QStringList notes = itemTexts(view(), Ui::ConversationItem::Kind::Note)
                              + itemTexts(view(), Ui::ConversationItem::Kind::Assistant);
    QVERIFY2(notes.join(u'\n').contains(QStringLiteral("ANTHROPIC_API_KEY")),
             qPrintable(notes.join(u'\n')));
}

void tst_ModelSettings::commandLineModelWinsAndResumedSessionKeepsIt()
{
    // The saved default is one server; the command line names another, with its own key.
    HttpTestServer saved;
    HttpTestServer commandLine;
    QVERIFY(saved.isListening() && commandLine.isListening());
    const QByteArray stream = TestSupport::readFixtureStream(QStringLiteral("anthropic"),
                                                             QStringLiteral("sonnet45-text"));
    commandLine.enqueue(ScriptedResponse::sse({stream}));
    commandLine.enqueue(ScriptedResponse::sse({stream}));
    saveModel(serverSelection(saved, QStringLiteral("claude-sonnet-4-5")));
    const Ui::ModelSelection given = serverSelection(commandLine, QStringLiteral("claude-opus-4-1"));
    Ui::ModelChoice choice;
    choice.selection = given;
    choice.label = given.label();
    choice.provider = given.providerConfig(QStringLiteral("sk-from-the-command-line"));
    m_commandLine = choice;
    openWindow();
    QCOMPARE(m_window->agentStatusBar()->modelText(), given.label());

    // The settings show the model in use and say where it came from.
    m_window->showSettings();
    Ui::SettingsDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = m_window->findChild<Ui::SettingsDialog *>()) && dialog->isVisible());
    QCOMPARE(dialog->findChild<QComboBox *>(QStringLiteral("modelCombo"))->currentText(),
             QStringLiteral("claude-opus-4-1"));
    QCOMPARE(dialog->findChild<QLineEdit *>(QStringLiteral("baseUrlEdit"))->text(), given.baseUrl);
    auto note = dialog->findChild<QLabel *>(QStringLiteral("modelInUseNote"));
    QVERIFY(note && note->isVisible());
    QVERIFY2(note->text().contains(QStringLiteral("command line")), qPrintable(note->text()));
    QVERIFY2(note->text().contains(QStringLiteral("claude-sonnet-4-5")), qPrintable(note->text()));
    // OK without a change: neither the default nor the window's model moves.
    QTest::mouseClick(dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok),
                      Qt::LeftButton);
    QTRY_VERIFY(!m_window->findChild<Ui::SettingsDialog *>());
    QCOMPARE(Ui::AppSettings::load(QSettings()).model->model, QStringLiteral("claude-sonnet-4-5"));
    QCOMPARE(m_window->agentStatusBar()->modelText(), given.label());

    type(QStringLiteral("first"));
    QTRY_COMPARE_WITH_TIMEOUT(commandLine.requests().size(), 1, runTimeoutMs);
    waitForIdle();
    const QString path = session()->sessionPath();

    // Started again from the same command line, the session resumed goes on with its model and
    // the command line's key (the key store has none for that server).
    m_window.reset();
    openWindow();
    QVERIFY(TestSupport::futureResult(m_window->resumeSession(path)));
    QCOMPARE(m_window->agentStatusBar()->modelText(), given.label());
    type(QStringLiteral("second"));
    QTRY_COMPARE_WITH_TIMEOUT(commandLine.requests().size(), 2, runTimeoutMs);
    waitForIdle();
    QCOMPARE(commandLine.requests().at(1).header("x-api-key"),
             QByteArray("sk-from-the-command-line"));
    QCOMPARE(saved.requests().size(), 0);
}

AGENTDESK_TEST_MAIN(tst_ModelSettings)

} // namespace tst_modelsettings

#include "tst_modelsettings.moc"
