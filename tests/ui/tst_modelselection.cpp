// ModelSelection: what the settings save and sessions remember, and the ProviderConfig the
// agent gets from it.
#include <settings/appsettings.h>
#include <settings/modelselection.h>
#include <testmain.h>

#include <QJsonDocument>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

namespace tst_modelselection {

using AgentCore::WireApi;
using Ui::AppSettings;
using Ui::ModelSelection;
using Ui::ProviderKind;
using Ui::ThinkingLevel;

namespace {

ModelSelection selection(ProviderKind provider,
                         const QString &model,
                         const QString &baseUrl = {},
                         ThinkingLevel thinking = ThinkingLevel::Off)
{
    ModelSelection result;
    result.provider = provider;
    result.model = model;
    result.baseUrl = baseUrl;
    result.thinking = thinking;
    return result;
}

QJsonObject json(const char *text)
{
    return QJsonDocument::fromJson(text).object();
}

} // namespace

class tst_ModelSelection : public QObject
{
    Q_OBJECT

private slots:
    void jsonRoundTrip_data();
    void jsonRoundTrip();
    void fromJsonRejects_data();
    void fromJsonRejects();
    void providerConfig_data();
    void providerConfig();
    void thinkingBudget_data();
    void thinkingBudget();
    void needsKey_data();
    void needsKey();
    void keyAccount();
    void keyVariable();
    void label();

