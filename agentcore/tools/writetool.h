#pragma once

#include "toolworkspace.h"

#include <loop/agenttypes.h>

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
    ToolKind kind() const override { return ToolKind::Write; }
    ToolResult execute(const ToolCallContext &context) override;

    /// What execute() would do with \a arguments, worked out without writing anything: the
    /// permission review shows it as a diff. Reads the file; thread-safe. A plain value.
    struct Change
    {
        ResolvedPath path;
        QByteArray before;  ///< the file's bytes now ("" for a new file)
        QByteArray after;   ///< the bytes execute() would write
        QByteArray oldBody; ///< before and after without the byte order mark
        QByteArray newBody;
        bool created = false; ///< the file does not exist yet
        QString error;        ///< execute()'s error for the model; empty when it applies
    };
    static Change prepare(const ToolWorkspace &workspace, const QJsonObject &arguments);

private:
    std::shared_ptr<ToolWorkspace> m_workspace;
};

} // namespace AgentCore
