#include <permissions/pathcapability.h>
#include <permissions/permissionpolicy.h>
#include <permissions/permissionsettings.h>
#include <permissions/projecttrust.h>
#include <testmain.h>
#include <tools/toolworkspace.h>

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace AgentCore;

namespace tst_permissionpolicy {

namespace {

const QString root = QStringLiteral("/work/repo");

// Analysed: the analysis BashAnalyzer makes for the repository (the built-in parser), not a
// hand-made one; the other flags do not apply then.
enum BashFlag { Understood = 1, ReadOnly = 2, WritesOutside = 4, Analysed = 8 };

// A hand-made analysis: `&&`, `||`, `;` and `|` separate simple commands, words are split at
// spaces, leading NAME=value words are assignments.
BashAnalysis analysis(const QString &command, int flags)
{
    BashAnalysis result;
    result.command = command;
    result.understood = flags & Understood;
    result.readOnly = flags & ReadOnly;
    result.problem = result.understood ? QString() : QStringLiteral("loops are not followed");
    static const QRegularExpression separators(QStringLiteral("&&|\\|\\||;|\\|"));
    for (const QString &part : command.split(separators, Qt::SkipEmptyParts)) {
        SimpleCommand simple;
        QStringList words = part.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        while (!words.isEmpty() && words.first().contains(QLatin1Char('=')))
            simple.assignments.append(words.takeFirst());
        simple.words = words;
        simple.text = words.join(QLatin1Char(' '));
        if (!words.isEmpty() && result.understood)
            result.commands.append(simple);
    }
    if (flags & WritesOutside)
        result.risks.append({BashRisk::WritesOutsideRepository, 0, QStringLiteral("writes /tmp/x")});
    return result;
}

PermissionSubject::Path path(const QString &target, bool write)
{
    PermissionSubject::Path path;
    path.write = write;
    if (target.startsWith(QLatin1Char('/'))) {
        path.absolute = target;
    } else {
        path.absolute = root + QLatin1Char('/') + target;
        path.relative = target;
    }
    path.insideWritableRoot = PathCapability::isWritable(path.absolute, {root});
    return path;
}

// \a repository: where an Analysed command is analysed (a real folder when it matters).
PermissionSubject subject(const QString &tool,
                          const QString &target,
                          int bashFlags,
                          const QString &repository = root)
{
    PermissionSubject subject;
    subject.toolName = tool;
    subject.sideEffects = tool == QLatin1String("Edit") || tool == QLatin1String("Write")
                          || tool == QLatin1String("Bash");
    if (tool == QLatin1String("Bash")) {
        subject.arguments = {{"command", target}};
        subject.bash = bashFlags & Analysed
                           ? BashAnalyzer(repository, QStringLiteral("-")).analyze(target)
                           : analysis(target, bashFlags);
    } else {
        subject.paths.append(path(target, subject.sideEffects));
    }
    return subject;
}

PermissionBehavior behaviorNamed(const QString &name)
{
    return name == QLatin1String("allow")  ? PermissionBehavior::Allow
           : name == QLatin1String("deny") ? PermissionBehavior::Deny
                                           : PermissionBehavior::Ask;
}

QString behaviorName(PermissionBehavior behavior)
{
    switch (behavior) {
    case PermissionBehavior::Allow:
        return QStringLiteral("allow");
    case PermissionBehavior::Ask:
        return QStringLiteral("ask");
    case PermissionBehavior::Deny:
        return QStringLiteral("deny");
    }
    return {};
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
           && file.write(bytes) == bytes.size();
}

} // namespace

class tst_PermissionPolicy : public QObject
{
    Q_OBJECT

private slots:
    void decide_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QStringList>("rules"); // "allow Bash(npm test:*)"
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QString>("target"); // command or path
        QTest::addColumn<int>("bashFlags");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QString>("reason");

        const int plain = Understood;
        const int readOnly = Understood | ReadOnly;
        const QStringList none;
        const auto row = [](const char *name) -> QTestData & { return QTest::newRow(name); };

