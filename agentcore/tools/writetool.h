#pragma once

#include "toolworkspace.h"

#include <core/agenttypes.h>

#include <memory>

namespace AgentCore {

/// Write: creates a file or replaces all of it. An existing file must have been read in this
/// session and be unchanged since; it keeps its CRLF line endings and byte order mark.
/// Missing parent directories are created. Details: path, whether it was created, and a
/// unified diff. Thread-safe; sequential.
class WriteTool final : public AgentTool
{
public:
    explicit WriteTool(std::shared_ptr<ToolWorkspace> workspace);

    ToolDefinition definition() const override;
    ExecutionMode executionMode() const override { return ExecutionMode::Sequential; }
    ToolResult execute(const ToolCallContext &context) override;

private:
    std::shared_ptr<ToolWorkspace> m_workspace;
};

} // namespace AgentCore
