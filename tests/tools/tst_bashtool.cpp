#include "toolstest.h"

#include <loop/agentloop.h>
#include <scriptedmodel.h>
#include <testmain.h>
#include <tools/bashtool.h>
#include <tools/toollogdirectory.h>

#include <QDirIterator>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <QMutex>
#include <QRegularExpression>
#include <QTest>

#include <thread>

#include <sys/stat.h>

using namespace AgentCore;
namespace tst_bashtool {

using ToolsTest::call;

namespace {

// State letter of /proc/PID/stat; 0 when the process does not exist.
char processState(qint64 pid, qint64 *group = nullptr)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray text = stat.readAll();
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    if (group)
        *group = fields.value(2).toLongLong();
    const QByteArray state = fields.value(0);
    return state.isEmpty() ? char(0) : state.at(0);
}

// A zombie has finished; it only waits for a parent (here possibly an init that never reaps).
bool isRunning(qint64 pid)
{
    const char state = processState(pid);
    return state != 0 && state != 'Z' && state != 'X';
}

QList<qint64> runningMembers(qint64 group)
{
    QList<qint64> members;
    QDirIterator it(QStringLiteral("/proc"), QDir::Dirs | QDir::NoDotAndDotDot);
    while (it.hasNext()) {
        bool numeric = false;
        const qint64 pid = QFileInfo(it.next()).fileName().toLongLong(&numeric);
        qint64 memberGroup = 0;
        if (numeric && processState(pid, &memberGroup) && memberGroup == group && isRunning(pid))
            members.append(pid);
    }
    return members;
}

int modeOf(const QString &path)
{
    struct stat info;
    return ::stat(QFile::encodeName(path).constData(), &info) == 0 ? int(info.st_mode & 07777) : -1;
}

// Sets variables of this process's environment for one test, restoring them afterwards.
class ScopedEnvironment
{
public:
    explicit ScopedEnvironment(const QStringList &assignments)
    {
        for (const QString &assignment : assignments) {
            const QByteArray name = assignment.section(QLatin1Char('='), 0, 0).toUtf8();
            m_saved.append({name, qgetenv(name.constData()), qEnvironmentVariableIsSet(name)});
            qputenv(name.constData(), assignment.section(QLatin1Char('='), 1).toUtf8());
        }
    }
    ~ScopedEnvironment()
    {
        for (const Saved &saved : std::as_const(m_saved)) {
            if (saved.wasSet)
                qputenv(saved.name.constData(), saved.value);
            else
                qunsetenv(saved.name.constData());
        }
    }

private:
    struct Saved
    {
        QByteArray name;
        QByteArray value;
        bool wasSet;
    };
    QList<Saved> m_saved;
};

// Runs the tool on a thread of its own, as the agent loop does, collecting its updates.
class Run
{
public:
    Run(BashTool &tool, const QJsonObject &args)
    {
        m_thread = std::thread([this, &tool, args] {
            m_result = call(tool, args, m_abort, [this](const ToolResult &partial) {
                QMutexLocker locker(&m_mutex);
                m_updates.append(partial);
            });
            m_done = true;
        });
    }
    ~Run()
    {
        m_abort.abort();
        m_thread.join();
    }

    QList<ToolResult> updates() const
    {
        QMutexLocker locker(&m_mutex);
        return m_updates;
    }
    QString output() const
    {
        const QList<ToolResult> all = updates();
        return all.isEmpty() ? QString() : all.last().text();
    }
    qint64 pid() const
    {
        const QList<ToolResult> all = updates();
        return all.isEmpty()
                   ? 0
                   : qint64(all.first().details.toJson().value(QLatin1String("pid")).toDouble());
    }
    qint64 childFromOutput() const
    {
        static const QRegularExpression child(QStringLiteral("child=(\\d+)"));
        return child.match(output()).captured(1).toLongLong();
    }
    void abort() { m_abort.abort(); }
    ToolResult wait()
    {
        m_thread.join();
        m_thread = std::thread([] {});
        return m_result;
    }
    bool isDone() const { return m_done; }

private:
    AbortToken m_abort;
    mutable QMutex m_mutex;
    QList<ToolResult> m_updates;
    ToolResult m_result;
    std::atomic_bool m_done = false;
    std::thread m_thread;
};

} // namespace