        // Modes.
        row("default: read") << "default" << none << "Read"
                             << "src/a.cpp" << 0 << "allow"
                             << "";
        row("default: grep") << "default" << none << "Grep"
                             << "src" << 0 << "allow"
                             << "";
        row("default: edit asks") << "default" << none << "Edit"
                                  << "src/a.cpp" << 0 << "ask"
                                  << "Edit asks in “Ask before changes” mode";
        row("default: write asks") << "default" << none << "Write"
                                   << "new.txt" << 0 << "ask"
                                   << "Write asks";
        row("default: bash asks") << "default" << none << "Bash"
                                  << "npm test" << plain << "ask"
                                  << "Bash asks";
        row("default: read-only bash") << "default" << none << "Bash"
                                       << "git status | head" << readOnly << "allow"
                                       << "read-only";
        row("default: not understood") << "default" << none << "Bash"
                                       << "for f in *; do cat $f; done" << 0 << "ask"
                                       << "could not be analysed: loops";
        row("acceptEdits: edit") << "acceptEdits" << none << "Edit"
                                 << "src/a.cpp" << 0 << "allow"
                                 << "allowed in “Accept edits” mode";
        row("acceptEdits: write") << "acceptEdits" << none << "Write"
                                  << "b.txt" << 0 << "allow"
                                  << "";
        row("acceptEdits: bash asks") << "acceptEdits" << none << "Bash"
                                      << "make" << plain << "ask"
                                      << "";
        row("acceptEdits: read-only bash") << "acceptEdits" << none << "Bash"
                                           << "ls" << readOnly << "allow"
                                           << "";
        row("plan: read") << "plan" << none << "Read"
                          << "a.txt" << 0 << "allow"
                          << "";
        row("plan: edit") << "plan" << none << "Edit"
                          << "a.txt" << 0 << "deny"
                          << "Plan mode";
        row("plan: read-only bash") << "plan" << none << "Bash"
                                    << "ls" << readOnly << "allow"
                                    << "read-only";
        row("plan: bash that changes") << "plan" << none << "Bash"
                                       << "npm test" << plain << "deny"
                                       << "Plan mode: only read-only commands run";
        row("plan: bash not understood") << "plan" << none << "Bash"
                                         << "for f in *; do cat $f; done" << 0 << "deny"
                                         << "Plan mode: only read-only commands run";
        row("plan: allow Bash does not help") << "plan" << QStringList{"allow Bash"} << "Bash"
                                              << "make" << plain << "deny"
                                              << "Plan mode";
        row("plan: ask rule on a read-only command")
            << "plan" << QStringList{"ask Bash(git log:*)"} << "Bash"
            << "git log" << readOnly << "ask"
            << "git log";
        row("plan: deny rule on a read-only command")
            << "plan" << QStringList{"deny Bash(cat:*)"} << "Bash"
            << "cat .env" << readOnly << "deny"
            << "cat:*";
        row("plan: allow rule does not help") << "plan" << QStringList{"allow Edit"} << "Edit"
                                              << "a.txt" << 0 << "deny"
                                              << "Plan mode";
        row("bypass: edit") << "bypass" << none << "Edit"
                            << "a.txt" << 0 << "allow"
                            << "bypass";
        row("bypass: bash") << "bypass" << none << "Bash"
                            << "rm -rf build" << plain << "allow"
                            << "";
        row("bypass: not understood") << "bypass" << none << "Bash"
                                      << "while :; do :; done" << 0 << "allow"
                                      << "";

        // The path capability.
        row("edit outside") << "default" << none << "Edit"
                            << "/etc/passwd" << 0 << "deny"
                            << "outside the repository";
        row("bypass: write outside") << "bypass" << none << "Write"
                                     << "/etc/passwd" << 0 << "deny"
                                     << "outside the repository";
        row("bypass: .git") << "bypass" << none << "Write"
                            << ".git/config" << 0 << "deny"
                            << ".git";
        row("allow rule: .git") << "acceptEdits" << QStringList{"allow Edit"} << "Edit"
                                << ".git/hooks/pre-commit" << 0 << "deny"
                                << ".git";
        row("read outside asks") << "default" << none << "Read"
                                 << "/etc/hosts" << 0 << "ask"
                                 << "outside the repository";
        row("acceptEdits: read outside asks") << "acceptEdits" << none << "LS"
                                              << "/etc" << 0 << "ask"
                                              << "";
        row("bypass: read outside") << "bypass" << none << "Read"
                                    << "/etc/hosts" << 0 << "allow"
                                    << "";
        row("read outside by rule") << "default" << QStringList{"allow Read(/etc/**)"} << "Read"
                                    << "/etc/hosts" << 0 << "allow"
                                    << "Read(/etc/**)";
        row("read outside denied") << "bypass" << QStringList{"deny Read(/etc/**)"} << "Read"
                                   << "/etc/hosts" << 0 << "deny"
                                   << "Read(/etc/**)";

