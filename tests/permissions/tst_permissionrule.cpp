#include <permissions/permissionrule.h>
#include <testmain.h>

#include <QDir>
#include <QTest>

using namespace AgentCore;

namespace tst_permissionrule {

namespace {
PermissionRule rule(const QString &text)
{
    QString error;
    const std::optional<PermissionRule> parsed = PermissionRule::parse(text,
                                                                       PermissionBehavior::Allow,
                                                                       &error);
    if (!parsed)
        qWarning("%s", qPrintable(error));
    return parsed.value_or(PermissionRule{});
}
} // namespace

class tst_PermissionRule : public QObject
{
    Q_OBJECT

private slots:
    void parse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QString>("specifier");

        QTest::newRow("whole tool") << "Bash" << true << "Bash"
                                    << "";
        QTest::newRow("exact command") << "Bash(git status)" << true << "Bash"
                                       << "git status";
        QTest::newRow("prefix") << "Bash(npm test:*)" << true << "Bash"
                                << "npm test:*";
        QTest::newRow("glob") << "Edit(src/**)" << true << "Edit"
                              << "src/**";
        QTest::newRow("spaces trimmed") << "  Read( ~/notes/** ) " << true << "Read"
                                        << "~/notes/**";
        QTest::newRow("nested parentheses") << "Bash(echo $(date))" << true << "Bash"
                                            << "echo $(date)";
        QTest::newRow("empty parentheses: whole tool") << "Edit()" << true << "Edit"
                                                       << "";
        QTest::newRow("mcp name") << "mcp__github__create_issue" << true
                                  << "mcp__github__create_issue"
                                  << "";
        QTest::newRow("mcp server wildcard") << "mcp__github__*" << true << "mcp__github__*"
                                             << "";
        QTest::newRow("wildcard over built-in tools") << "B*" << false << ""
                                                      << "";
        QTest::newRow("empty") << "" << false << ""
                               << "";
        QTest::newRow("unclosed") << "Bash(git status" << false << ""
                                  << "";
        QTest::newRow("text after") << "Bash(ls) x" << false << ""
                                    << "";
        QTest::newRow("space in name") << "Bash tool" << false << ""
                                       << "";
        QTest::newRow("empty prefix") << "Bash(:*)" << false << ""
                                      << "";
    }

