// Opening a repository runs nothing of it, across the process boundary: agentdesk --print on a
// repository whose configuration names a command for every key by which git runs one
// (tests/support/hostilerepository.h), with a provider key in its environment. None of them
// runs (the system prompt's git status, the checkpoints of an Edit), and the status still
// reaches the provider in the system prompt.

#include "headlessrun.h"
#include "hostilerepository.h"
#include "httptestserver.h"
#include "modelreplies.h"

#include <QFileInfo>
#include <QTest>
#include <testmain.h>

using namespace TestSupport;

namespace tst_headlesshostilerepo {

class tst_HeadlessHostileRepo : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
    }

    void openingAndEditingRunsNothing_data()
    {
        QTest::addColumn<QStringList>("mode");
        QTest::newRow("acceptEdits")
            << QStringList{QStringLiteral("--permission-mode"), QStringLiteral("acceptEdits")};
        // Plan mode runs no tool, and used to run the repository's commands all the same.
        QTest::newRow("plan") << QStringList{QStringLiteral("--permission-mode"),
                                             QStringLiteral("plan")};
    }

    void openingAndEditingRunsNothing()
    {
        QFETCH(QStringList, mode);
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HostileRepository repository(sandbox.root());
        QVERIFY2(repository.isValid(), qPrintable(repository.error()));

        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api, QStringLiteral("Reading."), {headlessReadCall()}));
        server.enqueue(scriptedReply(api, {}, {headlessEditCall()}));
        server.enqueue(scriptedReply(api, QStringLiteral("Done.")));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        mode
                            + QStringList{QStringLiteral("--output-format"),
                                          QStringLiteral("stream-json")});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QVERIFY2(repository.ran().isEmpty(),
                 qPrintable(QStringLiteral("ran: %1").arg(repository.ran().join(u' '))));

        // The hardening keeps the feature: the provider got the repository's status.
        QVERIFY(!server.requests().isEmpty());
        const QByteArray first = server.requests().first().body;
        QVERIFY2(first.contains("M filtered.txt") && first.contains("M included.inc"),
                 first.constData());
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessHostileRepo)

} // namespace tst_headlesshostilerepo

#include "tst_headlesshostilerepo.moc"
