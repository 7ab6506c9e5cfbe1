// Issue #20 in the window: a repository's .mcp.json starts its servers only once the user
// trusts that file; their tools reach the session's agent (each reviewed, whatever its
// annotations say: issue #31); the settings page shows each server's state and tools;
// a server of the user's settings gets its ${keyring:...} secret from the KeyStore, never a
// provider's key (a configuration naming one does not start). Against the reference server-everything (tests/mcp/install-servers.sh) and
// tests/mcp/fakeserver.py. The composer offers the servers' prompts after `/` and their
// resources after `@`; a message naming them is expanded off the UI thread before it goes.
#include "../tools/toolstest.h"
#include "fakekeystore.h"

#include <agentsession/agentsession.h>
#include <composer/composer.h>
#include <conversation/conversationview.h>
#include <conversation/toolcarditem.h>
#include <mcp/mcpservers.h>
#include <mcp/mcpserverspage.h>
#include <page/conversationpage.h>
#include <permissions/projecttrust.h>
#include <review/reviewqueue.h>
#include <scriptedmodel.h>
#include <settings/appsettings.h>
#include <settings/settingsdialog.h>
#include <testmain.h>
#include <window/mainwindow.h>
#include <window/projecttrustdialog.h>

#include <QAbstractButton>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListView>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>
#include <QtConcurrent/QtConcurrentRun>

#include <memory>
#include <vector>

#include <signal.h>
#include <testpaths.h>

using namespace AgentCore;
namespace tst_mcpwindow {

using TestSupport::ModelStep;
using TestSupport::ScriptedModel;
using Ui::AgentSession;
using Ui::McpServerEntry;
using Ui::ProjectTrustDialog;

namespace {

constexpr int runTimeoutMs = 30'000;

QString everythingScript()
{
    return TestSupport::mcpServersDir()
           + QStringLiteral("/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
}

QString fakeServer()
{
    return TestSupport::sourcePath(QStringLiteral("tests/mcp/fakeserver.py"));
}

QByteArray config(const QJsonObject &servers)
{
    return QJsonDocument(QJsonObject{{"mcpServers", servers}}).toJson();
}

QJsonObject everythingEntry()
{
    return {{"command", "node"}, {"args", QJsonArray{everythingScript(), "stdio"}}};
}

QJsonObject fakeEntry(const QJsonObject &env = {})
{
    QJsonObject entry{{"command", "python3"}, {"args", QJsonArray{fakeServer()}}};
    if (!env.isEmpty())
        entry.insert("env", env);
    return entry;
}

QStringList items(const QListWidget *list)
{
    QStringList texts;
    for (int i = 0; list && i < list->count(); ++i)
        texts.append(list->item(i)->text());
    return texts;
}

QString lastToolResult(const Context &context)
{
    for (auto it = context.messages.crbegin(); it != context.messages.crend(); ++it) {
        if (it->isToolResult())
            return it->text();
    }
    return {};
}

QStringList toolNames(const Context &context)
{
    QStringList names;
    for (const ToolDefinition &tool : context.tools)
        names.append(tool.name);
    return names;
}

} // namespace

class tst_McpWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_mcpwindow"));
        QVERIFY2(QFileInfo::exists(everythingScript()),
                 "server-everything is not installed: run the mcp_install_servers test first");
    }

    void init() { QSettings().clear(); }

    void cleanup()
    {
        m_window.reset();
        m_repo.reset();
        m_keys.reset();
        m_environment = {};
        QSettings().clear();
    }

