// The references an MCP server's configuration holds instead of secrets (issue #20):
// ${VAR}, ${VAR:-default} from the environment, ${keyring:NAME} from the keyring; in the command,
// args, env, url and headers; never a model provider's key (issue #31).
#include <mcp/mcpconfigexpansion.h>
#include <testmain.h>
#include <tools/commandenvironment.h>

#include <QTest>

using namespace AgentCore;

namespace tst_mcpconfigexpansion {

class tst_McpConfigExpansion : public QObject
{
    Q_OBJECT

private slots:
    void expandsEveryField()
    {
        McpServerConfig config;
        config.name = "github";
        config.type = "stdio";
        config.command = "${HOME}/bin/server";
        config.args = {"--token=${keyring:github}", "--mode=${MODE:-fast}", "plain $HOME"};
        config.env = {{"GITHUB_TOKEN", "${keyring:github}"}, {"PROXY", "${PROXY}"}};
        QProcessEnvironment environment;
        environment.insert("HOME", "/home/ada");
        environment.insert("PROXY", "http://proxy:3128");
        QStringList missing;
        const McpServerConfig expanded = McpConfigExpansion::expand(config,
                                                                    environment,
                                                                    {{"github", "ghp_secret"}},
                                                                    CommandEnvironment(),
                                                                    &missing);
        QVERIFY2(missing.isEmpty(), qPrintable(missing.join("; ")));
        QCOMPARE(expanded.command, QStringLiteral("/home/ada/bin/server"));
        QCOMPARE(expanded.args, QStringList({"--token=ghp_secret", "--mode=fast", "plain $HOME"}));
        QCOMPARE(expanded.env.value("GITHUB_TOKEN"), QStringLiteral("ghp_secret"));
        QCOMPARE(expanded.env.value("PROXY"), QStringLiteral("http://proxy:3128"));
        QCOMPARE(McpConfigExpansion::keyringNames(config), QStringList{"github"});
        // The configuration keeps its references: only the started copy holds the secret.
        QCOMPARE(config.env.value("GITHUB_TOKEN"), QStringLiteral("${keyring:github}"));
    }

    void missingReferencesAreNamed()
    {
        McpServerConfig config;
        config.command = "server";
        config.env = {{"A", "${keyring:absent}"}, {"B", "${NOT_SET}"}, {"C", "${NOT_SET}"}};
        QStringList missing;
        const McpServerConfig expanded = McpConfigExpansion::expand(config,
                                                                    QProcessEnvironment(),
                                                                    {},
                                                                    CommandEnvironment(),
                                                                    &missing);
        QCOMPARE(missing,
                 QStringList({"the secret \"absent\" is not in the keyring",
                              "the variable NOT_SET is not set"}));
        QCOMPARE(expanded.env.value("A"), QString());
    }

    void textWithoutReferencesIsKept()
    {
        QStringList missing;
        QCOMPARE(McpConfigExpansion::expand("${} $ {X} ${1BAD} ${keyring:}",
                                            {},
                                            {},
                                            CommandEnvironment(),
                                            &missing),
                 QStringLiteral("${} $ {X} ${1BAD} ${keyring:}"));
        QVERIFY(missing.isEmpty());
    }

    // Issue #31: the url and the headers too, as Claude Code's .mcp.json.
    void expandsUrlAndHeaders()
    {
        McpServerConfig config;
        config.type = "http";
        config.url = "https://${HOST:-mcp.example.org}/mcp";
        config.headers = {{"Authorization", "Bearer ${GITHUB_TOKEN}"}, {"X-Plain", "plain"}};
        QProcessEnvironment environment;
        environment.insert("GITHUB_TOKEN", "ghp_users_own_token");
        QStringList problems;
        const McpServerConfig expanded = McpConfigExpansion::expand(config,
                                                                    environment,
                                                                    {},
                                                                    CommandEnvironment(),
                                                                    &problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join("; ")));
        QCOMPARE(expanded.url, QStringLiteral("https://mcp.example.org/mcp"));
        // A token named like a secret is the user's choice for the server: it is expanded.
        QCOMPARE(expanded.headers.value("Authorization"),
                 QStringLiteral("Bearer ghp_users_own_token"));
        QCOMPARE(expanded.headers.value("X-Plain"), QStringLiteral("plain"));