        // Rules.
        row("exact rule") << "default" << QStringList{"allow Bash(git push)"} << "Bash"
                          << "git push" << plain << "allow"
                          << "Bash(git push)";
        row("exact rule, more args") << "default" << QStringList{"allow Bash(git push)"} << "Bash"
                                     << "git push --force" << plain << "ask"
                                     << "";
        row("prefix rule") << "default" << QStringList{"allow Bash(npm test:*)"} << "Bash"
                           << "npm test -- x" << plain << "allow"
                           << "npm test:*";
        row("compound, one part") << "default" << QStringList{"allow Bash(npm test:*)"} << "Bash"
                                  << "npm test && curl x | sh" << plain << "ask"
                                  << "";
        row("compound, every part")
            << "default" << QStringList{"allow Bash(npm test:*)", "allow Bash(make:*)"} << "Bash"
            << "make && npm test" << plain << "allow"
            << "";
        row("assignment needs its own rule")
            << "default" << QStringList{"allow Bash(npm test:*)"} << "Bash"
            << "NODE_OPTIONS=x npm test" << plain << "ask"
            << "";
        row("not understood, rule") << "default" << QStringList{"allow Bash(npm test:*)"} << "Bash"
                                    << "npm test" << 0 << "ask"
                                    << "";
        row("not understood, whole tool") << "default" << QStringList{"allow Bash"} << "Bash"
                                          << "for x in y; do z; done" << 0 << "allow"
                                          << "";
        row("writes outside, rule") << "default" << QStringList{"allow Bash(cp:*)"} << "Bash"
                                    << "cp a /tmp/x" << (plain | WritesOutside) << "deny"
                                    << "only change files inside the repository";
        // Bypass skips the questions, not the path capability: Bash as Edit and Write.
        row("bypass: bash writes outside")
            << "bypass" << none << "Bash"
            << "sed -i s/a/b/ ../secret.txt" << (plain | WritesOutside) << "deny"
            << "inside the repository";
        row("broad rule: bash writes outside")
            << "default" << QStringList{"allow Bash"} << "Bash"
            << "touch ../outside" << (plain | WritesOutside) << "deny"
            << "every permission mode";
        // In-place editors write their files: the analysis says where, the policy denies.
        row("bypass: sed -i outside, by the policy")
            << "bypass" << none << "Bash"
            << "sed -i.bak s/a/b/ /etc/passwd" << int(Analysed) << "deny"
            << "/etc/passwd";
        row("bypass: cd, then perl -pi")
            << "bypass" << none << "Bash"
            << "cd .. && perl -pi -e s/a/b/ notes.txt" << int(Analysed) << "deny"
            << "notes.txt";
        row("bypass: sed -i inside") << "bypass" << none << "Bash"
                                     << "sed -i -e s/a/b/ src/a.c" << int(Analysed) << "allow"
                                     << "bypass";
        row("default: sed -i inside asks") << "default" << none << "Bash"
                                           << "sed -i s/a/b/ src/a.c" << int(Analysed) << "ask"
                                           << "Bash asks";
        row("broad rule: sed -i inside") << "default" << QStringList{"allow Bash(sed:*)"} << "Bash"
                                         << "sed -i s/a/b/ src/a.c" << int(Analysed) << "allow"
                                         << "sed:*";
        row("broad rule: perl -i outside")
            << "default" << QStringList{"allow Bash(perl:*)"} << "Bash"
            << "perl -i -pe s/a/b/ ~/.profile" << int(Analysed) << "deny"
            << "~/.profile";
        row("default: sed -n outside is a read")
            << "default" << QStringList{"allow Bash(sed:*)"} << "Bash"
            << "sed -n 1p /etc/hosts" << plain << "allow"
            << "sed:*";
        row("bypass and broad rule: bash writes outside")
            << "bypass" << QStringList{"allow Bash"} << "Bash"
            << "cp a ../x" << (plain | WritesOutside) << "deny"
            << "";

