#include <ai/providerconfig.h>
#include <testmain.h>
#include <tools/commandenvironment.h>

#include <QTest>

using namespace AgentCore;

namespace tst_commandenvironment {

class tst_CommandEnvironment : public QObject
{
    Q_OBJECT

private slots:
    void secretNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("secret");
        for (const char *name : {"OPENAI_API_KEY",
                                 "ANTHROPIC_API_KEY",
                                 "DEEPSEEK_API_KEY",
                                 "API_KEY",
                                 "GOOGLE_APIKEY",
                                 "GITHUB_TOKEN",
                                 "GH_TOKEN",
                                 "HF_TOKEN",
                                 "AWS_SESSION_TOKEN",
                                 "AWS_SECRET_ACCESS_KEY",
                                 "AWS_ACCESS_KEY_ID",
                                 "CLIENT_SECRET",
                                 "PGPASSWORD",
                                 "DB_PASSWORD_PROD",
                                 "SMTP_PASSWD",
                                 "GPG_PASSPHRASE",
                                 "NPM_CONFIG__AUTH",
                                 "SIGNING_PRIVATE_KEY_PEM",
                                 "github_token"}) {
            QTest::newRow(name) << QString::fromLatin1(name) << true;
        }
        // What the user's terminal has and commands need.
        for (const char *name : {"PATH",
                                 "HOME",
                                 "USER",
                                 "LANG",
                                 "LC_ALL",
                                 "SHELL",
                                 "SSH_AUTH_SOCK",
                                 "SSH_AGENT_PID",
                                 "DISPLAY",
                                 "WAYLAND_DISPLAY",
                                 "DBUS_SESSION_BUS_ADDRESS",
                                 "XDG_RUNTIME_DIR",
                                 "XDG_SESSION_TYPE",
                                 "GPG_TTY",
                                 "KUBECONFIG",
                                 "GOOGLE_APPLICATION_CREDENTIALS_FILE",
                                 "TOKENIZERS_PARALLELISM",
                                 "EDITOR"}) {
            QTest::newRow(name) << QString::fromLatin1(name) << false;
        }
    }

    void secretNames()
    {
        QFETCH(QString, name);
        QFETCH(bool, secret);
        QCOMPARE(CommandEnvironment().isSecretName(name), secret);
    }

    // The names AgentDesk reads keys from (one home: ai/providerconfig.h) never reach a
    // command, even with no secret pattern at all (a user who replaced them).
    void apiKeyVariablesNeverReachACommand()
    {
        QCOMPARE(apiKeyVariables(),
                 (QStringList{QStringLiteral("OPENAI_API_KEY"),
                              QStringLiteral("ANTHROPIC_API_KEY")}));
        CommandEnvironment environment;
        environment.setSecretPatterns({});
        QProcessEnvironment system;
        system.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
        for (const QString &name : apiKeyVariables()) {
            QVERIFY2(environment.isSecretName(name), qPrintable(name));
            system.insert(name, QStringLiteral("sk-") + name.toLower());
        }
        QStringList removed;
        const QProcessEnvironment command = environment.apply(system, &removed);
        QCOMPARE(command.keys(), QStringList{QStringLiteral("PATH")});
        QStringList expected = apiKeyVariables();
        expected.sort();
        QCOMPARE(removed, expected);
    }

