// Background commands (#38): Bash with run_in_background returns at once with a shell id, a
// real `python3 -m http.server` answers an HTTP request while BashOutput reads what it prints,
// KillShell ends its whole process group; the cap on running commands, the filter, the ring
// of kept output with the log beside it, what a command leaves behind, and the end of every
// command with BackgroundShells::stopAll() (the session's end).
#include "toolstest.h"

#include <testmain.h>
#include <tools/backgroundshells.h>
#include <tools/backgroundshelltools.h>
#include <tools/bashtool.h>

#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QTest>
#include <QThread>

using namespace AgentCore;

namespace tst_backgroundshells {

using ToolsTest::call;

namespace {

// Living (not zombie) processes whose process group is \a group, read from /proc.
QList<qint64> groupMembers(qint64 group)
{
    QList<qint64> members;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
    for (const QString &entry : entries) {
        bool number = false;
        const qint64 pid = entry.toLongLong(&number);
        if (!number)
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray text = stat.readAll();
        const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 2 && fields[2].toLongLong() == group && fields[0] != "Z"
            && fields[0] != "X")
            members.append(pid);
    }
    return members;
}

bool groupGone(qint64 group, int timeoutMs = 5000)
{
    QElapsedTimer clock;
    clock.start();
    while (!groupMembers(group).isEmpty()) {
        if (clock.elapsed() > timeoutMs)
            return false;
        QThread::msleep(20);
    }
    return true;
}

// What one HTTP GET of / on 127.0.0.1:\a port answered (its status line), or empty.
QByteArray httpGet(int port)
{
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), quint16(port));
    if (!socket.waitForConnected(5000))
        return {};
    socket.write("GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
    QByteArray answer;
    while (socket.waitForReadyRead(5000))
        answer += socket.readAll();
    return answer.left(answer.indexOf('\r'));
}

// One agent's tools over one repository, background commands in their own BackgroundShells.
struct Tools
{
    explicit Tools(int maxRunning = BackgroundShells::defaultMaxRunning)
        : shells(std::make_shared<BackgroundShells>(repo.workspace()->logDirectory(), maxRunning))
        , bash(repo.workspace(), shells)
        , output(shells)
        , kill(shells)
    {
        shells->setKillGracePeriod(1000);
    }
    ~Tools() { shells->stopAll(); }

    ToolResult background(const QString &command)
    {
        return call(bash, {{"command", command}, {"run_in_background", true}});
    }
    ToolResult read(const QString &id, const QString &filter = {})
    {
        QJsonObject arguments{{"bash_id", id}};
        if (!filter.isEmpty())
            arguments.insert(QStringLiteral("filter"), filter);
        return call(output, arguments);
    }
    // Reads until the output so far matches \a pattern; what was read, all of it.
    QString readUntil(const QString &id, const QRegularExpression &pattern, int timeoutMs = 10000)
    {
        QString all;
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < timeoutMs) {
            all += read(id).text() + QLatin1Char('\n');
            if (pattern.match(all).hasMatch())
                break;
            QThread::msleep(50);
        }
        return all;
    }

    ToolsTest::Repo repo;
    std::shared_ptr<BackgroundShells> shells;
    BashTool bash;
    BashOutputTool output;
    KillShellTool kill;
};

} // namespace

class tst_BackgroundShells : public QObject
{
    Q_OBJECT

private slots:
    // The server runs while the call has long returned: it answers a request, BashOutput shows
    // its lines, KillShell ends it and nothing of its group is left.
    void serverIsReadThenKilledAndLeavesNothing()
    {
        Tools tools;
        QVERIFY(tools.repo.isValid());
        QElapsedTimer clock;
        clock.start();
        const ToolResult started = tools.background(
            QStringLiteral("python3 -m http.server 0 --bind 127.0.0.1"));
        QVERIFY2(!started.isError, qPrintable(started.text()));
        QVERIFY2(clock.elapsed() < 5000, "the call waited for the command");
        QVERIFY2(started.text().contains(QLatin1String("shell bash_1")), qPrintable(started.text()));
        QCOMPARE(started.details.other.value(u"shellId").toString(), QStringLiteral("bash_1"));
        QVERIFY(started.details.other.value(u"running").toBool());
        const auto group = qint64(started.details.other.value(u"pid").toDouble());
        QVERIFY(group > 1);
        QVERIFY(!groupMembers(group).isEmpty());

        static const QRegularExpression serving(QStringLiteral("port (\\d+)"));
        // Said in the first moment, or read soon after.
        QString first = started.text();
        if (!serving.match(first).hasMatch())
            first += tools.readUntil(QStringLiteral("bash_1"), serving);
        const QRegularExpressionMatch port = serving.match(first);
        QVERIFY2(port.hasMatch(), qPrintable(first));
        QCOMPARE(httpGet(port.captured(1).toInt()), QByteArray("HTTP/1.0 200 OK"));
        const QString logged = tools.readUntil(QStringLiteral("bash_1"),
                                               QRegularExpression(QStringLiteral("GET / ")));
        QVERIFY2(logged.contains(QLatin1String("\"GET / HTTP/1.0\" 200")), qPrintable(logged));
        QVERIFY2(logged.contains(QLatin1String("is running")), qPrintable(logged));

        const ToolResult killed = call(tools.kill, {{"shell_id", "bash_1"}});
        QVERIFY2(!killed.isError, qPrintable(killed.text()));
        QVERIFY2(killed.text().startsWith(QLatin1String("Stopped shell bash_1")),
                 qPrintable(killed.text()));
        QVERIFY(groupGone(group, 1000));
        const ToolResult after = tools.read(QStringLiteral("bash_1"));
        QVERIFY2(after.text().contains(QLatin1String("has ended: stopped")),
                 qPrintable(after.text()));
        QCOMPARE(tools.shells->runningCount(), 0);
        // The log has what was printed.
        QFile log(after.details.logPath);
        QVERIFY(log.open(QIODevice::ReadOnly));
        QVERIFY(log.readAll().contains("GET / HTTP/1.0"));
    }

