#pragma once

#include "toolworkspace.h"

#include <loop/agenttypes.h>

#include <memory>

namespace AgentCore {

/// LS: a directory's entries as an indented tree (directories end in '/'), down to a depth,
/// without what .gitignore ignores and without .git/. Thread-safe; parallel.
class LsTool final : public AgentTool
{
public:
    static constexpr int maxEntries = 1000;
    static constexpr int maxDepth = 10;

    explicit LsTool(std::shared_ptr<ToolWorkspace> workspace);

    ToolDefinition definition() const override;
    ExecutionMode executionMode() const override { return ExecutionMode::Parallel; }
    ToolKind kind() const override { return ToolKind::Ls; }
    ToolResult execute(const ToolCallContext &context) override;

private:
    std::shared_ptr<ToolWorkspace> m_workspace;
};

} // namespace AgentCore