    // Trusting the file starts its servers; their tools are reviewed, echo (read-only by the
    // server's word) as note (it writes a file); a changed file asks again.
    void trustedServersGiveTheirTools()
    {
        m_repo = std::make_unique<ToolsTest::Repo>();
        QVERIFY(m_repo->write(".mcp.json",
                              config({{"everything", everythingEntry()}, {"fake", fakeEntry()}})));
        openWindow({ModelStep::toolCall("e1", "mcp__everything__echo", {{"message", "hello mcp"}}),
                    ModelStep::toolCall("n1", "mcp__fake__note", {{"text", "from the model"}}),
                    ModelStep::text("done")});
        ProjectTrustDialog *dialog = waitForDialog();
        QVERIFY(dialog);
        QCOMPARE(dialog->objectName(), QStringLiteral("mcpTrustDialog"));
        const QStringList listed = items(dialog->findChild<QListWidget *>("grants"));
        QCOMPARE(listed.size(), 2);
        QVERIFY2(listed.at(0).startsWith("everything: node ")
                     && listed.at(0).contains("index.js stdio"),
                 qPrintable(listed.join('\n')));
        QVERIFY2(listed.at(1).startsWith("fake: python3 "), qPrintable(listed.at(1)));
        // Nothing runs while the user decides.
        for (const McpServerEntry &entry : m_window->mcpServers()->servers())
            QVERIFY(!entry.client && entry.awaitingTrust);

        QTest::mouseClick(dialog->findChild<QPushButton *>("trustButton"), Qt::LeftButton);
        waitForReady(2);
        // Remembered on a worker thread.
        QTRY_VERIFY(ProjectTrust::load(m_trustStore, m_repo->root())
                        .trusts(Ui::McpServers::fileGrant(m_repo->read(".mcp.json"))));

        type("use the servers");
        // echo declares itself read-only, a hint the server gives (issue #31): reviewed like
        // note, which writes a file.
        QTRY_COMPARE_WITH_TIMEOUT(page()->reviews()->count(), 1, runTimeoutMs);
        // The user approves what they read: the call's arguments, not only the tool's name
        // (issue #34, item 3).
        QTRY_COMPARE(reviewArguments(), QStringLiteral("{\n  \"message\": \"hello mcp\"\n}"));
        QVERIFY(toolNames(m_model->contexts().at(0)).contains("mcp__everything__echo"));
        QVERIFY(toolNames(m_model->contexts().at(0)).contains("mcp__fake__note"));
        QCOMPARE(m_model->contexts().size(), 1);
        allowOnce();
        QTRY_COMPARE_WITH_TIMEOUT(m_model->contexts().size(), 2, runTimeoutMs);
        QCOMPARE(lastToolResult(m_model->contexts().at(1)), QStringLiteral("Echo: hello mcp"));
        QTRY_COMPARE_WITH_TIMEOUT(page()->reviews()->count(), 1, runTimeoutMs);
        QTRY_COMPARE(reviewArguments(), QStringLiteral("{\n  \"text\": \"from the model\"\n}"));
        QCOMPARE(m_repo->read("mcp-note.txt"), QByteArray("<missing>"));
        allowOnce();
        QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
        QCOMPARE(m_repo->read("mcp-note.txt"), QByteArray("from the model"));
        QCOMPARE(lastToolResult(m_model->contexts().at(2)), QStringLiteral("noted"));
        // What shows the context's size counts the servers' tools the model was offered.
        QStringList metered;
        for (const AgentCore::ToolDefinition &tool : session()->contextMeter().context().tools)
            metered.append(tool.name);
        QVERIFY2(metered.contains("mcp__everything__echo") && metered.contains("mcp__fake__note")
                     && metered.contains("Read"),
                 qPrintable(metered.join(", ")));

        // The cards name the server and the tool; the echo's result is in the conversation.
        const QStringList cards = toolCards();
        QCOMPARE(cards.size(), 2);
        QVERIFY2(cards.at(0).startsWith(QStringLiteral("everything \u203a echo"))
                     && cards.at(0).contains("Echo: hello mcp"),
                 qPrintable(cards.at(0)));
        QVERIFY2(cards.at(1).startsWith(QStringLiteral("fake \u203a note")),
                 qPrintable(cards.at(1)));
        // Each card shows the arguments the call was made with, as the review did.
        QVERIFY2(cards.at(0).contains(QStringLiteral("\"message\": \"hello mcp\"")),
                 qPrintable(cards.at(0)));
        QVERIFY2(cards.at(1).contains(QStringLiteral("\"text\": \"from the model\"")),
                 qPrintable(cards.at(1)));

        // The same file again: trusted, no question. A changed one asks again.
        QVERIFY(m_window->openRepository(m_repo->root()));
        waitForReady(2);
        QVERIFY(!m_window->findChild<ProjectTrustDialog *>());
        QVERIFY(m_repo->write(".mcp.json", config({{"everything", everythingEntry()}})));
        QVERIFY(m_window->openRepository(m_repo->root()));
        QVERIFY(waitForDialog());
        QVERIFY(!m_window->mcpServers()->servers().at(0).client);
    }

