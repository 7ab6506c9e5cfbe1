#include "ai/modelcatalog.h"
#include "ai/pricing.h"

#include <QTest>
#include <testmain.h>

using namespace AgentCore;

namespace tst_modelcatalog {

class tst_ModelCatalog : public QObject
{
    Q_OBJECT

private slots:
    void contextWindow_data();
    void contextWindow();
    void suggestions_data();
    void suggestions();
    void everySuggestionHasAWindowAndAPrice();
};

void tst_ModelCatalog::contextWindow_data()
{
    QTest::addColumn<QString>("provider");
    QTest::addColumn<QString>("model");
    QTest::addColumn<qint64>("window"); // -1: unknown

    QTest::newRow("sonnet 4.5") << "anthropic"
                                << "claude-sonnet-4-5" << qint64(200'000);
    QTest::newRow("sonnet 4.5 snapshot") << "anthropic"
                                         << "claude-sonnet-4-5-20250929" << qint64(200'000);
    QTest::newRow("opus 4.1") << "anthropic"
                              << "claude-opus-4-1" << qint64(200'000);
    QTest::newRow("haiku 4.5") << "anthropic"
                               << "claude-haiku-4-5" << qint64(200'000);
    QTest::newRow("3.5 haiku") << "anthropic"
                               << "claude-3-5-haiku-latest" << qint64(200'000);
    QTest::newRow("openrouter dots") << "openrouter"
                                     << "anthropic/claude-sonnet-4.5" << qint64(200'000);
    QTest::newRow("bedrock") << "bedrock"
                             << "us.anthropic.claude-haiku-4-5-20251001-v1:0" << qint64(200'000);
    QTest::newRow("case") << "anthropic"
                          << "Claude-Opus-4-5" << qint64(200'000);

    QTest::newRow("gpt-5") << "openai"
                           << "gpt-5" << qint64(400'000);
    QTest::newRow("gpt-5-mini") << "openai"
                                << "gpt-5-mini-2025-08-07" << qint64(400'000);
    QTest::newRow("gpt-5.1-codex") << "openai"
                                   << "gpt-5.1-codex" << qint64(400'000);
    QTest::newRow("gpt-5-chat is smaller") << "openai"
                                           << "gpt-5-chat-latest" << qint64(128'000);
    QTest::newRow("gpt-4.1") << "openai"
                             << "gpt-4.1" << qint64(1'047'576);
    QTest::newRow("gpt-4.1-mini") << "openai"
                                  << "gpt-4.1-mini-2025-04-14" << qint64(1'047'576);
    QTest::newRow("gpt-4o is not gpt-4") << "openai"
                                         << "gpt-4o" << qint64(128'000);
    QTest::newRow("gpt-4") << "openai"
                           << "gpt-4-0613" << qint64(8'192);
    QTest::newRow("o3") << "openai"
                        << "o3-2025-04-16" << qint64(200'000);
    QTest::newRow("o1-mini before o1") << "openai"
                                       << "o1-mini" << qint64(128'000);
    QTest::newRow("o4-mini") << "openai"
                             << "o4-mini" << qint64(200'000);
    QTest::newRow("openrouter gpt-5") << "openrouter"
                                      << "openai/gpt-5" << qint64(400'000);
    QTest::newRow("deepseek") << "deepseek"
                              << "deepseek-chat" << qint64(128'000);

    QTest::newRow("unknown model") << "openai"
                                   << "my-finetune" << qint64(-1);
    QTest::newRow("family prefix is not enough") << "openai"
                                                 << "o30" << qint64(-1);
    QTest::newRow("empty") << "anthropic"
                           << "" << qint64(-1);
    QTest::newRow("ollama serves its own window") << "ollama"
                                                  << "gpt-oss:20b" << qint64(-1);
    QTest::newRow("local claude name") << "vllm"
                                       << "claude-sonnet-4-5" << qint64(-1);
}

void tst_ModelCatalog::contextWindow()
{
    QFETCH(QString, provider);
    QFETCH(QString, model);
    QFETCH(qint64, window);

    const std::optional<qint64> found = contextWindowTokens(provider, model);
    QCOMPARE(found.value_or(-1), window);
}

void tst_ModelCatalog::suggestions_data()
{
    QTest::addColumn<WireApi>("api");
    QTest::addColumn<QString>("provider");
    QTest::addColumn<QStringList>("mustContain");
    QTest::addColumn<QStringList>("mustNotContain");
    QTest::addColumn<QString>("first"); // empty: the list is empty

    const QStringList claude{"claude-sonnet-4-5", "claude-opus-4-1", "claude-haiku-4-5"};
    const QStringList gpt{"gpt-5", "gpt-5-mini", "gpt-4.1", "o3"};

    QTest::newRow("anthropic") << WireApi::AnthropicMessages << "anthropic" << claude << gpt
                               << "claude-sonnet-4-5";
    QTest::newRow("anthropic, any case") << WireApi::AnthropicMessages << "Anthropic" << claude
                                         << QStringList() << "claude-sonnet-4-5";
    QTest::newRow("openai chat") << WireApi::OpenAiChat << "openai" << gpt
                                 << QStringList{"gpt-5-codex", "claude-sonnet-4-5"} << "gpt-5.1";
    QTest::newRow("openai responses has codex")
        << WireApi::OpenAiResponses << "openai" << (gpt + QStringList{"gpt-5-codex"})
        << QStringList() << "gpt-5.1";
    QTest::newRow("deepseek") << WireApi::OpenAiChat << "deepseek"
                              << QStringList{"deepseek-chat", "deepseek-reasoner"} << gpt
                              << "deepseek-chat";
    QTest::newRow("ollama: nothing fixed")
        << WireApi::OpenAiChat << "ollama" << QStringList() << QStringList() << "";
    QTest::newRow("compatible endpoint: nothing fixed")
        << WireApi::OpenAiChat << "openai-compatible" << QStringList() << QStringList() << "";
    QTest::newRow("anthropic vendor on the wrong wire API")
        << WireApi::OpenAiChat << "anthropic" << QStringList() << QStringList() << "";
}

void tst_ModelCatalog::suggestions()
{
    QFETCH(WireApi, api);
    QFETCH(QString, provider);
    QFETCH(QStringList, mustContain);
    QFETCH(QStringList, mustNotContain);
    QFETCH(QString, first);

    const QStringList models = suggestedModels(api, provider);
    QCOMPARE(models.value(0), first);
    for (const QString &model : mustContain)
        QVERIFY2(models.contains(model), qPrintable(model));
    for (const QString &model : mustNotContain)
        QVERIFY2(!models.contains(model), qPrintable(model));
    QCOMPARE(QStringList(models).removeDuplicates(), 0);
}

// A suggested model the status bar cannot put a price or a window on would show a bare token
// count for a first-party model: the tables must move together.
void tst_ModelCatalog::everySuggestionHasAWindowAndAPrice()
{
    const std::pair<WireApi, QString> endpoints[] = {
        {WireApi::AnthropicMessages, QStringLiteral("anthropic")},
        {WireApi::OpenAiChat, QStringLiteral("openai")},
        {WireApi::OpenAiResponses, QStringLiteral("openai")},
        {WireApi::OpenAiChat, QStringLiteral("deepseek")},
    };
    for (const auto &[api, provider] : endpoints) {
        for (const QString &model : suggestedModels(api, provider)) {
            QVERIFY2(contextWindowTokens(provider, model), qPrintable(model));
            QVERIFY2(priceForModel(provider, model), qPrintable(model));
        }
    }
}

AGENTDESK_GUILESS_TEST_MAIN(tst_ModelCatalog)

} // namespace tst_modelcatalog

#include "tst_modelcatalog.moc"
