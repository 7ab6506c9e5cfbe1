// agentdesk --print end to end: the built binary, run with QProcess, against a scripted
// provider on 127.0.0.1 (HttpTestServer) speaking the real Chat Completions and Anthropic wire
// formats. The test thread's event loop serves the server while the process runs, so every
// wait spins it (QSignalSpy::wait, QTRY_*), never a blocking waitFor*.

#include "httptestserver.h"
#include "modelreplies.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <signal.h>

using namespace TestSupport;

Q_DECLARE_METATYPE(TestSupport::ReplyApi)

namespace {

const QString ApiKey = QStringLiteral("sk-test-headless-0123");
const QByteArray AgentsRule = "Answer in exactly three words (rule 7319).";
constexpr int ProcessTimeoutMs = 60'000;

/// A temporary git repository with notes.txt and AGENTS.md, and a home folder for the process
/// (settings, audit logs), so that nothing of the developer's own setup takes part.
class Sandbox
{
public:
    Sandbox()
    {
        m_ok = m_dir.isValid() && QDir().mkpath(m_dir.filePath(QStringLiteral("repo")))
               && QDir().mkpath(m_dir.filePath(QStringLiteral("home")));
        m_root = QFileInfo(m_dir.filePath(QStringLiteral("repo"))).canonicalFilePath();
        QProcess git;
        git.setWorkingDirectory(m_root);
        git.start(QStringLiteral("git"), {QStringLiteral("init"), QStringLiteral("-q")});
        m_ok = m_ok && git.waitForFinished(30'000) && git.exitCode() == 0
               && write(QStringLiteral("notes.txt"), "apple pie\n")
               && write(QStringLiteral("AGENTS.md"), "# Rules\n" + AgentsRule + '\n');
    }

    bool isValid() const { return m_ok; }
    QString root() const { return m_root; }
    QString home() const { return m_dir.filePath(QStringLiteral("home")); }

    bool write(const QString &relative, const QByteArray &content) const
    {
        QFile file(m_root + u'/' + relative);
        return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
               && file.write(content) == content.size();
    }
    QByteArray read(const QString &relative) const
    {
        QFile file(m_root + u'/' + relative);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
    }

private:
    QTemporaryDir m_dir;
    QString m_root;
    bool m_ok = false;
};

QString apiName(ReplyApi api)
{
    switch (api) {
    case ReplyApi::OpenAiChat:
        return QStringLiteral("openai");
    case ReplyApi::AnthropicMessages:
        return QStringLiteral("anthropic");
    case ReplyApi::OpenAiResponses:
        return QStringLiteral("openai-responses");
    }
    return {};
}

/// One agentdesk --print process.
class Headless
{
public:
    Headless(const Sandbox &sandbox,
             const HttpTestServer &server,
             ReplyApi api,
             const QStringList &extra,
             const QString &prompt = QStringLiteral("Fix the notes."))
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
            env.remove(QLatin1String(name)); // headless means no display at all
        env.insert(QStringLiteral("HOME"), sandbox.home());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), sandbox.home() + QStringLiteral("/.config"));
        env.insert(QStringLiteral("XDG_DATA_HOME"),
                   sandbox.home() + QStringLiteral("/.local/share"));
        env.insert(QStringLiteral("OPENAI_API_KEY"), ApiKey);
        env.insert(QStringLiteral("ANTHROPIC_API_KEY"), ApiKey);
        env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
        environment = env;

        arguments = QStringList{QStringLiteral("--print"),
                                prompt,
                                QStringLiteral("--repo"),
                                sandbox.root(),
                                QStringLiteral("--provider"),
                                apiName(api),
                                QStringLiteral("--base-url"),
                                api != ReplyApi::AnthropicMessages
                                    ? server.url(QStringLiteral("/v1")).toString()
                                    : server.url().toString(),
                                QStringLiteral("--model"),
                                QStringLiteral("test-model")}
                    + extra;
    }

    void start()
    {
        m_finished = std::make_unique<QSignalSpy>(&process, &QProcess::finished);
        process.setProcessEnvironment(environment);
        process.setStandardInputFile(stdinFile.isEmpty() ? QProcess::nullDevice() : stdinFile);
        process.start(QStringLiteral(AGENTDESK_BINARY), arguments);
    }

    /// Waits (serving the test server meanwhile) until the process ended.
    bool finish(int timeoutMs = ProcessTimeoutMs)
    {
        if (m_finished->isEmpty() && !m_finished->wait(timeoutMs))
            return false;
        out = process.readAllStandardOutput();
        err = QString::fromLocal8Bit(process.readAllStandardError());
        return true;
    }

    int exitCode() const
    {
        return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    }

    /// stdout as stream-json: one object per line; an empty list if a line is not one.
    QList<QJsonObject> jsonLines() const
    {
        QList<QJsonObject> lines;
        for (const QByteArray &line : out.split('\n')) {
            if (line.isEmpty())
                continue;
            QJsonParseError error;
            const QJsonDocument document = QJsonDocument::fromJson(line, &error);
            if (error.error != QJsonParseError::NoError || !document.isObject())
                return {};
            lines.append(document.object());
        }
        return lines;
    }

    QString report() const
    {
        return QStringLiteral("exit %1\n--- stdout\n%2\n--- stderr\n%3")
            .arg(process.exitCode())
            .arg(QString::fromUtf8(out.left(4000)), err.left(4000));
    }

    QProcessEnvironment environment;
    QStringList arguments;
    QString stdinFile; ///< empty: no input
    QProcess process;
    QByteArray out;
    QString err;

