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
/// stop sends notifications/cancelled). Every MCP tool is sequential with side effects, whatever
/// its annotations say: approval is asked unless a user's rule allows it, plan mode refuses it,
/// bypass runs it as it runs every tool. A server's readOnlyHint is an untrusted hint (the
/// specification's words) from code AgentDesk did not write; it never skips a question.
/// Thread-safe.
class McpTool final : public AgentTool
{
public:
    static constexpr qsizetype maxToolNameLength = 64; ///< what every provider accepts
    static constexpr qsizetype maxResultChars = 100 * 1024;
    static constexpr int maxImages = 10; ///< pictures kept from one result

    McpTool(std::shared_ptr<McpClient> client, QString serverName, McpToolInfo info);

    /// `mcp__<server>__<tool>` with every character but letters, digits, '_' and '-' made '_';
    /// a longer name is cut and ends in a hash of the whole, so two stay apart.
    static QString toolName(const QString &server, const QString &tool);
    /// A tools/call answer as the model sees it: text kept (cut at maxResultChars with a note),
    /// pictures (images and embedded image resources of the kinds and sizes the providers take,
    /// at most maxImages) kept as Image blocks after the text, audio and other binary content
    /// named in a note; isError honoured. The request builders send the pictures to the APIs
    /// that take them and name them to the one that does not (Chat Completions).
    static ToolResult resultOf(const McpCallResult &result, const QString &serverName);

    const McpToolInfo &info() const { return m_info; }
    QString serverName() const { return m_serverName; }
    ToolDefinition definition() const override;
    ExecutionMode executionMode() const override { return ExecutionMode::Sequential; }
    bool hasSideEffects() const override { return true; }
    ToolResult execute(const ToolCallContext &context) override;

private:
    std::shared_ptr<McpClient> m_client;
    QString m_serverName;
    McpToolInfo m_info;
    QString m_name;
};

} // namespace AgentCore
