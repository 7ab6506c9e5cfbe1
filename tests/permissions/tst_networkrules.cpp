// Network rules: the Bash commands that get the network in the sandbox though its network
// switch is off (`Bash(npm install:*)`), from the user's settings only; what the review shows;
// and, with the real bwrap, that such a command reaches a server and no other does.

#include "../tools/toolstest.h"

#include <permissions/networkrules.h>
#include <permissions/permissionmiddleware.h>
#include <permissions/permissionsettings.h>
#include <permissions/projecttrust.h>
#include <testmain.h>
#include <tools/codingtools.h>
#include <tools/sandboxprobe.h>

#include <QJsonDocument>
#include <QMutex>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace AgentCore;

namespace tst_networkrules {

namespace {

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
           && file.write(bytes) == bytes.size();
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

PermissionRule rule(const QString &text)
{
    return *PermissionRule::parse(text, PermissionBehavior::Allow);
}

QStringList texts(const QList<PermissionRule> &rules)
{
    QStringList result;
    for (const PermissionRule &rule : rules)
        result.append(rule.toString());
    return result;
}

/// Keeps what it was asked; answers with \a choice.
class RecordingAsker final : public PermissionAsker
{
public:
    std::optional<PermissionAnswer> ask(const PermissionRequest &request,
                                        const AbortToken &) override
    {
        QMutexLocker locker(&m_mutex);
        m_requests.append(request);
        PermissionAnswer answer;
        answer.choice = choice;
        return answer;
    }
    QList<PermissionRequest> requests() const
    {
        QMutexLocker locker(&m_mutex);
        return m_requests;
    }
    PermissionAnswer::Choice choice = PermissionAnswer::Choice::AllowOnce;

private:
    mutable QMutex m_mutex;
    QList<PermissionRequest> m_requests;
};

/// The coding tools on a repository in the sandbox (network off) behind the middleware.
class Harness
{
public:
    explicit Harness(PermissionMode mode)
    {
        policy = std::make_shared<PermissionPolicy>(repo.root(), mode);
        SandboxPolicy sandbox;
        sandbox.mode = SandboxMode::On;
        repo.workspace()->setSandboxPolicy(sandbox);
        for (const AgentToolPtr &tool : CodingTools::create(repo.workspace()))
            tools.insert(tool->definition().name, tool);
        gate.policy = policy;
        gate.asker = asker;
        gate.workspace = repo.workspace();
        gate.bash = std::make_shared<BashAnalyzer>(repo.root(), QStringLiteral("-"));
        gate.alwaysAllowSettingsPath = PermissionSettings::projectLocalSettingsPath(repo.root());
        middleware = makePermissionMiddleware(gate);
    }

    ToolResult bash(const QString &command, QString *decision = nullptr)
    {
        ToolCallContext context;
        context.toolCallId = QStringLiteral("call_bash");
        context.toolName = QStringLiteral("Bash");
        context.arguments = {{"command", command}};
        const AgentToolPtr tool = tools.value(QStringLiteral("Bash"));
        context.tool = tool.get();
        const ToolResult result = middleware(context, [tool](ToolCallContext &context) {
            return tool->execute(context);
        });
        if (decision)
            *decision = context.permissionDecision;
        return result;
    }

    ToolsTest::Repo repo;
    std::shared_ptr<PermissionPolicy> policy;
    std::shared_ptr<RecordingAsker> asker = std::make_shared<RecordingAsker>();
    QHash<QString, AgentToolPtr> tools;
    PermissionGate gate;
    ToolMiddleware middleware;
};

} // namespace

class tst_NetworkRules : public QObject
{
    Q_OBJECT

private slots:
    // Which commands a set of rules gives the network: all of a command that is not
    // read-only must be covered, without assignments that could change what runs.
    void granting_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("granted"); // the rule, or empty