    void settingsRoundTrip();
    void settingsDefaultsForGarbage();
    void recentModels();
    void recentModelsOnePerEndpoint();
};

void tst_ModelSelection::jsonRoundTrip_data()
{
    QTest::addColumn<ModelSelection>("selection");
    QTest::newRow("anthropic") << selection(ProviderKind::Anthropic,
                                            QStringLiteral("claude-sonnet-4-5"));
    QTest::newRow("openai high") << selection(ProviderKind::OpenAi,
                                              QStringLiteral("gpt-5"),
                                              {},
                                              ThinkingLevel::High);
    QTest::newRow("responses override") << selection(ProviderKind::OpenAiResponses,
                                                     QStringLiteral("gpt-5-codex"),
                                                     QStringLiteral("https://proxy.example.com/v1"),
                                                     ThinkingLevel::Medium);
    QTest::newRow("ollama") << selection(ProviderKind::OpenAiCompatible,
                                         QStringLiteral("qwen3-coder"),
                                         QStringLiteral("http://localhost:11434/v1"),
                                         ThinkingLevel::Low);
}

void tst_ModelSelection::jsonRoundTrip()
{
    QFETCH(ModelSelection, selection);
    const QJsonObject object = selection.toJson();
    QVERIFY(!object.contains(QStringLiteral("apiKey")));
    // Through text, as settings and session files keep it.
    const QJsonObject reread = QJsonDocument::fromJson(QJsonDocument(object).toJson()).object();
    const std::optional<ModelSelection> back = ModelSelection::fromJson(reread);
    QVERIFY(back);
    QCOMPARE(*back, selection);
}

void tst_ModelSelection::fromJsonRejects_data()
{
    QTest::addColumn<QJsonObject>("json");
    QTest::newRow("empty") << QJsonObject();
    QTest::newRow("unknown provider") << json(R"({"provider":"gemini","model":"x"})");
    QTest::newRow("provider not a string") << json(R"({"provider":1,"model":"x"})");
    QTest::newRow("no model") << json(R"({"provider":"anthropic"})");
    QTest::newRow("empty model") << json(R"({"provider":"anthropic","model":"  "})");
    QTest::newRow("model not a string") << json(R"({"provider":"openai","model":["gpt-5"]})");
    QTest::newRow("compatible without url")
        << json(R"({"provider":"openai-compatible","model":"qwen3"})");
    QTest::newRow("url without scheme")
        << json(R"({"provider":"openai-compatible","model":"q","baseUrl":"localhost:11434"})");
    QTest::newRow("ftp url") << json(
        R"({"provider":"openai-compatible","model":"q","baseUrl":"ftp://host/v1"})");
    QTest::newRow("url not a string")
        << json(R"({"provider":"openai","model":"gpt-5","baseUrl":42})");
    QTest::newRow("unknown thinking")
        << json(R"({"provider":"anthropic","model":"claude","thinking":"extreme"})");
}

void tst_ModelSelection::fromJsonRejects()
{
    QFETCH(QJsonObject, json);
    QVERIFY(!ModelSelection::fromJson(json));
}

void tst_ModelSelection::providerConfig_data()
{
    QTest::addColumn<ModelSelection>("selection");
    QTest::addColumn<WireApi>("api");
    QTest::addColumn<QString>("vendor");
    QTest::addColumn<QString>("baseUrl");

    QTest::newRow("anthropic") << selection(ProviderKind::Anthropic,
                                            QStringLiteral("claude-sonnet-4-5"))
                               << WireApi::AnthropicMessages << QStringLiteral("anthropic")
                               << QStringLiteral("https://api.anthropic.com");
    QTest::newRow("openai") << selection(ProviderKind::OpenAi, QStringLiteral("gpt-5"))
                            << WireApi::OpenAiChat << QStringLiteral("openai")
                            << QStringLiteral("https://api.openai.com/v1");
    QTest::newRow("responses") << selection(ProviderKind::OpenAiResponses, QStringLiteral("gpt-5"))
                               << WireApi::OpenAiResponses << QStringLiteral("openai")
                               << QStringLiteral("https://api.openai.com/v1");
    QTest::newRow("anthropic override") << selection(ProviderKind::Anthropic,
                                                     QStringLiteral("claude"),
                                                     QStringLiteral("https://gateway.example.com"))
                                        << WireApi::AnthropicMessages << QStringLiteral("anthropic")
                                        << QStringLiteral("https://gateway.example.com");
    QTest::newRow("ollama") << selection(ProviderKind::OpenAiCompatible,
                                         QStringLiteral("qwen3-coder"),
                                         QStringLiteral("http://localhost:11434/v1"))
                            << WireApi::OpenAiChat << QStringLiteral("ollama")
                            << QStringLiteral("http://localhost:11434/v1");
    QTest::newRow("deepseek") << selection(ProviderKind::OpenAiCompatible,
                                           QStringLiteral("deepseek-chat"),
                                           QStringLiteral("https://api.deepseek.com/v1"))
                              << WireApi::OpenAiChat << QStringLiteral("deepseek")
                              << QStringLiteral("https://api.deepseek.com/v1");
    QTest::newRow("openrouter") << selection(ProviderKind::OpenAiCompatible,
                                             QStringLiteral("x"),
                                             QStringLiteral("https://openrouter.ai/api/v1"))
                                << WireApi::OpenAiChat << QStringLiteral("openrouter")
                                << QStringLiteral("https://openrouter.ai/api/v1");
    QTest::newRow("vllm on the lan") << selection(ProviderKind::OpenAiCompatible,
                                                  QStringLiteral("x"),
                                                  QStringLiteral("http://192.168.1.20:8000/v1"))
                                     << WireApi::OpenAiChat << QStringLiteral("openai-compatible")
                                     << QStringLiteral("http://192.168.1.20:8000/v1");
}

void tst_ModelSelection::providerConfig()
{
    QFETCH(ModelSelection, selection);
    QFETCH(WireApi, api);
    QFETCH(QString, vendor);
    QFETCH(QString, baseUrl);
    selection.thinking = ThinkingLevel::Medium;
    const AgentCore::ProviderConfig config = selection.providerConfig(QStringLiteral("sk-1"));
    QCOMPARE(config.api, api);
    QCOMPARE(config.provider, vendor);
    QCOMPARE(config.baseUrl, QUrl(baseUrl));
    QCOMPARE(config.model, selection.model);
    QCOMPARE(config.apiKey, QStringLiteral("sk-1"));
    QCOMPARE(config.thinkingBudget, 12288);
}

void tst_ModelSelection::thinkingBudget_data()
{
    QTest::addColumn<ThinkingLevel>("level");
    QTest::addColumn<int>("budget");
    QTest::newRow("off") << ThinkingLevel::Off << 0;
    QTest::newRow("low") << ThinkingLevel::Low << 4096;
    QTest::newRow("medium") << ThinkingLevel::Medium << 12288;
    QTest::newRow("high") << ThinkingLevel::High << 32768;
}

void tst_ModelSelection::thinkingBudget()
{
    QFETCH(ThinkingLevel, level);
    QFETCH(int, budget);
    QCOMPARE(Ui::thinkingBudget(level), budget);
    ModelSelection anthropic = selection(ProviderKind::Anthropic, QStringLiteral("claude"));
    anthropic.thinking = level;
    QCOMPARE(anthropic.providerConfig({}).thinkingBudget, budget);
    QVERIFY(!Ui::thinkingLevelName(level).isEmpty());
}

void tst_ModelSelection::needsKey_data()
{
    QTest::addColumn<ModelSelection>("selection");
    QTest::addColumn<bool>("needsKey");
    const auto compatible = [](const char *url) {
        return selection(ProviderKind::OpenAiCompatible, QStringLiteral("m"), QLatin1String(url));
    };
    QTest::newRow("anthropic") << selection(ProviderKind::Anthropic, QStringLiteral("c")) << true;
    QTest::newRow("openai") << selection(ProviderKind::OpenAi, QStringLiteral("g")) << true;
    QTest::newRow("localhost") << compatible("http://localhost:11434/v1") << false;
    QTest::newRow("LOCALHOST") << compatible("http://LOCALHOST:8080/v1") << false;
    QTest::newRow("127.0.0.1") << compatible("http://127.0.0.1:8080/v1") << false;
    QTest::newRow("::1") << compatible("http://[::1]:8000/v1") << false;
    QTest::newRow("192.168") << compatible("http://192.168.1.20:8000/v1") << false;
    QTest::newRow("10/8") << compatible("http://10.1.2.3/v1") << false;
    QTest::newRow("172.16/12") << compatible("http://172.20.0.5/v1") << false;
    QTest::newRow("172.32 is public") << compatible("http://172.32.0.5/v1") << true;
    QTest::newRow("mdns") << compatible("http://gpu-box.local:8000/v1") << false;
    QTest::newRow("deepseek") << compatible("https://api.deepseek.com/v1") << true;
    QTest::newRow("public ip") << compatible("http://8.8.8.8/v1") << true;
    QTest::newRow("localhost.evil.com") << compatible("https://localhost.evil.com/v1") << true;
    QTest::newRow("openai via local proxy") << selection(ProviderKind::OpenAi,
                                                         QStringLiteral("g"),
                                                         QStringLiteral("http://127.0.0.1:4000/v1"))
                                            << false;
}

void tst_ModelSelection::needsKey()
{
    QFETCH(ModelSelection, selection);
    QFETCH(bool, needsKey);
    QCOMPARE(selection.needsKey(), needsKey);
}

void tst_ModelSelection::keyAccount()
{
    const ModelSelection anthropic = selection(ProviderKind::Anthropic, QStringLiteral("a"));
    const ModelSelection openai = selection(ProviderKind::OpenAi, QStringLiteral("gpt-5"));
    const ModelSelection responses = selection(ProviderKind::OpenAiResponses,
                                               QStringLiteral("gpt-5"));
    const ModelSelection openaiExplicit = selection(ProviderKind::OpenAi,
                                                    QStringLiteral("gpt-5"),
                                                    QStringLiteral("https://api.openai.com/v1/"));
    const ModelSelection proxy = selection(ProviderKind::OpenAi,
                                           QStringLiteral("gpt-5"),
                                           QStringLiteral("https://proxy.example.com/v1"));
    const ModelSelection ollama = selection(ProviderKind::OpenAiCompatible,
                                            QStringLiteral("q"),
                                            QStringLiteral("http://localhost:11434/v1"));
    const ModelSelection deepseek = selection(ProviderKind::OpenAiCompatible,
                                              QStringLiteral("d"),
                                              QStringLiteral("https://api.deepseek.com/v1/"));
    QCOMPARE(anthropic.keyAccount(), QStringLiteral("anthropic"));
    // One OpenAI key for both of its APIs, and for its default URL written out.
    QCOMPARE(openai.keyAccount(), QStringLiteral("openai"));
    QCOMPARE(responses.keyAccount(), openai.keyAccount());
    QCOMPARE(openaiExplicit.keyAccount(), openai.keyAccount());
    // A key is never sent to a URL it was not typed in for.
    QVERIFY(proxy.keyAccount() != openai.keyAccount());
    QVERIFY(ollama.keyAccount() != deepseek.keyAccount());
    QCOMPARE(deepseek.keyAccount(),
             selection(ProviderKind::OpenAiCompatible,
                       QStringLiteral("other-model"),
                       QStringLiteral("https://api.deepseek.com/v1"))
                 .keyAccount());
}

void tst_ModelSelection::keyVariable()
{
    // The variable the settings fall back to is the one the command line reads and the Bash
    // environment removes (AgentCore::apiKeyVariable); none for a compatible server.
    QCOMPARE(selection(ProviderKind::Anthropic, QStringLiteral("a")).keyVariable(),
             AgentCore::apiKeyVariable(WireApi::AnthropicMessages));
    QCOMPARE(selection(ProviderKind::OpenAi, QStringLiteral("gpt-5")).keyVariable(),
             AgentCore::apiKeyVariable(WireApi::OpenAiChat));
    QCOMPARE(selection(ProviderKind::OpenAiResponses, QStringLiteral("gpt-5")).keyVariable(),
             AgentCore::apiKeyVariable(WireApi::OpenAiResponses));
    QCOMPARE(selection(ProviderKind::OpenAiCompatible,
                       QStringLiteral("q"),
                       QStringLiteral("http://localhost:11434/v1"))
                 .keyVariable(),
             QString());
}

void tst_ModelSelection::label()
{
    QCOMPARE(selection(ProviderKind::Anthropic, QStringLiteral("claude-sonnet-4-5")).label(),
             QStringLiteral("claude-sonnet-4-5 (Anthropic)"));
    QCOMPARE(selection(ProviderKind::OpenAiResponses, QStringLiteral("gpt-5")).label(),
             QStringLiteral("gpt-5 (OpenAI Responses)"));
    QCOMPARE(selection(ProviderKind::OpenAiCompatible,
                       QStringLiteral("qwen3-coder"),
                       QStringLiteral("http://localhost:11434/v1"))
                 .label(),
             QStringLiteral("qwen3-coder (localhost:11434)"));
}

void tst_ModelSelection::settingsRoundTrip()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("agentdesk.ini"));
    AppSettings settings;
    settings.model = selection(ProviderKind::OpenAiCompatible,
                               QStringLiteral("qwen3-coder"),
                               QStringLiteral("http://localhost:11434/v1"),
                               ThinkingLevel::High);
    settings.rememberModel(*settings.model);
    settings.rememberModel(selection(ProviderKind::Anthropic, QStringLiteral("claude-sonnet-4-5")));
    settings.maxTurns = 40;
    settings.theme = Ui::Theme::Dark;
    settings.language = QStringLiteral("zh_CN");
    {
        QSettings file(path, QSettings::IniFormat);
        settings.save(file);
    }
    QSettings file(path, QSettings::IniFormat);
    QCOMPARE(AppSettings::load(file), settings);