    // stopAll() (the session's end) ends every running command with its children.
    void stopAllEndsEveryGroup()
    {
        Tools tools;
        const ToolResult first = tools.background(QStringLiteral("sleep 300 & sleep 300"));
        const ToolResult second = tools.background(
            QStringLiteral("trap '' TERM; python3 -m http.server 0 --bind 127.0.0.1"));
        QVERIFY2(!first.isError && !second.isError, qPrintable(first.text() + second.text()));
        const auto one = qint64(first.details.other.value(u"pid").toDouble());
        const auto two = qint64(second.details.other.value(u"pid").toDouble());
        QTRY_COMPARE(groupMembers(one).size(), 3); // bash and two sleeps
        QVERIFY(!groupMembers(two).isEmpty());
        // The session's end does not wait a long grace for the one that ignores TERM.
        tools.shells->setKillGracePeriod(5000);
        QElapsedTimer clock;
        clock.start();
        tools.shells->stopAll();
        QVERIFY2(clock.elapsed() < BackgroundShells::stopAllGraceMs + 1500,
                 qPrintable(QString::number(clock.elapsed())));
        QVERIFY(groupGone(one, 100));
        QVERIFY(groupGone(two, 100));
        const QList<BackgroundShell> shells = tools.shells->shells();
        QCOMPARE(shells.size(), 2);
        QVERIFY(!shells[0].running && shells[0].stopped);
        QVERIFY(!shells[1].running && shells[1].stopped);
        // And nothing starts any more.
        const ToolResult late = tools.background(QStringLiteral("sleep 1"));
        QVERIFY(late.isError);
        QVERIFY2(late.text().contains(QLatin1String("ended with the session")),
                 qPrintable(late.text()));
    }

    // At most maxRunning at once; an ended one makes room.
    void capRefusesPastTheLimit()
    {
        Tools tools(2);
        QVERIFY(!tools.background(QStringLiteral("sleep 300")).isError);
        QVERIFY(!tools.background(QStringLiteral("sleep 300")).isError);
        const ToolResult third = tools.background(QStringLiteral("sleep 300"));
        QVERIFY(third.isError);
        QVERIFY2(third.text().contains(QLatin1String("2 background commands are running already")),
                 qPrintable(third.text()));
        QVERIFY2(third.text().contains(QLatin1String("KillShell")), qPrintable(third.text()));
        QVERIFY(!call(tools.kill, {{"shell_id", "bash_2"}}).isError);
        const ToolResult again = tools.background(QStringLiteral("sleep 300"));
        QVERIFY2(!again.isError, qPrintable(again.text()));
        QCOMPARE(again.details.other.value(u"shellId").toString(), QStringLiteral("bash_3"));
        QCOMPARE(tools.shells->runningCount(), 2);
    }

    // A command that ends within the first moment says how; one that fails is an error; what
    // it left running in its group is ended.
    void endedCommandsAndTheirLeftovers()
    {
        Tools tools;
        const ToolResult failed = tools.background(QStringLiteral("echo broken; exit 3"));
        if (failed.details.other.value(u"running").toBool()) {
            // A machine so busy that bash took longer than the first moment: BashOutput tells.
            const QString id = failed.details.other.value(u"shellId").toString();
            QTRY_VERIFY(!tools.shells->shell(id)->running);
            const QString read = failed.text() + tools.read(id).text();
            QVERIFY2(read.contains(QLatin1String("has ended: exit code 3"))
                         && read.contains(QLatin1String("broken")),
                     qPrintable(read));
        } else {
            QVERIFY(failed.isError);
            QVERIFY2(failed.text().contains(QLatin1String("already ended: exit code 3")),
                     qPrintable(failed.text()));
            QVERIFY2(failed.text().contains(QLatin1String("broken")), qPrintable(failed.text()));
        }

        const ToolResult left = tools.background(QStringLiteral("sleep 300 & echo started"));
        const auto group = qint64(left.details.other.value(u"pid").toDouble());
        QVERIFY(groupGone(group, 5000));
        const ToolResult read = tools.read(left.details.other.value(u"shellId").toString());
        QVERIFY2(read.text().contains(QLatin1String("exit code 0")), qPrintable(read.text()));
    }

