#include "commandline.h"
#include "translation.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QHostAddress>
#include <QRegularExpression>

#include <algorithm>
#include <utility>

namespace App {

namespace {

using AgentCore::PermissionRule;
using AgentCore::ToolKind;
using AgentCore::toolKindName;

struct Provider
{
    const char *name;
    AgentCore::WireApi api;
    const char *vendor;
    const char *baseUrl;
    const char *defaultModel;
};

constexpr Provider providers[] = {
    {"openai", AgentCore::WireApi::OpenAiChat, "openai", "https://api.openai.com/v1", "gpt-5"},
    {"anthropic",
     AgentCore::WireApi::AnthropicMessages,
     "anthropic",
     "https://api.anthropic.com",
     "claude-sonnet-4-5"},
    {"openai-responses",
     AgentCore::WireApi::OpenAiResponses,
     "openai",
     "https://api.openai.com/v1",
     "gpt-5"},
};

const Provider *findProvider(const QString &name)
{
    for (const Provider &provider : providers) {
        if (name == QLatin1String(provider.name))
            return &provider;
    }
    return nullptr;
}

bool isLocalServer(const QUrl &url)
{
    const QString host = url.host();
    return host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0
           || QHostAddress(host).isLoopback();
}

/// The options of the agent (--print and the window); the parser's copies, to tell whether
/// any was given.
struct PrintParser
{
    QCommandLineOption print{{QStringLiteral("p"), QStringLiteral("print")},
                             AppTr::tr(
                                 "Run PROMPT headless (no window): print the answer and exit. "
                                 "\"-\" reads the prompt from standard input."),
                             AppTr::tr("PROMPT")};
    QCommandLineOption repo{QStringLiteral("repo"),
                            AppTr::tr(
                                "The repository to work on (default: the current directory)."),
                            AppTr::tr("DIR")};
    QCommandLineOption provider{QStringLiteral("provider"),
                                AppTr::tr("The API to call: openai (Chat Completions "
                                          "and compatible servers; the default), anthropic or "
                                          "openai-responses."),
                                AppTr::tr("NAME")};
    QCommandLineOption baseUrl{QStringLiteral("base-url"),
                               AppTr::tr(
                                   "The API root as the provider's SDK takes it "
                                   "(OpenAI: https://host/v1; Anthropic: without /v1). A server "
                                   "on this machine needs no API key."),
                               AppTr::tr("URL")};
    QCommandLineOption model{QStringLiteral("model"),
                             AppTr::tr("The model (default: gpt-5 for openai, "
                                       "claude-sonnet-4-5 for anthropic; required with --base-url "
                                       "for the OpenAI APIs)."),
                             AppTr::tr("MODEL")};
    QCommandLineOption apiKeyEnv{QStringLiteral("api-key-env"),
                                 AppTr::tr("The environment variable holding the API "
                                           "key (default: OPENAI_API_KEY or ANTHROPIC_API_KEY)."),
                                 AppTr::tr("VAR")};
    QCommandLineOption serverProfile{
        QStringLiteral("server-profile"),
        AppTr::tr("Which OpenAI-compatible server --base-url is, for the request fields it takes "
                  "and how reasoning goes back: %1 (default: from the base URL; an unknown server "
                  "gets generic, which sends no optional field).")
            .arg(AgentCore::ServerProfile::namesForHelp()),
        AppTr::tr("NAME")};
    QCommandLineOption maxTurns{QStringLiteral("max-turns"),
                                AppTr::tr("Stop after N model turns (with --print: exit code 3)."),
                                AppTr::tr("N")};
    QCommandLineOption permissionMode{QStringLiteral("permission-mode"),
                                      AppTr::tr("Default (edits and commands ask; with --print "
                                                "they are denied), acceptEdits, plan "
                                                "(read-only) or bypass."),
                                      AppTr::tr("MODE")};
    QCommandLineOption allowedTools{QStringLiteral("allowed-tools"),
                                    AppTr::tr("Allow rules such as \"Bash(git "
                                              "status)\" Edit Read, separated by commas or spaces; "
                                              "may be repeated."),
                                    AppTr::tr("RULES")};
    QCommandLineOption tools{QStringLiteral("tools"),
                             AppTr::tr(
                                 "The built-in tools the model is offered, separated by commas "
                                 "or spaces: Read, Glob, Grep, LS, Edit, Write, Bash (default: "
                                 "all; \"\" for none)."),
                             AppTr::tr("TOOLS")};
    QCommandLineOption trustProjectSettings{
        QStringLiteral("trust-project-settings"),
        AppTr::tr("Apply what this repository's .agentdesk settings files grant (allow rules, "
                  "acceptEdits or bypass mode, additional directories) without having accepted it "
                  "in the window.")};
    QCommandLineOption outputFormat{QStringLiteral("output-format"),
                                    AppTr::tr("With --print: text (the answer; the default) or "
                                              "stream-json (one JSON event per line)."),
                                    AppTr::tr("FORMAT")};
    QCommandLineOption continueSession{{QStringLiteral("c"), QStringLiteral("continue")},
                                       AppTr::tr("With --print: continue the repository's most "
                                                 "recent session (the window's or a headless "
                                                 "run's): its conversation is the history of this "
                                                 "run, which is added to it. One open in another "
                                                 "window or run is passed over (stderr says "
                                                 "which) for the most recent one that is free.")};
    QCommandLineOption resume{{QStringLiteral("r"), QStringLiteral("resume")},
                              AppTr::tr("With --print: continue the session ID of this repository "
                                        "(agent_start's sessionId, or the path of its file)."),
                              AppTr::tr("ID")};
    QCommandLineOption fork{QStringLiteral("fork"),
                            AppTr::tr("With --print: go on in a new session whose history is a "
                                      "copy of the session ID's conversation up to its message "
                                      "MESSAGE (counted from 1, or a message id; default: the "
                                      "last); the session ID stays as it was."),
                            AppTr::tr("ID[:MESSAGE]")};
    QCommandLineOption sandbox{QStringLiteral("sandbox"),
                               AppTr::tr("Bash commands run in a sandbox (bubblewrap): read-only "
                                         "outside the repository, a private /tmp, no network, your "
                                         "keys hidden. on (the default: without bwrap they run "
                                         "as they are, said once), off, or required (without "
                                         "bwrap they are refused)."),
                               AppTr::tr("MODE")};
    QCommandLineOption sandboxNetwork{QStringLiteral("sandbox-network"),
                                      AppTr::tr("Sandboxed Bash commands may use the network.")};
    QCommandLineOption noSessionPersistence{
        QStringLiteral("no-session-persistence"),
        AppTr::tr("With --print: do not record the run as a session (a session continued with "
                  "--continue or --resume is read, and nothing is added to it).")};

