#pragma once

#include <ai/providerconfig.h>
#include <loop/toolkind.h>
#include <permissions/permissionmode.h>
#include <permissions/permissionrule.h>
#include <tools/commandenvironment.h>
#include <tools/sandboxpolicy.h>

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <optional>

namespace App {

/// How --print reports a run.
enum class OutputFormat {
    Text,       ///< the final answer on stdout, tool activity on stderr
    StreamJson, ///< one JSON object per lifecycle event and line (docs/stream-json.md)
};

/// Which session a headless run records and goes on with.
enum class SessionChoice {
    New,      ///< a new session
    Continue, ///< --continue: the repository's most recent session (the window's or a run's)
    Resume,   ///< --resume ID: that session of the repository
    /// --fork ID[:MESSAGE]: a new session whose history is a copy of that session's active
    /// branch up to MESSAGE (AgentCore::SessionStore::forkAtMessage); the original stays as
    /// it is.
    Fork,
};

/// The agent's options from the command line, with the defaults filled in: a headless run's
/// (--print), and the window's model and permissions.
struct PrintOptions
{
    QString prompt;   ///< "-": read the prompt from standard input
    QString provider; ///< "openai", "anthropic" or "openai-responses"
    QUrl baseUrl;     ///< the API root as the provider's SDK takes it
    QString model;
    QString apiKeyEnv; ///< the environment variable holding the key
    /// --server-profile NAME: which OpenAI-compatible server this is; nullopt: taken from the
    /// base URL (AgentCore::ServerProfileChoice::choose).
    std::optional<AgentCore::ServerProfile::Id> serverProfile;
    /// --provider, --model, --base-url, --api-key-env or --server-profile was given: the window
    /// then calls that
    /// model instead of the one its settings name (or the offline demo).
    bool modelGiven = false;
    int maxTurns = 0;                                        ///< 0: unlimited
    std::optional<AgentCore::PermissionMode> permissionMode; ///< nullopt: the settings decide
    QList<AgentCore::PermissionRule> allowedTools; ///< allow rules, source "--allowed-tools"
    /// --tools: the built-in tools the model is offered; nullopt: all of them.
    std::optional<QList<AgentCore::ToolKind>> tools;
    /// --trust-project-settings: the project's settings files' grants apply unasked.
    bool trustProjectSettings = false;
    OutputFormat outputFormat = OutputFormat::Text;
    SessionChoice session = SessionChoice::New;
    /// SessionChoice::Resume: the session's id (its file name without .jsonl, as agent_start
    /// names it) or the path of its file.
    QString resumeId;
    /// SessionChoice::Fork: the message the fork ends at (its number on the active branch,
    /// from 1, or its id); empty: the branch's last.
    QString forkMessage;
    /// False (--no-session-persistence): the run is not recorded; a continued session is
    /// read, and nothing is added to it.
    bool persistSession = true;
    /// False (--no-language-servers): no language server is started.
    bool languageServers = true;
    /// --sandbox on|off|required; nullopt: not given (headless runs use on, the window its
    /// settings).
    std::optional<AgentCore::SandboxMode> sandboxMode;
    /// --sandbox-network: sandboxed commands may use the network.
    bool sandboxNetwork = false;
    /// --mcp-config FILE (repeatable): MCP servers to start, in .mcp.json's format. A file given
    /// here is the user's choice: its servers start without the trust a repository's need.
    QStringList mcpConfigFiles;
    /// --strict-mcp-config: only the servers of --mcp-config, not the repository's .mcp.json.
    bool strictMcpConfig = false;

    /// The provider to call, with the key read from \a environment. nullopt and \a error when
    /// the key is missing, except for a server on this machine (local servers rarely need one).
    std::optional<AgentCore::ProviderConfig> providerConfig(const QProcessEnvironment &environment,
                                                            QString *error) const;

    /// What Bash commands get of AgentDesk's environment: no provider key, no variable named
    /// like a secret, and never the --api-key-env variable. The user adjusts the secret names
    /// with two variables of \a environment, each a list of names or wildcard patterns
    /// (separated by spaces, commas or colons): AGENTDESK_PASS_ENV passes variables that look
    /// like secrets (GH_TOKEN for gh), AGENTDESK_SECRET_ENV removes more (DATABASE_URL).
    AgentCore::CommandEnvironment commandEnvironment(const QProcessEnvironment &environment) const;
};

/// What the command line asked for. Parsed before any QCoreApplication exists, so that
/// --version and --help work without a display. Pure: reads neither files nor the environment.
struct CommandLine
{
    enum class Action { Run, Print, Rewind, Doctor, ShowVersion, ShowHelp, Fail };

    Action action = Action::Run;
    QString repository;     ///< the directory to open (default: the current directory)
    QString screenshotPath; ///< save the first painted window there, then quit
    /// Action::Print, and for Action::Run the window's agent (prompt and outputFormat unset).
    PrintOptions print;
    QString output; ///< text for --version/--help, or the error for Fail
    /// Action::Rewind (--rewind SESSION [CHECKPOINT]): the session, and the checkpoint whose
    /// files to restore (empty: list the session's checkpoints).
    QString rewindSession;
    QString rewindCheckpoint;
    /// --keep PATH (repeatable): files, or folders, relative to the repository's top folder,
    /// left as they are by the rewind.
    QStringList rewindKeep;
    /// --dry-run: print what the rewind would change, change nothing.
    bool rewindDryRun = false;
    /// --overwrite-user-changes: rewind the files the user changed since the checkpoint
    /// too (also those the agent changed again later); without it they are kept (nobody can be asked) and named on stderr.
    bool rewindOverwriteUserChanges = false;

    static CommandLine parse(const QStringList &arguments);
};

} // namespace App
