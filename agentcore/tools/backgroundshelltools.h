#pragma once

#include "backgroundshells.h"

#include <loop/agenttypes.h>

#include <memory>

namespace AgentCore {

/// BashOutput: the new output of a background command (Bash with run_in_background) since the
/// last read, whether it still runs and how it ended; with `filter` (a regular expression) only
/// the lines that match are shown, the others are read all the same. A read shows at most
/// maxShownBytes, the last ones; the log file named in the result has everything. Reads only;
/// no side effects. Thread-safe.
class BashOutputTool final : public AgentTool
{
public:
    static constexpr qsizetype maxShownBytes = 32 * 1024;

    explicit BashOutputTool(std::shared_ptr<BackgroundShells> shells);

    ToolDefinition definition() const override;
    ToolKind kind() const override { return ToolKind::BashOutput; }
    ToolResult execute(const ToolCallContext &context) override;

private:
    std::shared_ptr<BackgroundShells> m_shells;
};

/// KillShell: stops a background command (its whole process group: TERM, then KILL after the
/// grace period) and waits for it to end. Only this session's own commands exist for it, which
/// the model started itself: no side effect on the user's files, so no question. Thread-safe.
class KillShellTool final : public AgentTool
{
public:
    explicit KillShellTool(std::shared_ptr<BackgroundShells> shells);

    ToolDefinition definition() const override;
    ExecutionMode executionMode() const override { return ExecutionMode::Sequential; }
    bool hasSideEffects() const override { return false; }
    ToolKind kind() const override { return ToolKind::KillShell; }
    ToolResult execute(const ToolCallContext &context) override;

private:
    std::shared_ptr<BackgroundShells> m_shells;
};

} // namespace AgentCore