        // AgentDesk's own settings: asked in every mode, no allow rule pre-approves them.
        row("acceptEdits: settings.local.json") << "acceptEdits" << none << "Write"
                                                << ".agentdesk/settings.local.json" << 0 << "ask"
                                                << "AgentDesk's own settings";
        row("bypass: settings.json") << "bypass" << none << "Edit"
                                     << ".agentdesk/settings.json" << 0 << "ask"
                                     << "AgentDesk's own settings";
        row("bypass, allow Edit: .mcp.json") << "bypass" << QStringList{"allow Edit"} << "Write"
                                             << ".mcp.json" << 0 << "ask"
                                             << "AgentDesk's own settings";
        row("allow rule for the file: settings")
            << "acceptEdits" << QStringList{"allow Edit(.agentdesk/**)"} << "Edit"
            << ".agentdesk/anything" << 0 << "ask"
            << "AgentDesk's own settings";
        row("other case: settings") << "bypass" << none << "Write"
                                    << ".AgentDesk/settings.local.json" << 0 << "ask"
                                    << "";
        row("bypass: bash writes settings")
            << "bypass" << none << "Bash"
            << "echo '{}' > .agentdesk/settings.local.json" << plain << "ask"
            << "AgentDesk's own settings";
        row("broad Bash rule: bash writes settings")
            << "default" << QStringList{"allow Bash"} << "Bash"
            << "cp evil.json .agentdesk/settings.json" << plain << "ask"
            << "AgentDesk's own settings";
        row("bypass: not understood, names settings")
            << "bypass" << none << "Bash"
            << "for f in a; do cat $f > .mcp.json; done" << 0 << "ask"
            << "AgentDesk's own settings";
        row("read-only bash reads settings")
            << "default" << none << "Bash"
            << "cat .agentdesk/settings.json" << readOnly << "allow"
            << "read-only";
        row("reading settings") << "default" << none << "Read"
                                << ".agentdesk/settings.json" << 0 << "allow"
                                << "";
        row("deny rule denies settings")
            << "bypass" << QStringList{"deny Edit(.agentdesk/**)"} << "Write"
            << ".agentdesk/settings.json" << 0 << "deny"
            << "Edit(.agentdesk/**)";
        row("plan: settings") << "plan" << none << "Write"
                              << ".agentdesk/settings.json" << 0 << "deny"
                              << "Plan mode";
        row("deny wins over allow")
            << "default" << QStringList{"allow Bash", "deny Bash(git push:*)"} << "Bash"
            << "git push origin" << plain << "deny"
            << "Bash(git push:*)";
        row("deny one part") << "default"
                             << QStringList{"allow Bash(npm test:*)", "deny Bash(rm:*)"} << "Bash"
                             << "npm test && rm -rf x" << plain << "deny"
                             << "Bash(rm:*)";
        row("deny in bypass") << "bypass" << QStringList{"deny Bash(rm:*)"} << "Bash"
                              << "rm x" << plain << "deny"
                              << "";
        row("deny a read-only command") << "default" << QStringList{"deny Bash(cat:*)"} << "Bash"
                                        << "cat .env" << readOnly << "deny"
                                        << "";
        row("deny inside not understood") << "default" << QStringList{"deny Bash(rm:*)"} << "Bash"
                                          << "for f in *.o; do rm \"$f\"; done" << 0 << "deny"
                                          << "Bash(rm:*)";
        row("deny through sudo") << "default" << QStringList{"deny Bash(rm:*)"} << "Bash"
                                 << "sudo rm -rf /" << plain << "deny"
                                 << "";
        row("ask beats allow") << "default" << QStringList{"allow Edit", "ask Edit(src/secret/**)"}
                               << "Edit"
                               << "src/secret/key.pem" << 0 << "ask"
                               << "Edit(src/secret/**)";
        row("ask in bypass") << "bypass" << QStringList{"ask Bash(git push:*)"} << "Bash"
                             << "git push" << plain << "ask"
                             << "";
        row("ask a read-only command") << "default" << QStringList{"ask Bash(git log:*)"} << "Bash"
                                       << "git log" << readOnly << "ask"
                                       << "";
        row("edit glob") << "default" << QStringList{"allow Edit(src/**)"} << "Edit"
                         << "src/a/b.cpp" << 0 << "allow"
                         << "Edit(src/**)";
        row("edit glob, other dir") << "default" << QStringList{"allow Edit(src/**)"} << "Edit"
                                    << "docs/a.md" << 0 << "ask"
                                    << "";
        row("edit rule covers write") << "default" << QStringList{"allow Edit(src/**)"} << "Write"
                                      << "src/new.cpp" << 0 << "allow"
                                      << "";
        row("deny edit glob") << "acceptEdits" << QStringList{"deny Edit(*.lock)"} << "Write"
                              << "deps/yarn.lock" << 0 << "deny"
                              << "";
    }

    void decide()
    {
        QFETCH(QString, mode);
        QFETCH(QStringList, rules);
        QFETCH(QString, tool);
        QFETCH(QString, target);
        QFETCH(int, bashFlags);
        QFETCH(QString, expected);
        QFETCH(QString, reason);

        PermissionPolicy policy(root, parsePermissionMode(mode).value());
        for (const QString &text : rules) {
            std::optional<PermissionRule> rule
                = PermissionRule::parse(text.section(QLatin1Char(' '), 1),
                                        behaviorNamed(text.section(QLatin1Char(' '), 0, 0)));
            QVERIFY(rule);
            rule->source = QStringLiteral("test");
            policy.addRule(*rule);
        }
        const PermissionDecision decision = policy.decide(subject(tool, target, bashFlags));
        QVERIFY2(behaviorName(decision.behavior) == expected, qPrintable(decision.reason));
        QVERIFY2(decision.reason.contains(reason), qPrintable(decision.reason));
        QVERIFY(!decision.reason.isEmpty());
    }

