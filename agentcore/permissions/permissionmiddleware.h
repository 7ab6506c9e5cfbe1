#pragma once

#include "bashanalysis.h"
#include "permissionasker.h"
#include "permissionpolicy.h"
#include "proposalcheck.h"

#include <loop/agenttypes.h>
#include <tools/toolworkspace.h>

#include <functional>
#include <memory>

namespace AgentCore {

/// What the permission middleware works with. Shared pointers: the middleware outlives no one.
struct PermissionGate
{
    std::shared_ptr<PermissionPolicy> policy;
    std::shared_ptr<PermissionAsker> asker; ///< null: every "ask" is denied (headless default)
    std::shared_ptr<ToolWorkspace> workspace;
    std::shared_ptr<BashAnalyzer> bash;
    QString alwaysAllowSettingsPath; ///< where AllowAlways writes (project local settings)
    /// Where an AllowAlways rule is also recorded as accepted by the user (ProjectTrust), so
    /// that the rule it wrote to the project's settings applies at the next start; empty: not.
    QString projectTrustPath;
    /// Told about every call that was denied because nobody could be asked (headless stderr).
    std::function<void(const QString &message)> onUnattendedDeny;
    /// "Review shell writes": asked before each Bash call; true runs a command that is not
    /// read-only, in default mode, with someone to ask, on an overlay of the repository and
    /// reviews what it wrote (ShellWritesReview). Null: never. True with no asker (a headless
    /// run): the allowed command writes directly, and onShellWritesUnavailable says so once.
    std::function<bool()> reviewShellWrites;
    /// Where the overlays' scratch layers and the journals of applying their accepted changes
    /// go (a folder of AgentDesk's data; not on overlayfs). Empty: a folder in /tmp.
    QString shellWritesFolder;
    /// Told once per middleware (that is, per agent) when shell writes cannot be reviewed here
    /// (bubblewrap too old or missing, or nobody to ask), with why: the commands then run as
    /// before, their writes not reviewed.
    std::function<void(const QString &message)> onShellWritesUnavailable;
    /// Starts the check of an Edit's or Write's proposal when it is asked about; its future
    /// goes with the request (PermissionRequest::proposalCheck). Null: nothing is checked.
    ProposalChecker checkProposal;
};

/// Installs PathCapability as \a gate.workspace's guard, asking the policy for the writable
/// roots on every check (so directories added later count).
/// The inner layer of the onion (DESIGN.md section 1): works out the paths and the Bash
/// analysis of the call, asks the policy, asks the person when needed (with the diff of the
/// proposed Edit/Write against the file as it is now), then runs next() inside a
/// PathCapability::Scope. Sets ToolCallContext::permissionDecision for the audit
/// (PermissionRecord::text of what it did, before the inner layers run and when they are done).
/// A deny is an error result the model can act on, with the user's feedback. Runs on the
/// tool's thread; waiting for the answer ends when the call's abort token fires.
/// An Edit or Write that would fail anyway (file not read, old_string not found) is not shown
/// to anyone: the tool's error comes back at once. "Allow for this session/always" without a
/// rule in the answer adds PermissionReview::defaultRules, except for a call that changes
/// AgentDesk's own configuration (PermissionDecision::changesConfiguration): any allow answer
/// is good for that call only, and without an asker it is denied saying no rule can allow it. Installs the PathCapability guard
/// on gate.workspace (writable roots asked from the policy on every check).
/// An allowed Edit/Write with PermissionAnswer::rejectedHunks is not run as the model asked:
/// its arguments are rewritten to apply only the kept hunks (PartialChange::rewrite) and it
/// runs on through next(), so the tool writes (after the second validation, inside the effect
/// hooks); the result names the rejected hunks and the audit says "...; partially applied,
/// rejected hunks 2 of 3" with the rewritten arguments. Refused, nothing run, when the file
/// changed since the review. Rejecting every hunk is a deny. Rules are remembered as for a
/// full allow. The middleware itself never writes a file.
ToolMiddleware makePermissionMiddleware(const PermissionGate &gate);

} // namespace AgentCore
