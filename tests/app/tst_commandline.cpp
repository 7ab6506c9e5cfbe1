#include "commandline.h"

#include <QDir>
#include <QTest>
#include <testmain.h>

namespace tst_commandline {

using AgentCore::PermissionMode;
using AgentCore::ToolKind;
using App::CommandLine;
using App::OutputFormat;
using App::PrintOptions;
using App::SessionChoice;

namespace {

QStringList ruleTexts(const QList<AgentCore::PermissionRule> &rules)
{
    QStringList texts;
    for (const AgentCore::PermissionRule &rule : rules) {
        if (rule.behavior != AgentCore::PermissionBehavior::Allow)
            texts.append(QStringLiteral("not an allow rule: ") + rule.toString());
        else
            texts.append(rule.toString());
    }
    return texts;
}

PrintOptions printOptions(const QStringList &arguments)
{
    return CommandLine::parse(QStringList{QStringLiteral("agentdesk")} + arguments).print;
}

} // namespace

class tst_CommandLine : public QObject
{
    Q_OBJECT
private slots:
    void parse_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("action");
        QTest::addColumn<QString>("repository");
        QTest::addColumn<QString>("output");

        const QString cwd = QDir::currentPath();
        const auto run = int(CommandLine::Action::Run);
        QTest::newRow("no arguments") << QStringList() << run << cwd << QString();
        QTest::newRow("repository") << QStringList{QStringLiteral("/src/calc")} << run
                                    << QStringLiteral("/src/calc") << QString();
        QTest::newRow("version") << QStringList{QStringLiteral("--version")}
                                 << int(CommandLine::Action::ShowVersion) << QString()
                                 << QStringLiteral("agentdesk " AGENTDESK_VERSION "\n");
        QTest::newRow("unknown option")
            << QStringList{QStringLiteral("--frobnicate")} << int(CommandLine::Action::Fail)
            << QString() << QStringLiteral("Unknown option 'frobnicate'.");
        QTest::newRow("two repositories")
            << QStringList{QStringLiteral("a"), QStringLiteral("b")}
            << int(CommandLine::Action::Fail) << QString()
            << QStringLiteral("Only one repository can be opened, got 2.");
    }

