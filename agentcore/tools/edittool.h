#pragma once

#include "toolworkspace.h"

#include <core/agenttypes.h>

#include <memory>

namespace AgentCore {

/// Edit: replaces an exact old_string by new_string in a file the model has read (and that has
/// not changed since). old_string must occur once unless replace_all; otherwise the error says
/// how often it occurs, or shows the most similar region. The file's line endings (CRLF files
/// stay CRLF even when the strings use LF) and UTF-8 byte order mark are kept; bytes outside the
/// replaced text are untouched. Details: path, replacements and a unified diff.
/// Thread-safe; sequential.
class EditTool final : public AgentTool
{
public:
    explicit EditTool(std::shared_ptr<ToolWorkspace> workspace);

    ToolDefinition definition() const override;
    ExecutionMode executionMode() const override { return ExecutionMode::Sequential; }
    ToolResult execute(const ToolCallContext &context) override;

private:
    std::shared_ptr<ToolWorkspace> m_workspace;
};

} // namespace AgentCore
