#include "ai/pricing.h"

#include <QTest>
#include <testmain.h>

using namespace AgentCore;

namespace tst_pricing {

class tst_Pricing : public QObject
{
    Q_OBJECT

private slots:
    void match_data();
    void match();
    void cost_data();
    void cost();
};

void tst_Pricing::match_data()
{
    QTest::addColumn<QString>("provider");
    QTest::addColumn<QString>("model");
    QTest::addColumn<bool>("known");
    QTest::addColumn<double>("input");
    QTest::addColumn<double>("output");
    QTest::addColumn<double>("cacheRead");
    QTest::addColumn<double>("cacheWrite");

    // Anthropic: ids, dated snapshots, aliases, OpenRouter and Bedrock spellings
    QTest::newRow("opus 4") << "anthropic"
                            << "claude-opus-4-20250514" << true << 15.0 << 75.0 << 1.5 << 18.75;
    QTest::newRow("opus 4.1") << "anthropic"
                              << "claude-opus-4-1" << true << 15.0 << 75.0 << 1.5 << 18.75;
    QTest::newRow("opus 4.5 is not opus 4")
        << "anthropic"
        << "claude-opus-4-5-20251101" << true << 5.0 << 25.0 << 0.5 << 6.25;
    QTest::newRow("sonnet 4.5 snapshot")
        << "anthropic"
        << "claude-sonnet-4-5-20250929" << true << 3.0 << 15.0 << 0.3 << 3.75;
    QTest::newRow("sonnet 4") << "anthropic"
                              << "claude-sonnet-4-0" << true << 3.0 << 15.0 << 0.3 << 3.75;
    QTest::newRow("haiku 4.5") << "anthropic"
                               << "claude-haiku-4-5" << true << 1.0 << 5.0 << 0.1 << 1.25;
    QTest::newRow("3.7 sonnet latest")
        << "anthropic"
        << "claude-3-7-sonnet-latest" << true << 3.0 << 15.0 << 0.3 << 3.75;
    QTest::newRow("3.5 haiku") << "anthropic"
                               << "claude-3-5-haiku-20241022" << true << 0.8 << 4.0 << 0.08 << 1.0;
    QTest::newRow("openrouter dots")
        << "openrouter"
        << "anthropic/claude-sonnet-4.5" << true << 3.0 << 15.0 << 0.3 << 3.75;
    QTest::newRow("openrouter variant")
        << "openrouter"
        << "anthropic/claude-3.7-sonnet:thinking" << true << 3.0 << 15.0 << 0.3 << 3.75;
    QTest::newRow("bedrock") << "bedrock"
                             << "us.anthropic.claude-haiku-4-5-20251001-v1:0" << true << 1.0 << 5.0
                             << 0.1 << 1.25;
    QTest::newRow("case") << "anthropic"
                          << "Claude-Sonnet-4-5" << true << 3.0 << 15.0 << 0.3 << 3.75;

    // OpenAI: the longest family wins
    QTest::newRow("gpt-4o snapshot") << "openai"
                                     << "gpt-4o-2024-08-06" << true << 2.5 << 10.0 << 1.25 << 2.5;
    QTest::newRow("gpt-4o first snapshot")
        << "openai"
        << "gpt-4o-2024-05-13" << true << 5.0 << 15.0 << 5.0 << 5.0;
    QTest::newRow("gpt-4o-mini") << "openai"
                                 << "gpt-4o-mini" << true << 0.15 << 0.6 << 0.075 << 0.15;
    QTest::newRow("openrouter gpt-4o") << "openrouter"
                                       << "openai/gpt-4o" << true << 2.5 << 10.0 << 1.25 << 2.5;
    QTest::newRow("gpt-4.1") << "openai"
                             << "gpt-4.1-2025-04-14" << true << 2.0 << 8.0 << 0.5 << 2.0;
    QTest::newRow("gpt-4.1-mini") << "openai"
                                  << "gpt-4.1-mini" << true << 0.4 << 1.6 << 0.1 << 0.4;
    QTest::newRow("o3") << "openai"
                        << "o3-2025-04-16" << true << 2.0 << 8.0 << 0.5 << 2.0;
    QTest::newRow("o4-mini") << "openai"
                             << "o4-mini" << true << 1.1 << 4.4 << 0.275 << 1.1;
    QTest::newRow("gpt-5") << "openai"
                           << "gpt-5" << true << 1.25 << 10.0 << 0.125 << 1.25;
    QTest::newRow("gpt-5-mini") << "openai"
                                << "gpt-5-mini-2025-08-07" << true << 0.25 << 2.0 << 0.025 << 0.25;
    QTest::newRow("gpt-5.1") << "openai"
                             << "gpt-5.1" << true << 1.25 << 10.0 << 0.125 << 1.25;
    QTest::newRow("gpt-5-codex") << "openai"
                                 << "gpt-5-codex" << true << 1.25 << 10.0 << 0.125 << 1.25;

    // DeepSeek
    QTest::newRow("deepseek-chat") << "deepseek"
                                   << "deepseek-chat" << true << 0.28 << 0.42 << 0.028 << 0.28;
    QTest::newRow("deepseek-reasoner")
        << "deepseek"
        << "deepseek-reasoner" << true << 0.28 << 0.42 << 0.028 << 0.28;

    // Unknown
    QTest::newRow("unknown model") << "openai"
                                   << "gpt-3.5-turbo" << false << 0.0 << 0.0 << 0.0 << 0.0;
    QTest::newRow("family needs a boundary") << "openai"
                                             << "o3x" << false << 0.0 << 0.0 << 0.0 << 0.0;
    QTest::newRow("local server") << "ollama"
                                  << "gpt-4o" << false << 0.0 << 0.0 << 0.0 << 0.0;
    QTest::newRow("empty") << ""
                           << "" << false << 0.0 << 0.0 << 0.0 << 0.0;
}

void tst_Pricing::match()
{
    QFETCH(QString, provider);
    QFETCH(QString, model);
    QFETCH(bool, known);
    QFETCH(double, input);
    QFETCH(double, output);
    QFETCH(double, cacheRead);
    QFETCH(double, cacheWrite);

    const std::optional<ModelPrice> price = priceForModel(provider, model);
    QCOMPARE(price.has_value(), known);
    if (!price)
        return;
    QCOMPARE(price->input, input);
    QCOMPARE(price->output, output);
    QCOMPARE(price->cacheRead, cacheRead);
    QCOMPARE(price->cacheWrite, cacheWrite);
}

void tst_Pricing::cost_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<Usage>("usage");
    QTest::addColumn<double>("expectedCost");

