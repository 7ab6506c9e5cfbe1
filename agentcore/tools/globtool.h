#pragma once

#include "toolworkspace.h"

#include <loop/agenttypes.h>

#include <memory>

namespace AgentCore {

/// Glob: the files whose path (relative to the searched directory) matches a wildcard pattern
/// (`**/*.cpp`, `src/*/test_*.py`, `*.{h,cpp}`), skipping what .gitignore ignores and .git/.
/// Sorted by path. Thread-safe; parallel.
class GlobTool final : public AgentTool
{
public:
    static constexpr int maxResults = 1000;

    explicit GlobTool(std::shared_ptr<ToolWorkspace> workspace);

    ToolDefinition definition() const override;
    ExecutionMode executionMode() const override { return ExecutionMode::Parallel; }
    ToolKind kind() const override { return ToolKind::Glob; }
    ToolResult execute(const ToolCallContext &context) override;

private:
    std::shared_ptr<ToolWorkspace> m_workspace;
};

} // namespace AgentCore