    // Back to the demo: the model is gone, the recent list stays.
    AppSettings demo = settings;
    demo.model.reset();
    demo.save(file);
    QCOMPARE(AppSettings::load(file), demo);
    QCOMPARE(AppSettings::load(file).recentModels.size(), 2);
}

void tst_ModelSelection::settingsDefaultsForGarbage()
{
    QTemporaryDir dir;
    QSettings file(dir.filePath(QStringLiteral("agentdesk.ini")), QSettings::IniFormat);
    QCOMPARE(AppSettings::load(file), AppSettings()); // nothing saved: the demo
    file.setValue(QStringLiteral("Model/current"), QStringLiteral("{not json"));
    file.setValue(QStringLiteral("Model/recent"), QStringLiteral("[{\"provider\":\"x\"}]"));
    file.setValue(QStringLiteral("Agent/maxTurns"), QStringLiteral("-3"));
    file.setValue(QStringLiteral("Appearance/theme"), QStringLiteral("neon"));
    QCOMPARE(AppSettings::load(file), AppSettings());
}

void tst_ModelSelection::recentModels()
{
    AppSettings settings;
    for (int index = 0; index < AppSettings::maxRecentModels + 2; ++index)
        settings.rememberModel(selection(ProviderKind::OpenAi, QString::number(index)));
    QCOMPARE(settings.recentModels.size(), AppSettings::maxRecentModels);
    QCOMPARE(settings.recentModels.first().model, QString::number(AppSettings::maxRecentModels + 1));
    const ModelSelection older = settings.recentModels.at(3);
    settings.rememberModel(older);
    QCOMPARE(settings.recentModels.first(), older);
    QCOMPARE(settings.recentModels.size(), AppSettings::maxRecentModels);
    QCOMPARE(settings.recentModels.count(older), 1);
}

