#pragma once

#include "permissionrule.h"

#include <QString>

namespace AgentCore {

class PermissionPolicy;

/// What "Always allow" does with a rule, wherever the person chose it (a review's answer,
/// the offer after repeated approvals): applies it to the session's \a policy at once, writes
/// it to \a settingsPath (empty: the project's local settings, where Settings lists it) and,
/// when \a projectTrustPath is set, records it as accepted by the user (ProjectTrust) so that
/// it applies at the next start too. The rule gets behaviour Allow and the file as its source.
/// False with \a error when the file (or the trust store) could not be written; the rule
/// still applies to this session then. Thread-safe as the policy and the files are.
bool alwaysAllow(PermissionPolicy &policy,
                 PermissionRule rule,
                 const QString &settingsPath,
                 const QString &projectTrustPath,
                 QString *error = nullptr);

} // namespace AgentCore
