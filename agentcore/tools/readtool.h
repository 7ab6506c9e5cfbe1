#pragma once

#include "toolworkspace.h"

#include <loop/agenttypes.h>

#include <memory>

namespace AgentCore {

/// Read: a text file with line numbers (number, tab, line), a window of it with offset/limit.
/// Records what it read in the workspace so Edit and Write can check the file is unchanged.
/// Lines the model was already shown of the same bytes (ReadLedger::findShown) are not sent
/// again: the result says they are unchanged (details: "unchanged", "unchangedSince" the call
/// whose output holds them).
/// Refuses binary files; a missing file's error names similar existing paths. A picture file
/// (PNG, JPEG, GIF, WebP, by its name) comes back as an image block scaled to the workspace's
/// picture limits (ToolWorkspace::setPictures), after a line naming its kind, size and
/// dimensions; a broken or too large one is an error that says so.
/// Thread-safe; parallel.
class ReadTool final : public AgentTool
{
public:
    static constexpr int defaultLimit = 2000;         ///< lines per call
    static constexpr int maxLineLength = 2000;        ///< characters shown of one line
    static constexpr int maxOutputChars = 100 * 1024; ///< of the numbered text per call
    static constexpr qint64 maxFileBytes = 64 * 1024 * 1024;

    explicit ReadTool(std::shared_ptr<ToolWorkspace> workspace);

    ToolDefinition definition() const override;
    ExecutionMode executionMode() const override { return ExecutionMode::Parallel; }
    ToolKind kind() const override { return ToolKind::Read; }
    ToolResult execute(const ToolCallContext &context) override;

private:
    ToolResult readPicture(const ResolvedPath &path, qint64 size) const;

    std::shared_ptr<ToolWorkspace> m_workspace;
};

} // namespace AgentCore
