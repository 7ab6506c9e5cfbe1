#pragma once

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace AgentCore {

/// One server of an .mcp.json: `"name": {"command", "args", "env"}` (stdio) or
/// `{"type": "http", "url", "headers"}`. A value type.
struct McpServerConfig
{
    QString name;
    QString type; ///< "stdio" or "http" (Streamable HTTP; "streamable-http" in the file)
    QString command;
    QStringList args;
    QMap<QString, QString> env;
    QString url;                    ///< http: the server's endpoint
    QMap<QString, QString> headers; ///< http: sent with every request (Authorization, ...)
    QString source;                 ///< the file it came from

    /// The grant a person accepts to let a repository start this server (ProjectTrust): the
    /// name with the whole command line, so a changed command needs a new yes.
    QString grant() const;
    /// The command line for messages: `npx -y @scope/server`; an http server's URL.
    QString commandLine() const;
};

/// The servers of one configuration file, with what was wrong in it.
struct McpConfig
{
    static constexpr qint64 maxFileBytes = 1024 * 1024;
    static constexpr int maxServers = 64;

    QList<McpServerConfig> servers;
    QStringList problems; ///< entries left out, with why; the rest is used
    QString error;        ///< the whole file is unusable (not JSON, no mcpServers)

    /// Reads \a json (the text of \a source). A server whose name or fields are wrong is left
    /// out with a problem; the others are kept.
    static McpConfig parse(const QByteArray &json, const QString &source);
    /// Reads the file at \a path; a missing file is an empty configuration when \a optional,
    /// else an error.
    static McpConfig load(const QString &path, bool optional);
    /// <repositoryRoot>/.mcp.json
    static QString projectFile(const QString &repositoryRoot);
};

} // namespace AgentCore