    const auto usage = [](qint64 input, qint64 output, qint64 cacheRead, qint64 cacheWrite) {
        Usage u;
        u.input = input;
        u.output = output;
        u.cacheRead = cacheRead;
        u.cacheWrite = cacheWrite;
        return u;
    };
    // 1M input at $3 + 100k output at $15 + 2M cache reads at $0.30 + 10k writes at $3.75
    QTest::newRow("sonnet, all four")
        << "claude-sonnet-4-5" << usage(1'000'000, 100'000, 2'000'000, 10'000)
        << 3.0 + 1.5 + 0.6 + 0.0375;
    QTest::newRow("gpt-4o-mini small") << "gpt-4o-mini" << usage(1200, 300, 800, 0)
                                       << (1200 * 0.15 + 300 * 0.6 + 800 * 0.075) / 1e6;
    QTest::newRow("zero tokens") << "gpt-5" << usage(0, 0, 0, 0) << 0.0;
    QTest::newRow("unknown model costs nothing")
        << "my-local-model" << usage(5000, 5000, 0, 0) << 0.0;
}

void tst_Pricing::cost()
{
    QFETCH(QString, model);
    QFETCH(Usage, usage);
    QFETCH(double, expectedCost);

    usage.cost = 42; // replaced, never added to
    const Usage priced = withCost(usage, QStringLiteral("any"), model);
    QVERIFY2(qAbs(priced.cost - expectedCost) < 1e-12,
             qPrintable(QString::number(priced.cost, 'g', 17)));
    QCOMPARE(priced.input, usage.input);
    QCOMPARE(priced.output, usage.output);
    QCOMPARE(priced.cacheRead, usage.cacheRead);
    QCOMPARE(priced.cacheWrite, usage.cacheWrite);
}

AGENTDESK_GUILESS_TEST_MAIN(tst_Pricing)

} // namespace tst_pricing

#include "tst_pricing.moc"