        QTest::newRow("exact prefix") << "npm install"
                                      << "Bash(npm install:*)";
        QTest::newRow("with a package") << "npm install lodash"
                                        << "Bash(npm install:*)";
        QTest::newRow("pip") << "pip install -r requirements.txt"
                             << "Bash(pip install:*)";
        QTest::newRow("read-only parts pass") << "cd web && npm install"
                                              << "Bash(npm install:*)";
        QTest::newRow("every part covered") << "npm install && pip install x"
                                            << "Bash(npm install:*)";
        QTest::newRow("another command joins") << "npm install && curl -s x | sh"
                                               << "";
        QTest::newRow("assignment") << "NODE_OPTIONS=--require=x npm install"
                                    << "";
        QTest::newRow("another subcommand") << "npm test"
                                            << "";
        QTest::newRow("only a prefix of a word") << "npm installer"
                                                 << "";
        QTest::newRow("read-only only: no network needed") << "ls -la"
                                                           << "";
        QTest::newRow("not understood") << "for p in a b; do npm install $p; done"
                                        << "";
        QTest::newRow("substitution inside") << "npm install $(curl -s x)"
                                             << "";
    }
    void granting()
    {
        QFETCH(QString, command);
        QFETCH(QString, granted);
        QTemporaryDir dir;
        const QString root = QFileInfo(dir.path()).canonicalFilePath();
        const BashAnalysis analysis = BashAnalyzer(root, QStringLiteral("-")).analyze(command);
        const QList<PermissionRule> rules{rule(QStringLiteral("Bash(npm install:*)")),
                                          rule(QStringLiteral("Bash(pip install:*)"))};
        const std::optional<PermissionRule> found = NetworkRules::granting(rules, analysis);
        QCOMPARE(found ? found->toString() : QString(), granted);
        // Without rules nothing gets the network, and `Bash` alone is every command.
        QVERIFY(!NetworkRules::granting({}, analysis));
        const bool needsNetwork = analysis.understood
                                  && std::any_of(analysis.commands.cbegin(),
                                                 analysis.commands.cend(),
                                                 [](const SimpleCommand &c) {
                                                     return !c.readOnly && c.assignments.isEmpty();
                                                 })
                                  && std::all_of(analysis.commands.cbegin(),
                                                 analysis.commands.cend(),
                                                 [](const SimpleCommand &c) {
                                                     return c.readOnly || c.assignments.isEmpty();
                                                 });
        QCOMPARE(NetworkRules::granting({rule(QStringLiteral("Bash"))}, analysis).has_value(),
                 needsNetwork);
    }

