#pragma once

#include <QJsonObject>
#include <QStringList>

namespace AgentCore {

class PermissionPolicy;

/// The permission part of a session's state: the mode and the rules the user allowed for this
/// session only ("Always allow in this session"). The session layer writes and reads it as
/// opaque keys, so the session file keeps them without the recorder knowing what a permission is.

/// The keys to write: "permissionMode" and "sessionRules".
QJsonObject permissionSessionState(const PermissionPolicy &policy);

/// Applies the keys of a resumed session's \a state to \a policy. A rule that no longer parses
/// is skipped with a message in \a warnings; the others are restored.
void restorePermissionSessionState(const QJsonObject &state,
                                   PermissionPolicy &policy,
                                   QStringList *warnings);

} // namespace AgentCore
