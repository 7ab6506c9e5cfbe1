#pragma once

#include "mcpconfig.h"

#include <QHash>
#include <QProcessEnvironment>

namespace AgentCore {

/// The references a server's configuration may hold instead of secrets, as the peers' files
/// do: `${VAR}` and `${VAR:-default}` take AgentDesk's environment, `${keyring:NAME}` takes the
/// secret NAME the user stored in the keyring (never the file). Expanded in the command, the
/// arguments and the env values (and the url). A plain function set.
struct McpConfigExpansion
{
    /// The keyring secrets \a config names (`${keyring:NAME}`), each once.
    static QStringList keyringNames(const McpServerConfig &config);
    /// \a config with every reference replaced. A variable that is not set (without default)
    /// or a secret missing from \a secrets is named in \a missing (the server should not start:
    /// it would run without its credentials).
    static McpServerConfig expand(const McpServerConfig &config,
                                  const QProcessEnvironment &environment,
                                  const QHash<QString, QString> &secrets,
                                  QStringList *missing);
    /// The text with its references replaced (the same rules).
    static QString expand(const QString &text,
                          const QProcessEnvironment &environment,
                          const QHash<QString, QString> &secrets,
                          QStringList *missing);
};

} // namespace AgentCore