    // The filter shows the matching new lines; the others are read all the same.
    void filterShowsMatchingLinesOnce()
    {
        Tools tools;
        const ToolResult started = tools.background(QStringLiteral(
            "sleep 0.7; for i in 1 2 3; do echo line$i; echo other; done; sleep 300"));
        QVERIFY(!started.isError);
        QVERIFY2(started.text().contains(QLatin1String("(no output yet)")),
                 qPrintable(started.text()));
        QTRY_VERIFY(tools.shells->shell(QStringLiteral("bash_1"))->totalBytes >= 30);
        const ToolResult filtered = tools.read(QStringLiteral("bash_1"), QStringLiteral("line[23]"));
        // The first line says what runs (its command line); the lines read follow.
        QCOMPARE(filtered.text().section(QLatin1Char('\n'), 1), QStringLiteral("line2\nline3"));
        const ToolResult nothing = tools.read(QStringLiteral("bash_1"));
        QVERIFY2(nothing.text().contains(QLatin1String("(no new output)")),
                 qPrintable(nothing.text()));
        const ToolResult invalid = tools.read(QStringLiteral("bash_1"), QStringLiteral("("));
        QVERIFY(invalid.isError);
    }

    // Output beyond the ring: the read says how much it no longer has, the log has it all.
    void ringKeepsTheLastMegabyteAndTheLogEverything()
    {
        Tools tools;
        const ToolResult started = tools.background(
            QStringLiteral("sleep 0.6; head -c 3000000 /dev/zero | tr '\\0' a; echo; echo end"));
        QVERIFY(!started.isError);
        QTRY_VERIFY_WITH_TIMEOUT(!tools.shells->shell(QStringLiteral("bash_1"))->running, 10000);
        const ToolResult read = tools.read(QStringLiteral("bash_1"));
        QVERIFY2(read.text().contains(QLatin1String("bytes of new output left out")),
                 qPrintable(read.text().left(300)));
        QVERIFY(read.text().endsWith(QLatin1String("end")));
        QVERIFY(read.text().size() < BashOutputTool::maxShownBytes + 1000);
        QCOMPARE(QFileInfo(read.details.logPath).size(), qint64(3000000 + 5));
        QCOMPARE(tools.shells->tail(QStringLiteral("bash_1"), 4), QByteArray("end\n"));
    }

    // The environment a foreground command gets: the provider's key is not in it.
    void environmentIsFilteredAsForBash()
    {
        qputenv("OPENAI_API_KEY", "sk-background-leak");
        const auto unset = qScopeGuard([] { qunsetenv("OPENAI_API_KEY"); });
        Tools tools;
        const ToolResult started = tools.background(
            QStringLiteral("echo \"key=[$OPENAI_API_KEY] python=[$PYTHONUNBUFFERED]\""));
        QString output = started.text();
        if (!output.contains(QLatin1String("key=")))
            output += tools.readUntil(QStringLiteral("bash_1"),
                                      QRegularExpression(QStringLiteral("key=")));
        QVERIFY2(output.contains(QLatin1String("key=[] python=[1]")), qPrintable(output));
        QVERIFY(started.details.other.value(u"removedVariables")
                    .toArray()
                    .contains(QStringLiteral("OPENAI_API_KEY")));
    }

    void wrongIdsAndMissingSupport()
    {
        Tools tools;
        const ToolResult unknown = tools.read(QStringLiteral("bash_9"));
        QVERIFY(unknown.isError);
        QVERIFY2(unknown.text().contains(QLatin1String("No background command was started")),
                 qPrintable(unknown.text()));
        QVERIFY(call(tools.kill, {{"shell_id", "bash_9"}}).isError);

        // A Bash without BackgroundShells neither offers nor takes the argument.
        BashTool plain(tools.repo.workspace());
        QVERIFY(!plain.definition()
                     .parameters.value(u"properties")
                     .toObject()
                     .contains(u"run_in_background"));
        QVERIFY(tools.bash.definition()
                    .parameters.value(u"properties")
                    .toObject()
                    .contains(u"run_in_background"));
        const ToolResult refused = call(plain,
                                        {{"command", "sleep 1"}, {"run_in_background", true}});
        QVERIFY(refused.isError);

        // Never on the overlay that reviews a command's writes.
        ToolCallContext context;
        context.toolName = QStringLiteral("Bash");
        context.tool = &tools.bash;
        context.arguments = {{"command", "sleep 300"}, {"run_in_background", true}};
        context.toolOptions.edit<BashOptions>().overlay = BashOptions::Overlay{QStringLiteral("/a"),
                                                                               QStringLiteral(
                                                                                   "/b")};
        const ToolResult overlaid = tools.bash.execute(context);
        QVERIFY(overlaid.isError);
        QVERIFY2(overlaid.text().contains(QLatin1String("overlay")), qPrintable(overlaid.text()));
        QCOMPARE(tools.shells->shells().size(), 0);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_BackgroundShells)

} // namespace tst_backgroundshells

#include "tst_backgroundshells.moc"