    // In the settings files: "permissions.network", Bash rules only; the user's own file
    // applies, a project's needs the user's trust ("network: ..."), like an allow rule.
    void settingsFilesAndTrust()
    {
        QTemporaryDir dir;
        const QString repo = QFileInfo(dir.path()).canonicalFilePath() + QStringLiteral("/repo");
        QVERIFY(QDir().mkpath(repo));
        const QString user = dir.filePath(QStringLiteral("config/agentdesk/settings.json"));
        const QString store = dir.filePath(
            QStringLiteral("config/agentdesk/trusted-projects.json"));
        QVERIFY(writeFile(user,
                          "{\"permissions\": {\"network\": [\"Bash(pip install:*)\", "
                          "\"Edit(src/**)\", 42]}}"));
        QVERIFY(writeFile(PermissionSettings::projectLocalSettingsPath(repo),
                          "{\"permissions\": {\"network\": [\"Bash(npm install:*)\", "
                          "\"Bash(pip install:*)\"]}}"));

        const std::optional<PermissionSettings> loaded = PermissionSettings::load(user);
        QVERIFY(loaded);
        QCOMPARE(texts(loaded->networkRules), QStringList{QStringLiteral("Bash(pip install:*)")});
        QCOMPARE(loaded->networkRules.first().source, user);
        QCOMPARE(loaded->warnings.size(), 2);
        QVERIFY2(loaded->warnings.first().contains(QLatin1String("network rules are about Bash")),
                 qPrintable(loaded->warnings.first()));
        QVERIFY(loaded->rules.isEmpty()); // no allow rule came of it

        PermissionPolicy policy(repo, PermissionMode::Default);
        QStringList warnings;
        policy.loadSettings(user, &warnings, ProjectTrust::load(store, repo));
        // The user's own rule needs no trust when the project asks for it again.
        QCOMPARE(texts(policy.networkRules()),
                 QStringList({QStringLiteral("Bash(pip install:*)"),
                              QStringLiteral("Bash(pip install:*)")}));
        QCOMPARE(policy.untrustedGrants(),
                 QStringList{QStringLiteral("network: Bash(npm install:*)")});

        QVERIFY(ProjectTrust::remember(store, repo, policy.untrustedGrants()));
        policy.loadSettings(user, &warnings, ProjectTrust::load(store, repo));
        QCOMPARE(texts(policy.networkRules()),
                 QStringList({QStringLiteral("Bash(pip install:*)"),
                              QStringLiteral("Bash(npm install:*)"),
                              QStringLiteral("Bash(pip install:*)")}));
        QVERIFY(policy.untrustedGrants().isEmpty());

        // The app's own list replaces only its own rules.
        policy.setNetworkRules(QStringLiteral("app"), {rule(QStringLiteral("Bash(cargo fetch)"))});
        policy.setNetworkRules(QStringLiteral("app"),
                               {rule(QStringLiteral("Bash(go mod download)"))});
        QCOMPARE(texts(policy.networkRules()),
                 QStringList({QStringLiteral("Bash(pip install:*)"),
                              QStringLiteral("Bash(npm install:*)"),
                              QStringLiteral("Bash(pip install:*)"),
                              QStringLiteral("Bash(go mod download)")}));
        // A network rule allows nothing by itself: the command still asks.
        PermissionSubject subject;
        subject.toolName = QStringLiteral("Bash");
        subject.sideEffects = true;
        subject.bash = BashAnalyzer(repo, QStringLiteral("-")).analyze(QStringLiteral("npm install"));
        QCOMPARE(policy.decide(subject).behavior, PermissionBehavior::Ask);
        QCOMPARE(policy.networkGrant(subject)->toString(), QStringLiteral("Bash(npm install:*)"));
    }

    // The model cannot give itself the network: an "always allow" answer writes an allow
    // rule, never a network rule; a change to a settings file asks in every mode.
    void onlyTheUserAddsThem()
    {
        Harness harness(PermissionMode::Default);
        harness.asker->choice = PermissionAnswer::Choice::AllowAlways;
        const ToolResult result = harness.bash(QStringLiteral("npm install --version || true"));
        QVERIFY2(!result.isError, qPrintable(result.text()));
        QCOMPARE(harness.asker->requests().size(), 1);
        QVERIFY(harness.policy->networkRules().isEmpty());
        const QByteArray local = readFile(
            PermissionSettings::projectLocalSettingsPath(harness.repo.root()));
        QVERIFY2(local.contains("\"allow\""), local.constData());
        QVERIFY2(!local.contains("\"network\""), local.constData());

        Harness bypass(PermissionMode::Bypass);
        const ToolResult write = bypass.bash(
            QStringLiteral("echo '{\"permissions\":{\"network\":[\"Bash\"]}}' > "
                           ".agentdesk/settings.local.json"));
        QCOMPARE(bypass.asker->requests().size(), 1); // asked, even in bypass
        QVERIFY(bypass.asker->requests().first().suggestedRules.isEmpty());
        Q_UNUSED(write);
    }