private:
    std::unique_ptr<QSignalSpy> m_finished;
};

ReplyToolCall readCall()
{
    return {QStringLiteral("call_read"),
            QStringLiteral("Read"),
            {{QStringLiteral("file_path"), QStringLiteral("notes.txt")}}};
}

ReplyToolCall editCall()
{
    return {QStringLiteral("call_edit"),
            QStringLiteral("Edit"),
            {{QStringLiteral("file_path"), QStringLiteral("notes.txt")},
             {QStringLiteral("old_string"), QStringLiteral("apple")},
             {QStringLiteral("new_string"), QStringLiteral("banana")}}};
}

ReplyToolCall bashCall(const QString &command)
{
    return {QStringLiteral("call_bash"),
            QStringLiteral("Bash"),
            {{QStringLiteral("command"), command}, {QStringLiteral("timeout"), 600'000}}};
}

// Every file under \a directory, for a look at what a run left on disk.
QByteArray allFilesUnder(const QString &directory)
{
    QByteArray all;
    QDirIterator it(directory, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile file(it.next());
        if (file.open(QIODevice::ReadOnly))
            all += file.readAll();
    }
    return all;
}

// 0 when the process does not exist; a zombie has ended, it only waits to be reaped.
bool isRunning(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (pid <= 0 || !stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = stat.readAll();
    const QByteArray state = text.mid(text.lastIndexOf(')') + 2, 1);
    return !state.isEmpty() && state != "Z" && state != "X";
}

QStringList sorted(QStringList list)
{
    list.sort();
    return list;
}

} // namespace

class tst_Headless : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(QStringLiteral(AGENTDESK_BINARY)).isExecutable(), AGENTDESK_BINARY);
    }

    void readThenEdit_data()
    {
        QTest::addColumn<ReplyApi>("api");
        QTest::addColumn<QString>("mode");
        QTest::addColumn<bool>("changed");
        QTest::newRow("openai acceptEdits") << ReplyApi::OpenAiChat << "acceptEdits" << true;
        QTest::newRow("anthropic acceptEdits")
            << ReplyApi::AnthropicMessages << "acceptEdits" << true;
        QTest::newRow("openai default") << ReplyApi::OpenAiChat << "default" << false;
        QTest::newRow("anthropic default") << ReplyApi::AnthropicMessages << "default" << false;
    }

    void readThenEdit()
    {
        QFETCH(ReplyApi, api);
        QFETCH(QString, mode);
        QFETCH(bool, changed);
        Sandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        QVERIFY(server.isListening());
        server.enqueue(scriptedReply(api, QStringLiteral("Reading."), {readCall()}));
        server.enqueue(scriptedReply(api, {}, {editCall()}));
        server.enqueue(scriptedReply(api, QStringLiteral("Done, it says banana now.")));

        Headless run(sandbox, server, api, {QStringLiteral("--permission-mode"), mode});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));

        QCOMPARE(run.out, QByteArray("Done, it says banana now.\n"));
        QCOMPARE(sandbox.read(QStringLiteral("notes.txt")),
                 changed ? QByteArray("banana pie\n") : QByteArray("apple pie\n"));
        QCOMPARE(server.requests().size(), 3);
        for (const RecordedRequest &request : server.requests()) {
            QCOMPARE(request.path, replyPath(api));
            QCOMPARE(api == ReplyApi::OpenAiChat ? request.header("authorization")
                                                 : request.header("x-api-key"),
                     api == ReplyApi::OpenAiChat ? "Bearer " + ApiKey.toUtf8() : ApiKey.toUtf8());
        }
        // The model saw the file, then the outcome of its Edit.
        QVERIFY(server.requests().at(1).body.contains("apple pie"));
        const QByteArray afterEdit = server.requests().at(2).body;
        QCOMPARE(afterEdit.contains("Permission denied"), !changed);
        // Tool activity goes to stderr, briefly.
        QVERIFY2(run.err.contains(QStringLiteral("> Read notes.txt")), qPrintable(run.report()));
        QVERIFY2(run.err.contains(QStringLiteral("> Edit notes.txt")), qPrintable(run.report()));
        if (!changed) {
            QVERIFY2(run.err.contains(QStringLiteral("Denied this Edit of notes.txt")),
                     qPrintable(run.report()));
        }
    }

    void bashRunsInBypassMode()
    {
        Sandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(
            scriptedReply(api,
                          {},
                          {{QStringLiteral("call_bash"),
                            QStringLiteral("Bash"),
                            {{QStringLiteral("command"),
                              QStringLiteral("echo made-by-bash > made.txt && cat made.txt")}}}}));
        server.enqueue(scriptedReply(api, QStringLiteral("Made it.")));

        Headless run(sandbox,
                     server,
                     api,
                     {QStringLiteral("--permission-mode"), QStringLiteral("bypass")});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(sandbox.read(QStringLiteral("made.txt")), QByteArray("made-by-bash\n"));
        QCOMPARE(server.requests().size(), 2);
        QVERIFY(server.requests().at(1).body.contains("made-by-bash"));
        QCOMPARE(run.out, QByteArray("Made it.\n"));
    }

    void bashAllowedByRule()
    {
        Sandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(
            scriptedReply(api,
                          {},
                          {{QStringLiteral("call_bash"),
                            QStringLiteral("Bash"),
                            {{QStringLiteral("command"), QStringLiteral("touch by-rule.txt")}}}}));
        server.enqueue(scriptedReply(api, QStringLiteral("Touched.")));

        Headless run(sandbox,
                     server,
                     api,
                     {QStringLiteral("--allowed-tools"),
                      QStringLiteral("Read, Bash(touch by-rule.txt)")});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QVERIFY2(QFileInfo::exists(sandbox.root() + QStringLiteral("/by-rule.txt")),
                 qPrintable(run.report()));
    }

    // Issue #14: in acceptEdits the agent wrote .agentdesk/settings.local.json granting bypass
    // and Bash, unasked, and the next run started in bypass.
    void agentCannotWidenItsPermissions()
    {
        Sandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        const QString grant = QStringLiteral(
            "{\"permissions\": {\"allow\": [\"Bash\"], \"defaultMode\": \"bypass\"}}");
        server.enqueue(scriptedReply(api,
                                     {},
                                     {{QStringLiteral("call_write"),
                                       QStringLiteral("Write"),
                                       {{QStringLiteral("file_path"),
                                         QStringLiteral(".agentdesk/settings.local.json")},
                                        {QStringLiteral("content"), grant}}}}));
        server.enqueue(scriptedReply(api, QStringLiteral("Settings changed.")));

        Headless run(sandbox,
                     server,
                     api,
                     {QStringLiteral("--permission-mode"), QStringLiteral("acceptEdits")});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(sandbox.read(QStringLiteral(".agentdesk/settings.local.json")),
                 QByteArray("<missing>"));
        QVERIFY2(run.err.contains(QStringLiteral("AgentDesk's own settings")),
                 qPrintable(run.report()));
        QVERIFY(server.requests().at(1).body.contains("Permission denied"));

        // Had it been written (say the user approved it in the window), the next start still
        // does not apply it unasked: it says what it ignored and how to accept it.
        QVERIFY(QDir(sandbox.root()).mkpath(QStringLiteral(".agentdesk")));
        QVERIFY(sandbox.write(QStringLiteral(".agentdesk/settings.local.json"), grant.toUtf8()));
        server.enqueue(scriptedReply(api, QStringLiteral("Hello.")));
        Headless next(sandbox,
                      server,
                      api,
                      {QStringLiteral("--output-format"), QStringLiteral("stream-json")});
        next.start();
        QVERIFY(next.finish());
        QVERIFY2(next.exitCode() == 0, qPrintable(next.report()));
        QList<QJsonObject> lines = next.jsonLines();
        QVERIFY2(!lines.isEmpty(), qPrintable(next.report()));
        QCOMPARE(lines.first().value(QLatin1String("permissionMode")).toString(),
                 QStringLiteral("default"));
        QVERIFY2(next.err.contains(QStringLiteral("defaultMode: bypass"))
                     && next.err.contains(QStringLiteral("allow: Bash"))
                     && next.err.contains(QStringLiteral("--trust-project-settings")),
                 qPrintable(next.report()));

        // Accepted on the command line, it applies.
        server.enqueue(scriptedReply(api, QStringLiteral("Hello.")));
        Headless trusted(sandbox,
                         server,
                         api,
                         {QStringLiteral("--output-format"),
                          QStringLiteral("stream-json"),
                          QStringLiteral("--trust-project-settings")});
        trusted.start();
        QVERIFY(trusted.finish());
        QVERIFY2(trusted.exitCode() == 0, qPrintable(trusted.report()));
        lines = trusted.jsonLines();
        QVERIFY2(!lines.isEmpty(), qPrintable(trusted.report()));
        QCOMPARE(lines.first().value(QLatin1String("permissionMode")).toString(),
                 QStringLiteral("bypass"));
        QVERIFY2(!trusted.err.contains(QStringLiteral("--trust-project-settings")),
                 qPrintable(trusted.report()));
    }

    // Issue #14: with --permission-mode default, a `Bash` allow rule in a project file still
    // let `touch ../outside` run; bypass wrote outside with `sed -i ../secret.txt`.
    void bashNeverWritesOutside_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("command");
        QTest::newRow("default + project Bash rule")
            << QStringList{QStringLiteral("--permission-mode"),
                           QStringLiteral("default"),
                           QStringLiteral("--trust-project-settings")}
            << "touch ../outside";
        QTest::newRow("bypass sed -i")
            << QStringList{QStringLiteral("--permission-mode"), QStringLiteral("bypass")}
            << "sed -i s/secret/leaked/ ../secret.txt";
        QTest::newRow("bypass redirection")
            << QStringList{QStringLiteral("--permission-mode"), QStringLiteral("bypass")}
            << "echo leaked > ../outside";
    }

    void bashNeverWritesOutside()
    {
        QFETCH(QStringList, options);
        QFETCH(QString, command);
        Sandbox sandbox;
        QVERIFY(sandbox.isValid());
        QVERIFY(QDir(sandbox.root()).mkpath(QStringLiteral(".agentdesk")));
        QVERIFY(sandbox.write(QStringLiteral(".agentdesk/settings.json"),
                              "{\"permissions\": {\"allow\": [\"Bash\"]}}"));
        QVERIFY(sandbox.write(QStringLiteral("../secret.txt"), "secret\n"));
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api,
                                     {},
                                     {{QStringLiteral("call_bash"),
                                       QStringLiteral("Bash"),
                                       {{QStringLiteral("command"), command}}}}));
        server.enqueue(scriptedReply(api, QStringLiteral("Done.")));

        Headless run(sandbox, server, api, options);
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QVERIFY2(!QFileInfo::exists(sandbox.root() + QStringLiteral("/../outside")),
                 qPrintable(run.report()));
        QCOMPARE(sandbox.read(QStringLiteral("../secret.txt")), QByteArray("secret\n"));
        QCOMPARE(server.requests().size(), 2);
        QVERIFY(server.requests().at(1).body.contains("Permission denied"));
    }

    // Plan mode offers the reading tools and Bash, whose read-only commands run (issue #15).
    void planModeRemovesSideEffectTools_data()
    {
        QTest::addColumn<ReplyApi>("api");
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QStringList>("tools");
        const QStringList all{"Bash", "Edit", "Glob", "Grep", "LS", "Read", "Write"};
        const QStringList readOnly{"Bash", "Glob", "Grep", "LS", "Read"};
        QTest::newRow("openai default") << ReplyApi::OpenAiChat << "default" << all;
        QTest::newRow("openai plan") << ReplyApi::OpenAiChat << "plan" << readOnly;
        QTest::newRow("anthropic plan") << ReplyApi::AnthropicMessages << "plan" << readOnly;
    }

    void planModeRemovesSideEffectTools()
    {
        QFETCH(ReplyApi, api);
        QFETCH(QString, mode);
        QFETCH(QStringList, tools);
        Sandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        server.enqueue(scriptedReply(api, QStringLiteral("Plan: rename apple.")));

        Headless run(sandbox, server, api, {QStringLiteral("--permission-mode"), mode});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 1);
        QCOMPARE(sorted(requestToolNames(api, server.requests().first().body)), tools);
    }

    void planModeRunsReadOnlyBash_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<bool>("runs");
        QTest::newRow("read-only") << "grep -n apple notes.txt | head -n 1" << true;
        QTest::newRow("changes a file") << "touch planned.txt" << false;
        QTest::newRow("writing redirection") << "cat notes.txt > planned.txt" << false;
    }

    // Issue #15: in plan mode the agent may look around with read-only commands; a command
    // that would change something is refused with the reason, and nothing changes.
    void planModeRunsReadOnlyBash()
    {
        QFETCH(QString, command);
        QFETCH(bool, runs);
        Sandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api,
                                     {},
                                     {{QStringLiteral("call_bash"),
                                       QStringLiteral("Bash"),
                                       {{QStringLiteral("command"), command}}}}));
        server.enqueue(scriptedReply(api, QStringLiteral("Plan: nothing to change.")));

        Headless run(sandbox,
                     server,
                     api,
                     {QStringLiteral("--permission-mode"), QStringLiteral("plan")});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 2);
        QVERIFY(server.requests().first().body.contains("only read-only commands"));
        const QByteArray result = server.requests().at(1).body;
        QVERIFY2(!QFileInfo::exists(sandbox.root() + QStringLiteral("/planned.txt")),
                 qPrintable(run.report()));
        if (runs) {
            QVERIFY2(result.contains("1:apple pie"), result.constData());
            QVERIFY2(!result.contains("Plan mode: only read-only commands run"), result.constData());
        } else {
            QVERIFY2(result.contains("Plan mode: only read-only commands run"), result.constData());
        }
    }

    void systemPromptCarriesAgentsMd_data()
    {
        QTest::addColumn<ReplyApi>("api");
        QTest::newRow("openai") << ReplyApi::OpenAiChat;
        QTest::newRow("anthropic") << ReplyApi::AnthropicMessages;
    }

    void systemPromptCarriesAgentsMd()
    {
        QFETCH(ReplyApi, api);
        Sandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        server.enqueue(scriptedReply(api, QStringLiteral("Three words here.")));

        Headless run(sandbox, server, api, {});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 1);
        const QByteArray body = server.requests().first().body;
        QVERIFY(body.contains(AgentsRule));
        QVERIFY(body.contains(QByteArray(sandbox.root().toUtf8() + "/AGENTS.md")));
        QVERIFY(body.contains("You are AgentDesk"));
    }

    void promptFromStandardInput()
    {
        Sandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api, QStringLiteral("Read it.")));
        const QString input = sandbox.home() + QStringLiteral("/prompt.txt");
        {
            QFile file(input);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("Summarise notes.txt (piped 5521).\n");
        }

        Headless run(sandbox, server, api, {}, QStringLiteral("-"));
        run.stdinFile = input;
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 1);
        QVERIFY(server.requests().first().body.contains("Summarise notes.txt (piped 5521)."));
    }

    void streamJson()
    {
        Sandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api, QStringLiteral("Reading."), {readCall()}));
        server.enqueue(scriptedReply(api, QStringLiteral("It says apple pie.")));

        Headless run(sandbox,
                     server,
                     api,
                     {QStringLiteral("--output-format"), QStringLiteral("stream-json")});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));

        const QList<QJsonObject> lines = run.jsonLines();
        QVERIFY2(!lines.isEmpty(), qPrintable(run.report()));
        QStringList types;
        for (const QJsonObject &line : lines)
            types.append(line.value(u"type").toString());
        QCOMPARE(types.first(), QStringLiteral("agent_start"));
        QCOMPARE(types.last(), QStringLiteral("agent_end"));
        QCOMPARE(types.count(QStringLiteral("agent_end")), 1);
        QCOMPARE(types.count(QStringLiteral("turn_start")), 2);
        QCOMPARE(types.count(QStringLiteral("tool_execution_start")), 1);
        QCOMPARE(types.count(QStringLiteral("tool_execution_end")), 1);
        QVERIFY(types.count(QStringLiteral("message_update")) >= 2);

        const QJsonObject start = lines.first();
        QCOMPARE(start.value(u"model").toString(), QStringLiteral("test-model"));
        QCOMPARE(start.value(u"permissionMode").toString(), QStringLiteral("default"));
        QCOMPARE(start.value(u"repository").toString(), sandbox.root());

        for (const QJsonObject &line : lines) {
            if (line.value(u"type").toString() == QLatin1String("message_update")) {
                QVERIFY(!line.value(u"event").toObject().value(u"type").toString().isEmpty());
                QVERIFY(!line.contains(u"message")); // compact: the delta only
            }
            if (line.value(u"type").toString() == QLatin1String("tool_execution_end")) {
                QCOMPARE(line.value(u"toolName").toString(), QStringLiteral("Read"));
                QCOMPARE(line.value(u"isError").toBool(), false);
            }
        }

        const QJsonObject end = lines.last();
        QCOMPARE(end.value(u"exitCode").toInt(-1), 0);
        const QJsonArray messages = end.value(u"newMessages").toArray();
        QStringList roles;
        for (const QJsonValue &message : messages)
            roles.append(message[QLatin1String("role")].toString());
        QCOMPARE(roles, (QStringList{"user", "assistant", "toolResult", "assistant"}));
        const QJsonObject answer = messages.last().toObject();
        for (const char *key : {"content", "stopReason", "providerStopReason", "usage"})
            QVERIFY2(answer.contains(QLatin1String(key)), key);
        QCOMPARE(answer.value(u"stopReason").toString(), QStringLiteral("stop"));
        QCOMPARE(answer.value(u"content").toArray().first().toObject().value(u"text").toString(),
                 QStringLiteral("It says apple pie."));
        const QJsonObject toolCall
            = messages.at(1).toObject().value(u"content").toArray().last().toObject();
        QCOMPARE(toolCall.value(u"type").toString(), QStringLiteral("toolCall"));
        QCOMPARE(toolCall.value(u"name").toString(), QStringLiteral("Read"));

        // The audit log named at the start recorded the call with its permission decision.
        QFile audit(start.value(u"auditLog").toString());
        QVERIFY2(audit.open(QIODevice::ReadOnly), qPrintable(audit.fileName()));
        const QList<QByteArray> auditLines = audit.readAll().trimmed().split('\n');
        QCOMPARE(auditLines.size(), 1);
        const QJsonObject entry = QJsonDocument::fromJson(auditLines.first()).object();
        QCOMPARE(entry.value(u"tool").toString(), QStringLiteral("Read"));
        QCOMPARE(entry.value(u"toolCallId").toString(), QStringLiteral("call_read"));
        QVERIFY2(entry.value(u"decision").toString().startsWith(QLatin1String("allow")),
                 auditLines.first().constData());
    }

    void exitCodes_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("reply"); // "text", "tool", "401", "" (no request expected)
        QTest::addColumn<bool>("withKey");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("errorText");

        QTest::newRow("natural end") << QStringList{} << "text" << true << 0 << QString();
        QTest::newRow("provider error")
            << QStringList{} << "401" << true << 1 << "the run failed: ";
        QTest::newRow("max turns") << QStringList{"--max-turns", "1"} << "tool" << true << 3
                                   << "stopped after 1 turn(s): the limit set with --max-turns.";
        QTest::newRow("bad option") << QStringList{"--permission-mode", "yolo"} << "" << true << 2
                                    << "Unknown permission mode \"yolo\"";
        QTest::newRow("missing repository") << QStringList{"--repo", "/nonexistent/agentdesk-repo"}
                                            << "" << true << 2 << "/nonexistent/agentdesk-repo";
        QTest::newRow("missing key for a remote server")
            << QStringList{"--base-url", "https://llm.example.invalid/v1"} << "" << false << 2
            << "No API key: OPENAI_API_KEY is not set.";
    }

    void exitCodes()
    {
        QFETCH(QStringList, extra);
        QFETCH(QString, reply);
        QFETCH(bool, withKey);
        QFETCH(int, exitCode);
        QFETCH(QString, errorText);
        Sandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        if (reply == QLatin1String("text"))
            server.enqueue(scriptedReply(api, QStringLiteral("Nothing to do.")));
        else if (reply == QLatin1String("tool"))
            server.enqueue(scriptedReply(api, {}, {readCall()}));
        else if (reply == QLatin1String("401"))
            server.enqueue(
                ScriptedResponse::error(401,
                                        "{\"error\":{\"message\":\"Incorrect API key "
                                        "provided\",\"type\":\"invalid_request_error\"}}"));

        Headless run(sandbox, server, api, extra);
        if (!withKey)
            run.environment.remove(QStringLiteral("OPENAI_API_KEY"));
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == exitCode, qPrintable(run.report()));
        if (!errorText.isEmpty())
            QVERIFY2(run.err.contains(errorText), qPrintable(run.report()));
        QCOMPARE(server.requests().size(), reply.isEmpty() ? 0 : 1);
        QCOMPARE(server.pendingResponses(), 0);
    }

    // Issue #14: 60,000 levels of nesting in a tool call's arguments took the process down
    // with SIGSEGV, and broken JSON came back to the model as a missing field. Either is now an
    // isError result the model reads, and the run goes on to a normal end.
    void unreadableToolArguments_data()
    {
        QTest::addColumn<ReplyApi>("api");
        QTest::addColumn<QByteArray>("arguments");
        QTest::addColumn<QByteArray>("result");
        const QByteArray deep = R"({"file_path":"notes.txt","x":)" + QByteArray(60'000, '[');
        const QByteArray deepResult = "The arguments of this Read call nest deeper than 512 levels";
        const QByteArray unquoted = R"({"file_path": notes.txt})";
        // Byte 15: "no" could still have been the start of null.
        const QByteArray unquotedResult
            = "The arguments of this Read call are not valid JSON: it goes wrong at byte 15";
        for (const auto &[name, api] : {std::pair{"openai", ReplyApi::OpenAiChat},
                                        std::pair{"anthropic", ReplyApi::AnthropicMessages},
                                        std::pair{"openai-responses", ReplyApi::OpenAiResponses}}) {
            QTest::addRow("%s: 60,000 levels", name) << api << deep << deepResult;
            QTest::addRow("%s: unquoted string", name) << api << unquoted << unquotedResult;
        }
    }

    void unreadableToolArguments()
    {
        QFETCH(ReplyApi, api);
        QFETCH(QByteArray, arguments);
        QFETCH(QByteArray, result);
        Sandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        QVERIFY(server.isListening());
        ReplyToolCall call = readCall();
        call.rawArguments = arguments;
        server.enqueue(scriptedReply(api, QStringLiteral("Reading."), {call}));
        server.enqueue(scriptedReply(api, QStringLiteral("Sorry, my arguments were broken.")));

        Headless run(sandbox, server, api, {});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(run.out, QByteArray("Sorry, my arguments were broken.\n"));
        QCOMPARE(server.requests().size(), 2);
        // The model read why its call was not run, and nothing of the file.
        const QByteArray next = server.requests().at(1).body;
        QVERIFY2(next.contains(result), next.left(4000).constData());
        QVERIFY(!next.contains("apple pie"));
        QVERIFY(!next.contains("is required"));
    }

    void providerErrorInStreamHidesTheKey_data()
    {
        QTest::addColumn<ReplyApi>("api");
        QTest::addColumn<QString>("format");
        QTest::addColumn<QByteArray>("errorEvent");
        const QByteArray openAi = "data: {\"error\":{\"message\":\"Incorrect API key provided: "
                                  + ApiKey.toUtf8()
                                  + ".\",\"type\":\"invalid_request_error\"}}\n\n";
        const QByteArray anthropic = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":"
                                     "\"authentication_error\",\"message\":\"invalid x-api-key "
                                     + ApiKey.toUtf8() + "\"}}\n\n";
        for (const char *format : {"text", "stream-json"}) {
            QTest::addRow("openai, %s", format) << ReplyApi::OpenAiChat << format << openAi;
            QTest::addRow("anthropic, %s", format)
                << ReplyApi::AnthropicMessages << format << anthropic;
        }
    }

    // An error event inside a 200 stream that echoes the key: neither what the user reads
    // (stderr, stream-json) nor any file the run wrote holds it.
    void providerErrorInStreamHidesTheKey()
    {
        QFETCH(ReplyApi, api);
        QFETCH(QString, format);
        QFETCH(QByteArray, errorEvent);
        Sandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        QList<QByteArray> events = stalledReply(api).pieces;
        events.append(errorEvent);
        server.enqueue(ScriptedResponse::sse(events));

        Headless run(sandbox, server, api, {QStringLiteral("--output-format"), format});
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 1, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 1);
        QVERIFY2(run.err.contains(QStringLiteral("the run failed: ")), qPrintable(run.report()));
        QVERIFY2(run.err.contains(QStringLiteral("[API key]")), qPrintable(run.report()));
        QVERIFY2(!run.err.contains(ApiKey), qPrintable(run.report()));
        QVERIFY2(!run.out.contains(ApiKey.toUtf8()), qPrintable(run.report()));
        if (format == QLatin1String("stream-json")) {
            const QList<QJsonObject> lines = run.jsonLines();
            QVERIFY2(!lines.isEmpty(), qPrintable(run.report()));
            const QJsonArray messages = lines.last().value(u"newMessages").toArray();
            QVERIFY(!messages.isEmpty());
            QVERIFY2(messages.last()[QLatin1String("errorMessage")].toString().contains(
                         QLatin1String("[API key]")),
                     qPrintable(run.report()));
        }
        QDirIterator files(sandbox.home(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (files.hasNext()) {
            QFile file(files.next());
            QVERIFY(file.open(QIODevice::ReadOnly));
            QVERIFY2(!file.readAll().contains(ApiKey.toUtf8()), qPrintable(file.fileName()));
        }
    }

    // Issue #14, 3(b): the key reached the model through `printenv` in every mode.
    void bashGetsNoProviderKey_data()
    {
        QTest::addColumn<ReplyApi>("api");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("keyVariable");
        QTest::addColumn<QString>("key");
        QTest::newRow("openai") << ReplyApi::OpenAiChat << QStringList() << "OPENAI_API_KEY"
                                << ApiKey;
        QTest::newRow("anthropic")
            << ReplyApi::AnthropicMessages << QStringList() << "ANTHROPIC_API_KEY" << ApiKey;
        QTest::newRow("--api-key-env")
            << ReplyApi::OpenAiChat << QStringList{"--api-key-env", "LLM_GATEWAY"} << "LLM_GATEWAY"
            << "gw-headless-key-4242";
    }

    void bashGetsNoProviderKey()
    {
        QFETCH(ReplyApi, api);
        QFETCH(QStringList, extra);
        QFETCH(QString, keyVariable);
        QFETCH(QString, key);
        Sandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        server.enqueue(scriptedReply(api, {}, {bashCall(QStringLiteral("printenv; env"))}));
        server.enqueue(scriptedReply(api, QStringLiteral("Seen.")));

        Headless run(sandbox,
                     server,
                     api,
                     QStringList{QStringLiteral("--permission-mode"),
                                 QStringLiteral("bypass"),
                                 QStringLiteral("--output-format"),
                                 QStringLiteral("stream-json")}
                         + extra);
        run.environment.insert(keyVariable, key);
        run.environment.insert(QStringLiteral("GITHUB_TOKEN"), QStringLiteral("ghp-headless-77"));
        run.environment.insert(QStringLiteral("INNOCENT_COPY"), key);
        run.environment.insert(QStringLiteral("SSH_AUTH_SOCK"), QStringLiteral("/run/test-ssh"));
        run.start();
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 2);
        // The key was used to call the provider ...
        QVERIFY(server.requests()
                    .at(0)
                    .header(api == ReplyApi::OpenAiChat ? "authorization" : "x-api-key")
                    .contains(key.toUtf8()));
        // ... and the command saw the user's environment, but no secret.
        const QByteArray seen = server.requests().at(1).body;
        QVERIFY2(seen.contains(QByteArray("HOME=" + sandbox.home().toUtf8())), seen.constData());
        QVERIFY(seen.contains("SSH_AUTH_SOCK=/run/test-ssh"));
        QVERIFY(seen.contains("PATH="));
        for (const QByteArray &secret :
             {key.toUtf8(), ApiKey.toUtf8(), QByteArray("ghp-headless-77")}) {
            QVERIFY2(!seen.contains(secret), secret.constData());
            QVERIFY2(!run.out.contains(secret), secret.constData());
            QVERIFY2(!allFilesUnder(sandbox.home()).contains(secret), secret.constData());
        }
        QVERIFY(!seen.contains("INNOCENT_COPY"));
        QVERIFY(!seen.contains(QByteArray(keyVariable.toUtf8() + '=')));
    }

    // Issue #14, item 10: kill -9 left the command's processes running.
    void bashProcessesDieWithAgentDesk()
    {
        Sandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        // A background sleep and a foreground one, each in a process of its own.
        server.enqueue(scriptedReply(api,
                                     {},
                                     {bashCall(QStringLiteral(
                                         "sleep 1000 & echo $! > first.pid; "
                                         "sh -c 'echo $$ > second.pid; exec sleep 1000'"))}));
        Headless run(sandbox,
                     server,
                     api,
                     {QStringLiteral("--permission-mode"), QStringLiteral("bypass")});
        // A killed AgentDesk leaves its log folder for the next start to remove: not in /tmp.
        run.environment.insert(QStringLiteral("TMPDIR"), sandbox.home());
        run.start();
        QList<qint64> sleeps;
        const auto cleanUp = qScopeGuard([&sleeps] {
            for (const qint64 pid : std::as_const(sleeps))
                ::kill(pid_t(pid), SIGKILL); // only when the test failed
        });
        const auto pidIn = [&sandbox](const char *file) {
            return sandbox.read(QString::fromLatin1(file)).trimmed().toLongLong();
        };
        QTRY_VERIFY_WITH_TIMEOUT(pidIn("first.pid") > 0 && pidIn("second.pid") > 0,
                                 ProcessTimeoutMs);
        sleeps = {pidIn("first.pid"), pidIn("second.pid")};
        QVERIFY(isRunning(sleeps[0]));
        QVERIFY(isRunning(sleeps[1]));

        QCOMPARE(::kill(pid_t(run.process.processId()), SIGKILL), 0);
        QVERIFY(run.finish());
        QCOMPARE(run.process.exitStatus(), QProcess::CrashExit);
        // A generous bound: the guard terminates them at once, with a grace period for TERM.
        QTRY_VERIFY_WITH_TIMEOUT(!isRunning(sleeps[0]) && !isRunning(sleeps[1]), 20'000);
    }

    // Issue #14, 3(b) and 10: full output logs in a private folder that goes at exit; the
    // folders of dead processes go at the next start.
    void toolLogsArePrivateAndRemoved()
    {
        Sandbox sandbox;
        QVERIFY(sandbox.isValid());
        const QString temp = sandbox.home() + QStringLiteral("/tmp");
        QVERIFY(QDir().mkpath(temp));
        QProcess gone;
        gone.start(QStringLiteral("true"), QStringList());
        QVERIFY(gone.waitForStarted());
        const qint64 dead = gone.processId(); // 0 once it has ended
        QVERIFY(dead > 0);
        QVERIFY(gone.waitForFinished());
        const QString stale = temp + QStringLiteral("/agentdesk-tool-logs-")
                              + QString::number(dead);
        const QString staleNew = stale + QStringLiteral("-Xy12Zq");
        const QString live = temp + QStringLiteral("/agentdesk-tool-logs-")
                             + QString::number(QCoreApplication::applicationPid())
                             + QStringLiteral("-Alive1");
        for (const QString &directory : {stale, staleNew, live})
            QVERIFY(QDir().mkpath(directory));
        QVERIFY(QFile(stale + QStringLiteral("/bash-20250101-120000-77-1.log"))
                    .open(QIODevice::WriteOnly));

        HttpTestServer server;
        const ReplyApi api = ReplyApi::OpenAiChat;
        server.enqueue(scriptedReply(api,
                                     {},
                                     {bashCall(QStringLiteral(
                                         "seq 1 40000; for d in \"$TMPDIR\"/agentdesk-tool-logs-*; "
                                         "do stat -c 'mode=%a %n' \"$d\"; done"))}));
        // The log of a command gets its name once the result names it: look at it afterwards.
        server.enqueue(
            scriptedReply(api,
                          {},
                          {bashCall(QStringLiteral(
                              "stat -c 'mode=%a %n' \"$TMPDIR\"/agentdesk-tool-logs-*/*"))}));
        server.enqueue(scriptedReply(api, QStringLiteral("Counted.")));
        Headless run(sandbox,
                     server,
                     api,
                     {QStringLiteral("--permission-mode"), QStringLiteral("bypass")});
        run.environment.insert(QStringLiteral("TMPDIR"), temp);
        run.start();
        const qint64 agentDeskPid = run.process.processId(); // 0 once it has ended
        QVERIFY(run.finish());
        QVERIFY2(run.exitCode() == 0, qPrintable(run.report()));
        QCOMPARE(server.requests().size(), 3);

        // What the command saw while it ran: the stale folders gone, its own private.
        const QByteArray body = server.requests().at(2).body;
        static const QRegularExpression line(QStringLiteral("mode=(\\d+) ([^\\\\\"]+)"));
        QMap<QString, QString> modes;
        for (auto it = line.globalMatch(QString::fromUtf8(body)); it.hasNext();) {
            const QRegularExpressionMatch match = it.next();
            modes.insert(match.captured(2).trimmed(), match.captured(1));
        }
        const QString own = temp + QStringLiteral("/agentdesk-tool-logs-")
                            + QString::number(agentDeskPid) + u'-';
        QString ownDirectory;
        QString log;
        for (auto it = modes.cbegin(); it != modes.cend(); ++it) {
            if (it.key().startsWith(own) && !it.key().contains(QLatin1String("/bash-")))
                ownDirectory = it.key();
            if (it.key().startsWith(own) && it.key().contains(QLatin1String("/bash-")))
                log = it.key();
        }
        QVERIFY2(!ownDirectory.isEmpty(), body.mid(body.lastIndexOf("39999"), 2000).constData());
        QCOMPARE(modes.value(ownDirectory), QStringLiteral("700"));
        QCOMPARE(modes.value(log), QStringLiteral("600"));
        QVERIFY2(QRegularExpression(QStringLiteral("/bash-[A-Za-z0-9]{6}\\.log$"))
                     .match(log)
                     .hasMatch(),
                 qPrintable(log));
        QVERIFY2(body.contains(log.toUtf8()), "the result names the full log");
        QVERIFY(!modes.contains(stale));
        QVERIFY(!modes.contains(staleNew));
        QVERIFY(modes.contains(live)); // this test process still runs

        // After a normal exit, only the folder of the process that still runs is left.
        QVERIFY(!QFileInfo::exists(ownDirectory));
        QVERIFY(!QFileInfo::exists(stale));
        QVERIFY(QFileInfo::exists(live));
        QCOMPARE(QDir(temp).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 QStringList{QFileInfo(live).fileName()});
    }

    void sigintDuringStalledStream_data()
    {
        QTest::addColumn<ReplyApi>("api");
        QTest::newRow("openai") << ReplyApi::OpenAiChat;
        QTest::newRow("anthropic") << ReplyApi::AnthropicMessages;
    }

    void sigintDuringStalledStream()
    {
        QFETCH(ReplyApi, api);
        Sandbox sandbox;
        QVERIFY(sandbox.isValid());
        HttpTestServer server;
        server.enqueue(stalledReply(api));
        QSignalSpy stalled(&server, &HttpTestServer::responseFinished);

        Headless run(sandbox,
                     server,
                     api,
                     {QStringLiteral("--output-format"), QStringLiteral("stream-json")});
        run.start();
        // The provider sent the start of its answer and hangs.
        QVERIFY(stalled.wait(ProcessTimeoutMs));
        QElapsedTimer timer;
        timer.start();
        QCOMPARE(::kill(pid_t(run.process.processId()), SIGINT), 0);
        QVERIFY2(run.finish(10'000), "agentdesk did not end after SIGINT");
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));

        QVERIFY2(run.exitCode() == 130, qPrintable(run.report()));
        QVERIFY2(run.err.contains(QStringLiteral("interrupted")), qPrintable(run.report()));
        const QList<QJsonObject> lines = run.jsonLines();
        QVERIFY2(!lines.isEmpty(), qPrintable(run.report()));
        QCOMPARE(lines.last().value(u"type").toString(), QStringLiteral("agent_end"));
        QCOMPARE(lines.last().value(u"exitCode").toInt(), 130);
        const QJsonArray messages = lines.last().value(u"newMessages").toArray();
        QVERIFY(!messages.isEmpty());
        QCOMPARE(messages.last()[QLatin1String("stopReason")].toString(), QStringLiteral("aborted"));
    }
};

QTEST_GUILESS_MAIN(tst_Headless)
#include "tst_headless.moc"