    QCommandLineOption noLanguageServers{
        QStringLiteral("no-language-servers"),
        AppTr::tr("With --print: start no language server (clangd, pylsp, ... found on PATH): "
                  "an Edit or Write gets no diagnostics back, and there is no Diagnostics "
                  "tool.")};

    QCommandLineOption mcpConfig{QStringLiteral("mcp-config"),
                                 AppTr::tr("With --print: start the MCP servers of FILE (the "
                                           ".mcp.json format, {\"mcpServers\": {...}}) and offer "
                                           "their tools as mcp__SERVER__TOOL; may be repeated. "
                                           "A PROMPT starting with /SERVER:NAME ARGS is that "
                                           "server's prompt (ARGS as KEY=VALUE or in order); "
                                           "@SERVER:URI in it attaches that resource's text."),
                                 AppTr::tr("FILE")};
    QCommandLineOption strictMcpConfig{QStringLiteral("strict-mcp-config"),
                                       AppTr::tr("With --print: only the MCP servers of "
                                                 "--mcp-config, not those of the repository's "
                                                 ".mcp.json.")};

    QList<const QCommandLineOption *> printOnly() const
    {
        return {&provider,
                &baseUrl,
                &model,
                &apiKeyEnv,
                &serverProfile,
                &maxTurns,
                &permissionMode,
                &allowedTools,
                &tools,
                &trustProjectSettings,
                &outputFormat,
                &continueSession,
                &resume,
                &fork,
                &sandbox,
                &sandboxNetwork,
                &noSessionPersistence,
                &noLanguageServers,
                &mcpConfig,
                &strictMcpConfig};
    }
};

QString exitCodesHelp()
{
    return AppTr::tr(
        "Headless: agentdesk --print PROMPT [options] runs one task without a window.\n"
        "Each run is recorded as a session of the repository, which the window lists; "
        "--continue or --resume ID goes on with one.\n"
        "Exit codes: 0 the task ended naturally; 1 the run failed (provider or "
        "network error, truncated or refused answer); 2 usage or configuration "
        "error (also: no session to continue, every one is open elsewhere, or the "
        "session given is in use); 3 "
        "--max-turns reached; 130 interrupted (SIGINT), 143 terminated "
        "(SIGTERM).");
}

/// "Bash(git status), Edit Read" -> ["Bash(git status)", "Edit", "Read"]: commas and spaces
/// separate rules, except inside parentheses.
std::optional<QStringList> splitRules(const QString &text, QString *error)
{
    QStringList rules;
    QString current;
    int depth = 0;
    for (const QChar c : text) {
        if (depth == 0 && (c == u',' || c.isSpace())) {
            if (!current.isEmpty())
                rules.append(std::exchange(current, QString()));
            continue;
        }
        if (c == u'(')
            ++depth;
        else if (c == u')' && --depth < 0)
            break;
        current += c;
    }
    if (depth != 0) {
        *error = AppTr::tr("Unbalanced parentheses in --allowed-tools \"%1\". Quote a rule with "
                           "spaces, e.g. --allowed-tools \"Bash(git status)\".")
                     .arg(text);
        return std::nullopt;
    }
    if (!current.isEmpty())
        rules.append(current);
    return rules;
}

bool parseAllowedTools(const QStringList &values, PrintOptions *options, QString *error)
{
    for (const QString &value : values) {
        const std::optional<QStringList> texts = splitRules(value, error);
        if (!texts)
            return false;
        for (const QString &text : *texts) {
            QString ruleError;
            std::optional<PermissionRule> rule
                = PermissionRule::parse(text, AgentCore::PermissionBehavior::Allow, &ruleError);
            if (!rule) {
                *error = AppTr::tr("Invalid rule \"%1\" in --allowed-tools: %2").arg(text, ruleError);
                return false;
            }
            rule->source = QStringLiteral("--allowed-tools");
            options->allowedTools.append(*rule);
        }
    }
    return true;
}

// --tools "Read,Grep Edit": names as the model sees them, in any case; "default" is all.
bool parseTools(const QString &value, PrintOptions *options, QString *error)
{
    static const QList<ToolKind> all{ToolKind::Read,
                                     ToolKind::Glob,
                                     ToolKind::Grep,
                                     ToolKind::Ls,
                                     ToolKind::Edit,
                                     ToolKind::Write,
                                     ToolKind::Bash};
    if (value.trimmed().compare(QLatin1String("default"), Qt::CaseInsensitive) == 0)
        return true;
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    QList<ToolKind> tools;
    for (const QString &name : value.split(separators, Qt::SkipEmptyParts)) {
        const auto known = std::find_if(all.cbegin(), all.cend(), [&name](ToolKind kind) {
            return toolKindName(kind).compare(name, Qt::CaseInsensitive) == 0;
        });
        if (known == all.cend()) {
            *error = AppTr::tr("Unknown tool \"%1\" in --tools: use Read, Glob, Grep, LS, Edit, "
                               "Write or Bash (or \"default\" for all of them).")
                         .arg(name);
            return false;
        }
        if (!tools.contains(*known))
            tools.append(*known);
    }
    options->tools = tools;
    return true;
}

// --provider, --base-url, --model and --api-key-env, with the provider's defaults.
bool parseProvider(const QCommandLineParser &parser,
                   const PrintParser &options,
                   PrintOptions *print,
                   QString *error)
{
    print->modelGiven = parser.isSet(options.provider) || parser.isSet(options.model)
                        || parser.isSet(options.baseUrl) || parser.isSet(options.apiKeyEnv)
                        || parser.isSet(options.serverProfile);
    print->provider = parser.isSet(options.provider) ? parser.value(options.provider)
                                                     : QStringLiteral("openai");
    const Provider *provider = findProvider(print->provider);
    if (!provider) {
        *error = AppTr::tr("Unknown provider \"%1\" for --provider: use openai, anthropic or "
                           "openai-responses.")
                     .arg(print->provider);
        return false;
    }
    if (parser.isSet(options.baseUrl)) {
        print->baseUrl = QUrl(parser.value(options.baseUrl), QUrl::StrictMode);
        const QString scheme = print->baseUrl.scheme();
        if (!print->baseUrl.isValid() || print->baseUrl.host().isEmpty()
            || (scheme != QLatin1String("http") && scheme != QLatin1String("https"))) {
            *error = AppTr::tr("--base-url needs an http or https URL such as "
                               "http://localhost:8080/v1, got \"%1\".")
                         .arg(parser.value(options.baseUrl));
            return false;
        }
    } else {
        print->baseUrl = QUrl(QLatin1String(provider->baseUrl));
    }
    print->model = parser.value(options.model);
    if (print->model.isEmpty()) {
        if (parser.isSet(options.baseUrl)
            && provider->api != AgentCore::WireApi::AnthropicMessages) {
            *error = AppTr::tr("--model is needed with --base-url: name the model as that server "
                               "knows it (e.g. --model qwen3-coder).");
            return false;
        }
        print->model = QLatin1String(provider->defaultModel);
    }
    print->apiKeyEnv = parser.isSet(options.apiKeyEnv) ? parser.value(options.apiKeyEnv)
                                                       : AgentCore::apiKeyVariable(provider->api);
    if (parser.isSet(options.serverProfile)) {
        print->serverProfile = AgentCore::ServerProfile::fromName(
            parser.value(options.serverProfile));
        if (!print->serverProfile) {
            *error = AppTr::tr("Unknown server profile \"%1\" for --server-profile: use %2.")
                         .arg(parser.value(options.serverProfile),
                              AgentCore::ServerProfile::namesForHelp());
            return false;
        }
        if (provider->api != AgentCore::WireApi::OpenAiChat) {
            *error = AppTr::tr("--server-profile is for Chat Completions servers (--provider "
                               "openai), not --provider %1.")
                         .arg(print->provider);
            return false;
        }
    }
    return true;
}

bool parseValues(const QCommandLineParser &parser,
                 const PrintParser &options,
                 PrintOptions *print,
                 QString *error)
{
    if (!parseProvider(parser, options, print, error))
        return false;
    if (parser.isSet(options.maxTurns)) {
        bool ok = false;
        print->maxTurns = parser.value(options.maxTurns).toInt(&ok);
        if (!ok || print->maxTurns < 1) {
            *error = AppTr::tr("--max-turns takes a whole number of at least 1, got \"%1\".")
                         .arg(parser.value(options.maxTurns));
            return false;
        }
    }
    if (parser.isSet(options.permissionMode)) {
        print->permissionMode = AgentCore::parsePermissionMode(parser.value(options.permissionMode));
        if (!print->permissionMode) {
            *error = AppTr::tr("Unknown permission mode \"%1\": use default, acceptEdits, plan or "
                               "bypass.")
                         .arg(parser.value(options.permissionMode));
            return false;
        }
    }
    if (parser.isSet(options.sandbox)) {
        print->sandboxMode = AgentCore::SandboxPolicy::parseMode(parser.value(options.sandbox));
        if (!print->sandboxMode) {
            *error = AppTr::tr(
                         "Unknown sandbox mode \"%1\" for --sandbox: use on, off or required.")
                         .arg(parser.value(options.sandbox));
            return false;
        }
    }
    print->sandboxNetwork = parser.isSet(options.sandboxNetwork);
    if (parser.isSet(options.tools) && !parseTools(parser.value(options.tools), print, error))
        return false;
    print->trustProjectSettings = parser.isSet(options.trustProjectSettings);
    if (parser.isSet(options.outputFormat)) {
        const QString format = parser.value(options.outputFormat);
        if (format == QLatin1String("stream-json")) {
            print->outputFormat = OutputFormat::StreamJson;
        } else if (format != QLatin1String("text")) {
            *error = AppTr::tr("Unknown output format \"%1\": use text or stream-json.").arg(format);
            return false;
        }
    }
    return parseAllowedTools(parser.values(options.allowedTools), print, error);
}

CommandLine failure(const QString &error)
{
    CommandLine result;
    result.action = CommandLine::Action::Fail;
    result.output = error;
    return result;
}

} // namespace

std::optional<AgentCore::ProviderConfig> PrintOptions::providerConfig(
    const QProcessEnvironment &environment, QString *error) const
{
    const Provider *known = findProvider(provider);
    if (!known) {
        *error = AppTr::tr("Unknown provider \"%1\".").arg(provider);
        return std::nullopt;
    }
    AgentCore::ProviderConfig config;
    config.api = known->api;
    config.provider = QLatin1String(known->vendor);
    config.baseUrl = baseUrl;
    config.model = model;
    // Always set: the provider name "openai" says nothing of the server at --base-url.
    if (config.api == AgentCore::WireApi::OpenAiChat)
        config.serverProfile = AgentCore::ServerProfileChoice::choose(baseUrl, serverProfile).id;
    config.apiKey = environment.value(apiKeyEnv);
    if (config.apiKey.isEmpty() && !isLocalServer(baseUrl)) {
        *error = AppTr::tr("No API key: %1 is not set. Set it, or name the variable that holds the "
                           "key with --api-key-env.")
                     .arg(apiKeyEnv);
        return std::nullopt;
    }
    return config;
}

AgentCore::CommandEnvironment PrintOptions::commandEnvironment(
    const QProcessEnvironment &environment) const
{
    static const QRegularExpression separators(QStringLiteral("[\\s,:]+"));
    const auto list = [&environment](const char *name) {
        return environment.value(QLatin1String(name)).split(separators, Qt::SkipEmptyParts);
    };
    AgentCore::CommandEnvironment result;
    result.setPassedPatterns(list("AGENTDESK_PASS_ENV"));
    result.setSecretPatterns(AgentCore::CommandEnvironment::defaultSecretPatterns()
                             + list("AGENTDESK_SECRET_ENV"));
    result.addSecretNames({apiKeyEnv});
    return result;
}

CommandLine CommandLine::parse(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        AppTr::tr("AgentDesk, a desktop coding agent: review every edit before it is applied.")
        + u'\n' + exitCodesHelp());
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                  AppTr::tr("Show this help and exit."));
    const QCommandLineOption version({QStringLiteral("v"), QStringLiteral("version")},
                                     AppTr::tr("Show the version and exit."));
    QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                  AppTr::tr("Save the window to FILE once shown, then quit."),
                                  AppTr::tr("FILE"));
    screenshot.setFlags(QCommandLineOption::HiddenFromHelp);
    const QCommandLineOption
        rewind(QStringLiteral("rewind"),
               AppTr::tr(
                   "agentdesk --rewind SESSION CHECKPOINT restores the repository's files to a "
                   "checkpoint of the session (the ids stream-json's agent_start and checkpoint "
                   "lines name), prints the files it changed and exits; the state it replaces is "
                   "recorded first, so it can be undone the same way, and the rewind shows in "
                   "the session when the window opens it. Without CHECKPOINT it lists the "
                   "session's checkpoints. Refused while the session is running."),
               AppTr::tr("SESSION"));
    const QCommandLineOption keep(QStringLiteral("keep"),
                                  AppTr::tr(
                                      "With --rewind: leave PATH as it is (a file or a folder, "
                                      "relative to the repository's top folder). Repeatable."),
                                  AppTr::tr("PATH"));
    const QCommandLineOption dryRun(QStringLiteral("dry-run"),
                                    AppTr::tr("With --rewind: print what the rewind would change "
                                              "and change nothing."));
    const QCommandLineOption overwriteUserChanges(
        QStringLiteral("overwrite-user-changes"),
        AppTr::tr("With --rewind: rewind the files you changed yourself since the checkpoint too "
                  "(by default they are kept as they are, and named)."));
    const QCommandLineOption
        doctor(QStringLiteral("doctor"),
               AppTr::tr(
                   "Check what AgentDesk relies on here (bubblewrap and whether it works, git, "
                   "ripgrep, the keyring, fonts, the provider's models endpoint, the MCP servers' "
                   "commands), print what is missing with the command that installs it, and exit: "
                   "0 when everything needed is there, 1 otherwise."));
    const PrintParser printOptions;
    parser.addOption(help);
    parser.addOption(version);
    parser.addOption(doctor);
    parser.addOption(printOptions.print);
    parser.addOption(rewind);
    parser.addOption(keep);
    parser.addOption(dryRun);
    parser.addOption(overwriteUserChanges);
    parser.addOption(printOptions.repo);
    for (const QCommandLineOption *option : printOptions.printOnly())
        parser.addOption(*option);
    parser.addOption(screenshot);
    parser.addPositionalArgument(QStringLiteral("repository"),
                                 AppTr::tr("The repository to work on (default: the current "
                                           "directory)."),
                                 QStringLiteral("[repository]"));

    if (!parser.parse(arguments))
        return failure(parser.errorText());
    CommandLine result;
    if (parser.isSet(help)) {
        result.action = Action::ShowHelp;
        // Without a QCoreApplication the parser cannot know the program's name.
        const QString program = QFileInfo(arguments.value(0, QStringLiteral("agentdesk"))).fileName();
        result.output = parser.helpText().replace(QStringLiteral("<executable_name>"), program);
        return result;
    }
    if (parser.isSet(version)) {
        result.action = Action::ShowVersion;
        result.output = QStringLiteral("agentdesk " AGENTDESK_VERSION "\n");
        return result;
    }
    const QStringList positional = parser.positionalArguments();
    if (parser.isSet(doctor)) {
        if (parser.isSet(printOptions.print) || parser.isSet(rewind))
            return failure(AppTr::tr("--doctor is used alone (with the model options and the "
                                     "repository to check)."));
        if (positional.size() > 1 || (!positional.isEmpty() && parser.isSet(printOptions.repo)))
            return failure(AppTr::tr("--doctor checks one repository."));
        result.action = Action::Doctor;
        result.repository = parser.isSet(printOptions.repo) ? parser.value(printOptions.repo)
                            : positional.isEmpty()          ? QDir::currentPath()
                                                            : positional.first();
        result.print.mcpConfigFiles = parser.values(printOptions.mcpConfig);
        QString error;
        if (!parseValues(parser, printOptions, &result.print, &error))
            return failure(error);
        return result;
    }
    if (parser.isSet(rewind)) {
        if (parser.isSet(printOptions.print))
            return failure(AppTr::tr("Give either --print or --rewind, not both."));
        if (positional.size() > 1) {
            return failure(AppTr::tr("--rewind takes a session and one checkpoint; give the "
                                     "repository with --repo."));
        }
        result.action = Action::Rewind;
        result.rewindSession = parser.value(rewind).trimmed();
        if (result.rewindSession.isEmpty())
            return failure(AppTr::tr("--rewind needs the id of a session."));
        result.rewindCheckpoint = positional.value(0).trimmed();
        result.rewindKeep = parser.values(keep);
        result.rewindDryRun = parser.isSet(dryRun);
        result.rewindOverwriteUserChanges = parser.isSet(overwriteUserChanges);
        if (result.rewindCheckpoint.isEmpty() && (parser.isSet(keep) || result.rewindDryRun)) {
            return failure(
                AppTr::tr("--%1 needs a checkpoint: agentdesk --rewind SESSION CHECKPOINT.")
                    .arg(parser.isSet(keep) ? QStringLiteral("keep") : QStringLiteral("dry-run")));
        }
        result.repository = parser.isSet(printOptions.repo) ? parser.value(printOptions.repo)
                                                            : QDir::currentPath();
        return result;
    }
    for (const QCommandLineOption *option : {&keep, &dryRun, &overwriteUserChanges}) {
        if (parser.isSet(*option))
            return failure(
                AppTr::tr("--%1 is only used with --rewind.").arg(option->names().constLast()));
    }
    if (positional.size() > 1)
        return failure(
            AppTr::tr("Only one repository can be opened, got %1.").arg(positional.size()));
    if (!positional.isEmpty() && parser.isSet(printOptions.repo)) {
        return failure(AppTr::tr("Give the repository once: as an argument or with --repo, not "
                                 "both."));
    }
    result.repository = parser.isSet(printOptions.repo) ? parser.value(printOptions.repo)
                        : positional.isEmpty()          ? QDir::currentPath()
                                                        : positional.first();
    result.screenshotPath = parser.value(screenshot);

    if (!parser.isSet(printOptions.print)) {
        // The model and permission options configure the window's agent too.
        for (const QCommandLineOption *option : {&printOptions.outputFormat,
                                                 &printOptions.continueSession,
                                                 &printOptions.resume,
                                                 &printOptions.fork,
                                                 &printOptions.noSessionPersistence,
                                                 &printOptions.noLanguageServers,
                                                 &printOptions.mcpConfig,
                                                 &printOptions.strictMcpConfig}) {
            if (parser.isSet(*option)) {
                return failure(
                    AppTr::tr("--%1 is only used with --print.").arg(option->names().constLast()));
            }
        }
        QString error;
        if (!parseValues(parser, printOptions, &result.print, &error))
            return failure(error);
        return result;
    }
    result.action = Action::Print;
    result.print.prompt = parser.value(printOptions.print);
    if (result.print.prompt.trimmed().isEmpty())
        return failure(AppTr::tr("The prompt given to --print is empty."));
    if (!result.screenshotPath.isEmpty())
        return failure(AppTr::tr("--screenshot needs the window: it cannot be used with --print."));
    if (parser.isSet(printOptions.continueSession) && parser.isSet(printOptions.resume))
        return failure(AppTr::tr("Give either --continue or --resume, not both."));
    if (parser.isSet(printOptions.fork)
        && (parser.isSet(printOptions.continueSession) || parser.isSet(printOptions.resume)))
        return failure(AppTr::tr("--fork names the session it copies: give it without "
                                 "--continue or --resume."));
    if (parser.isSet(printOptions.continueSession)) {
        result.print.session = SessionChoice::Continue;
    } else if (parser.isSet(printOptions.resume)) {
        result.print.session = SessionChoice::Resume;
        result.print.resumeId = parser.value(printOptions.resume).trimmed();
        if (result.print.resumeId.isEmpty())
            return failure(AppTr::tr("--resume needs the id of a session."));
    } else if (parser.isSet(printOptions.fork)) {
        // ID:MESSAGE; a path's own colons (none in an id) are before its last slash.
        const QString value = parser.value(printOptions.fork).trimmed();
        const qsizetype colon = value.lastIndexOf(u':');
        const bool hasMessage = colon > 0 && !value.mid(colon + 1).contains(u'/');
        result.print.session = SessionChoice::Fork;
        result.print.resumeId = hasMessage ? value.left(colon) : value;
        result.print.forkMessage = hasMessage ? value.mid(colon + 1).trimmed() : QString();
        if (result.print.resumeId.isEmpty())
            return failure(AppTr::tr("--fork needs the id of a session."));
        if (hasMessage && result.print.forkMessage.isEmpty())
            return failure(AppTr::tr("--fork ID:MESSAGE needs a message after the colon."));
    }
    result.print.persistSession = !parser.isSet(printOptions.noSessionPersistence);
    result.print.languageServers = !parser.isSet(printOptions.noLanguageServers);
    result.print.mcpConfigFiles = parser.values(printOptions.mcpConfig);
    result.print.strictMcpConfig = parser.isSet(printOptions.strictMcpConfig);
    QString error;
    if (!parseValues(parser, printOptions, &result.print, &error))
        return failure(error);
    return result;
}

} // namespace App
