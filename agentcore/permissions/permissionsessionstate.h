#pragma once

#include "permissionrule.h"

#include <QJsonObject>
#include <QList>
#include <QStringList>

namespace AgentCore {

class PermissionPolicy;

/// The permission part of a session's state: the mode and the rules the user allowed for this
/// session only ("Always allow in this session"). The session layer writes and reads it as
/// opaque keys, so the session file keeps them without the recorder knowing what a permission is.

/// The keys to write: "permissionMode" and "sessionRules" (the policy's session rules, then
/// \a unconfirmed: rules a resumed file listed that this process neither granted nor dropped,
/// kept in the file as they were so that a window can still offer them).
QJsonObject permissionSessionState(const PermissionPolicy &policy,
                                   const QList<PermissionRule> &unconfirmed = {});

/// Applies a resumed session's permission mode (its \a state's "permissionMode") and its deny
/// and ask rules to \a policy, and returns the allow rules its "sessionRules" lists, parsed but
/// NOT applied: a session file is data that anyone, or any tool, may have written, so a rule in
/// it allows nothing until the user grants it in this process (grantSessionRules). A rule that
/// no longer parses is left out with a message in \a warnings.
QList<PermissionRule> restorePermissionSessionState(const QJsonObject &state,
                                                    PermissionPolicy &policy,
                                                    QStringList *warnings);

/// Adds \a rules to \a policy as rules of this session (source "session"): only rules the
/// user confirmed, e.g. those restorePermissionSessionState returned.
void grantSessionRules(const QList<PermissionRule> &rules, PermissionPolicy &policy);

/// "allow Bash(npm test:*)": a rule as the user reads it in a question or a message.
QString sessionRuleText(const PermissionRule &rule);

} // namespace AgentCore
