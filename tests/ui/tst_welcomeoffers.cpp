// The welcome page finds what a newcomer already has (issue #35): a model server on this
// computer, a provider key in the environment or in the keyring. Each is offered with a button
// that sets it up in one click; with nothing found the offline demo stays. The real window,
// offscreen, and a real HTTP server on 127.0.0.1 that records every request: the search sends
// it nothing but GET /v1/models.
#include "../tools/toolstest.h"
#include "fakekeystore.h"

#include <agentsession/agentsession.h>
#include <composer/composer.h>
#include <httptestserver.h>
#include <modelreplies.h>
#include <page/conversationpage.h>
#include <page/welcomeview.h>
#include <settings/modeldiscovery.h>
#include <testmain.h>
#include <window/mainwindow.h>

#include <QComboBox>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace tst_welcomeoffers {

using TestSupport::HttpTestServer;
using TestSupport::ScriptedResponse;
using Ui::AgentSession;

namespace {

constexpr int welcomeTimeoutMs = 20'000;

// A port nobody listens on: one the system gave and took back.
quint16 portNobodyListensOn()
{
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost))
        return 0;
    const quint16 port = server.serverPort();
    server.close();
    return port;
}

const QByteArray ollamaModels = R"({"object":"list","data":[)"
                                R"({"id":"nomic-embed-text:latest","owned_by":"library"},)"
                                R"({"id":"qwen3-coder:30b","owned_by":"library"},)"
                                R"({"id":"llama3.2:latest","owned_by":"library"}]})";

} // namespace

