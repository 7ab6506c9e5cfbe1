// Network rules end to end (--print, the real binary and bwrap): a rule in the user's
// settings.json gives the one command it names the network in the sandbox; no other command
// gets it. And where bwrap cannot run, one stderr line says so, with what to do.

#include "headlessrun.h"
#include "httptestserver.h"
#include "modelreplies.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTest>
#include <testmain.h>

using namespace TestSupport;

namespace tst_headlessnetwork {

namespace {

constexpr ReplyApi api = ReplyApi::OpenAiChat;

bool writeFile(const QString &path, const QByteArray &bytes, bool executable = false)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        return false;
    file.close();
    return !executable
           || QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

} // namespace

class tst_HeadlessNetwork : public QObject
{
    Q_OBJECT

    PathWithoutBwrap m_noBwrap;

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
        QVERIFY(!QStandardPaths::findExecutable(QStringLiteral("bwrap")).isEmpty());
        QVERIFY(m_noBwrap.isValid());
    }

    void ruleInTheUsersSettingsGrantsTheNetwork()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        QTcpServer registry; // stands for the package registry: on this host's loopback
        QVERIFY(registry.listen(QHostAddress::LocalHost));
        const QByteArray script = QStringLiteral("#!/bin/bash\nexec 3<>/dev/tcp/127.0.0.1/%1 && "
                                                 "echo REACHED-$0\n")
                                      .arg(registry.serverPort())
                                      .toUtf8();
        QVERIFY(writeFile(sandbox.root() + QStringLiteral("/install.sh"), script, true));
        QVERIFY(writeFile(sandbox.root() + QStringLiteral("/exfiltrate.sh"), script, true));
        QVERIFY(writeFile(sandbox.home() + QStringLiteral("/.config/agentdesk/settings.json"),
                          "{\"permissions\": {\"network\": [\"Bash(./install.sh:*)\"]}}"));

        HttpTestServer server;
        server.enqueue(scriptedReply(api, {}, {headlessBashCall(QStringLiteral("./install.sh"))}));
        server.enqueue(
            scriptedReply(api, {}, {headlessBashCall(QStringLiteral("./exfiltrate.sh"))}));
        server.enqueue(scriptedReply(api, QStringLiteral("Done.")));
        HeadlessRun run(sandbox, server, api, headlessBypass({}));
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 3);
        const QByteArray afterInstall = server.requests().at(1).body;
        QVERIFY2(afterInstall.contains("REACHED-./install.sh"), afterInstall.constData());
        const QByteArray afterOther = server.requests().at(2).body;
        QVERIFY2(!afterOther.contains("REACHED-./exfiltrate.sh"), afterOther.constData());
        QVERIFY2(afterOther.contains("no network"), afterOther.constData());
    }

    // Without bwrap: exactly one line on stderr, with the reason and what to do.
    void unavailableIsOneClearLine()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        server.enqueue(scriptedReply(api, {}, {headlessBashCall(QStringLiteral("echo one"))}));
        server.enqueue(scriptedReply(api, {}, {headlessBashCall(QStringLiteral("echo two"))}));
        server.enqueue(scriptedReply(api, QStringLiteral("Done.")));
        HeadlessRun run(sandbox, server, api, headlessBypass({}));
        run.environment.insert(QStringLiteral("PATH"), m_noBwrap.path());
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QStringList lines;
        for (const QString &line : run.err.split(QLatin1Char('\n'))) {
            if (line.contains(QLatin1String("sandbox"), Qt::CaseInsensitive))
                lines.append(line);
        }
        QCOMPARE(lines.size(), 1);
        const QString &line = lines.first();
        QVERIFY2(line.contains(QLatin1String("warning: The sandbox for Bash is unavailable, so "
                                             "commands run without it")),
                 qPrintable(line));
        QVERIFY2(line.contains(QLatin1String("bubblewrap (bwrap) is not installed")),
                 qPrintable(line));
        QVERIFY2(line.contains(QLatin1String("sudo apt install bubblewrap")), qPrintable(line));
        QVERIFY2(line.contains(QLatin1String("--sandbox required")), qPrintable(line));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessNetwork)

} // namespace tst_headlessnetwork

#include "tst_headlessnetwork.moc"
