#pragma once

#include "commandline.h"

#include <loop/toolslot.h>
#include <mcp/mcphost.h>

#include <QJsonArray>
#include <QProcessEnvironment>

#include <memory>
#include <optional>

namespace App {

/// The MCP servers of an agentdesk --print run: those of --mcp-config and the repository's
/// trusted .mcp.json, started before the run and waited for (the run has no window to keep
/// painting); their tools reach the agent through a ToolSlot (CodingAgentOptions::tools.live),
/// kept up to date when a server's list changes. Problems go to stderr.
class HeadlessMcp final
{
public:
    /// Starts the servers and fills \a tools (left null when there is none); the exit code
    /// when a named file is unusable.
    std::optional<int> start(const PrintOptions &print,
                             const QString &root,
                             const QProcessEnvironment &environment,
                             const AgentCore::CommandEnvironment &filter,
                             std::shared_ptr<AgentCore::ToolSlot> *tools);
    /// Null when no server was started.
    AgentCore::McpHost *host() const { return m_host.get(); }
    /// For agent_start: each server's state and tools.
    QJsonArray servers() const { return m_servers; }
    qint64 readyMs() const { return m_readyMs; } ///< from starting the servers to their tools

private:
    std::unique_ptr<AgentCore::McpHost> m_host;
    QJsonArray m_servers;
    qint64 m_readyMs = 0;
};

} // namespace App
