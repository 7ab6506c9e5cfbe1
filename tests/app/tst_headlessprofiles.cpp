// agentdesk --print against each OpenAI-compatible server as its own code writes its stream
// (tests/ai/compatible/profile-*.sse), with --server-profile naming it: one tool loop per
// server, whose second request must keep that server's rules (the fields it takes, its ids
// byte for byte, the reasoning back where it reads it). The harness is tests/support/headlessrun.h.

#include "headlessrun.h"
#include "httptestserver.h"
#include "requestbuildertest.h"
#include "testmain.h"
#include "testpaths.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QTest>

using namespace TestSupport;

namespace tst_headlessprofiles {

namespace {

QByteArray profileStream(const QString &name)
{
    QFile file(sourcePath(QStringLiteral("tests/ai/compatible/%1.sse").arg(name)));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class tst_HeadlessProfiles : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
    }

    void toolLoopKeepsTheServersRules_data()
    {
        QTest::addColumn<QString>("profile");
        QTest::addColumn<QString>("callId");   // the id the server issued
        QTest::addColumn<QString>("thinking"); // the reasoning its stream carried
        const QString read = QStringLiteral("Read it first.");
        QTest::newRow("openai") << "openai"
                                << "call_Zx1cV5bN9mQ3wE7rT2yU6iO0" << QString();
        QTest::newRow("deepseek") << "deepseek"
                                  << "call_00_Fd2gH6jK0lZ4xC8vB3nM7qW1" << read;
        QTest::newRow("openrouter") << "openrouter"
                                    << "toolu_vrtx_01Mr1oS4tV9xY5zA0bC6dE7f" << read;
        QTest::newRow("mistral") << "mistral"
                                 << "Zx4cV7bNm" << QString();
        QTest::newRow("llamacpp") << "llamacpp"
                                  << "bN4vC1xZ8lK5jH2gF9dS6aP3oI0uY7tR" << read;
        QTest::newRow("ollama") << "ollama"
                                << "call_a5v0n4cy" << read;
        QTest::newRow("vllm") << "vllm"
                              << "chatcmpl-tool-0c1d2e3f4a5b46c7d8e9f0a1b2c3d4e5" << read;
        QTest::newRow("lmstudio") << "lmstudio"
                                  << "117093251" << read;
        QTest::newRow("moonshot") << "moonshot"
                                  << "functions.Read:2" << read;
        QTest::newRow("generic") << "generic"
                                 << "call_3" << read;
    }

    void toolLoopKeepsTheServersRules()
    {
        QFETCH(QString, profile);
        QFETCH(QString, callId);
        QFETCH(QString, thinking);

        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        QVERIFY(sandbox.write(QStringLiteral("README.md"), "# A project\n"));
        HttpTestServer server;
        QVERIFY(server.isListening());
        const QByteArray call = profileStream(QStringLiteral("profile-%1-after-text").arg(profile));
        const QByteArray answer = profileStream(QStringLiteral("profile-%1-usage").arg(profile));
        QVERIFY(!call.isEmpty() && !answer.isEmpty());
        server.enqueue(ScriptedResponse::sse({call}));
        server.enqueue(ScriptedResponse::sse({answer}));

        HeadlessRun run(sandbox,
                        server,
                        ReplyApi::OpenAiChat,
                        {QStringLiteral("--server-profile"), profile});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QVERIFY2(run.out.contains("Cached."), qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 2);

        const QJsonObject second = QJsonDocument::fromJson(server.requests().at(1).body).object();
        const QString violation = compatibleServerViolation(profile,
                                                            second,
                                                            {callId},
                                                            thinking,
                                                            reasoningDetailsIn(call));
        QVERIFY2(violation.isEmpty(),
                 qPrintable(violation + u'\n' + QString::fromUtf8(server.requests().at(1).body)));
    }

    // Without --server-profile a server on 127.0.0.1 is unknown: the generic profile sends
    // neither stream_options nor prompt_cache_key, whatever --provider says.
    void anUnknownServerGetsNoOptionalField()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        QVERIFY(server.isListening());
        server.enqueue(
            ScriptedResponse::sse({profileStream(QStringLiteral("profile-generic-usage"))}));
        HeadlessRun run(sandbox, server, ReplyApi::OpenAiChat, {});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 1);
        const QJsonObject body = QJsonDocument::fromJson(server.requests().at(0).body).object();
        QVERIFY2(!body.contains(QLatin1String("stream_options")), qPrintable(run.report()));
        QVERIFY(!body.contains(QLatin1String("prompt_cache_key")));
    }

    void anUnknownProfileIsAnError()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        HeadlessRun run(sandbox,
                        server,
                        ReplyApi::OpenAiChat,
                        {QStringLiteral("--server-profile"), QStringLiteral("nonesuch")});
        run.start();
        QVERIFY(run.finish());
        QCOMPARE(run.exitCode(), 2);
        QVERIFY2(run.err.contains(QLatin1String("nonesuch")), qPrintable(run.report()));
        QVERIFY(run.err.contains(QLatin1String("llamacpp")));
        QCOMPARE(server.requests().size(), 0);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessProfiles)

} // namespace tst_headlessprofiles

#include "tst_headlessprofiles.moc"