class tst_BashTool : public QObject
{
    Q_OBJECT

private slots:
    void output_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<bool>("isError");
        QTest::newRow("stdout and stderr") << "echo out; echo err >&2"
                                           << "out\nerr" << false;
        QTest::newRow("exit code") << "echo oops; exit 3"
                                   << "oops\nExit code 3" << true;
        QTest::newRow("no output") << "true"
                                   << "(no output)" << false;
        QTest::newRow("stdin is empty") << "cat; echo done"
                                        << "done" << false;
        QTest::newRow("signal") << "kill -9 $$"
                                << "(no output)\nCommand killed by signal 9." << true;
        QTest::newRow("utf-8") << "printf 'h\\303\\251llo\\n'"
                               << "héllo" << false;
    }

    void output()
    {
        QFETCH(QString, command);
        QFETCH(QString, expected);
        QFETCH(bool, isError);
        ToolsTest::Repo repo;
        BashTool tool(repo.workspace());
        const ToolResult result = call(tool, {{"command", command}});
        QCOMPARE(result.text(), expected);
        QCOMPARE(result.isError, isError);
    }

    void runsInTheRepository()
    {
        ToolsTest::Repo repo;
        BashTool tool(repo.workspace());
        const ToolResult result = call(tool, {{"command", "pwd; git rev-parse --show-toplevel"}});
        QCOMPARE(result.text(), repo.root() + QLatin1Char('\n') + repo.root());
        const QJsonObject details = result.details.toJson();
        QCOMPARE(details.value(QLatin1String("exitCode")).toInt(), 0);
        QVERIFY(details.value(QLatin1String("durationMs")).toDouble() >= 0);
        QVERIFY(!details.contains(QLatin1String("logPath")));
    }

    void streamsUpdates()
    {
        ToolsTest::Repo repo;
        BashTool tool(repo.workspace());
        Run run(tool, {{"command", "echo one; sleep 1; echo two"}});
        QTRY_VERIFY_WITH_TIMEOUT(run.output().contains(QLatin1String("one")), 5000);
        QVERIFY(!run.output().contains(QLatin1String("two")));
        QVERIFY(run.pid() > 0);
        const ToolResult result = run.wait();
        QCOMPARE(result.text(), QStringLiteral("one\ntwo"));
        // Throttled: a handful of updates, not one per byte.
        QVERIFY(run.updates().size() <= 8);
    }

    // The acceptance test of the issue: abort ends `sleep 100 & wait` and everything it started.
    void abortKillsTheGroup()
    {
        ToolsTest::Repo repo;
        BashTool tool(repo.workspace());
        Run run(tool, {{"command", "sleep 100 & echo child=$!; (sleep 100; echo never) & wait"}});
        QTRY_VERIFY_WITH_TIMEOUT(run.childFromOutput() > 0, 5000);
        const qint64 shell = run.pid();
        const qint64 child = run.childFromOutput();
        QVERIFY(isRunning(child));
        QTRY_COMPARE(runningMembers(shell).size(), 4); // bash, sleep, subshell, its sleep

        QElapsedTimer timer;
        timer.start();
        run.abort();
        const ToolResult result = run.wait();
        const qint64 elapsed = timer.elapsed();
        QVERIFY2(elapsed < 500, qPrintable(QStringLiteral("took %1 ms").arg(elapsed)));
        QVERIFY(!isRunning(child));
        QVERIFY(!isRunning(shell));
        QCOMPARE(runningMembers(shell), QList<qint64>{});
        QVERIFY(result.isError);
        QVERIFY(result.text().contains(QLatin1String("aborted")));
        QVERIFY(result.details.toJson().value(QLatin1String("aborted")).toBool());
    }

    // Stop in the middle of a command: the ticks it printed stay the result, marked as stopped,
    // and the model's next request carries them (not "Tool execution aborted.").
    void stopKeepsTheTicksForTheModel()
    {
        ToolsTest::Repo repo;
        auto bash = std::make_shared<BashTool>(repo.workspace());
        const QJsonObject args{
            {QStringLiteral("command"),
             QStringLiteral("for i in 1 2 3 4; do echo tick $i; done; sleep 30")}};
        auto model = std::make_shared<TestSupport::ScriptedModel>(
            QList{TestSupport::ModelStep::toolCall(QStringLiteral("b1"),
                                                   QStringLiteral("Bash"),
                                                   args),
                  TestSupport::ModelStep::text(QStringLiteral("I see four ticks."))});
        AgentLoopConfig config;
        config.model = model;
        AgentContext context;
        context.tools = {bash};
        AbortToken abort;
        qint64 pid = 0;
        const QList<Message> first
            = agentLoop({Message::makeUser(QStringLiteral("count"))},
                        context,
                        config,
                        abort,
                        [&](const AgentEvent &event) {
                            if (event.type == AgentEvent::Type::ToolExecutionUpdate
                                && event.result.text().contains(QLatin1String("tick 4"))) {
                                pid = event.result.details.other[QLatin1String("pid")].toInteger();
                                abort.abort(); // what the user saw: tick 1 to tick 4
                            }
                        });
        QCOMPARE(first.size(), 3);
        const Message stopped = first.at(2);
        QVERIFY(stopped.isToolResult());
        QVERIFY(stopped.isError);
        QVERIFY2(stopped.text().startsWith(QLatin1String("tick 1\ntick 2\ntick 3\ntick 4\n")),
                 qPrintable(stopped.text()));
        QVERIFY2(stopped.text().contains(QLatin1String("Stopped by the user")),
                 qPrintable(stopped.text()));
        QVERIFY(stopped.details.aborted);
        QVERIFY(pid > 0);
        QTRY_VERIFY_WITH_TIMEOUT(!isRunning(pid), 5000); // the command itself still ends

        AgentContext next = context;
        next.messages = QList{Message::makeUser(QStringLiteral("count"))} + first;
        agentLoop({Message::makeUser(QStringLiteral("what did you see?"))},
                  next,
                  config,
                  AbortToken(),
                  [](const AgentEvent &) {});
        QCOMPARE(model->callCount(), 2);
        QString seen;
        for (const Message &message : model->contexts().at(1).messages) {
            if (message.isToolResult())
                seen = message.text();
        }
        QCOMPARE(seen, stopped.text());
    }

    void timeoutKillsTheGroup()
    {
        ToolsTest::Repo repo;
        BashTool tool(repo.workspace());
        QElapsedTimer timer;
        timer.start();
        const ToolResult result = call(tool,
                                       {{"command", "sleep 100 & echo child=$!; wait"},
                                        {"timeout", 300}});
        QVERIFY(timer.elapsed() < 2000);
        QVERIFY(result.isError);
        QVERIFY2(result.text().contains(QLatin1String("timed out after 300 ms")),
                 qPrintable(result.text()));
        const QJsonObject details = result.details.toJson();
        QVERIFY(details.value(QLatin1String("timedOut")).toBool());
        const qint64 child = QRegularExpression(QStringLiteral("child=(\\d+)"))
                                 .match(result.text())
                                 .captured(1)
                                 .toLongLong();
        QVERIFY(child > 0);
        QVERIFY(!isRunning(child));
        QCOMPARE(runningMembers(qint64(details.value(QLatin1String("pid")).toDouble())),
                 QList<qint64>{});
    }

    void termIgnoredThenKill()
    {
        ToolsTest::Repo repo;
        BashTool tool(repo.workspace());
        tool.setKillGracePeriod(300);
        Run run(tool, {{"command", "trap '' TERM; sleep 100 & echo child=$!; wait; wait"}});
        QTRY_VERIFY_WITH_TIMEOUT(run.childFromOutput() > 0, 5000);
        const qint64 shell = run.pid();
        QElapsedTimer timer;
        timer.start();
        run.abort();
        run.wait();
        const qint64 elapsed = timer.elapsed();
        QVERIFY2(elapsed >= 250 && elapsed < 1500,
                 qPrintable(QStringLiteral("took %1 ms").arg(elapsed)));
        QCOMPARE(runningMembers(shell), QList<qint64>{});
    }

    void backgroundLeftoversAreTerminated()
    {
        ToolsTest::Repo repo;
        BashTool tool(repo.workspace());
        const ToolResult result = call(tool, {{"command", "sleep 100 & echo child=$!"}});
        QVERIFY(!result.isError);
        QVERIFY(result.text().contains(QLatin1String("left running in the background")));
        const qint64 child = QRegularExpression(QStringLiteral("child=(\\d+)"))
                                 .match(result.text())
                                 .captured(1)
                                 .toLongLong();
        QVERIFY(child > 0);
        QVERIFY(!isRunning(child));
    }

    void longOutputIsCappedWithFullLog()
    {
        ToolsTest::Repo repo;
        BashTool tool(repo.workspace());
        const ToolResult result = call(tool, {{"command", "seq 1 40000"}});
        QVERIFY(!result.isError);
        QByteArray full;
        for (int i = 1; i <= 40000; ++i)
            full += QByteArray::number(i) + '\n';
        const QJsonObject details = result.details.toJson();
        QVERIFY(details.value(QLatin1String("truncated")).toBool());
        QCOMPARE(qint64(details.value(QLatin1String("outputBytes")).toDouble()), full.size());
        const QString log = details.value(QLatin1String("logPath")).toString();
        QVERIFY(!log.isEmpty());
        QFile file(log);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), full);

        const QString text = result.text();
        QVERIFY(text.size() < BashTool::headBytes + BashTool::tailBytes + 300);
        QVERIFY(text.startsWith(QLatin1String("1\n2\n3\n")));
        QVERIFY(text.endsWith(QLatin1String("39999\n40000")));
        QVERIFY(text.contains(log));
        QVERIFY(text.contains(QStringLiteral("all %1 bytes").arg(full.size())));
    }

    // The full log: in the process's private folder (0700), under a name nobody can guess
    // beforehand, readable by the user alone (0600).
    void longOutputLogIsPrivate()
    {
        ToolsTest::Repo repo;
        auto workspace = std::make_shared<ToolWorkspace>(repo.root()); // the default folder
        BashTool tool(workspace);
        const ToolResult first = call(tool, {{"command", "seq 1 40000"}});
        const ToolResult second = call(tool, {{"command", "seq 1 40000"}});
        const QString log = first.details.toJson().value(QLatin1String("logPath")).toString();
        const QString other = second.details.toJson().value(QLatin1String("logPath")).toString();
        QVERIFY(!log.isEmpty());
        QCOMPARE(QFileInfo(log).path(), ToolLogDirectory::processDirectory());
        QCOMPARE(modeOf(QFileInfo(log).path()), 0700);
        QCOMPARE(modeOf(log), 0600);
        const QRegularExpression name(QStringLiteral("^bash-[A-Za-z0-9]{6}\\.log$"));
        QVERIFY2(name.match(QFileInfo(log).fileName()).hasMatch(), qPrintable(log));
        QVERIFY2(name.match(QFileInfo(other).fileName()).hasMatch(), qPrintable(other));
        QVERIFY(log != other);
        QFile::remove(log);
        QFile::remove(other);
    }

    void environmentHasNoSecrets_data()
    {
        QTest::addColumn<QStringList>("assignments");
        QTest::addColumn<QStringList>("visible");
        QTest::addColumn<QStringList>("hidden");
        const QString key = QStringLiteral("sk-unit-test-key-9876");
        QTest::newRow("provider keys")
            << QStringList{"OPENAI_API_KEY=" + key, "ANTHROPIC_API_KEY=sk-ant-unit-5432"}
            << QStringList{"PATH", "HOME"} << QStringList{key, "sk-ant-unit-5432"};
        QTest::newRow("named like secrets")
            << QStringList{"GITHUB_TOKEN=ghp-unit-1111",
                           "AWS_SECRET_ACCESS_KEY=aws-unit-2222",
                           "DB_PASSWORD=pw-unit-3333"}
            << QStringList{"PATH"} << QStringList{"ghp-unit-1111", "aws-unit-2222", "pw-unit-3333"};
        QTest::newRow("copy of a key")
            << QStringList{"OPENAI_API_KEY=" + key, "INNOCENT_NAME=" + key} << QStringList{}
            << QStringList{key, "INNOCENT_NAME"};
        QTest::newRow("terminal variables kept")
            << QStringList{"SSH_AUTH_SOCK=/run/user/1000/unit-ssh",
                           "DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/unit-bus",
                           "LANG=C.UTF-8"}
            << QStringList{"SSH_AUTH_SOCK=/run/user/1000/unit-ssh",
                           "DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/unit-bus",
                           "LANG=C.UTF-8"}
            << QStringList{};
    }

    void environmentHasNoSecrets()
    {
        QFETCH(QStringList, assignments);
        QFETCH(QStringList, visible);
        QFETCH(QStringList, hidden);
        const ScopedEnvironment scoped(assignments);
        ToolsTest::Repo repo;
        BashTool tool(repo.workspace());
        const ToolResult result = call(tool, {{"command", "env; printenv"}});
        QVERIFY2(!result.isError, qPrintable(result.text()));
        for (const QString &text : std::as_const(visible))
            QVERIFY2(result.text().contains(text), qPrintable(text));
        for (const QString &text : std::as_const(hidden))
            QVERIFY2(!result.text().contains(text), qPrintable(text));
    }

    void passedVariablesReachCommands()
    {
        const ScopedEnvironment scoped({"GH_TOKEN=gh-unit-4444", "RUN_KEY=run-unit-5555"});
        ToolsTest::Repo repo;
        CommandEnvironment environment;
        environment.setPassedPatterns({QStringLiteral("GH_TOKEN"), QStringLiteral("RUN_KEY")});
        environment.addSecretNames({QStringLiteral("RUN_KEY")});
        repo.workspace()->setCommandEnvironment(environment);
        BashTool tool(repo.workspace());
        const ToolResult result = call(tool, {{"command", "env"}});
        QVERIFY(result.text().contains(QLatin1String("GH_TOKEN=gh-unit-4444")));
        QVERIFY(!result.text().contains(QLatin1String("run-unit-5555")));
        const QJsonArray removed
            = result.details.toJson().value(QLatin1String("removedVariables")).toArray();
        QVERIFY(removed.contains(QStringLiteral("RUN_KEY")));
        QVERIFY(!removed.contains(QStringLiteral("GH_TOKEN")));
    }

    void abortedBeforeStart()
    {
        ToolsTest::Repo repo;
        BashTool tool(repo.workspace());
        AbortToken abort;
        abort.abort();
        const ToolResult result = call(tool, {{"command", "touch ran"}}, abort);
        QVERIFY(result.isError);
        QVERIFY(!QFile::exists(repo.path(QStringLiteral("ran"))));
    }

    void schema()
    {
        ToolsTest::Repo repo;
        BashTool tool(repo.workspace());
        QCOMPARE(tool.executionMode(), ExecutionMode::Sequential);
        QVERIFY(tool.hasSideEffects());
        const QJsonObject properties
            = tool.definition().parameters.value(QLatin1String("properties")).toObject();
        QCOMPARE(properties.value(QLatin1String("timeout"))
                     .toObject()
                     .value(QLatin1String("maximum"))
                     .toInt(),
                 BashTool::maxTimeoutMs);
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_BashTool)

} // namespace tst_bashtool

#include "tst_bashtool.moc"