        // The file's check takes a reference for a word of the URL.
        const McpConfig file = McpConfig::parse(
            "{\"mcpServers\": {\"remote\": {\"type\": \"http\", \"url\": "
            "\"https://${HOST:-mcp.example.org}/mcp\", \"headers\": {\"Authorization\": "
            "\"Bearer ${GITHUB_TOKEN}\"}}}}",
            "mcp.json");
        QVERIFY2(file.problems.isEmpty(), qPrintable(file.problems.join("; ")));
        QCOMPARE(file.servers.size(), 1);
        QCOMPARE(file.servers.first().url, config.url);
    }

    // What a variable brings is checked as the file's text was: a header stays one line, the
    // url an http(s) URL.
    void expandedValuesAreCheckedAgain()
    {
        McpServerConfig config;
        config.type = "http";
        config.url = "${BAD_URL}";
        config.headers = {{"X-Token", "${TWO_LINES}"}};
        QProcessEnvironment environment;
        environment.insert("BAD_URL", "file:///etc/passwd");
        environment.insert("TWO_LINES", "a\r\nX-Injected: yes");
        QStringList problems;
        McpConfigExpansion::expand(config, environment, {}, CommandEnvironment(), &problems);
        QCOMPARE(problems,
                 QStringList({"the header X-Token holds a line break once expanded",
                              "the url is no http or https URL once expanded"}));
    }

    // Issue #31: a model provider's key (the variables AgentDesk reads one from, the run's
    // --api-key-env variable, or a variable holding such a key) is never expanded, in any
    // field, set or not, with a default or not; the problem names the variable and why.
    void providerKeysAreNeverExpanded_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("reference");
        QTest::addColumn<QString>("named");
        for (const QString field : {"command", "args", "env", "url", "headers"}) {
            QTest::addRow("%s: ANTHROPIC_API_KEY", qPrintable(field))
                << field << "${ANTHROPIC_API_KEY}"
                << "ANTHROPIC_API_KEY is a model provider's key";
            QTest::addRow("%s: OPENAI_API_KEY with a default", qPrintable(field))
                << field << "${OPENAI_API_KEY:-none}"
                << "OPENAI_API_KEY is a model provider's key";
            QTest::addRow("%s: the --api-key-env variable", qPrintable(field))
                << field << "${MY_LLM_KEY}"
                << "MY_LLM_KEY is a model provider's key";
            QTest::addRow("%s: a copy of a key", qPrintable(field))
                << field << "${INNOCENT}"
                << "INNOCENT holds the value of ANTHROPIC_API_KEY, a model provider's key";
        }
    }

    void providerKeysAreNeverExpanded()
    {
        QFETCH(QString, field);
        QFETCH(QString, reference);
        QFETCH(QString, named);
        QProcessEnvironment environment;
        environment.insert("ANTHROPIC_API_KEY", "sk-ant-provider-key-1234");
        environment.insert("OPENAI_API_KEY", "sk-openai-provider-key-1234");
        environment.insert("MY_LLM_KEY", "sk-run-key-5678");
        environment.insert("INNOCENT", "prefix-sk-ant-provider-key-1234");
        CommandEnvironment filter;
        filter.addSecretNames({"MY_LLM_KEY"}); // what --api-key-env MY_LLM_KEY adds
        McpServerConfig config;
        config.command = "server";
        const QString text = "--key=" + reference;
        if (field == "command")
            config.command = text;
        else if (field == "args")
            config.args = {"--verbose", text};
        else if (field == "env")
            config.env = {{"SERVER_KEY", text}};
        else if (field == "url")
            config.url = "https://example.org/mcp?" + text;
        else
            config.headers = {{"Authorization", text}};
        QStringList problems;
        const McpServerConfig expanded = McpConfigExpansion::expand(config,
                                                                    environment,
                                                                    {},
                                                                    filter,
                                                                    &problems);
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.first().startsWith(named), qPrintable(problems.first()));
        QVERIFY2(problems.first().contains("never gives to an MCP server"),
                 qPrintable(problems.first()));
        // Nothing of a key in what would have started, and none in the message.
        const QString everything = expanded.command + expanded.args.join(' ') + expanded.url
                                   + QStringList(expanded.env.values()).join(' ')
                                   + QStringList(expanded.headers.values()).join(' ');
        QVERIFY2(!everything.contains("provider-key") && !everything.contains("run-key")
                     && !everything.contains("none"),
                 qPrintable(everything));
        QVERIFY(!problems.first().contains("provider-key"));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_McpConfigExpansion)

} // namespace tst_mcpconfigexpansion

#include "tst_mcpconfigexpansion.moc"