    // The user's patterns are whole-name wildcards: * and ? only, case-insensitive; every other
    // character stands for itself (a dot is a dot).
    void wildcardPatterns_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("matches");
        QTest::newRow("exact") << "DATABASE_URL"
                               << "DATABASE_URL" << true;
        QTest::newRow("no prefix match") << "DATABASE_URL"
                                         << "DATABASE_URL_RO" << false;
        QTest::newRow("case") << "my_*"
                              << "MY_LOGIN" << true;
        QTest::newRow("star empty") << "*_KEY"
                                    << "_KEY" << true;
        QTest::newRow("star needs suffix") << "*_KEY"
                                           << "KEY" << false;
        QTest::newRow("two stars") << "*DB*PASS*"
                                   << "PROD_DB_MAIN_PASS_2" << true;
        QTest::newRow("two stars, order") << "*DB*PASS*"
                                          << "PASS_DB" << false;
        QTest::newRow("star backtracks") << "*AB"
                                         << "AAB" << true;
        QTest::newRow("star backtracks twice") << "*A*AB"
                                               << "XAYAAB" << true;
        QTest::newRow("question one") << "KEY?"
                                      << "KEY1" << true;
        QTest::newRow("question not zero") << "KEY?"
                                           << "KEY" << false;
        QTest::newRow("question not two") << "KEY?"
                                          << "KEY12" << false;
        QTest::newRow("dot is a dot") << "A.B"
                                      << "AXB" << false;
        QTest::newRow("dot matches dot") << "A.B"
                                         << "A.B" << true;
        QTest::newRow("plus is a plus") << "A+"
                                        << "AA" << false;
        QTest::newRow("brackets") << "[AB]"
                                  << "A" << false;
        QTest::newRow("only stars") << "**"
                                    << "ANYTHING" << true;
        QTest::newRow("empty pattern") << ""
                                       << "X" << false;
    }

    void wildcardPatterns()
    {
        QFETCH(QString, pattern);
        QFETCH(QString, name);
        QFETCH(bool, matches);
        CommandEnvironment environment;
        environment.setSecretPatterns({pattern});
        QCOMPARE(environment.isSecretName(name), matches);
        QProcessEnvironment system;
        system.insert(name, QStringLiteral("v"));
        system.insert(QStringLiteral("PATH"), QStringLiteral("/bin"));
        QCOMPARE(environment.apply(system).contains(name), !matches);
    }

    void passedAndSecretNames()
    {
        CommandEnvironment environment;
        environment.setPassedPatterns({QStringLiteral("GH_TOKEN"),
                                       QStringLiteral("NPM_*"),
                                       QStringLiteral("OPENAI_API_KEY"),
                                       QStringLiteral("MY_LLM_KEY")});
        environment.addSecretNames({QStringLiteral("MY_LLM_KEY"), QStringLiteral("RUN_KEY_HOLDER")});
        QVERIFY(!environment.isSecretName(QStringLiteral("GH_TOKEN")));
        QVERIFY(!environment.isSecretName(QStringLiteral("NPM_TOKEN")));
        QVERIFY(environment.isSecretName(QStringLiteral("GITHUB_TOKEN")));
        // A known provider key the user wants passed (another provider's, say) is passed ...
        QVERIFY(!environment.isSecretName(QStringLiteral("OPENAI_API_KEY")));
        // ... but never the run's own key variable, nor an exotic name it was given.
        QVERIFY(environment.isSecretName(QStringLiteral("MY_LLM_KEY")));
        QVERIFY(environment.isSecretName(QStringLiteral("RUN_KEY_HOLDER")));

        environment.setSecretPatterns({QStringLiteral("DATABASE_URL")});
        QVERIFY(environment.isSecretName(QStringLiteral("DATABASE_URL")));
        QVERIFY(!environment.isSecretName(QStringLiteral("GITHUB_TOKEN")));
        QVERIFY(environment.isSecretName(QStringLiteral("ANTHROPIC_API_KEY")));
    }

    void secretValuesGoToo()
    {
        QProcessEnvironment system;
        system.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
        system.insert(QStringLiteral("HOME"), QStringLiteral("/home/ada"));
        system.insert(QStringLiteral("OPENAI_API_KEY"), QStringLiteral("sk-openai-12345678"));
        system.insert(QStringLiteral("KEY_COPY"), QStringLiteral("sk-openai-12345678"));
        system.insert(QStringLiteral("PROXY_URL"),
                      QStringLiteral("https://u:sk-openai-12345678@proxy.example"));
        system.insert(QStringLiteral("MY_LLM"), QStringLiteral("run-key-abcdefgh"));
        system.insert(QStringLiteral("RUN_KEY_COPY"), QStringLiteral("run-key-abcdefgh"));
        system.insert(QStringLiteral("SHORT"), QStringLiteral("x"));
        system.insert(QStringLiteral("HAS_X"), QStringLiteral("xyz"));
        system.insert(QStringLiteral("EMPTY_TOKEN"), QString());
        system.insert(QStringLiteral("EMPTY"), QString());

        CommandEnvironment environment;
        environment.addSecretNames({QStringLiteral("MY_LLM")});
        environment.addSecretValues({QStringLiteral("x")}); // a local server's dummy key
        QStringList removed;
        const QProcessEnvironment result = environment.apply(system, &removed);
        QCOMPARE(removed,
                 QStringList({"EMPTY_TOKEN",
                              "KEY_COPY",
                              "MY_LLM",
                              "OPENAI_API_KEY",
                              "PROXY_URL",
                              "RUN_KEY_COPY",
                              "SHORT"}));
        QCOMPARE(result.keys(), QStringList({"EMPTY", "HAS_X", "HOME", "PATH"}));
        QCOMPARE(result.value(QStringLiteral("HOME")), QStringLiteral("/home/ada"));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_CommandEnvironment)

} // namespace tst_commandenvironment

#include "tst_commandenvironment.moc"