    void parse()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(QString, tool);
        QFETCH(QString, specifier);
        QString error;
        const std::optional<PermissionRule> parsed = PermissionRule::parse(text,
                                                                           PermissionBehavior::Deny,
                                                                           &error);
        QCOMPARE(parsed.has_value(), valid);
        if (!valid) {
            QVERIFY(error.contains(text.trimmed().isEmpty() ? QStringLiteral("\"\"") : text));
            return;
        }
        QCOMPARE(parsed->toolName, tool);
        QCOMPARE(parsed->specifier, specifier);
        QCOMPARE(parsed->behavior, PermissionBehavior::Deny);
        // toString gives back what parse reads.
        QCOMPARE(PermissionRule::parse(parsed->toString(), PermissionBehavior::Deny), parsed);
    }

    void appliesTo_data()
    {
        QTest::addColumn<QString>("rule");
        QTest::addColumn<QString>("tool");
        QTest::addColumn<bool>("applies");

        QTest::newRow("own tool") << "Bash(ls)"
                                  << "Bash" << true;
        QTest::newRow("Edit covers Write") << "Edit(src/**)"
                                           << "Write" << true;
        QTest::newRow("Write does not cover Edit") << "Write(src/**)"
                                                   << "Edit" << false;
        QTest::newRow("Read covers Grep") << "Read"
                                          << "Grep" << true;
        QTest::newRow("Read covers Glob") << "Read"
                                          << "Glob" << true;
        QTest::newRow("Read covers LS") << "Read"
                                        << "LS" << true;
        QTest::newRow("Read does not cover Edit") << "Read"
                                                  << "Edit" << false;
        QTest::newRow("Edit does not cover Bash") << "Edit"
                                                  << "Bash" << false;
        QTest::newRow("mcp tool") << "mcp__everything__echo"
                                  << "mcp__everything__echo" << true;
        QTest::newRow("mcp tool, another") << "mcp__everything__echo"
                                           << "mcp__everything__echo2" << false;
        QTest::newRow("mcp server wildcard") << "mcp__everything__*"
                                             << "mcp__everything__get-sum" << true;
        QTest::newRow("mcp server wildcard, other server") << "mcp__everything__*"
                                                           << "mcp__everything2__echo" << false;
        QTest::newRow("mcp server name") << "mcp__everything"
                                         << "mcp__everything__echo" << true;
        QTest::newRow("mcp server name, other server") << "mcp__every"
                                                       << "mcp__everything__echo" << false;
        QTest::newRow("mcp wildcard, built-in tool") << "mcp__*"
                                                     << "Bash" << false;
    }

    void appliesTo()
    {
        QFETCH(QString, rule);
        QFETCH(QString, tool);
        QFETCH(bool, applies);
        QCOMPARE(tst_permissionrule::rule(rule).appliesTo(tool), applies);
    }

    void matchesCommand_data()
    {
        QTest::addColumn<QString>("rule");
        QTest::addColumn<QStringList>("words");
        QTest::addColumn<bool>("strict");
        QTest::addColumn<bool>("lenient");

        const auto words = [](const char *text) {
            return QString::fromUtf8(text).split(QLatin1Char(' '));
        };
        QTest::newRow("exact") << "Bash(git status)" << words("git status") << true << true;
        QTest::newRow("exact, more words")
            << "Bash(git status)" << words("git status -s") << false << false;
        QTest::newRow("exact, whitespace normalised")
            << "Bash(git   status )" << words("git status") << true << true;
        QTest::newRow("prefix, same") << "Bash(npm test:*)" << words("npm test") << true << true;
        QTest::newRow("prefix, more")
            << "Bash(npm test:*)" << words("npm test -- x") << true << true;
        QTest::newRow("prefix is by word")
            << "Bash(npm test:*)" << words("npm tests") << false << false;
        QTest::newRow("prefix, other command")
            << "Bash(npm test:*)" << words("npm install") << false << false;
        QTest::newRow("quoted specifier")
            << "Bash(git commit -m 'a b')" << QStringList{"git", "commit", "-m", "a b"} << true
            << true;
        QTest::newRow("quote matters")
            << "Bash(git commit -m 'a b')" << words("git commit -m a b") << false << false;
        QTest::newRow("whole tool") << "Bash" << words("rm -rf /") << true << true;
        QTest::newRow("program path, strict")
            << "Bash(rm:*)" << words("/bin/rm -rf x") << false << true;
        QTest::newRow("sudo wrapper")
            << "Bash(rm:*)" << words("sudo -u root rm -rf x") << false << true;
        QTest::newRow("env wrapper") << "Bash(rm:*)" << words("env A=1 rm x") << false << true;
        // An allow rule never approves another program of the same name; a deny rule does.
        QTest::newRow("program path")
            << "Bash(git status)" << words("/tmp/evil/git status") << false << true;
    }

    void matchesCommand()
    {
        QFETCH(QString, rule);
        QFETCH(QStringList, words);
        QFETCH(bool, strict);
        QFETCH(bool, lenient);
        QCOMPARE(tst_permissionrule::rule(rule).matchesCommand(words), strict);
        QCOMPARE(tst_permissionrule::rule(rule).matchesCommand(words, true), lenient);
    }

    void matchesPath_data()
    {
        QTest::addColumn<QString>("rule");
        QTest::addColumn<QString>("relative");
        QTest::addColumn<QString>("absolute");
        QTest::addColumn<bool>("matches");

        const QString repo = QStringLiteral("/home/u/repo/");
        const auto in = [&repo](const char *relative) {
            return QStringList{QString::fromUtf8(relative),
                               QString(repo + QString::fromUtf8(relative))};
        };
        const auto add =
            [&](const char *name, const char *rule, const QStringList &path, bool matches) {
                QTest::newRow(name) << rule << path.at(0) << path.at(1) << matches;
            };
        add("double star", "Edit(src/**)", in("src/a/b.cpp"), true);
        add("double star, other dir", "Edit(src/**)", in("srcx/b.cpp"), false);
        add("single star stops at slash", "Edit(src/*)", in("src/a/b.cpp"), true); // via parent
        add("single star, file", "Edit(src/*.cpp)", in("src/a.cpp"), true);
        add("single star, nested file", "Edit(src/*.cpp)", in("src/a/b.cpp"), false);
        add("directory covers below", "Edit(src)", in("src/a/b.cpp"), true);
        add("trailing slash", "Edit(src/)", in("src/a.cpp"), true);
        add("name at any depth", "Edit(*.env)", in("config/prod.env"), true);
        add("name at any depth 2", "Edit(secrets)", in("a/secrets/key"), true);
        add("dot slash anchors", "Edit(./README.md)", in("docs/README.md"), false);
        add("dot slash, top", "Edit(./README.md)", in("README.md"), true);
        add("anchored path", "Edit(docs/*.md)", in("x/docs/a.md"), false);
        add("whole tool", "Edit", in("anything"), true);
        add("relative rule, outside path", "Read(**)", QStringList{"", "/etc/hosts"}, false);
        add("absolute rule", "Read(/etc/**)", QStringList{"", "/etc/hosts"}, true);
        add("absolute rule, inside path", "Edit(/home/u/repo/src/**)", in("src/a.cpp"), true);
        add("absolute rule, other", "Read(/etc/**)", QStringList{"", "/etcx/hosts"}, false);
        add("braces are literal", "Edit(src/{a,b}.cpp)", in("src/a.cpp"), false);
    }

    void matchesPath()
    {
        QFETCH(QString, rule);
        QFETCH(QString, relative);
        QFETCH(QString, absolute);
        QFETCH(bool, matches);
        QCOMPARE(tst_permissionrule::rule(rule).matchesPath(relative, absolute), matches);
    }

    void homeInRules()
    {
        const QString notes = QDir::homePath() + QStringLiteral("/notes/todo.md");
        QVERIFY(rule(QStringLiteral("Read(~/notes/**)")).matchesPath({}, notes));
        QVERIFY(!rule(QStringLiteral("Read(~/other/**)")).matchesPath({}, notes));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_PermissionRule)

} // namespace tst_permissionrule

#include "tst_permissionrule.moc"