    void refusingStartsNothing()
    {
        m_repo = std::make_unique<ToolsTest::Repo>();
        QVERIFY(m_repo->write(".mcp.json", config({{"everything", everythingEntry()}})));
        openWindow({ModelStep::text("no tools")});
        ProjectTrustDialog *dialog = waitForDialog();
        QVERIFY(dialog);
        QTest::mouseClick(dialog->findChild<QPushButton *>("distrustButton"), Qt::LeftButton);
        type("anything?");
        QTRY_COMPARE_WITH_TIMEOUT(m_model->contexts().size(), 1, runTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
        for (const QString &name : toolNames(m_model->contexts().at(0)))
            QVERIFY2(!name.startsWith("mcp__"), qPrintable(name));
        const QList<McpServerEntry> servers = m_window->mcpServers()->servers();
        QCOMPARE(servers.size(), 1);
        QVERIFY(!servers.at(0).client);
        QVERIFY(ProjectTrust::load(m_trustStore, m_repo->root()).grants().isEmpty());

        // The settings page says why it does not run.
        Ui::SettingsDialog *settings = openSettings();
        QTreeWidget *tree = settings->findChild<QTreeWidget *>("mcpServerTree");
        QVERIFY(tree);
        QCOMPARE(tree->topLevelItemCount(), 1);
        QCOMPARE(tree->topLevelItem(0)->text(2),
                 QStringLiteral("not started: .mcp.json is not trusted"));
        settings->reject();
    }

    // The page lists the server connected with its tools, which of them the server calls
    // read-only (they ask all the same), its log; unchecking it stops it, and that is remembered.
    void settingsPageShowsTheServers()
    {
        m_repo = std::make_unique<ToolsTest::Repo>();
        QVERIFY(m_repo->write(".mcp.json", config({{"everything", everythingEntry()}})));
        openWindow({});
        ProjectTrustDialog *dialog = waitForDialog();
        QVERIFY(dialog);
        QTest::mouseClick(dialog->findChild<QPushButton *>("trustButton"), Qt::LeftButton);
        waitForReady(1);
        const int tools = int(m_window->mcpServers()->servers().at(0).client->tools().size());
        QVERIFY(tools > 5);

        Ui::SettingsDialog *settings = openSettings();
        QTreeWidget *tree = settings->findChild<QTreeWidget *>("mcpServerTree");
        QVERIFY(tree && tree->isVisible());
        QTreeWidgetItem *server = tree->topLevelItem(0);
        QCOMPARE(server->text(0), QStringLiteral("everything"));
        QCOMPARE(server->text(1), QStringLiteral("repository (.mcp.json)"));
        QCOMPARE(server->text(2), QStringLiteral("connected, %1 tool(s)").arg(tools));
        QCOMPARE(server->childCount(), tools);
        bool echoListed = false;
        for (int i = 0; i < server->childCount(); ++i) {
            if (server->child(i)->text(0) == "echo") {
                echoListed = true;
                // The server's claim, shown as such: it asks all the same (issue #31).
                QCOMPARE(server->child(i)->text(2),
                         QStringLiteral("asks before each call (the server says it is "
                                        "read-only)"));
            }
        }
        QVERIFY(echoListed);

        tree->setCurrentItem(server);
        QTest::mouseClick(settings->findChild<QPushButton *>("mcpLogButton"), Qt::LeftButton);
        auto log = settings->findChild<QPlainTextEdit *>("mcpLog");
        QTRY_VERIFY(log && log->isVisible());
        QVERIFY(log->isReadOnly());
        QVERIFY2(!log->toPlainText().isEmpty(), "the server writes its start to stderr");
        log->window()->close();

        // Restart: a new process, connected again; the tools the user opened stay open.
        tree->topLevelItem(0)->setExpanded(true);
        const std::shared_ptr<McpClient> before = m_window->mcpServers()->servers().at(0).client;
        QTest::mouseClick(settings->findChild<QPushButton *>("mcpRestartButton"), Qt::LeftButton);
        QVERIFY(m_window->mcpServers()->servers().at(0).client != before);
        waitForReady(1);
        QTRY_COMPARE(tree->topLevelItem(0)->text(2),
                     QStringLiteral("connected, %1 tool(s)").arg(tools));
        server = tree->topLevelItem(0);
        QVERIFY(server->isExpanded());
        QCOMPARE(server->childCount(), tools);

        // Switched off from its checkbox (which rebuilds the rows: not inside the item's own
        // itemChanged, where that was a use after free).
        server->setCheckState(0, Qt::Unchecked);
        QTRY_VERIFY(!m_window->mcpServers()->servers().at(0).client);
        QTRY_COMPARE(tree->topLevelItem(0)->text(2), QStringLiteral("off"));
        const QString key = m_window->mcpServers()->servers().at(0).key;
        QCOMPARE(Ui::AppSettings::load(QSettings()).disabledMcpServers, QStringList{key});
        // The user's own servers: text that is no configuration keeps the dialog open.
        auto userServers = settings->findChild<QPlainTextEdit *>("mcpUserServers");
        QVERIFY(userServers);
        userServers->setPlainText("{\"mcpServers\": ");
        settings->accept();
        QVERIFY(settings->isVisible());
        QVERIFY(settings->findChild<QLabel *>("mcpUserServersError")->isVisible());
        userServers->setPlainText(QString::fromUtf8(config({{"mine", fakeEntry()}})));
        settings->accept();
        QTRY_VERIFY(!settings->isVisible());
        QCOMPARE(m_window->settings().disabledMcpServers, QStringList{key});
        QCOMPARE(Ui::AppSettings::load(QSettings()).mcpServers, userServers->toPlainText());
        QCOMPARE(m_window->mcpServers()->servers().size(), 2);
        QCOMPARE(m_window->mcpServers()->servers().at(1).source, McpServerEntry::Source::User);
        waitForReady(1); // the user's server, without asking; the disabled one stays off

        // Remembered: the repository opened again leaves it off.
        QVERIFY(m_window->openRepository(m_repo->root()));
        QTRY_VERIFY(m_window->mcpServers()->isConfigured()); // read on a worker thread
        QVERIFY(!m_window->mcpServers()->servers().at(0).enabled);
        QVERIFY(!m_window->mcpServers()->servers().at(0).client);
    }

    // A server of the user's settings needs no trust; ${keyring:NAME} in its env is the
    // secret of the KeyStore; a provider's key named there is dropped.
    // Server processes starting beside the window delayed its first paint (docs/benchmarks.md,
    // MCP): opened before it is shown, the window makes their clients at once and starts them
    // once it has painted.
    void serversStartAfterTheFirstPaint()
    {
        m_repo = std::make_unique<ToolsTest::Repo>();
        Ui::AppSettings app;
        app.mcpServers = QString::fromUtf8(config({{"mine", fakeEntry()}}));
        QSettings qsettings;
        app.save(qsettings);
        qsettings.sync();
        openWindow({}, true);
        QCOMPARE(m_window->mcpServers()->servers().size(), 1);
        const std::shared_ptr<McpClient> client = m_window->mcpServers()->servers().at(0).client;
        QVERIFY(client);
        QTest::qWait(300); // events run, nothing paints: the window is not shown
        QCOMPARE(client->state(), McpClient::State::Stopped);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        waitForReady(1);
    }

    // Opening another repository stops the servers of the last one without waiting for them:
    // one that ignores its closed stdin and SIGTERM still lives when the window is back, and
    // is gone (killed) soon after.
    void openingAnotherRepositoryDoesNotWaitForTheServers()
    {
        m_repo = std::make_unique<ToolsTest::Repo>();
        const QString pidFile = m_config.filePath("stubborn.pid");
        QJsonObject stubborn = fakeEntry({{"FAKE_MCP_PID", pidFile}});
        stubborn["args"] = QJsonArray{fakeServer(), "stubborn"};
        Ui::AppSettings app;
        app.mcpServers = QString::fromUtf8(config({{"stubborn", stubborn}}));
        QSettings qsettings;
        app.save(qsettings);
        qsettings.sync();
        openWindow({});

        // The stubborn server takes a second to stop (it ignores its closed stdin, then
        // SIGTERM: half a second each before SIGKILL). A window that waits for that returns
        // from openRepository after the server is gone, every time. One that does not returns
        // while it lives, unless opening took that second by itself (a loaded machine): such a
        // round says nothing, and the next repository (whose window starts the server again)
        // is another round. Each repository is its own: the window is deleted before they go.
        constexpr int rounds = 5;
        constexpr qint64 leastStopMs = 1000;
        std::vector<std::unique_ptr<ToolsTest::Repo>> others;
        QStringList slowRounds;
        bool provedOnce = false;
        for (int round = 0; round < rounds && !provedOnce; ++round) {
            waitForReady(1);
            pid_t pid = 0;
            QVERIFY(QTest::qWaitFor(
                [&] {
                    QFile file(pidFile);
                    pid = file.open(QIODevice::ReadOnly) ? pid_t(file.readAll().trimmed().toInt())
                                                         : 0;
                    return pid > 0;
                },
                runTimeoutMs));
            QVERIFY(::kill(pid, 0) == 0);
            QVERIFY(QFile::remove(pidFile)); // the next repository's server writes it again

            others.push_back(std::make_unique<ToolsTest::Repo>());
            QElapsedTimer opening;
            opening.start();
            QVERIFY(m_window->openRepository(others.back()->root()));
            const qint64 took = opening.elapsed();
            provedOnce = ::kill(pid, 0) == 0;
            if (!provedOnce) {
                // Gone before its stop could have ended: something else ended it.
                QVERIFY2(took >= leastStopMs,
                         qPrintable(QStringLiteral("the server was gone after %1 ms").arg(took)));
                slowRounds.append(QString::number(took));
            }
            QTRY_VERIFY_WITH_TIMEOUT(::kill(pid, 0) != 0, 10'000); // stopped all the same
        }
        QVERIFY2(provedOnce,
                 qPrintable(QStringLiteral("the window waited for the old server to stop "
                                           "(openRepository took %1 ms)")
                                .arg(slowRounds.join(QStringLiteral(", ")))));
        m_window.reset(); // before the repositories it has open go
    }

    // The configuration is read on a worker thread: a run that starts before it is read waits
    // for it (and for the servers still starting) and gets the servers' tools all the same.
    void aRunStartedBeforeTheConfigurationIsReadGetsTheTools()
    {
        m_repo = std::make_unique<ToolsTest::Repo>();
        QVERIFY(m_repo->isValid());
        if (!m_keys)
            m_keys = std::make_unique<FakeKeyStore>();
        Ui::McpServers::Options options;
        options.repositoryRoot = m_repo->root();
        options.userServers = config({{"mine", fakeEntry()}});
        Ui::McpServers servers(options, m_keys.get());
        const auto source = servers.toolSource();
        servers.start();
        QVERIFY(!servers.isConfigured()); // not before this thread's event loop runs again
        QFuture<QStringList> names = QtConcurrent::run([source] {
            QStringList names;
            for (const AgentCore::AgentToolPtr &tool : source(AgentCore::AbortToken()))
                names.append(tool->definition().name);
            return names;
        });
        QTRY_VERIFY_WITH_TIMEOUT(names.isFinished(), runTimeoutMs);
        QVERIFY(servers.isConfigured());
        QVERIFY2(!names.result().isEmpty() && names.result().first().startsWith("mcp__mine__"),
                 qPrintable(names.result().join(u',')));
    }

    void userServerGetsItsSecret()
    {
        m_repo = std::make_unique<ToolsTest::Repo>();
        Ui::AppSettings app;
        app.mcpServers = QString::fromUtf8(
            config({{"mine",
                     fakeEntry({{"FAKE_TOKEN", "${keyring:fake-token}"},
                                {"FROM_ENV", "${AGENTDESK_TEST_VALUE}"},
                                {"OPENAI_API_KEY", "sk-provider-key-never-passed"}})}}));
        QSettings qsettings;
        app.save(qsettings);
        qsettings.sync();
        m_keys = std::make_unique<FakeKeyStore>();
        m_keys->keys.insert(Ui::McpServers::secretAccount("fake-token"), "s3cret-from-keyring");
        m_environment = QProcessEnvironment::systemEnvironment();
        m_environment.insert("AGENTDESK_TEST_VALUE", "plain-value");
        m_environment.insert("OPENAI_API_KEY", "sk-provider-key-never-passed");
        openWindow({ModelStep::toolCall("v1", "mcp__mine__env", {}), ModelStep::text("ok")});
        waitForReady(1);
        QVERIFY(!m_window->findChild<ProjectTrustDialog *>());
        type("show the environment");
        QTRY_COMPARE_WITH_TIMEOUT(page()->reviews()->count(), 1, runTimeoutMs);
        allowOnce();
        QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
        QTRY_COMPARE(m_model->contexts().size(), 2);
        const QJsonObject env
            = QJsonDocument::fromJson(lastToolResult(m_model->contexts().at(1)).toUtf8()).object();
        QCOMPARE(env.value("FAKE_TOKEN").toString(), QStringLiteral("s3cret-from-keyring"));
        QCOMPARE(env.value("FROM_ENV").toString(), QStringLiteral("plain-value"));
        QVERIFY(!env.contains("OPENAI_API_KEY"));
        QVERIFY(!QString::fromUtf8(QJsonDocument(env).toJson()).contains("sk-provider-key"));
    }

    // `/` at the start lists everything's prompts with their arguments; the one chosen, with
    // its arguments typed after it, reaches the model as the prompt's text, fetched while the
    // box waits read-only.
    void promptFromTheSlashList()
    {
        openWithUserEverything({ModelStep::text("Sunny.")});
        Ui::Composer *composer = focusedComposer();
        QTest::keyClicks(composer, "/");
        QTRY_VERIFY_WITH_TIMEOUT(composer->completions().contains("/everything:args-prompt "),
                                 runTimeoutMs);
        QVERIFY2(composer->completions().contains("/everything:simple-prompt "),
                 qPrintable(composer->completions().join(", ")));
        const auto popup = composer->findChild<QListView *>("mentionPopup");
        QVERIFY(popup && popup->isVisible());
        QString argsLabel;
        for (int row = 0; row < popup->model()->rowCount(); ++row) {
            const QModelIndex index = popup->model()->index(row, 0);
            if (index.data(Qt::UserRole).toString() == "/everything:args-prompt ") {
                argsLabel = index.data().toString();
                QVERIFY2(!index.data(Qt::UserRole + 1).toString().isEmpty(),
                         "the prompt's description is shown");
            }
        }
        QCOMPARE(argsLabel, QStringLiteral("/everything:args-prompt city [state]"));

        // The list follows the servers: a restarted server's prompts go, and come back once it
        // is ready and listed again.
        m_window->mcpServers()->restart(m_window->mcpServers()->servers().at(0).key);
        QVERIFY(!composer->isCompletionVisible());
        QTRY_VERIFY_WITH_TIMEOUT(composer->completions().contains("/everything:args-prompt "),
                                 runTimeoutMs);

        QTest::keyClicks(composer, "everything:args");
        QTRY_COMPARE(composer->completions(), QStringList{"/everything:args-prompt "});
        QTest::keyClick(composer, Qt::Key_Tab);
        QCOMPARE(composer->toPlainText(), QStringLiteral("/everything:args-prompt "));
        QVERIFY(!composer->isCompletionVisible());
        QTest::keyClicks(composer, "Oslo state=\"Oslo county\"");
        QTest::keyClick(composer, Qt::Key_Return);
        // Not sent yet: fetched on a worker thread, the box read-only with its text meanwhile.
        QVERIFY(composer->isFetching());
        QVERIFY(composer->isReadOnly());
        QVERIFY(page()->mcpNotice()->isVisible());
        QCOMPARE(page()->sendStopButton()->text(), QStringLiteral("Stop"));
        QCOMPARE(composer->toPlainText(),
                 QStringLiteral("/everything:args-prompt Oslo state=\"Oslo county\""));
        QTRY_COMPARE_WITH_TIMEOUT(m_model->contexts().size(), 1, runTimeoutMs);
        QCOMPARE(lastUserText(m_model->contexts().at(0)),
                 QStringLiteral("What's weather in Oslo, Oslo county?"));
        QVERIFY(!composer->isFetching());
        QVERIFY(!composer->isReadOnly());
        QVERIFY(composer->toPlainText().isEmpty());
        QVERIFY(!page()->mcpNotice()->isVisible());
        // The conversation shows what the model got.
        QTRY_VERIFY2(userItems().join('\n').contains("What's weather in Oslo, Oslo county?"),
                     qPrintable(userItems().join('\n')));
        QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
    }

    // `@everything:` lists the server's resources, narrowed as the user types; the one chosen
    // is read and its text attached to the message the model gets.
    void resourceFromTheMentionList()
    {
        openWithUserEverything({ModelStep::text("Read it.")});
        Ui::Composer *composer = focusedComposer();
        QTest::keyClicks(composer, "Summarize @everything:");
        QTRY_VERIFY_WITH_TIMEOUT(composer->completions().size() > 3, runTimeoutMs);
        for (const QString &offered : composer->completions())
            QVERIFY2(offered.startsWith("everything:demo://resource/"), qPrintable(offered));
        QTest::keyClicks(composer, "featu");
        QTRY_COMPARE(composer->completions().value(0),
                     QStringLiteral("everything:demo://resource/static/document/features.md"));
        QTest::keyClick(composer, Qt::Key_Tab);
        QCOMPARE(composer->toPlainText(),
                 QStringLiteral(
                     "Summarize @everything:demo://resource/static/document/features.md "));
        QTest::keyClicks(composer, "briefly");
        QTest::keyClick(composer, Qt::Key_Return);
        QVERIFY(composer->isFetching());
        QTRY_COMPARE_WITH_TIMEOUT(m_model->contexts().size(), 1, runTimeoutMs);
        const QString sent = lastUserText(m_model->contexts().at(0));
        QVERIFY2(sent.startsWith("Summarize @everything:demo://resource/static/document/"
                                 "features.md briefly\n\n<resource server=\"everything\" "
                                 "uri=\"demo://resource/static/document/features.md\">"),
                 qPrintable(sent.left(400)));
        QVERIFY2(sent.contains("# Everything Server - Features"), qPrintable(sent.left(400)));
        QVERIFY(composer->toPlainText().isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
    }

    // What cannot be expanded is not sent: the text stays, the reason is shown. Esc while
    // fetching takes the message back. Text naming no server goes at once, as always.
    void unknownPromptIsNotSent()
    {
        openWithUserEverything({ModelStep::text("Hello.")});
        Ui::Composer *composer = focusedComposer();
        QTest::keyClicks(composer, "/everything:nope");
        QTest::keyClick(composer, Qt::Key_Escape); // a list may be open: closed
        QTest::keyClick(composer, Qt::Key_Return);
        QVERIFY(composer->isFetching());
        QTRY_VERIFY_WITH_TIMEOUT(!composer->isFetching(), runTimeoutMs);
        QCOMPARE(composer->toPlainText(), QStringLiteral("/everything:nope"));
        QVERIFY(!composer->isReadOnly());
        QVERIFY(page()->mcpNotice()->isVisible());
        QCOMPARE(page()->mcpNotice()->text(),
                 QStringLiteral("Not sent: /everything:nope: the MCP server \"everything\" has "
                                "no prompt \"nope\""));
        QCOMPARE(page()->sendStopButton()->text(), QStringLiteral("Send"));

        // A resource the server does not have.
        composer->clear();
        QTest::keyClicks(composer, "Read @everything:demo://resource/static/document/nothing.md ");
        QTest::keyClick(composer, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!composer->isFetching(), runTimeoutMs);
        QVERIFY2(page()->mcpNotice()->text().startsWith(
                     "Not sent: @everything:demo://resource/static/document/nothing.md: "),
                 qPrintable(page()->mcpNotice()->text()));
        QCOMPARE(composer->toPlainText(),
                 QStringLiteral("Read @everything:demo://resource/static/document/nothing.md "));

        // Esc while fetching: nothing goes, the text is the user's again.
        composer->clear();
        QTest::keyClicks(composer, "/everything:simple-prompt");
        QTest::keyClick(composer, Qt::Key_Escape);
        QTest::keyClick(composer, Qt::Key_Return);
        QVERIFY(composer->isFetching());
        QTest::keyClick(composer, Qt::Key_Escape);
        QVERIFY(!composer->isFetching());
        QVERIFY(!composer->isReadOnly());
        QVERIFY(!page()->mcpNotice()->isVisible());
        QCOMPARE(composer->toPlainText(), QStringLiteral("/everything:simple-prompt"));
        QTest::qWait(500);
        QCOMPARE(composer->toPlainText(), QStringLiteral("/everything:simple-prompt"));
        QVERIFY(m_model->contexts().isEmpty());
        QCOMPARE(session()->state(), AgentSession::State::Idle);

        // No server named: sent at once, the same event loop turn, no fetching.
        composer->clear();
        const QString plain = QStringLiteral("Mail me@example.org about @README.md and /usr:bin");
        QTest::keyClicks(composer, plain);
        QTest::keyClick(composer, Qt::Key_Escape);
        QTest::keyClick(composer, Qt::Key_Return);
        QVERIFY(!composer->isFetching());
        QVERIFY(composer->toPlainText().isEmpty());
        QVERIFY(!page()->mcpNotice()->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(m_model->contexts().size(), 1, runTimeoutMs);
        QCOMPARE(lastUserText(m_model->contexts().at(0)), plain);
        QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
    }

    // While a task runs, Alt+Enter queues the prompt's text as the follow-up; the Stop button
    // while it is fetched cancels the fetching, not the task.
    void followUpIsExpanded()
    {
        ModelStep slow = ModelStep::text("first");
        slow.delayMs = 3000;
        openWithUserEverything({slow, ModelStep::text("second")});
        Ui::Composer *composer = focusedComposer();
        QTest::keyClicks(composer, "start");
        QTest::keyClick(composer, Qt::Key_Return);
        QTRY_COMPARE(session()->state(), AgentSession::State::Running);
        // Esc would stop the task while no list is open: Alt+Enter goes past an open list.
        QTest::keyClicks(composer, "/everything:simple-prompt");
        QTest::keyClick(composer, Qt::Key_Return, Qt::AltModifier);
        QVERIFY(composer->isFetching());
        QTest::mouseClick(page()->sendStopButton(), Qt::LeftButton);
        QVERIFY(!composer->isFetching());
        QCOMPARE(composer->toPlainText(), QStringLiteral("/everything:simple-prompt"));
        QCOMPARE(session()->state(), AgentSession::State::Running);
        QCOMPARE(page()->sendStopButton()->toolTip(), QStringLiteral("Stop the agent (Esc)"));

        QTest::keyClick(composer, Qt::Key_Return, Qt::AltModifier);
        QVERIFY(composer->isFetching());
        QTRY_VERIFY_WITH_TIMEOUT(composer->toPlainText().isEmpty(), runTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(m_model->contexts().size(), 2, runTimeoutMs);
        QCOMPARE(lastUserText(m_model->contexts().at(0)), QStringLiteral("start"));
        QCOMPARE(lastUserText(m_model->contexts().at(1)),
                 QStringLiteral("This is a simple prompt without arguments."));
        QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, runTimeoutMs);
    }

    // A server that is switched off is named in the error; nothing is fetched.
    void switchedOffServerIsSaid()
    {
        Ui::AppSettings app;
        app.mcpServers = QString::fromUtf8(config({{"everything", everythingEntry()}}));
        app.disabledMcpServers = QStringList{"user:everything"};
        QSettings qsettings;
        app.save(qsettings);
        qsettings.sync();
        m_repo = std::make_unique<ToolsTest::Repo>();
        openWindow({ModelStep::text("no")});
        Ui::Composer *composer = focusedComposer();
        QTest::keyClicks(composer, "/everything:simple-prompt");
        QTest::keyClick(composer, Qt::Key_Return);
        QVERIFY(!composer->isFetching());
        QCOMPARE(composer->toPlainText(), QStringLiteral("/everything:simple-prompt"));
        QCOMPARE(page()->mcpNotice()->text(),
                 QStringLiteral("Not sent: the MCP server \"everything\" is switched off "
                                "(Settings > MCP servers)"));
        QVERIFY(m_model->contexts().isEmpty());
    }

    // Issue #31: a model provider's key is never expanded into a server's args or env (a
    // command line is visible to every user in ps): the server does not start, and the page
    // says which variable and why. The rule headless runs follow (McpConfigExpansion).
    void providerKeyIsNeverExpanded()
    {
        m_repo = std::make_unique<ToolsTest::Repo>();
        const QString dump = m_config.filePath("dump.json");
        QJsonObject entry = fakeEntry({{"FAKE_MCP_DUMP", dump}});
        entry["args"] = QJsonArray{fakeServer(), "normal", "--key=${ANTHROPIC_API_KEY}"};
        Ui::AppSettings app;
        app.mcpServers = QString::fromUtf8(
            config({{"keyed", entry},
                    {"envkeyed",
                     fakeEntry({{"FAKE_MCP_DUMP", dump}, {"SERVER_KEY", "${OPENAI_API_KEY}"}})}}));
        QSettings qsettings;
        app.save(qsettings);
        qsettings.sync();
        m_environment = QProcessEnvironment::systemEnvironment();
        m_environment.insert("ANTHROPIC_API_KEY", "sk-ant-provider-key-never-passed");
        m_environment.insert("OPENAI_API_KEY", "sk-openai-provider-key-never-passed");
        openWindow({});
        const auto problems = [this] {
            QStringList texts;
            for (const McpServerEntry &server : m_window->mcpServers()->servers())
                texts.append(server.problem);
            texts.sort();
            return texts;
        };
        QTRY_VERIFY(!problems().contains(QString()));
        QCOMPARE(problems(),
                 QStringList({"not started: ANTHROPIC_API_KEY is a model provider's key, which "
                              "AgentDesk never gives to an MCP server (its arguments are visible "
                              "to every user in ps, and a server is not the provider): give the "
                              "server a key of its own",
                              "not started: OPENAI_API_KEY is a model provider's key, which "
                              "AgentDesk never gives to an MCP server (its arguments are visible "
                              "to every user in ps, and a server is not the provider): give the "
                              "server a key of its own"}));
        for (const McpServerEntry &server : m_window->mcpServers()->servers())
            QVERIFY(!server.client);
        QTest::qWait(500); // a server would have written its dump by now
        QVERIFY(!QFileInfo::exists(dump));

        // The settings page says so.
        Ui::SettingsDialog *settings = openSettings();
        QVERIFY(settings);
        QTreeWidget *tree = settings->findChild<QTreeWidget *>("mcpServerTree");
        QVERIFY(tree);
        QVERIFY2(tree->topLevelItem(0)->text(2).contains("is a model provider's key"),
                 qPrintable(tree->topLevelItem(0)->text(2)));
        settings->reject();
    }

    void missingSecretIsSaid()
    {
        m_repo = std::make_unique<ToolsTest::Repo>();
        Ui::AppSettings app;
        app.mcpServers = QString::fromUtf8(
            config({{"mine", fakeEntry({{"FAKE_TOKEN", "${keyring:nowhere}"}})}}));
        QSettings qsettings;
        app.save(qsettings);
        m_keys = std::make_unique<FakeKeyStore>();
        openWindow({});
        QTRY_VERIFY(!m_window->mcpServers()->servers().at(0).problem.isEmpty());
        QCOMPARE(m_window->mcpServers()->servers().at(0).problem,
                 QStringLiteral("not started: the secret \"nowhere\" is not in the keyring"));
        QVERIFY(!m_window->mcpServers()->servers().at(0).client);
    }

private:
    void openWithUserEverything(const QList<ModelStep> &steps)
    {
        Ui::AppSettings app;
        app.mcpServers = QString::fromUtf8(config({{"everything", everythingEntry()}}));
        QSettings qsettings;
        app.save(qsettings);
        qsettings.sync();
        m_repo = std::make_unique<ToolsTest::Repo>();
        QVERIFY(m_repo->write("README.md", "# readme\n"));
        openWindow(steps);
        waitForReady(1);
    }

    Ui::Composer *focusedComposer()
    {
        Ui::Composer *composer = page()->composer();
        m_window->activateWindow();
        composer->setFocus();
        [&] { QTRY_VERIFY(composer->hasFocus()); }();
        return composer;
    }

    static QString lastUserText(const Context &context)
    {
        for (auto it = context.messages.crbegin(); it != context.messages.crend(); ++it) {
            if (it->isUser())
                return it->text();
        }
        return {};
    }

    QStringList userItems() const
    {
        QStringList texts;
        const Ui::ConversationView *view = page()->conversation();
        for (int i = 0; i < view->itemCount(); ++i) {
            if (view->itemAt(i)->kind() == Ui::ConversationItem::Kind::User)
                texts.append(view->itemAt(i)->plainText());
        }
        return texts;
    }

    // \a openOnly: the repository opened before the window is shown, as the app's main() does;
    // the test shows it.
    void openWindow(const QList<ModelStep> &steps, bool openOnly = false)
    {
        QVERIFY(m_repo && m_repo->isValid());
        QVERIFY(m_config.isValid());
        m_trustStore = m_config.filePath(QStringLiteral("trusted-%1.json").arg(++m_windows));
        m_model = std::make_shared<ScriptedModel>(steps);
        Ui::AgentSetup setup;
        setup.model.client = m_model;
        setup.model.label = QStringLiteral("scripted");
        setup.options.systemPrompt = QStringLiteral("You are tested.");
        setup.options.permissions.projectTrustPath = m_trustStore;
        setup.options.context.autoCompact = false;
        setup.sessionsDirectory = m_config.filePath(QStringLiteral("sessions-%1").arg(m_windows));
        if (!m_keys)
            m_keys = std::make_unique<FakeKeyStore>();
        setup.keyStore = m_keys.get();
        if (!m_environment.isEmpty())
            setup.environment = m_environment;
        m_window = std::make_unique<Ui::MainWindow>(setup);
        m_window->resize(900, 600);
        if (openOnly) {
            QVERIFY(m_window->openRepository(m_repo->root()));
            QTRY_VERIFY(m_window->mcpServers()->isConfigured()); // read on a worker thread
            return;
        }
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QVERIFY(m_window->openRepository(m_repo->root()));
        QTRY_VERIFY_WITH_TIMEOUT(session()->agent(), runTimeoutMs);
        QTRY_VERIFY(m_window->mcpServers()->isConfigured());
    }

    ProjectTrustDialog *waitForDialog()
    {
        const auto shown = [this] {
            auto dialog = m_window->findChild<ProjectTrustDialog *>();
            return dialog && dialog->isVisible();
        };
        if (!QTest::qWaitFor(shown, runTimeoutMs))
            return nullptr;
        return m_window->findChild<ProjectTrustDialog *>();
    }

    void waitForReady(int count)
    {
        const auto ready = [this, count] {
            int n = 0;
            for (const McpServerEntry &entry : m_window->mcpServers()->servers())
                n += entry.client && entry.client->state() == McpClient::State::Ready;
            return n == count;
        };
        QVERIFY(QTest::qWaitFor(ready, runTimeoutMs));
    }

    Ui::SettingsDialog *openSettings()
    {
        m_window->showSettings();
        Ui::SettingsDialog *dialog = nullptr;
        if (!QTest::qWaitFor([&] { return (dialog = m_window->findChild<Ui::SettingsDialog *>()); }))
            return nullptr;
        dialog->showMcpServers();
        return dialog;
    }

    // Allows the review shown now, once.
    void allowOnce()
    {
        QWidget *current = page()->reviews()->currentView();
        QVERIFY(current);
        auto allow = current->findChild<QAbstractButton *>("allowOnceButton");
        QTRY_VERIFY(allow && allow->isVisible());
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QTest::mouseClick(allow, Qt::LeftButton);
    }

    // The arguments box of the review shown now; "<none>" without one.
    QString reviewArguments() const
    {
        QWidget *current = page()->reviews()->currentView();
        auto box = current ? current->findChild<QPlainTextEdit *>("reviewArguments") : nullptr;
        return box && box->isVisible() ? box->toPlainText() : QStringLiteral("<none>");
    }

    void type(const QString &text)
    {
        QTest::keyClicks(page()->composer(), text);
        QTest::keyClick(page()->composer(), Qt::Key_Return);
    }

    QStringList toolCards() const
    {
        QStringList cards;
        const Ui::ConversationView *view = page()->conversation();
        for (int i = 0; i < view->itemCount(); ++i) {
            if (view->itemAt(i)->kind() == Ui::ConversationItem::Kind::ToolCard)
                cards.append(view->itemAt(i)->plainText());
        }
        return cards;
    }

    Ui::ConversationPage *page() const { return m_window->conversationPage(); }
    AgentSession *session() const { return m_window->session(); }

    QTemporaryDir m_config;
    QString m_trustStore;
    int m_windows = 0;
    QProcessEnvironment m_environment;
    std::unique_ptr<FakeKeyStore> m_keys;
    std::shared_ptr<ScriptedModel> m_model;
    std::unique_ptr<ToolsTest::Repo> m_repo;
    std::unique_ptr<Ui::MainWindow> m_window;
};

AGENTDESK_TEST_MAIN(tst_McpWindow)

} // namespace tst_mcpwindow

#include "tst_mcpwindow.moc"
