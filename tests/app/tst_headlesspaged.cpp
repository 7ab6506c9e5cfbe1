// agentdesk --print over a run whose tool outputs are paged to the session file as it goes
// (issue 39): the stream-json output still carries every output whole, agent_end's newMessages
// included, and the session file holds them whole too. The harness is
// tests/support/headlessrun.h.

#include "headlessrun.h"
#include "httptestserver.h"
#include "modelreplies.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QTest>
#include <testmain.h>

using namespace TestSupport;

namespace tst_headlesspaged {

namespace {

// About 100 KB of numbered lines.
QByteArray pagedListing(int index)
{
    QByteArray bytes;
    for (int line = 0; bytes.size() < 100 * 1024; ++line)
        bytes += QStringLiteral("listing %1 line %2 %3\n")
                     .arg(index)
                     .arg(line)
                     .arg(QString(48, QLatin1Char('y')))
                     .toUtf8();
    return bytes;
}

} // namespace

class tst_HeadlessPaged : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
    }

    void streamJsonCarriesWholeOutputs()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        QVERIFY(server.isListening());
        const ReplyApi api = ReplyApi::OpenAiChat;
        constexpr int reads = 4;
        for (int i = 0; i < reads; ++i) {
            const QString name = QStringLiteral("listing%1.txt").arg(i);
            QVERIFY(sandbox.write(name, pagedListing(i)));
            ScriptedResponse reply = scriptedReply(api,
                                                   {},
                                                   {{QStringLiteral("read_%1").arg(i),
                                                     QStringLiteral("Read"),
                                                     {{QStringLiteral("file_path"), name}}}});
            // The model takes its time, as a real one does: the run's earlier outputs are on
            // disk, and paged, before its next turn starts.
            reply.pieceDelayMs = 40;
            server.enqueue(reply);
        }
        server.enqueue(scriptedReply(api, QStringLiteral("Read them all.")));

        HeadlessRun run(sandbox,
                        server,
                        api,
                        {QStringLiteral("--output-format"), QStringLiteral("stream-json")},
                        QStringLiteral("Read the listings."));
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));

        const QList<QJsonObject> lines = run.jsonLines();
        QVERIFY2(!lines.isEmpty(), qPrintable(run.report()));
        QJsonArray newMessages;
        for (const QJsonObject &line : lines) {
            if (line.value(u"type").toString() == QLatin1String("agent_end"))
                newMessages = line.value(u"newMessages").toArray();
        }
        int results = 0;
        for (const QJsonValue &value : newMessages) {
            const QJsonObject message = value.toObject();
            QVERIFY(!message.contains(u"pagedChars"));
            if (message.value(u"role").toString() != QLatin1String("toolResult"))
                continue;
            ++results;
            const QString text
                = message.value(u"content").toArray().first()[QLatin1String("text")].toString();
            QVERIFY2(text.size() > 90'000, qPrintable(message.value(u"toolCallId").toString()));
        }
        QCOMPARE(results, reads);

        // The session file holds them whole: no stub was ever written.
        const QStringList sessions = sandbox.sessionFiles();
        QCOMPARE(sessions.size(), 1);
        QFile file(sessions.first());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QVERIFY(!bytes.contains("pagedChars"));
        QVERIFY(bytes.size() > reads * 100 * 1024);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessPaged)

} // namespace tst_headlesspaged

#include "tst_headlesspaged.moc"
