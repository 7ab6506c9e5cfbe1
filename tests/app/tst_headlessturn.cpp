// The time of a turn, end to end: what a sandboxed Bash command costs around the command
// itself, without giving up what the costlier way guaranteed.

#include "headlessrun.h"
#include "httptestserver.h"
#include "modelreplies.h"

#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QScopeGuard>
#include <QTest>
#include <testmain.h>

#include <signal.h>

using namespace TestSupport;

namespace tst_headlessturn {

namespace {

// Living processes (not zombies) whose command line is exactly \a commandLine, seen from
// here: a command's processes are in a pid namespace of their own, but /proc shows them too.
QList<qint64> processesRunning(const QByteArray &commandLine)
{
    QList<qint64> found;
    QDirIterator it(QStringLiteral("/proc"), QDir::Dirs | QDir::NoDotAndDotDot);
    while (it.hasNext()) {
        bool numeric = false;
        const qint64 pid = QFileInfo(it.next()).fileName().toLongLong(&numeric);
        if (!numeric)
            continue;
        QFile file(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        if (file.readAll().replace('\0', ' ').trimmed() == commandLine && isProcessRunning(pid))
            found.append(pid);
    }
    return found;
}

// The children of \a parent named \a name (their /proc/PID/comm).
QList<qint64> childrenNamed(qint64 parent, const QByteArray &name)
{
    QList<qint64> found;
    QDirIterator it(QStringLiteral("/proc"), QDir::Dirs | QDir::NoDotAndDotDot);
    while (it.hasNext()) {
        bool numeric = false;
        const qint64 pid = QFileInfo(it.next()).fileName().toLongLong(&numeric);
        if (!numeric)
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        QFile comm(QStringLiteral("/proc/%1/comm").arg(pid));
        if (!stat.open(QIODevice::ReadOnly) || !comm.open(QIODevice::ReadOnly))
            continue;
        const QByteArray text = stat.readAll();
        const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 1 && fields[1].toLongLong() == parent
            && comm.readAll().trimmed() == name)
            found.append(pid);
    }
    return found;
}

} // namespace

class tst_HeadlessTurn : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(agentdeskBinary()).isExecutable(), qPrintable(agentdeskBinary()));
    }

    // A sandboxed command needs no guard process (a copy of AgentDesk per command, 5-8 ms and
    // its memory again in the process tree): bwrap's --die-with-parent and the command's pid
    // namespace end it with AgentDesk, even after kill -9, background jobs and processes that
    // left the command's process group included.
    void sandboxedCommandsDieWithAgentDesk()
    {
        HeadlessSandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        const QByteArray background = "sleep 4711";
        const QByteArray escaped = "sleep 4712";
        const QByteArray foreground = "sleep 4713";
        server.enqueue(
            scriptedReply(api,
                          {},
                          {headlessBashCall(QString::fromLatin1(background + " & setsid " + escaped
                                                                + " & " + foreground))}));
        HeadlessRun run(sandbox,
                        server,
                        api,
                        {QStringLiteral("--permission-mode"),
                         QStringLiteral("bypass"),
                         QStringLiteral("--sandbox"),
                         QStringLiteral("required")});
        // A killed AgentDesk leaves its log folder for the next start to remove: not in /tmp.
        run.environment.insert(QStringLiteral("TMPDIR"), sandbox.home());
        run.start();
        const auto cleanUp = qScopeGuard([&] {
            for (const QByteArray &line : {background, escaped, foreground}) {
                for (const qint64 pid : processesRunning(line))
                    ::kill(pid_t(pid), SIGKILL); // only when the test failed
            }
        });
        QTRY_VERIFY_WITH_TIMEOUT(processesRunning(background).size() == 1
                                     && processesRunning(escaped).size() == 1
                                     && processesRunning(foreground).size() == 1,
                                 HeadlessTimeoutMs);
        const qint64 agentDesk = run.process.processId();
        QCOMPARE(childrenNamed(agentDesk, "bwrap").size(), 1); // it did run in the sandbox
        QCOMPARE(childrenNamed(agentDesk, "agentdesk-guard"), QList<qint64>{});

        QCOMPARE(::kill(pid_t(agentDesk), SIGKILL), 0);
        QVERIFY(run.finish());
        QCOMPARE(run.process.exitStatus(), QProcess::CrashExit);
        QTRY_VERIFY_WITH_TIMEOUT(processesRunning(background).isEmpty()
                                     && processesRunning(escaped).isEmpty()
                                     && processesRunning(foreground).isEmpty(),
                                 5000);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_HeadlessTurn)

} // namespace tst_headlessturn

#include "tst_headlessturn.moc"