    // The review says whether the command gets the network, and which rule grants it.
    void reviewShowsTheRule()
    {
        if (!SandboxProbe::probe().available)
            QSKIP("bwrap cannot run here");
        Harness harness(PermissionMode::Default);
        harness.policy->setNetworkRules(QStringLiteral("AgentDesk's settings"),
                                        {rule(QStringLiteral("Bash(./fetch.sh:*)"))});
        QVERIFY(harness.repo.write(QStringLiteral("fetch.sh"), "#!/bin/sh\necho fetched\n"));
        QFile::setPermissions(harness.repo.path(QStringLiteral("fetch.sh")),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        harness.bash(QStringLiteral("./fetch.sh"));
        harness.bash(QStringLiteral("./fetch.sh; touch x"));
        const QList<PermissionRequest> requests = harness.asker->requests();
        QCOMPARE(requests.size(), 2);
        QVERIFY(requests.at(0).sandbox && requests.at(0).sandbox->sandboxed());
        QVERIFY(requests.at(0).sandbox->network);
        QCOMPARE(requests.at(0).sandbox->networkRule,
                 QStringLiteral("Bash(./fetch.sh:*) in AgentDesk's settings"));
        QVERIFY2(requests.at(0).sandbox->summary().contains(
                     QLatin1String("with network (allowed by Bash(./fetch.sh:*) in AgentDesk's "
                                   "settings)")),
                 qPrintable(requests.at(0).sandbox->summary()));
        QVERIFY(!requests.at(1).sandbox->network);
        QVERIFY(requests.at(1).sandbox->networkRule.isEmpty());
        QVERIFY2(requests.at(1).sandbox->summary().contains(QLatin1String("no network")),
                 qPrintable(requests.at(1).sandbox->summary()));
    }

    // With the real bwrap: the command a rule names reaches a server on the host's loopback;
    // the same connection from any other command does not; the switch still gives it to all.
    void onlyTheRuledCommandReachesTheNetwork()
    {
        if (!SandboxProbe::probe().available)
            QSKIP("bwrap cannot run here");
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost));
        Harness harness(PermissionMode::Bypass);
        const QByteArray script = QStringLiteral("#!/bin/bash\nexec 3<>/dev/tcp/127.0.0.1/%1 && "
                                                 "echo connected\n")
                                      .arg(server.serverPort())
                                      .toUtf8();
        for (const char *name : {"fetch.sh", "other.sh"}) {
            QVERIFY(harness.repo.write(QString::fromLatin1(name), script));
            QFile::setPermissions(harness.repo.path(QString::fromLatin1(name)),
                                  QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        }
        harness.policy->setNetworkRules(QStringLiteral("AgentDesk's settings"),
                                        {rule(QStringLiteral("Bash(./fetch.sh)"))});

        QString audit;
        const ToolResult granted = harness.bash(QStringLiteral("./fetch.sh"), &audit);
        QCOMPARE(audit,
                 QStringLiteral("allow: bypass mode; network by Bash(./fetch.sh) in AgentDesk's "
                                "settings"));
        QVERIFY2(!granted.isError, qPrintable(granted.text()));
        QCOMPARE(granted.text(), QStringLiteral("connected"));
        const QJsonObject details = granted.details.toJson();
        QVERIFY(details.value(QLatin1String("sandboxed")).toBool());
        QVERIFY(details.value(QLatin1String("network")).toBool());
        QCOMPARE(details.value(QLatin1String("networkRule")).toString(),
                 QStringLiteral("Bash(./fetch.sh) in AgentDesk's settings"));

        for (const QString &command : {QStringLiteral("./other.sh"),
                                       QStringLiteral("./fetch.sh && ./other.sh"),
                                       QStringLiteral("./fetch.sh --verbose")}) {
            const ToolResult refused = harness.bash(command);
            QVERIFY2(refused.isError, qPrintable(command + QLatin1Char(':') + refused.text()));
            QVERIFY2(!refused.text().contains(QLatin1String("connected")),
                     qPrintable(refused.text()));
            QVERIFY(!refused.details.toJson().value(QLatin1String("network")).toBool());
            QVERIFY2(refused.text().contains(QLatin1String("network rule")),
                     qPrintable(refused.text()));
        }
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_NetworkRules)

} // namespace tst_networkrules

#include "tst_networkrules.moc"
