// The references an MCP server's configuration holds instead of secrets (issue #20):
// ${VAR}, ${VAR:-default} from the environment, ${keyring:NAME} from the keyring.
#include <mcp/mcpconfigexpansion.h>

#include <QTest>

using namespace AgentCore;

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
                                                                    &missing);
        QCOMPARE(missing,
                 QStringList({"the secret \"absent\" is not in the keyring",
                              "the variable NOT_SET is not set"}));
        QCOMPARE(expanded.env.value("A"), QString());
    }

    void textWithoutReferencesIsKept()
    {
        QStringList missing;
        QCOMPARE(McpConfigExpansion::expand("${} $ {X} ${1BAD} ${keyring:}", {}, {}, &missing),
                 QStringLiteral("${} $ {X} ${1BAD} ${keyring:}"));
        QVERIFY(missing.isEmpty());
    }
};

QTEST_GUILESS_MAIN(tst_McpConfigExpansion)
#include "tst_mcpconfigexpansion.moc"
