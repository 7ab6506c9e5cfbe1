#pragma once

#include "toolworkspace.h"

#include <loop/agenttypes.h>

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
    ToolKind kind() const override { return ToolKind::Edit; }
    ToolResult execute(const ToolCallContext &context) override;

    /// What execute() would do with \a arguments, worked out without writing anything: the
    /// permission review shows it as a diff. Reads the file; thread-safe. A plain value.
    struct Change
    {
        ResolvedPath path;
        QByteArray before;  ///< the file's bytes now, byte order mark included
        QByteArray after;   ///< the bytes execute() would write
        QByteArray oldBody; ///< before and after without the byte order mark
        QByteArray newBody;
        int replacements = 0;
        int firstLine = 0;     ///< of the first replacement, 1-based
        int replacedLines = 0; ///< lines of the replacement text
        QString error;         ///< execute()'s error for the model; empty when it applies
    };
    static Change prepare(const ToolWorkspace &workspace, const QJsonObject &arguments);

private:
    std::shared_ptr<ToolWorkspace> m_workspace;
};

} // namespace AgentCore