class tst_WelcomeOffers : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_welcomeoffers"));
    }
    void init()
    {
        QSettings().clear();
        m_repo = std::make_unique<ToolsTest::Repo>();
        QVERIFY(m_repo->isValid());
        m_sessions = std::make_unique<QTemporaryDir>();
        m_keys = std::make_unique<FakeKeyStore>();
        m_environment = QProcessEnvironment(); // nothing of the machine's own keys
        m_ports = QList<quint16>{};
    }
    void cleanup()
    {
        m_window.reset();
        m_repo.reset();
        QSettings().clear();
    }

    void theUsualPortsAreAsked()
    {
        FakeKeyStore keys;
        const Ui::ModelDiscovery discovery(&keys, {});
        QCOMPARE(discovery.localPorts(), (QList<quint16>{11434, 8080, 1234}));
    }

    // A server answering /v1/models on a port the window asks is offered, with its chat models;
    // one click sets it up, and the next task goes to it. Until the click it gets nothing but
    // the probe.
    void aLocalServerIsOfferedAndOneClickSetsItUp()
    {
        HttpTestServer server;
        QVERIFY(server.isListening());
        server.enqueue(ScriptedResponse::error(200, ollamaModels));
        const quint16 closed = portNobodyListensOn();
        m_ports = QList<quint16>{closed, server.port()};
        openWindow();
        QVERIFY(session()->model().isDemo);

        QTRY_COMPARE_WITH_TIMEOUT(offerRows().size(), 1, welcomeTimeoutMs);
        QWidget *row = offerRows().first();
        QVERIFY(row->isVisible());
        const QString text = row->findChild<QLabel *>(QStringLiteral("modelOfferText"))->text();
        QVERIFY2(text.contains(QStringLiteral("127.0.0.1:%1").arg(server.port())), qPrintable(text));
        auto models = row->findChild<QComboBox *>(QStringLiteral("modelOfferModels"));
        QVERIFY(models);
        QCOMPARE(models->count(), 3);
        // Not the embedding model the server lists first: it cannot answer a task.
        QCOMPARE(models->currentText(), QStringLiteral("qwen3-coder:30b"));
        models->setCurrentText(QStringLiteral("llama3.2:latest"));

        // Nothing but the probe reached the server.
        QCOMPARE(server.requests().size(), 1);
        QCOMPARE(server.requests().first().method, QByteArray("GET"));
        QCOMPARE(server.requests().first().path, QByteArray("/v1/models"));
        QVERIFY(server.requests().first().body.isEmpty());
        QCOMPARE(server.requests().first().header("authorization"), QByteArray());

        QTest::mouseClick(row->findChild<QPushButton *>(QStringLiteral("useModelOffer")),
                          Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!session()->model().isDemo && !session()->model().pending,
                                 welcomeTimeoutMs);
        const Ui::ModelChoice chosen = session()->model();
        QVERIFY2(chosen.problem.isEmpty(), qPrintable(chosen.problem)); // a local server: no key
        QVERIFY(chosen.selection);
        QCOMPARE(chosen.selection->provider, Ui::ProviderKind::OpenAiCompatible);
        QCOMPARE(chosen.selection->baseUrl,
                 QStringLiteral("http://127.0.0.1:%1/v1").arg(server.port()));
        QCOMPARE(chosen.selection->model, QStringLiteral("llama3.2:latest"));
        QCOMPARE(m_window->settings().model, chosen.selection); // remembered for next time
        QVERIFY(!welcome()->findChild<QWidget *>(QStringLiteral("modelOffers"))->isVisible());
        QCOMPARE(server.requests().size(), 1);

        // The next task goes to the server, with the model chosen.
        server.enqueue(TestSupport::scriptedReply(TestSupport::ReplyApi::OpenAiChat,
                                                  QStringLiteral("Hello from the local model.")));
        QTest::keyClicks(page()->composer(), QStringLiteral("hello"));
        QTest::keyClick(page()->composer(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(server.requests().size(), 2, welcomeTimeoutMs);
        QCOMPARE(server.requests().at(1).path, QByteArray("/v1/chat/completions"));
        QCOMPARE(QJsonDocument::fromJson(server.requests().at(1).body)
                     .object()
                     .value(QStringLiteral("model"))
                     .toString(),
                 QStringLiteral("llama3.2:latest"));
        QTRY_COMPARE_WITH_TIMEOUT(session()->state(), AgentSession::State::Idle, welcomeTimeoutMs);
    }

    // A key in the environment is offered under its variable; one click sets the provider up
    // with that key. The variables of the vendor presets count too.
    void anEnvironmentKeyIsOfferedAndOneClickSetsItUp_data()
    {
        QTest::addColumn<QString>("variable");
        QTest::addColumn<int>("provider");
        QTest::addColumn<QString>("baseUrl");
        QTest::newRow("anthropic")
            << QStringLiteral("ANTHROPIC_API_KEY") << int(Ui::ProviderKind::Anthropic)
            << QStringLiteral("https://api.anthropic.com");
        QTest::newRow("openai") << QStringLiteral("OPENAI_API_KEY") << int(Ui::ProviderKind::OpenAi)
                                << QStringLiteral("https://api.openai.com/v1");
        QTest::newRow("deepseek") << QStringLiteral("DEEPSEEK_API_KEY")
                                  << int(Ui::ProviderKind::OpenAiCompatible)
                                  << QStringLiteral("https://api.deepseek.com/v1");
    }
    void anEnvironmentKeyIsOfferedAndOneClickSetsItUp()
    {
        QFETCH(QString, variable);
        QFETCH(int, provider);
        QFETCH(QString, baseUrl);
        const QString key = QStringLiteral("sk-from-the-environment-0123456789");
        m_environment.insert(variable, key);
        openWindow();
        QTRY_COMPARE_WITH_TIMEOUT(offerRows().size(), 1, welcomeTimeoutMs);
        QWidget *row = offerRows().first();
        const QString text = row->findChild<QLabel *>(QStringLiteral("modelOfferText"))->text();
        QVERIFY2(text.contains(variable), qPrintable(text));
        QVERIFY2(!text.contains(key), qPrintable(text));

        QTest::mouseClick(row->findChild<QPushButton *>(QStringLiteral("useModelOffer")),
                          Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!session()->model().isDemo && !session()->model().pending,
                                 welcomeTimeoutMs);
        const Ui::ModelChoice chosen = session()->model();
        QVERIFY2(chosen.problem.isEmpty(), qPrintable(chosen.problem));
        QVERIFY(chosen.selection && chosen.provider);
        QCOMPARE(int(chosen.selection->provider), provider);
        QCOMPARE(chosen.provider->baseUrl, QUrl(baseUrl));
        QVERIFY(!chosen.selection->model.isEmpty());
        QCOMPARE(chosen.provider->apiKey, key);
        QVERIFY(m_keys->keys.isEmpty()); // used from where it is, never copied into the store
    }

    // A key the user stored earlier (and then went back to the demo) is offered as well.
    void aStoredKeyIsOffered()
    {
        m_keys->keys.insert(QStringLiteral("anthropic"), QStringLiteral("sk-ant-stored"));
        openWindow();
        QTRY_COMPARE_WITH_TIMEOUT(offerRows().size(), 1, welcomeTimeoutMs);
        const QString text = offerRows().first()->findChild<QLabel *>()->text();
        QVERIFY2(text.startsWith(QStringLiteral("Anthropic")), qPrintable(text));
        QTest::mouseClick(offerRows().first()->findChild<QPushButton *>(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(session()->model().provider, welcomeTimeoutMs);
        QCOMPARE(session()->model().provider->apiKey, QStringLiteral("sk-ant-stored"));
    }

    // Nothing found: no offer, and the demo stays the model.
    void withNothingFoundTheDemoStays()
    {
        m_ports = QList<quint16>{portNobodyListensOn()};
        openWindow();
        Ui::ModelDiscovery *discovery = nullptr;
        QTRY_VERIFY((discovery = m_window->findChild<Ui::ModelDiscovery *>()));
        QTRY_VERIFY_WITH_TIMEOUT(!discovery->isRunning(), welcomeTimeoutMs);
        QVERIFY(offerRows().isEmpty());
        QVERIFY(!welcome()->findChild<QWidget *>(QStringLiteral("modelOffers"))->isVisible());
        QVERIFY(welcome()->findChild<QLabel *>(QStringLiteral("demoNote"))->isVisible());
        QVERIFY(session()->model().isDemo);
    }

    // A server on a usual port that answers garbage, too much, or too slowly is no offer, and
    // the window does not wait for it.
    void aHostileServerIsNoOffer_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("garbage") << 0;
        QTest::newRow("huge") << 1;
        QTest::newRow("slow") << 2;
    }
    void aHostileServerIsNoOffer()
    {
        QFETCH(int, kind);
        HttpTestServer server;
        ScriptedResponse response = ScriptedResponse::error(200, "<html>not json \x01\x02</html>");
        if (kind == 1) {
            response.framing = ScriptedResponse::Framing::Chunked;
            response.pieces = {R"({"data":[)", QByteArray(R"({"id":"pad-model"},)").repeated(1000)};
            response.repeatLastPiece = 400;
            response.pieceDelayMs = -1;
        } else if (kind == 2) {
            response.framing = ScriptedResponse::Framing::Chunked;
            response.pieces.clear();
            for (const char c : QByteArray(R"({"data":[{"id":"slow-model"}]})"))
                response.pieces.append(QByteArray(1, c));
            response.pieceDelayMs = 300;
        }
        server.enqueue(response);
        m_ports = QList<quint16>{server.port()};
        QElapsedTimer clock;
        clock.start();
        openWindow();
        Ui::ModelDiscovery *discovery = nullptr;
        QTRY_VERIFY((discovery = m_window->findChild<Ui::ModelDiscovery *>()));
        QTRY_VERIFY_WITH_TIMEOUT(!discovery->isRunning(), welcomeTimeoutMs);
        QVERIFY2(clock.elapsed() < 8'000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(offerRows().isEmpty());
        QVERIFY(session()->model().isDemo);
        QCOMPARE(server.requests().size(), 1);
        server.closeConnections();
    }

private:
    void openWindow()
    {
        Ui::AgentSetup setup;
        setup.modelFromSettings = true;
        setup.keyStore = m_keys.get();
        setup.environment = m_environment;
        setup.localModelPorts = m_ports;
        setup.sessionsDirectory = m_sessions->path();
        setup.options.systemPrompt = QStringLiteral("You are tested.");
        setup.options.permissions.auditLogPath = m_sessions->filePath(
            QStringLiteral("audit.jsonl"));
        m_window = std::make_unique<Ui::MainWindow>(setup);
        m_window->resize(1200, 760);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QVERIFY(m_window->openRepository(m_repo->root()));
        QTRY_VERIFY_WITH_TIMEOUT(session() && session()->agent(), welcomeTimeoutMs);
    }
    Ui::ConversationPage *page() const { return m_window->conversationPage(); }
    AgentSession *session() const { return m_window->session(); }
    Ui::WelcomeView *welcome() const { return page()->findChild<Ui::WelcomeView *>(); }
    QList<QWidget *> offerRows() const
    {
        QList<QWidget *> rows;
        for (QWidget *row : welcome()->findChildren<QWidget *>(QStringLiteral("modelOffer")))
            rows.append(row);
        return rows;
    }

    std::unique_ptr<ToolsTest::Repo> m_repo;
    std::unique_ptr<QTemporaryDir> m_sessions;
    std::unique_ptr<FakeKeyStore> m_keys;
    std::unique_ptr<Ui::MainWindow> m_window;
    QProcessEnvironment m_environment;
    QList<quint16> m_ports;
};

AGENTDESK_TEST_MAIN(tst_WelcomeOffers)

} // namespace tst_welcomeoffers

#include "tst_welcomeoffers.moc"