void tst_ModelSelection::recentModelsOnePerEndpoint()
{
    AppSettings settings;
    settings.rememberModel(selection(ProviderKind::OpenAiCompatible,
                                     QStringLiteral("qwen3"),
                                     QStringLiteral("http://localhost:11434/v1/")));
    settings.rememberModel(selection(ProviderKind::OpenAi, QStringLiteral("gpt-5")));
    ModelSelection again = selection(ProviderKind::OpenAiCompatible,
                                     QStringLiteral("qwen3"),
                                     QStringLiteral("http://localhost:11434/v1"));
    again.thinking = ThinkingLevel::High;
    settings.rememberModel(again);
    settings.rememberModel(selection(ProviderKind::OpenAi,
                                     QStringLiteral("gpt-5"),
                                     QStringLiteral("https://api.openai.com/v1")));
    QCOMPARE(settings.recentModels.size(), 2);
    QCOMPARE(settings.recentModels.at(0).baseUrl, QStringLiteral("https://api.openai.com/v1"));
    QCOMPARE(settings.recentModels.at(1), again);
    QCOMPARE(settings.recentModels.at(0).label(), QStringLiteral("gpt-5 (OpenAI)"));
    QCOMPARE(settings.recentModels.at(1).label(), QStringLiteral("qwen3 (localhost:11434)"));
    // Another model or another server stays its own entry.
    QVERIFY(!again.sameModelAs(selection(ProviderKind::OpenAiCompatible,
                                         QStringLiteral("qwen3"),
                                         QStringLiteral("http://localhost:8080/v1"))));
    QVERIFY(!again.sameModelAs(selection(ProviderKind::OpenAiCompatible,
                                         QStringLiteral("qwen3:8b"),
                                         QStringLiteral("http://localhost:11434/v1"))));
}

AGENTDESK_GUILESS_TEST_MAIN(tst_ModelSelection)

} // namespace tst_modelselection

#include "tst_modelselection.moc"
