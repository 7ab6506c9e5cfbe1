#pragma once

#include "mcpconfig.h"

#include <tools/commandenvironment.h>

#include <QHash>
#include <QProcessEnvironment>

namespace AgentCore {

/// The references a server's configuration may hold instead of secrets, as Claude Code's
/// .mcp.json does: `${VAR}` and `${VAR:-default}` take AgentDesk's environment; the window also
/// reads `${keyring:NAME}`, the secret NAME the user stored in the keyring (never the file).
/// Expanded in the command, the arguments, the env values, the url and the headers. The one
/// rule of both front ends (the window's McpServers and `agentdesk --print`). A plain function
/// set.
///
/// The model providers' keys are never expanded: a reference to a key variable (apiKeyVariables()
/// and the run's --api-key-env, the names \a filter removes whatever the patterns say), or to a
/// variable whose value holds such a key, is a problem and the server must not start. An
/// argument is on a command line every user of the machine sees in `ps`, and a server is not
/// the provider: it gets a key of its own.
struct McpConfigExpansion
{
    /// The keyring secrets \a config names (`${keyring:NAME}`), each once.
    static QStringList keyringNames(const McpServerConfig &config);
    /// \a config with every reference replaced. What stops the server from starting is named in
    /// \a problems, each once: a variable that is not set (without default) or a secret missing
    /// from \a secrets (it would run without its credentials), a provider key (left out of the
    /// result: the expanded config never holds it).
    static McpServerConfig expand(const McpServerConfig &config,
                                  const QProcessEnvironment &environment,
                                  const QHash<QString, QString> &secrets,
                                  const CommandEnvironment &filter,
                                  QStringList *problems);
    /// The text with its references replaced (the same rules).
    static QString expand(const QString &text,
                          const QProcessEnvironment &environment,
                          const QHash<QString, QString> &secrets,
                          const CommandEnvironment &filter,
                          QStringList *problems);
};

} // namespace AgentCore