    void parse()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, action);
        QFETCH(QString, repository);
        QFETCH(QString, output);
        const CommandLine result = CommandLine::parse(QStringList{QStringLiteral("agentdesk")}
                                                      + arguments);
        QCOMPARE(int(result.action), action);
        QCOMPARE(result.repository, repository);
        if (!output.isNull())
            QCOMPARE(result.output, output);
    }

    void windowTakesTheAgentOptions()
    {
        const CommandLine result = CommandLine::parse({"agentdesk",
                                                       "--provider",
                                                       "anthropic",
                                                       "--model",
                                                       "claude-opus-4-1",
                                                       "--permission-mode",
                                                       "plan",
                                                       "--allowed-tools",
                                                       "Bash(git status)",
                                                       "--tools",
                                                       "Read,Grep",
                                                       "/src/calc"});
        QCOMPARE(int(result.action), int(CommandLine::Action::Run));
        QCOMPARE(result.repository, QStringLiteral("/src/calc"));
        QCOMPARE(result.print.provider, QStringLiteral("anthropic"));
        QCOMPARE(result.print.model, QStringLiteral("claude-opus-4-1"));
        QCOMPARE(result.print.apiKeyEnv, QStringLiteral("ANTHROPIC_API_KEY"));
        QCOMPARE(result.print.permissionMode, std::optional(AgentCore::PermissionMode::Plan));
        QCOMPARE(result.print.allowedTools.size(), 1);
        QCOMPARE(result.print.tools, std::optional(QList<ToolKind>{ToolKind::Read, ToolKind::Grep}));
        QVERIFY(result.print.prompt.isEmpty());
        QVERIFY(result.print.modelGiven);
    }

    void windowWithoutAModelUsesItsSettings_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<bool>("modelGiven");
        QTest::newRow("nothing") << QStringList{"/src/calc"} << false;
        QTest::newRow("permission mode only")
            << QStringList{"--permission-mode", "plan", "/src/calc"} << false;
        QTest::newRow("model") << QStringList{"--model", "gpt-5-mini"} << true;
        QTest::newRow("base url") << QStringList{"--base-url",
                                                 "http://localhost:11434/v1",
                                                 "--model",
                                                 "qwen3"}
                                  << true;
        QTest::newRow("key variable") << QStringList{"--api-key-env", "MY_KEY"} << true;
    }

    void windowWithoutAModelUsesItsSettings()
    {
        QFETCH(QStringList, arguments);
        QFETCH(bool, modelGiven);
        const CommandLine result = CommandLine::parse(QStringList{QStringLiteral("agentdesk")}
                                                      + arguments);
        QCOMPARE(int(result.action), int(CommandLine::Action::Run));
        QCOMPARE(result.print.modelGiven, modelGiven);
    }

    void printErrors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("error");

        const auto print = [](QStringList more) {
            return QStringList{QStringLiteral("--print"), QStringLiteral("fix the bug")} + more;
        };
        QTest::newRow("no prompt") << QStringList{"--print"} << "Missing value after '--print'.";
        QTest::newRow("empty prompt")
            << QStringList{"--print", "  "} << "The prompt given to --print is empty.";
        QTest::newRow("format without print") << QStringList{"--output-format", "text"}
                                              << "--output-format is only used with --print.";
        QTest::newRow("window: unknown mode")
            << QStringList{"--permission-mode", "yolo"}
            << "Unknown permission mode \"yolo\": use default, acceptEdits, plan or bypass.";
        QTest::newRow("unknown provider")
            << print({"--provider", "gemini"})
            << "Unknown provider \"gemini\" for --provider: use openai, anthropic or "
               "openai-responses.";
        QTest::newRow("base url without scheme")
            << print({"--base-url", "localhost:8080/v1", "--model", "m"})
            << "--base-url needs an http or https URL such as http://localhost:8080/v1, got "
               "\"localhost:8080/v1\".";
        QTest::newRow("base url ftp")
            << print({"--base-url", "ftp://example.com/v1", "--model", "m"})
            << "--base-url needs an http or https URL such as http://localhost:8080/v1, got "
               "\"ftp://example.com/v1\".";
        QTest::newRow("base url needs a model")
            << print({"--base-url", "http://localhost:8080/v1"})
            << "--model is needed with --base-url: name the model as that server knows it "
               "(e.g. --model qwen3-coder).";
        QTest::newRow("max turns zero")
            << print({"--max-turns", "0"})
            << "--max-turns takes a whole number of at least 1, got \"0\".";
        QTest::newRow("max turns word")
            << print({"--max-turns", "many"})
            << "--max-turns takes a whole number of at least 1, got \"many\".";
        QTest::newRow("unknown mode")
            << print({"--permission-mode", "yolo"})
            << "Unknown permission mode \"yolo\": use default, acceptEdits, plan or bypass.";
        QTest::newRow("unknown format")
            << print({"--output-format", "json"})
            << "Unknown output format \"json\": use text or stream-json.";
        QTest::newRow("unbalanced rule")
            << print({"--allowed-tools", "Bash(git status"})
            << "Unbalanced parentheses in --allowed-tools \"Bash(git status\". Quote a rule "
               "with spaces, e.g. --allowed-tools \"Bash(git status)\".";
        QTest::newRow("unknown tool")
            << print({"--tools", "Read,Fetch"})
            << "Unknown tool \"Fetch\" in --tools: use Read, Glob, Grep, LS, Edit, Write or Bash "
               "(or \"default\" for all of them).";
        QTest::newRow("repository twice")
            << print({"--repo", "/src/a", "/src/b"})
            << "Give the repository once: as an argument or with --repo, not both.";
        QTest::newRow("continue without print")
            << QStringList{"--continue"} << "--continue is only used with --print.";
        QTest::newRow("resume without print") << QStringList{"-r", "20250314-101500-123-a1b2"}
                                              << "--resume is only used with --print.";
        QTest::newRow("no persistence without print") << QStringList{"--no-session-persistence"}
                                                      << "--no-session-persistence is only used "
                                                         "with --print.";
        QTest::newRow("continue and resume")
            << print({"-c", "--resume", "20250314-101500-123-a1b2"})
            << "Give either --continue or --resume, not both.";
        QTest::newRow("resume an empty id")
            << print({"--resume", " "}) << "--resume needs the id of a session.";
        QTest::newRow("unknown server profile")
            << print({"--base-url",
                      "http://localhost:8000/v1",
                      "--model",
                      "m",
                      "--server-profile",
                      "tgi"})
            << "Unknown server profile \"tgi\" for --server-profile: use generic, openai, "
               "deepseek, openrouter, mistral, llamacpp, ollama, vllm, lmstudio, moonshot.";
        QTest::newRow("server profile for anthropic")
            << print({"--provider", "anthropic", "--server-profile", "vllm"})
            << "--server-profile is for Chat Completions servers (--provider openai), not "
               "--provider anthropic.";
        QTest::newRow("screenshot with print")
            << print({"--screenshot", "/tmp/x.png"})
            << "--screenshot needs the window: it cannot be used with --print.";
    }

    void printErrors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, error);
        const CommandLine result = CommandLine::parse(QStringList{QStringLiteral("agentdesk")}
                                                      + arguments);
        QCOMPARE(int(result.action), int(CommandLine::Action::Fail));
        QCOMPARE(result.output, error);
    }

    void invalidRuleNamesTheRule()
    {
        const CommandLine result = CommandLine::parse(
            {"agentdesk", "--print", "go", "--allowed-tools", "Read, (oops)"});
        QCOMPARE(int(result.action), int(CommandLine::Action::Fail));
        QVERIFY2(result.output.startsWith(
                     QStringLiteral("Invalid rule \"(oops)\" in --allowed-tools: ")),
                 qPrintable(result.output));
    }

    void toolsChooseTheBuiltInTools_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("all");
        QTest::addColumn<QList<ToolKind>>("tools");
        QTest::newRow("names in any case, commas and spaces")
            << "read, GREP Edit,Bash" << false
            << QList<ToolKind>{ToolKind::Read, ToolKind::Grep, ToolKind::Edit, ToolKind::Bash};
        QTest::newRow("a name twice counts once")
            << "LS,ls" << false << QList<ToolKind>{ToolKind::Ls};
        QTest::newRow("empty: no tools at all") << "" << false << QList<ToolKind>{};
        QTest::newRow("default: every tool") << "default" << true << QList<ToolKind>{};
    }

    void toolsChooseTheBuiltInTools()
    {
        QFETCH(QString, value);
        QFETCH(bool, all);
        QFETCH(QList<ToolKind>, tools);
        const CommandLine result = CommandLine::parse({QStringLiteral("agentdesk"),
                                                       QStringLiteral("-p"),
                                                       QStringLiteral("go"),
                                                       QStringLiteral("--tools"),
                                                       value});
        QCOMPARE(int(result.action), int(CommandLine::Action::Print));
        QCOMPARE(result.print.tools.has_value(), !all);
        if (!all)
            QCOMPARE(*result.print.tools, tools);
    }

    void printDefaults()
    {
        const CommandLine result = CommandLine::parse({"agentdesk", "-p", "fix the bug"});
        QCOMPARE(int(result.action), int(CommandLine::Action::Print));
        QCOMPARE(result.repository, QDir::currentPath());
        const PrintOptions &print = result.print;
        QCOMPARE(print.prompt, QStringLiteral("fix the bug"));
        QCOMPARE(print.provider, QStringLiteral("openai"));
        QCOMPARE(print.baseUrl, QUrl(QStringLiteral("https://api.openai.com/v1")));
        QCOMPARE(print.model, QStringLiteral("gpt-5"));
        QCOMPARE(print.apiKeyEnv, QStringLiteral("OPENAI_API_KEY"));
        QCOMPARE(print.maxTurns, 0);
        QVERIFY(!print.permissionMode);
        QVERIFY(print.allowedTools.isEmpty());
        QVERIFY(!print.tools);
        QCOMPARE(int(print.outputFormat), int(OutputFormat::Text));
    }

    void sessionOptions_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("session");
        QTest::addColumn<QString>("resumeId");
        QTest::addColumn<bool>("persist");
        QTest::newRow("new") << QStringList{} << int(SessionChoice::New) << QString() << true;
        QTest::newRow("continue") << QStringList{"--continue"} << int(SessionChoice::Continue)
                                  << QString() << true;
        QTest::newRow("-c") << QStringList{"-c"} << int(SessionChoice::Continue) << QString()
                            << true;
        QTest::newRow("resume") << QStringList{"--resume", "20250314-101500-123-a1b2"}
                                << int(SessionChoice::Resume)
                                << QStringLiteral("20250314-101500-123-a1b2") << true;
        QTest::newRow("-r without persistence")
            << QStringList{"-r", "/data/s.jsonl", "--no-session-persistence"}
            << int(SessionChoice::Resume) << QStringLiteral("/data/s.jsonl") << false;
        QTest::newRow("no persistence") << QStringList{"--no-session-persistence"}
                                        << int(SessionChoice::New) << QString() << false;
    }

    void sessionOptions()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, session);
        QFETCH(QString, resumeId);
        QFETCH(bool, persist);
        const CommandLine result = CommandLine::parse(QStringList{"agentdesk", "-p", "go"}
                                                      + arguments);
        QCOMPARE(int(result.action), int(CommandLine::Action::Print));
        QCOMPARE(int(result.print.session), session);
        QCOMPARE(result.print.resumeId, resumeId);
        QCOMPARE(result.print.persistSession, persist);
    }

    void anthropicDefaults()
    {
        const PrintOptions print = printOptions(
            {"--print", "go", "--provider", "anthropic", "--base-url", "http://127.0.0.1:9"});
        QCOMPARE(print.baseUrl, QUrl(QStringLiteral("http://127.0.0.1:9")));
        QCOMPARE(print.model, QStringLiteral("claude-sonnet-4-5"));
        QCOMPARE(print.apiKeyEnv, QStringLiteral("ANTHROPIC_API_KEY"));
    }

    void printEverything()
    {
        const CommandLine result = CommandLine::parse({"agentdesk",
                                                       "--print",
                                                       "go",
                                                       "--repo",
                                                       "/src/calc",
                                                       "--provider",
                                                       "openai-responses",
                                                       "--base-url",
                                                       "http://localhost:8080/v1",
                                                       "--model",
                                                       "qwen3-coder",
                                                       "--api-key-env",
                                                       "MY_KEY",
                                                       "--max-turns",
                                                       "7",
                                                       "--permission-mode",
                                                       "acceptEdits",
                                                       "--allowed-tools",
                                                       "Bash(git status), Edit",
                                                       "--allowed-tools",
                                                       "Read",
                                                       "--output-format",
                                                       "stream-json"});
        QCOMPARE(int(result.action), int(CommandLine::Action::Print));
        QCOMPARE(result.repository, QStringLiteral("/src/calc"));
        const PrintOptions &print = result.print;
        QCOMPARE(print.provider, QStringLiteral("openai-responses"));
        QCOMPARE(print.baseUrl, QUrl(QStringLiteral("http://localhost:8080/v1")));
        QCOMPARE(print.model, QStringLiteral("qwen3-coder"));
        QCOMPARE(print.apiKeyEnv, QStringLiteral("MY_KEY"));
        QCOMPARE(print.maxTurns, 7);
        QCOMPARE(print.permissionMode, std::optional(PermissionMode::AcceptEdits));
        QCOMPARE(ruleTexts(print.allowedTools), (QStringList{"Bash(git status)", "Edit", "Read"}));
        QCOMPARE(int(print.outputFormat), int(OutputFormat::StreamJson));
    }

    void permissionModes_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("mode");
        QTest::newRow("default") << "default" << int(PermissionMode::Default);
        QTest::newRow("acceptEdits") << "acceptEdits" << int(PermissionMode::AcceptEdits);
        QTest::newRow("plan") << "plan" << int(PermissionMode::Plan);
        QTest::newRow("bypass") << "bypass" << int(PermissionMode::Bypass);
        QTest::newRow("claude spelling") << "bypassPermissions" << int(PermissionMode::Bypass);
    }

    void permissionModes()
    {
        QFETCH(QString, text);
        QFETCH(int, mode);
        const PrintOptions print = printOptions({"--print", "go", "--permission-mode", text});
        QVERIFY(print.permissionMode);
        QCOMPARE(int(*print.permissionMode), mode);
    }

    // The command line's default key variable per provider is apiKeyVariable() (one home,
    // ai/providerconfig.h, shared with the model settings and the Bash scrubbing), its help
    // names every such variable, and a run's commands never see any of them.
    void apiKeyVariables_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<int>("api");
        QTest::newRow("openai") << "openai" << int(AgentCore::WireApi::OpenAiChat);
        QTest::newRow("anthropic") << "anthropic" << int(AgentCore::WireApi::AnthropicMessages);
        QTest::newRow("openai-responses")
            << "openai-responses" << int(AgentCore::WireApi::OpenAiResponses);
    }

    void apiKeyVariables()
    {
        QFETCH(QString, provider);
        QFETCH(int, api);
        const PrintOptions print = printOptions({"--print", "go", "--provider", provider});
        QCOMPARE(print.apiKeyEnv, AgentCore::apiKeyVariable(AgentCore::WireApi(api)));
        QVERIFY(AgentCore::apiKeyVariables().contains(print.apiKeyEnv));

        QProcessEnvironment system;
        system.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin"));
        for (const QString &name : AgentCore::apiKeyVariables())
            system.insert(name, QStringLiteral("sk-some-key-of-") + name);
        const QProcessEnvironment command = print.commandEnvironment(system).apply(system);
        QCOMPARE(command.keys(), QStringList{QStringLiteral("PATH")});

        const QString help
            = CommandLine::parse({QStringLiteral("agentdesk"), QStringLiteral("--help")}).output;
        for (const QString &name : AgentCore::apiKeyVariables())
            QVERIFY2(help.contains(name), qPrintable(name));
    }

    void commandEnvironment()
    {
        const CommandLine result = CommandLine::parse(
            {"agentdesk", "--print", "go", "--api-key-env", "LLM_GATEWAY"});
        QProcessEnvironment env;
        env.insert(QStringLiteral("AGENTDESK_PASS_ENV"), QStringLiteral("GH_TOKEN, NPM_*:X_KEY"));
        env.insert(QStringLiteral("AGENTDESK_SECRET_ENV"), QStringLiteral("DATABASE_URL *_DSN"));
        const AgentCore::CommandEnvironment commands = result.print.commandEnvironment(env);
        QVERIFY(commands.isSecretName(QStringLiteral("LLM_GATEWAY")));
        QVERIFY(commands.isSecretName(QStringLiteral("OPENAI_API_KEY")));
        QVERIFY(commands.isSecretName(QStringLiteral("GITHUB_TOKEN")));
        QVERIFY(commands.isSecretName(QStringLiteral("DATABASE_URL")));
        QVERIFY(commands.isSecretName(QStringLiteral("SENTRY_DSN")));
        QVERIFY(!commands.isSecretName(QStringLiteral("GH_TOKEN")));
        QVERIFY(!commands.isSecretName(QStringLiteral("NPM_TOKEN")));
        QVERIFY(!commands.isSecretName(QStringLiteral("X_KEY")));
        QVERIFY(!commands.isSecretName(QStringLiteral("PATH")));
    }

    void providerConfig_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QStringList>("environment");
        QTest::addColumn<QString>("apiKey"); // null: an error is expected
        QTest::addColumn<QString>("error");

        QTest::newRow("openai key")
            << QStringList{} << QStringList{"OPENAI_API_KEY=sk-1"} << "sk-1" << QString();
        QTest::newRow("anthropic key")
            << QStringList{"--provider", "anthropic"}
            << QStringList{"OPENAI_API_KEY=sk-1", "ANTHROPIC_API_KEY=sk-ant"} << "sk-ant"
            << QString();
        QTest::newRow("named variable") << QStringList{"--api-key-env", "MY_KEY"}
                                        << QStringList{"MY_KEY=k"} << "k" << QString();
        QTest::newRow("missing key")
            << QStringList{} << QStringList{} << QString()
            << "No API key: OPENAI_API_KEY is not set. Set it, or name the variable that holds "
               "the key with --api-key-env.";
        QTest::newRow("missing named key")
            << QStringList{"--api-key-env", "MY_KEY"} << QStringList{"OPENAI_API_KEY=sk-1"}
            << QString()
            << "No API key: MY_KEY is not set. Set it, or name the variable that holds the key "
               "with --api-key-env.";
        QTest::newRow("remote server needs a key")
            << QStringList{"--base-url", "https://llm.example.com/v1", "--model", "m"}
            << QStringList{} << QString()
            << "No API key: OPENAI_API_KEY is not set. Set it, or name the variable that holds "
               "the key with --api-key-env.";
        QTest::newRow("localhost needs none")
            << QStringList{"--base-url", "http://localhost:11434/v1", "--model", "m"}
            << QStringList{} << "" << QString();
        QTest::newRow("loopback needs none")
            << QStringList{"--base-url", "http://127.0.0.1:8080/v1", "--model", "m"}
            << QStringList{} << "" << QString();
        QTest::newRow("ipv6 loopback needs none")
            << QStringList{"--base-url", "http://[::1]:8080/v1", "--model", "m"} << QStringList{}
            << "" << QString();
    }

    void providerConfig()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QStringList, environment);
        QFETCH(QString, apiKey);
        QFETCH(QString, error);
        const CommandLine result = CommandLine::parse(QStringList{"agentdesk", "--print", "go"}
                                                      + arguments);
        QCOMPARE(int(result.action), int(CommandLine::Action::Print));
        QProcessEnvironment env;
        for (const QString &entry : environment)
            env.insert(entry.section(u'=', 0, 0), entry.section(u'=', 1));

        QString actualError;
        const auto config = result.print.providerConfig(env, &actualError);
        if (apiKey.isNull()) {
            QVERIFY(!config);
            QCOMPARE(actualError, error);
            return;
        }
        QVERIFY2(config, qPrintable(actualError));
        QCOMPARE(config->apiKey, apiKey);
        QCOMPARE(config->model, result.print.model);
        QCOMPARE(config->baseUrl, result.print.baseUrl);
        QCOMPARE(config->api,
                 result.print.provider == QLatin1String("anthropic")
                     ? AgentCore::WireApi::AnthropicMessages
                     : AgentCore::WireApi::OpenAiChat);
    }

    // The profile a run's requests follow: named with --server-profile, else from the base
    // URL; a server the URL does not name gets the generic one, whatever --provider says.
    void serverProfile_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("profile");
        QTest::newRow("openai") << QStringList{} << "openai";
        QTest::newRow("deepseek") << QStringList{"--base-url",
                                                 "https://api.deepseek.com/v1",
                                                 "--model",
                                                 "m"}
                                  << "deepseek";
        QTest::newRow("ollama's port")
            << QStringList{"--base-url", "http://localhost:11434/v1", "--model", "m"} << "ollama";
        QTest::newRow("unknown") << QStringList{"--base-url",
                                                "http://127.0.0.1:9999/v1",
                                                "--model",
                                                "m"}
                                 << "generic";
        QTest::newRow("named") << QStringList{"--base-url",
                                              "http://127.0.0.1:9999/v1",
                                              "--model",
                                              "m",
                                              "--server-profile",
                                              "vLLM"}
                               << "vllm";
        QTest::newRow("named over the url") << QStringList{"--base-url",
                                                           "http://localhost:8080/v1",
                                                           "--model",
                                                           "m",
                                                           "--server-profile",
                                                           "kimi"}
                                            << "moonshot";
    }

    void serverProfile()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, profile);
        const CommandLine result = CommandLine::parse(QStringList{"agentdesk", "--print", "go"}
                                                      + arguments);
        QCOMPARE(int(result.action), int(CommandLine::Action::Print));
        QProcessEnvironment env;
        env.insert(QStringLiteral("OPENAI_API_KEY"), QStringLiteral("sk-1"));
        QString error;
        const auto config = result.print.providerConfig(env, &error);
        QVERIFY2(config, qPrintable(error));
        QVERIFY(config->serverProfile);
        QCOMPARE(AgentCore::ServerProfile::name(*config->serverProfile), profile);
        QCOMPARE(AgentCore::serverProfileOf(*config).id, *config->serverProfile);
    }

    void rewindTakesASessionAndACheckpoint()
    {
        const CommandLine result = CommandLine::parse({QStringLiteral("agentdesk"),
                                                       QStringLiteral("--rewind"),
                                                       QStringLiteral("s1"),
                                                       QStringLiteral("abc123"),
                                                       QStringLiteral("--repo"),
                                                       QStringLiteral("/src/x")});
        QCOMPARE(int(result.action), int(CommandLine::Action::Rewind));
        QCOMPARE(result.rewindSession, QStringLiteral("s1"));
        QCOMPARE(result.rewindCheckpoint, QStringLiteral("abc123"));
        QCOMPARE(result.repository, QStringLiteral("/src/x"));

        const CommandLine list = CommandLine::parse(
            {QStringLiteral("agentdesk"), QStringLiteral("--rewind"), QStringLiteral("s1")});
        QCOMPARE(int(list.action), int(CommandLine::Action::Rewind));
        QVERIFY(list.rewindCheckpoint.isEmpty());

        const CommandLine both = CommandLine::parse({QStringLiteral("agentdesk"),
                                                     QStringLiteral("--rewind"),
                                                     QStringLiteral("s1"),
                                                     QStringLiteral("--print"),
                                                     QStringLiteral("hi")});
        QCOMPARE(int(both.action), int(CommandLine::Action::Fail));
    }

    void rewindKeepsFilesAndDryRuns()
    {
        const CommandLine result = CommandLine::parse({QStringLiteral("agentdesk"),
                                                       QStringLiteral("--rewind"),
                                                       QStringLiteral("s1"),
                                                       QStringLiteral("abc123"),
                                                       QStringLiteral("--keep"),
                                                       QStringLiteral("notes.txt"),
                                                       QStringLiteral("--keep"),
                                                       QStringLiteral("build/"),
                                                       QStringLiteral("--dry-run")});
        QCOMPARE(int(result.action), int(CommandLine::Action::Rewind));
        QCOMPARE(result.rewindKeep, (QStringList{"notes.txt", "build/"}));
        QVERIFY(result.rewindDryRun);
        const CommandLine plain = CommandLine::parse({QStringLiteral("agentdesk"),
                                                      QStringLiteral("--rewind"),
                                                      QStringLiteral("s1"),
                                                      QStringLiteral("abc123")});
        QVERIFY(plain.rewindKeep.isEmpty());
        QVERIFY(!plain.rewindDryRun);

        // Without a checkpoint there is nothing to keep from or to try.
        const CommandLine listing = CommandLine::parse({QStringLiteral("agentdesk"),
                                                        QStringLiteral("--rewind"),
                                                        QStringLiteral("s1"),
                                                        QStringLiteral("--dry-run")});
        QCOMPARE(int(listing.action), int(CommandLine::Action::Fail));
        QVERIFY2(listing.output.contains(QStringLiteral("--dry-run needs a checkpoint")),
                 qPrintable(listing.output));
        // Only with --rewind.
        for (const QStringList &arguments :
             {QStringList{"agentdesk", "--keep", "a.txt"},
              QStringList{"agentdesk", "--print", "hi", "--dry-run"}}) {
            const CommandLine alone = CommandLine::parse(arguments);
            QCOMPARE(int(alone.action), int(CommandLine::Action::Fail));
            QVERIFY2(alone.output.contains(QStringLiteral("only used with --rewind")),
                     qPrintable(alone.output));
        }
    }

    void helpListsOptionsButNotScreenshot()
    {
        const CommandLine result = CommandLine::parse(
            {QStringLiteral("agentdesk"), QStringLiteral("--help")});
        QCOMPARE(int(result.action), int(CommandLine::Action::ShowHelp));
        QVERIFY(result.output.startsWith(QStringLiteral("Usage: ")));
        QVERIFY(result.output.contains(QStringLiteral(" [options] [repository]\n")));
        QVERIFY(result.output.contains(QStringLiteral("--version")));
        QVERIFY(result.output.contains(QStringLiteral("repository")));
        QVERIFY(!result.output.contains(QStringLiteral("--screenshot")));
        for (const char *option : {"--print",
                                   "--repo",
                                   "--provider",
                                   "--base-url",
                                   "--model",
                                   "--api-key-env",
                                   "--server-profile",
                                   "--max-turns",
                                   "--permission-mode",
                                   "--allowed-tools",
                                   "--tools",
                                   "--output-format",
                                   "--continue",
                                   "--resume",
                                   "--rewind",
                                   "--keep",
                                   "--dry-run",
                                   "--no-session-persistence"}) {
            QVERIFY2(result.output.contains(QLatin1String(option)), option);
        }
        QVERIFY(result.output.contains(QStringLiteral("Exit codes: 0 the task ended naturally")));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_CommandLine)

} // namespace tst_commandline

#include "tst_commandline.moc"
