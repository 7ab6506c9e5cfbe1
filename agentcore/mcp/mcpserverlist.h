#pragma once

#include "mcpconfig.h"

namespace AgentCore {

class ProjectTrust;

/// Which MCP servers a run starts: those of the files the user names (--mcp-config: started,
/// the user's choice), and unless strict those of the repository's .mcp.json, which run code
/// anyone who commits could have written: started only when the user trusted each (its
/// McpServerConfig::grant, as ProjectTrust keeps the project settings' grants). A server of a
/// named file replaces the repository's of the same name. A plain value.
struct McpServerList
{
    QList<McpServerConfig> servers;   ///< to start
    QList<McpServerConfig> untrusted; ///< the repository's, not started
    QStringList problems;             ///< entries left out, a broken .mcp.json
    QString error;                    ///< a named file is unusable: the run should not start

    static McpServerList gather(const QString &repositoryRoot,
                                const QStringList &files,
                                bool strict,
                                const ProjectTrust &trust);
};

} // namespace AgentCore
