#pragma once

#include "mcptoolinfo.h"

#include <loop/agenttypes.h>

#include <memory>

namespace AgentCore {

class McpClient;
struct McpCallResult;

/// A tool of an MCP server as an ordinary tool of the loop, named `mcp__<server>__<tool>` so
/// permission rules can name it (`mcp__github__*`). Its arguments are validated by the loop
/// against the server's inputSchema; a call blocks its tool thread in McpClient::callTool (a
/// stop sends notifications/cancelled). Read-only by the server's annotation: no side effects
/// (no approval asked) and parallel; else sequential with side effects (approval asked unless
/// a rule allows it). Thread-safe.
class McpTool final : public AgentTool
{
public:
    static constexpr qsizetype maxToolNameLength = 64; ///< what every provider accepts
    static constexpr qsizetype maxResultChars = 100 * 1024;

    McpTool(std::shared_ptr<McpClient> client, QString serverName, McpToolInfo info);

    /// `mcp__<server>__<tool>` with every character but letters, digits, '_' and '-' made '_';
    /// a longer name is cut and ends in a hash of the whole, so two stay apart.
    static QString toolName(const QString &server, const QString &tool);
    /// A tools/call answer as the model sees it: text kept, images, audio and binary resources
    /// named in a note, cut at maxResultChars with a note; isError honoured.
    static ToolResult resultOf(const McpCallResult &result, const QString &serverName);

    const McpToolInfo &info() const { return m_info; }
    QString serverName() const { return m_serverName; }
    ToolDefinition definition() const override;
    ExecutionMode executionMode() const override;
    bool hasSideEffects() const override { return !m_info.readOnly; }
    ToolResult execute(const ToolCallContext &context) override;

private:
    std::shared_ptr<McpClient> m_client;
    QString m_serverName;
    McpToolInfo m_info;
    QString m_name;
};

} // namespace AgentCore