    void planModeRunsOnlyReadOnlyCommands_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("expected");
        QTest::newRow("log piped to head") << "git log --oneline | head -n 5"
                                           << "allow";
        QTest::newRow("grep") << "grep -rn TODO src"
                              << "allow";
        QTest::newRow("status and diff") << "git status && git diff"
                                         << "allow";
        QTest::newRow("writing redirection") << "git log > log.txt"
                                             << "deny";
        QTest::newRow("reads outside") << "cat ../secret.txt"
                                       << "deny";
        QTest::newRow("changes files") << "rm -rf build"
                                       << "deny";
        QTest::newRow("read-only, then a change") << "ls && touch a"
                                                  << "deny";
        QTest::newRow("not understood") << "for f in *; do cat \"$f\"; done"
                                        << "deny";
    }

    // Issue #15: plan mode lets the agent look around with the commands that pass unasked in
    // default mode (by the real analysis), and refuses, with a reason, anything else.
    void planModeRunsOnlyReadOnlyCommands()
    {
        QFETCH(QString, command);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString repo = ToolWorkspace::canonicalPath(dir.path());
        PermissionPolicy policy(repo, PermissionMode::Plan);
        const PermissionDecision decision = policy.decide(
            subject(QStringLiteral("Bash"), command, Analysed, repo));
        QVERIFY2(behaviorName(decision.behavior) == expected, qPrintable(decision.reason));
        if (expected == QLatin1String("deny")) {
            QVERIFY2(decision.reason.startsWith(
                         QLatin1String("Plan mode: only read-only commands run")),
                     qPrintable(decision.reason));
        }
    }

    void compoundCommandsMixReadOnlyAndRules_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("expected");
        QTest::newRow("read-only part and allowed part") << "git status && npm test"
                                                         << "allow";
        QTest::newRow("allowed part piped to read-only") << "npm test 2>&1 | tail -n 20"
                                                         << "allow";
        QTest::newRow("every part read-only") << "git status; ls"
                                              << "allow";
        QTest::newRow("a part neither read-only nor allowed") << "git status && make install"
                                                              << "ask";
        QTest::newRow("allowed part writing a file") << "npm test > out.txt"
                                                     << "ask";
    }

    // The rule: a compound command passes only when every simple command does, and a
    // read-only command passes on its own in default mode, also next to a rule-allowed one.
    void compoundCommandsMixReadOnlyAndRules()
    {
        QFETCH(QString, command);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString repo = ToolWorkspace::canonicalPath(dir.path());
        PermissionPolicy policy(repo, PermissionMode::Default);
        std::optional<PermissionRule> rule = PermissionRule::parse(QStringLiteral(
                                                                       "Bash(npm test:*)"),
                                                                   PermissionBehavior::Allow);
        QVERIFY(rule);
        rule->source = QStringLiteral("test");
        policy.addRule(*rule);
        const PermissionDecision decision = policy.decide(
            subject(QStringLiteral("Bash"), command, Analysed, repo));
        QVERIFY2(behaviorName(decision.behavior) == expected, qPrintable(decision.reason));
    }

    void prepareContext()
    {
        Context context;
        context.systemPrompt = QStringLiteral("You are a coding agent.");
        for (const char *name : {"Read", "Edit", "Write", "Bash", "Grep"})
            context.tools.append({QString::fromUtf8(name), {}, {}});
        const QStringList sideEffects{"Edit", "Write", "Bash"};

        PermissionPolicy policy(root, PermissionMode::Default);
        const Context unchanged = policy.prepareContext(context, sideEffects);
        QCOMPARE(unchanged.tools, context.tools);
        QCOMPARE(unchanged.systemPrompt, context.systemPrompt);

        policy.setMode(PermissionMode::Plan);
        const Context planned = policy.prepareContext(context, sideEffects);
        QStringList names;
        for (const ToolDefinition &tool : planned.tools)
            names.append(tool.name);
        // Bash stays for its read-only commands (decide() refuses the others).
        QCOMPARE(names, QStringList({"Read", "Bash", "Grep"}));
        QVERIFY(planned.systemPrompt.startsWith(context.systemPrompt));
        QVERIFY(planned.systemPrompt.contains(QLatin1String("Plan mode")));
        QVERIFY(planned.systemPrompt.contains(QLatin1String("only read-only commands")));
        QCOMPARE(context.tools.size(), 5); // a copy

        // Leaving plan mode gives the tools back on the next request.
        policy.setMode(PermissionMode::AcceptEdits);
        QCOMPARE(policy.prepareContext(context, sideEffects).tools.size(), 5);
    }

    void loadSettings()
    {
        QTemporaryDir dir;
        const QString repo = QFileInfo(dir.path()).canonicalFilePath() + QStringLiteral("/repo");
        QVERIFY(QDir().mkpath(repo + QStringLiteral("/shared")));
        const QString user = dir.filePath(QStringLiteral("config/agentdesk/settings.json"));
        QVERIFY(writeFile(user,
                          "{\"permissions\": {\"allow\": [\"Bash(git push)\"], "
                          "\"defaultMode\": \"acceptEdits\"}}"));
        QVERIFY(writeFile(PermissionSettings::projectSettingsPath(repo),
                          "{\"permissions\": {\"deny\": [\"Bash(git push)\"], "
                          "\"additionalDirectories\": [\"shared\"]}}"));
        QVERIFY(writeFile(PermissionSettings::projectLocalSettingsPath(repo),
                          "{\"permissions\": {\"allow\": [\"Bash(npm test:*)\"], "
                          "\"defaultMode\": \"plan\"}}"));

        PermissionPolicy policy(repo, PermissionMode::Default);
        PermissionRule session
            = PermissionRule::parse(QStringLiteral("Bash(make)"), PermissionBehavior::Allow).value();
        session.source = QStringLiteral("session");
        policy.addRule(session);
        QStringList warnings;
        policy.loadSettings(user, &warnings, ProjectTrust::everything());
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(QLatin1Char('\n'))));
        QCOMPARE(policy.rules().size(), 4);
        QCOMPARE(policy.mode(), PermissionMode::Plan); // the local file's, over the user's
        QCOMPARE(policy.settingsDefaultMode(), PermissionMode::Plan);
        QCOMPARE(policy.writableRoots(), QStringList({repo, repo + QStringLiteral("/shared")}));

        policy.setMode(PermissionMode::Default); // as a command line choice would

        // The project's deny beats the user's allow.
        PermissionSubject push;
        push.toolName = QStringLiteral("Bash");
        push.sideEffects = true;
        push.bash = analysis(QStringLiteral("git push"), Understood);
        const PermissionDecision decision = policy.decide(push);
        QCOMPARE(decision.behavior, PermissionBehavior::Deny);
        QVERIFY(decision.reason.contains(PermissionSettings::projectSettingsPath(repo)));

        // A broken file: reported, skipped, the others still count; loading again replaces.
        QVERIFY(writeFile(PermissionSettings::projectSettingsPath(repo), "{ nope"));
        warnings.clear();
        policy.loadSettings(user, &warnings, ProjectTrust::everything());
        QCOMPARE(warnings.size(), 1);
        QVERIFY(warnings.first().contains(PermissionSettings::projectSettingsPath(repo)));
        QCOMPARE(policy.rules().size(), 3);
        QCOMPARE(policy.decide(push).behavior, PermissionBehavior::Allow);
        QVERIFY(policy.rules().contains(session));
    }

    void sharedProjectCannotBypass()
    {
        QTemporaryDir dir;
        const QString repo = QFileInfo(dir.path()).canonicalFilePath();
        QVERIFY(writeFile(PermissionSettings::projectSettingsPath(repo),
                          "{\"permissions\": {\"defaultMode\": \"bypass\"}}"));
        PermissionPolicy policy(repo, PermissionMode::Default);
        QStringList warnings;
        policy.loadSettings({}, &warnings, ProjectTrust::everything());
        QCOMPARE(policy.mode(), PermissionMode::Default);
        QCOMPARE(warnings.size(), 1);
        QVERIFY(warnings.first().contains(QLatin1String("bypass")));

        // The developer's own local file may, once they accepted it.
        QVERIFY(writeFile(PermissionSettings::projectLocalSettingsPath(repo),
                          "{\"permissions\": {\"defaultMode\": \"bypassPermissions\"}}"));
        policy.loadSettings({}, &warnings, ProjectTrust());
        QCOMPARE(policy.mode(), PermissionMode::Default);
        QCOMPARE(policy.untrustedGrants(), QStringList{QStringLiteral("defaultMode: bypass")});
        policy.loadSettings({}, &warnings, ProjectTrust::everything());
        QCOMPARE(policy.mode(), PermissionMode::Bypass);
    }

    // Workspace trust: what a repository's settings files grant beyond the user's own applies
    // only once the user accepted it; what they restrict always applies.
    void projectGrantsNeedTrust()
    {
        QTemporaryDir dir;
        const QString repo = QFileInfo(dir.path()).canonicalFilePath() + QStringLiteral("/repo");
        QVERIFY(QDir().mkpath(repo + QStringLiteral("/shared")));
        const QString user = dir.filePath(QStringLiteral("config/agentdesk/settings.json"));
        const QString store = dir.filePath(
            QStringLiteral("config/agentdesk/trusted-projects.json"));
        QVERIFY(writeFile(user, "{\"permissions\": {\"allow\": [\"Edit(src/**)\"]}}"));
        QVERIFY(writeFile(PermissionSettings::projectSettingsPath(repo),
                          "{\"permissions\": {\"allow\": [\"Bash\", \"Edit(src/**)\"], "
                          "\"deny\": [\"Bash(curl:*)\"], \"ask\": [\"Edit(docs/**)\"], "
                          "\"defaultMode\": \"acceptEdits\"}}"));
        QVERIFY(writeFile(PermissionSettings::projectLocalSettingsPath(repo),
                          "{\"permissions\": {\"defaultMode\": \"bypass\", "
                          "\"additionalDirectories\": [\"shared\"]}}"));

        PermissionPolicy policy(repo, PermissionMode::Default);
        QStringList warnings;
        policy.loadSettings(user, &warnings, ProjectTrust::load(store, repo));
        QVERIFY2(warnings.isEmpty(), qPrintable(warnings.join(QLatin1Char('\n'))));
        const QStringList asked{QStringLiteral("allow: Bash"),
                                QStringLiteral("defaultMode: acceptEdits"),
                                QStringLiteral("additionalDirectories: ") + repo
                                    + QStringLiteral("/shared"),
                                QStringLiteral("defaultMode: bypass")};
        QCOMPARE(policy.untrustedGrants(), asked);
        QCOMPARE(policy.mode(), PermissionMode::Default);
        QCOMPARE(policy.writableRoots(), QStringList{repo});
        QStringList rules;
        for (const PermissionRule &rule : policy.rules())
            rules.append(rule.toString());
        // The user's own Edit(src/**) needs no trust when the project asks for it again.
        rules.sort();
        QCOMPARE(rules,
                 QStringList({"Bash(curl:*)", "Edit(docs/**)", "Edit(src/**)", "Edit(src/**)"}));
        PermissionSubject make;
        make.toolName = QStringLiteral("Bash");
        make.sideEffects = true;
        make.bash = analysis(QStringLiteral("make"), Understood);
        QCOMPARE(policy.decide(make).behavior, PermissionBehavior::Ask);

        // Accepted once: remembered for this repository, applied at the next load.
        QVERIFY(ProjectTrust::remember(store, repo, asked));
        QVERIFY(ProjectTrust::load(store, dir.path()).grants().isEmpty()); // another repository
        PermissionPolicy next(repo, PermissionMode::Default);
        next.loadSettings(user, &warnings, ProjectTrust::load(store, repo));
        QVERIFY(next.untrustedGrants().isEmpty());
        QCOMPARE(next.mode(), PermissionMode::Bypass);
        QCOMPARE(next.writableRoots(), QStringList({repo, repo + QStringLiteral("/shared")}));
        QCOMPARE(next.decide(make).behavior, PermissionBehavior::Allow);

        // A grant added later to the file is new: not applied until accepted too.
        QVERIFY(writeFile(PermissionSettings::projectLocalSettingsPath(repo),
                          "{\"permissions\": {\"defaultMode\": \"bypass\", "
                          "\"allow\": [\"Read(/**)\"]}}"));
        next.loadSettings(user, &warnings, ProjectTrust::load(store, repo));
        QCOMPARE(next.untrustedGrants(), QStringList{QStringLiteral("allow: Read(/**)")});
    }

    // The user's config folder and the app's files are AgentDesk's own settings too, wherever
    // a writable root puts them, whatever way a command spells them.
    void protectedPathsAsk()
    {
        const QString home = QDir::homePath();
        const QString config = home + QStringLiteral("/.config/agentdesk");
        PermissionPolicy policy(root, PermissionMode::Bypass);
        policy.addWritableRoot(home);
        policy.setProtectedPaths({config});

        PermissionSubject write;
        write.toolName = QStringLiteral("Write");
        write.sideEffects = true;
        PermissionSubject::Path target;
        target.absolute = config + QStringLiteral("/settings.json");
        target.write = true;
        target.insideWritableRoot = true;
        write.paths.append(target);
        PermissionRule allowWrite
            = PermissionRule::parse(QStringLiteral("Write"), PermissionBehavior::Allow).value();
        allowWrite.source = QStringLiteral("session");
        policy.addRule(allowWrite);
        PermissionDecision decision = policy.decide(write);
        QCOMPARE(decision.behavior, PermissionBehavior::Ask);
        QVERIFY(decision.changesConfiguration);

        for (const QString &command :
             {QStringLiteral("echo x > ~/.config/agentdesk/settings.json"),
              QStringLiteral("cp a \"$HOME/.config/agentdesk/settings.json\""),
              QStringLiteral("tee %1/settings.json").arg(config)}) {
            PermissionSubject bash;
            bash.toolName = QStringLiteral("Bash");
            bash.sideEffects = true;
            bash.bash = analysis(command, Understood);
            decision = policy.decide(bash);
            QVERIFY2(decision.behavior == PermissionBehavior::Ask, qPrintable(command));
            QVERIFY(decision.changesConfiguration);
        }
        // Other files of the same root are not.
        write.paths.first().absolute = home + QStringLiteral("/notes.txt");
        QCOMPARE(policy.decide(write).behavior, PermissionBehavior::Allow);
    }

    // The window puts a session's worktree in AgentDesk's data folder, which is protected:
    // the worktree is the session's working folder all the same (acceptEdits edits it unasked,
    // bypass runs commands on it), while the rest of the data folder (the sessions, the other
    // worktrees) and the settings stay AgentDesk's own.
    void worktreeInTheDataFolderIsTheSessionsOwn()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString top = QFileInfo(dir.path()).canonicalFilePath();
        const QString data = top + QStringLiteral("/share/AgentDesk/agentdesk");
        const QString config = top + QStringLiteral("/config/agentdesk");
        const QString worktree = data + QStringLiteral("/worktrees/repo-mine");
        const QString other = data + QStringLiteral("/worktrees/repo-other");
        for (const QString &folder :
             QStringList{worktree, other, config, data + QStringLiteral("/sessions")})
            QVERIFY(QDir().mkpath(folder));
        PermissionPolicy policy(worktree, PermissionMode::AcceptEdits);
        policy.setProtectedPaths({data, config});
        const auto write = [](const QString &absolute) {
            PermissionSubject subject;
            subject.toolName = QStringLiteral("Edit");
            subject.sideEffects = true;
            PermissionSubject::Path target;
            target.absolute = absolute;
            target.write = true;
            target.insideWritableRoot = true;
            subject.paths.append(target);
            return subject;
        };

        PermissionDecision decision = policy.decide(write(worktree + QStringLiteral("/src/a.cpp")));
        QCOMPARE(decision.behavior, PermissionBehavior::Allow);
        QVERIFY(!decision.changesConfiguration);
        // The worktree's own settings files are the project's, protected as in any checkout.
        decision = policy.decide(write(worktree + QStringLiteral("/.agentdesk/settings.json")));
        QCOMPARE(decision.behavior, PermissionBehavior::Ask);
        QVERIFY(decision.changesConfiguration);
        // The rest of the data folder and the settings, were they writable: AgentDesk's own.
        policy.addWritableRoot(top);
        for (const QString &target :
             QStringList{other + QStringLiteral("/src/a.cpp"),
                         data + QStringLiteral("/sessions/s.jsonl"),
                         config + QStringLiteral("/settings.json"),
                         data + QStringLiteral("/worktrees/repo-mine-2/a.cpp")}) {
            decision = policy.decide(write(target));
            QVERIFY2(decision.behavior == PermissionBehavior::Ask, qPrintable(target));
            QVERIFY2(decision.changesConfiguration, qPrintable(target));
        }

        // Commands: naming the worktree is no change of AgentDesk's files; naming the folder
        // around it, or climbing out of the worktree, is.
        policy.setMode(PermissionMode::Bypass);
        const auto command = [](const QString &text) {
            PermissionSubject subject;
            subject.toolName = QStringLiteral("Bash");
            subject.sideEffects = true;
            subject.arguments = {{"command", text}};
            subject.bash = analysis(text, 0); // not understood: only the text is looked at
            return subject;
        };
        for (const QString &text :
             {QStringLiteral("python3 -c 'open(\"%1/a.cpp\", \"w\")'").arg(worktree),
              QStringLiteral("for f in %1/src/*; do sed -i s/a/b/ $f; done").arg(worktree)}) {
            decision = policy.decide(command(text));
            QVERIFY2(decision.behavior == PermissionBehavior::Allow, qPrintable(text));
            QVERIFY2(!decision.changesConfiguration, qPrintable(text));
        }
        for (const QString &text :
             {QStringLiteral("python3 -c 'open(\"%1/a.cpp\", \"w\")'").arg(other),
              QStringLiteral("for f in %1/*; do rm $f; done").arg(data + QStringLiteral("/sessions")),
              QStringLiteral("cd %1 && for f in ../repo-other/*; do rm $f; done").arg(worktree),
              QStringLiteral("for f in %1/../repo-other/*; do rm $f; done").arg(worktree),
              QStringLiteral("for f in %1-2/*; do rm $f; done").arg(worktree),
              QStringLiteral("for f in %1/*; do rm $f; done").arg(config)}) {
            decision = policy.decide(command(text));
            QVERIFY2(decision.behavior == PermissionBehavior::Ask, qPrintable(text));
            QVERIFY2(decision.changesConfiguration, qPrintable(text));
        }

        // A repository that is itself a protected folder is not exempt from it.
        PermissionPolicy dataAsRoot(data, PermissionMode::AcceptEdits);
        dataAsRoot.setProtectedPaths({data});
        decision = dataAsRoot.decide(write(data + QStringLiteral("/sessions/s.jsonl")));
        QCOMPARE(decision.behavior, PermissionBehavior::Ask);
        QVERIFY(decision.changesConfiguration);
    }

    void addRuleOnce()
    {
        PermissionPolicy policy(root, PermissionMode::Default);
        const PermissionRule rule = PermissionRule::parse(QStringLiteral("Edit(src/**)"),
                                                          PermissionBehavior::Allow)
                                        .value();
        policy.addRule(rule);
        policy.addRule(rule);
        QCOMPARE(policy.rules().size(), 1);
        policy.addWritableRoot(QStringLiteral("/opt/shared/"));
        QCOMPARE(policy.writableRoots(), QStringList({root, QStringLiteral("/opt/shared")}));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_PermissionPolicy)

} // namespace tst_permissionpolicy

#include "tst_permissionpolicy.moc"
