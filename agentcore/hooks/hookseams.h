#pragma once

#include "hookrunner.h"

#include <loop/agentloop.h>
#include <permissions/permissionasker.h>

#include <functional>
#include <memory>

namespace AgentCore {

/// What the hook middleware works with.
struct HookGate
{
    std::shared_ptr<const HookRunner> runner;
    /// Who answers a hook's "ask"; null: nobody, the call is denied (onUnattendedDeny told).
    std::shared_ptr<PermissionAsker> asker;
    std::function<void(const QString &message)> onUnattendedDeny;
};

/// PreToolUse and PostToolUse hooks around each tool call. Installed outside the permission
/// middleware (and inside the audit log), so a hook can only take away: its "deny" (or exit 2)
/// ends the call before the policy is asked, with the hook's reason for the model; its "ask"
/// asks the person first (nobody there: denied), then the policy decides as it always does;
/// its "allow" lets the policy decide, which may still ask or deny: a hook never widens what
/// the policy denies. updatedInput replaces the call's arguments when they fit the tool's
/// schema (else the call fails with the schema's error); the policy then judges the new ones.
/// After the call, PostToolUse hooks see tool_input and tool_response; their block reason
/// (exit 2 stderr, `decision: "block"`) and additionalContext are added to the result the
/// model gets. `continue: false` from either stops the run. Runs on the tool's thread.
ToolMiddleware makeHookMiddleware(HookGate gate);

/// Stop hooks, for AgentLoopConfig::onTaskEnd: when the task would end, a hook that blocks
/// (exit 2, `decision: "block"`) hands back its reason as a user message and the agent goes
/// on with it. stop_hook_active tells the hook the agent already goes on because of a Stop
/// hook; at most maxStopContinuations times in a row, so a hook that always blocks cannot keep
/// a run going forever. \a event SubagentStop: the same for a subagent's run (each subagent
/// gets a hook of its own).
std::function<QList<Message>(const AbortToken &abort)> makeStopHook(
    std::shared_ptr<const HookRunner> runner, HookEventName event = HookEventName::Stop);
constexpr int maxStopContinuations = 5;

/// Notification hooks when AgentDesk needs the user: each question put to \a asker first
/// starts the hooks (message "AgentDesk needs your permission to use Bash",
/// notification_type "permission_prompt", which the matcher selects) on the global pool,
/// without waiting for them: a hook cannot answer or delay the question, its outcome is only
/// reported (HookRunner's report). Null \a asker: null (nobody is asked, nobody notified).
std::shared_ptr<PermissionAsker> makeNotifyingAsker(std::shared_ptr<PermissionAsker> asker,
                                                    std::shared_ptr<const HookRunner> runner);

/// The text of a message carrying hooks' additionalContext to the model.
QString hookContextText(HookEventName event, const QStringList &context);

} // namespace AgentCore
