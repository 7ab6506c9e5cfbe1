#pragma once

#include "toolworkspace.h"

#include "backgroundshells.h"

#include <loop/agenttypes.h>

#include <atomic>
#include <memory>
#include <optional>

namespace AgentCore {

/// How one Bash call runs beyond its arguments: ToolCallContext::toolOptions carries it, set by
/// the permission middleware (and tests), never by the model.
struct BashOptions
{
    /// The folders of an overlay of the repository (ShellOverlay::bashOverlay): the command's
    /// writes land in \a upper for review, the real tree stays untouched.
    struct Overlay
    {
        QString upper;
        QString work;
    };

    /// The user's network rule that gives this command the network in the sandbox, as
    /// NetworkRules::describe says it (shown in details.networkRule); empty: none.
    QString networkRule;
    /// The command is git's own work (BashAnalysis::gitWork): the repository's git folders are
    /// writable for it in the sandbox.
    bool gitWritable = false;
    /// Runs on an overlay of the repository; none: on the repository itself.
    std::optional<Overlay> overlay;
};

/// Bash: runs `/bin/bash -c COMMAND` in the repository root, in a session and process group of
/// its own, stdin from /dev/null, stdout and stderr merged. Streams the output so far as tool
/// updates (throttled; the first update carries the process id in details.pid). A timeout or
/// an abort terminates the whole group (TERM, then KILL after a grace period), grandchildren
/// and background jobs included; processes still running when the command exits are
/// terminated the same way. The model sees the first and last part of long output; the full
/// output is kept in a log file named in the result. A non-zero exit is an error result.
/// With the workspace's SandboxPolicy on and bwrap working, bash runs inside bwrap
/// (BwrapCommand): read-only outside the repository, a private /tmp, the secrets hidden, no
/// network unless allowed; the repository's git folders (GitDirectories) read-only unless
/// BashOptions::gitWritable says the command is git's own work (set by the permission
/// middleware from BashAnalysis::gitWork). Where bwrap does not work it runs as it is and the
/// workspace's sandbox notice is told once; in Required mode it does not run and the result
/// says why.
/// details.sandboxed and details.network say how the command ran.
/// With run_in_background (and BackgroundShells given) the command starts as one of the
/// session's background commands, the same program line in the same sandbox with the same
/// environment (and PYTHONUNBUFFERED=1, so a Python server's lines show as it prints them), and
/// the call returns after backgroundFirstMs (or sooner, when it ended) with its shell id and
/// what it printed so far; BashOutput reads the rest, KillShell stops it. Not on an overlay
/// (BashOptions::overlay): refused, as its writes could not be reviewed before it ends.
/// execute() blocks and may run on any thread (it spins a local event loop there).
/// Thread-safe; sequential.
class BashTool final : public AgentTool
{
public:
    static constexpr int defaultTimeoutMs = 2 * 60 * 1000;
    static constexpr int maxTimeoutMs = 10 * 60 * 1000;
    static constexpr qsizetype headBytes = 8 * 1024;
    static constexpr qsizetype tailBytes = 24 * 1024;
    static constexpr int updateIntervalMs = 200;
    static constexpr int backgroundFirstMs = 500;

    /// \a shells: where run_in_background starts its commands; null: the argument is refused.
    explicit BashTool(std::shared_ptr<ToolWorkspace> workspace,
                      std::shared_ptr<BackgroundShells> shells = {});

    /// Between TERM and KILL (default 2000 ms).
    void setKillGracePeriod(int milliseconds) { m_graceMs = milliseconds; }

    ToolDefinition definition() const override;
    ExecutionMode executionMode() const override { return ExecutionMode::Sequential; }
    ToolKind kind() const override { return ToolKind::Bash; }
    ToolResult execute(const ToolCallContext &context) override;

private:
    ToolResult run(const ToolCallContext &context);

    std::shared_ptr<ToolWorkspace> m_workspace;
    std::shared_ptr<BackgroundShells> m_shells;
    std::atomic_int m_graceMs = 2000;
};

} // namespace AgentCore
