// agentdesk --print and the provider's prompt cache: every request of a run carries one
// prompt_cache_key (OpenAI routes requests with one key to the machines that hold their
// cached prefix), and another run another one. The harness is tests/support/headlessrun.h.

#include "headlessrun.h"
#include "httptestserver.h"
#include "modelreplies.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <testmain.h>

using namespace TestSupport;

namespace tst_headlesscache {

namespace {

/// The scripted server stands for OpenAI here: only that profile sends prompt_cache_key (a
/// server on 127.0.0.1 is otherwise an unknown one).
const QString profileOption = QStringLiteral("--server-profile");

/// The prompt_cache_key of each request \a server read.
QStringList cacheKeys(const HttpTestServer &server)
{
    QStringList keys;
    for (const RecordedRequest &request : server.requests()) {
        keys.append(QJsonDocument::fromJson(request.body)
                        .object()
                        .value(QLatin1StringView("prompt_cache_key"))
                        .toString());
    }
    return keys;
}

} // namespace

class tst_HeadlessCache : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
    }

    void promptCacheKeyPerRun()
    {
        QStringList firstKeys;
        for (int runIndex = 0; runIndex < 2; ++runIndex) {
            HeadlessSandbox sandbox;
            QVERIFY(sandbox.isValid());
            HttpTestServer server;
            QVERIFY(server.isListening());
            const ReplyApi api = ReplyApi::OpenAiChat;
            server.enqueue(scriptedReply(api, QStringLiteral("Reading."), {headlessReadCall()}));
            server.enqueue(scriptedReply(api, {}, {headlessEditCall()}));
            server.enqueue(scriptedReply(api, QStringLiteral("Done, it says banana now.")));
            HeadlessRun run(sandbox,
                            server,
                            api,
                            {QStringLiteral("--permission-mode"),
                             QStringLiteral("acceptEdits"),
                             profileOption,
                             QStringLiteral("openai")});
            run.start();
            QVERIFY(run.finish());
            QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));

            const QStringList keys = cacheKeys(server);
            QCOMPARE(keys.size(), 3);
            QVERIFY(!keys.constFirst().isEmpty());
            QCOMPARE(keys.count(keys.constFirst()), 3);
            if (runIndex == 0)
                firstKeys = keys;
            else
                QVERIFY(keys.constFirst() != firstKeys.constFirst());
        }
    }

    // A session keeps its key when it is continued, as the window's does when resumed: the
    // provider's cache for the conversation is still warm.
    void aContinuedSessionKeepsItsKey()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        QVERIFY(server.isListening());
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api, QStringLiteral("Noted: plum.")));
        HeadlessRun first(sandbox,
                          server,
                          api,
                          {profileOption, QStringLiteral("openai")},
                          QStringLiteral("Remember the word plum."));
        first.start();
        QVERIFY(first.finish());
        QVERIFY2(first.exitCode() == 0, qPrintable(first.report()));
        server.enqueue(scriptedReply(api, QStringLiteral("Plum.")));
        HeadlessRun second(sandbox,
                           server,
                           api,
                           {QStringLiteral("--continue"), profileOption, QStringLiteral("openai")},
                           QStringLiteral("Which word?"));
        second.start();
        QVERIFY(second.finish());
        QVERIFY2(second.exitCode() == 0, qPrintable(second.report()));

        const QStringList keys = cacheKeys(server);
        QCOMPARE(keys.size(), 2);
        QVERIFY(!keys.constFirst().isEmpty());
        QCOMPARE(keys.constLast(), keys.constFirst());
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessCache)

} // namespace tst_headlesscache

#include "tst_headlesscache.moc"
