// What a sandboxed command of the real `agentdesk --print` (bypass mode: nothing asks, the
// sandbox is what stops it) can reach of the user's files: AgentDesk's data folder around a
// repository inside it, the home but for its allow-list and the settings' extra paths, Unix
// sockets outside the sandbox; and a link out of the repository, which Read does not follow.
// The home lies outside /tmp (the sandbox's /tmp is private: a home there would prove nothing).

#include "headlessrun.h"
#include "httptestserver.h"
#include "modelreplies.h"
#include "sandboxtest.h"
#include "testfiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalServer>
#include <QLocalSocket>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>
#include <testmain.h>

#include <memory>

using namespace TestSupport;

namespace tst_headlesssandboxhome {

namespace {

constexpr ReplyApi api = ReplyApi::OpenAiChat;

// The run's home (and XDG folders) in \a home.
void useHome(HeadlessRun &run, const QString &home)
{
    run.environment.insert(QStringLiteral("HOME"), home);
    run.environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/.config"));
    run.environment.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/.local/share"));
}

// Whatever clients sent the listener \a server within \a ms.
QByteArray received(QLocalServer &server, int ms)
{
    QByteArray bytes;
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < ms) {
        if (!server.waitForNewConnection(50))
            continue;
        while (QLocalSocket *client = server.nextPendingConnection()) {
            client->waitForReadyRead(200);
            bytes += client->readAll();
            delete client;
        }
    }
    return bytes;
}

// The text of the tool results in the chat request \a body (what the model was told).
QString toolResults(const QByteArray &body)
{
    QString text;
    const QJsonArray messages = QJsonDocument::fromJson(body).object().value(u"messages").toArray();
    for (const QJsonValue &message : messages) {
        if (message[u"role"].toString() == QLatin1String("tool"))
            text += message[u"content"].toString();
    }
    return text;
}

} // namespace

class tst_HeadlessSandboxHome : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
        QVERIFY(!QStandardPaths::findExecutable(QStringLiteral("bwrap")).isEmpty());
        QVERIFY(QFileInfo(QStringLiteral("/usr/bin/python3")).isExecutable());
    }

    // The window's session worktrees live in AgentDesk's data folder: a command run in one
    // lists and reads nothing else there (other sessions, audit logs, checkpoint stores). The
    // command finds the folder without naming it (a command naming it asks, as one that
    // changes AgentDesk's settings might).
    void repositoryInTheDataFolderSeesNothingElseThere()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        OutsideDir home;
        const QString data = home.file(QStringLiteral(".local/share/AgentDesk/agentdesk"));
        const QString dataRelative = QStringLiteral(".local/share/AgentDesk/agentdesk/");
        QVERIFY(home.write(dataRelative + QStringLiteral("sessions/other/s.jsonl"),
                           "OTHER-SESSION-TEXT"));
        QVERIFY(home.write(dataRelative + QStringLiteral("audit/old.jsonl"), "AUDIT-LOG-TEXT"));
        QVERIFY(home.write(dataRelative + QStringLiteral("checkpoints/x/objects/1"),
                           "CHECKPOINT-TEXT"));
        const QString root = data + QStringLiteral("/worktrees/mine");
        QVERIFY(gitInit(root));
        HttpTestServer server;
        server.enqueue(scriptedReply(
            api,
            {},
            {headlessBashCall(QStringLiteral(
                "d=$(dirname \"$(dirname \"$PWD\")\"); echo files=$(find $d -type f "
                "2>/dev/null | grep -v /worktrees/mine/ | wc -l); cat $d/sessions/*/* "
                "$d/audit/* $d/checkpoints/*/*/* 2>/dev/null; echo done"))}));
        server.enqueue(scriptedReply(api, QStringLiteral("Done.")));
        HeadlessRun run(sandbox, server, api, headlessBypass({}));
        useHome(run, home.path());
        run.arguments[run.arguments.indexOf(QStringLiteral("--repo")) + 1] = root;
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 2);
        const QString seen = toolResults(server.requests().at(1).body);
        QVERIFY2(seen == QLatin1String("files=0\ndone"), qPrintable(seen));
        for (const char *secret : {"OTHER-SESSION-TEXT", "AUDIT-LOG-TEXT", "CHECKPOINT-TEXT"})
            QVERIFY2(!server.requests().at(1).body.contains(secret), qPrintable(seen));
        // The run kept its own session and audit log there, outside the sandbox.
        QVERIFY(QFileInfo(data + QStringLiteral("/sessions")).isDir());
    }

    // The home is hidden but for what commands need and the user's extra paths
    // ("sandboxReadable" in the user's settings file, not the repository's); a listener on a
    // Unix socket in the home and in /run gets nothing.
    void homeIsAnAllowListAndSocketsAreOutOfReach()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        OutsideDir home;
        QVERIFY(home.write(QStringLiteral(".pgpass"), "PGPASS-SECRET"));
        QVERIFY(home.write(QStringLiteral(".vault-token"), "VAULT-SECRET"));
        QVERIFY(home.write(QStringLiteral(".bash_history"), "HISTORY-SECRET"));
        QVERIFY(home.write(QStringLiteral(".mozilla/firefox/p.default/cookies.sqlite"),
                           "COOKIE-SECRET"));
        QVERIFY(home.write(QStringLiteral("projects/other/.env"), "DOTENV-SECRET"));
        QVERIFY(home.write(QStringLiteral(".gitconfig"), "[user]\n\tname = Home Tester\n"));
        QVERIFY(home.write(QStringLiteral(".cargo/bin/tool"), "TOOLCHAIN-VISIBLE"));
        QVERIFY(home.write(QStringLiteral("shared/notes.txt"), "EXTRA-VISIBLE"));
        QVERIFY(home.write(QStringLiteral(".config/agentdesk/settings.json"),
                           R"({"permissions": {"sandboxReadable": ["~/shared"]}})"));
        // A repository's settings cannot show itself the user's files.
        QVERIFY(QDir().mkpath(sandbox.root() + QStringLiteral("/.agentdesk")));
        QVERIFY(sandbox.write(QStringLiteral(".agentdesk/settings.json"),
                              R"({"permissions": {"sandboxReadable": ["~/projects/other"]}})"));
        const QString socketPath = home.file(QStringLiteral("agent.sock"));
        QLocalServer inHome;
        QVERIFY(inHome.listen(socketPath));
        QLocalServer inRun;
        std::unique_ptr<QTemporaryDir> runFolder;
        if (QFileInfo(QStringLiteral("/run")).isWritable()) {
            runFolder = std::make_unique<QTemporaryDir>(
                QStringLiteral("/run/agentdesk-test-XXXXXX"));
            QVERIFY(inRun.listen(runFolder->filePath(QStringLiteral("s.sock"))));
        }
        QString connect;
        for (const QString &path : {socketPath, inRun.fullServerName()}) {
            if (path.isEmpty())
                continue;
            connect += QStringLiteral("/usr/bin/python3 -c 'import socket,sys\n"
                                      "s=socket.socket(socket.AF_UNIX)\n"
                                      "try:\n  s.connect(sys.argv[1]); s.sendall(b\"HELLO\\n\"); "
                                      "print(\"sent\")\n"
                                      "except OSError:\n  print(\"refused\")' %1; ")
                           .arg(path);
        }
        HttpTestServer server;
        server.enqueue(
            scriptedReply(api,
                          {},
                          {headlessBashCall(
                              QStringLiteral("cd ~ && cat .pgpass .vault-token .bash_history "
                                             ".mozilla/firefox/p.default/cookies.sqlite "
                                             "projects/other/.env 2>/dev/null; git config -f "
                                             ".gitconfig user.name; cat .cargo/bin/tool "
                                             "shared/notes.txt; echo; ")
                              + connect + QStringLiteral("echo done"))}));
        server.enqueue(scriptedReply(api, QStringLiteral("Done.")));
        HeadlessRun run(sandbox, server, api, headlessBypass({}));
        useHome(run, home.path());
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 2);
        const QString seen = toolResults(server.requests().at(1).body);
        QVERIFY2(seen.startsWith(QLatin1String("Home Tester\nTOOLCHAIN-VISIBLEEXTRA-VISIBLE\n")),
                 qPrintable(seen));
        for (const char *secret : {"PGPASS", "VAULT", "HISTORY", "COOKIE", "DOTENV"})
            QVERIFY2(!server.requests().at(1).body.contains(secret), qPrintable(seen));
        QVERIFY2(!seen.contains(QLatin1String("sent")), qPrintable(seen));
        QCOMPARE(seen.count(QLatin1String("refused")), runFolder ? 2 : 1);
        QVERIFY2(seen.endsWith(QLatin1String("done")), qPrintable(seen));
        QVERIFY(received(inHome, 300).isEmpty());
        if (runFolder)
            QVERIFY(received(inRun, 100).isEmpty());
    }

    // Bypass reads outside the repository unasked, but a link in the repository that leads
    // out of it is not followed: the model gets the refusal, not the file.
    void bypassReadOfALinkOutIsRefused()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        const QString secret = sandbox.home() + QStringLiteral("/secret.txt");
        QFile file(secret);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("LINKED-SECRET-TEXT\n");
        file.close();
        QVERIFY(QFile::link(secret, sandbox.root() + QStringLiteral("/innocent.txt")));
        HttpTestServer server;
        server.enqueue(scriptedReply(api,
                                     {},
                                     {ReplyToolCall{QStringLiteral("call_read"),
                                                    QStringLiteral("Read"),
                                                    {{QStringLiteral("file_path"),
                                                      QStringLiteral("innocent.txt")}}}}));
        server.enqueue(scriptedReply(api, QStringLiteral("Done.")));
        HeadlessRun run(sandbox, server, api, headlessBypass({}));
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 2);
        QVERIFY(!server.requests().at(1).body.contains("LINKED-SECRET-TEXT"));
        const QString seen = toolResults(server.requests().at(1).body);
        QVERIFY2(seen.contains(QLatin1String("symbolic link")), qPrintable(seen));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessSandboxHome)

} // namespace tst_headlesssandboxhome

#include "tst_headlesssandboxhome.moc"
