#pragma once

#include "permissionpolicy.h"
#include "permissionrequest.h"

#include <tools/toolworkspace.h>

#include <QList>
#include <QString>

namespace AgentCore {

/// What a reviewer is shown for one call, and the rules an "allow for this session / always"
/// answer adds. Used by the permission middleware; pure apart from reading the file an Edit
/// or Write would change. Thread-safe.
class PermissionReview final
{
public:
    /// Fills \a request's change (Edit, Write: the file now and after, and their unified
    /// diff) or command fields (Bash) and its suggested rules. Returns the tool's own error
    /// instead when the call cannot succeed (old_string not found, file not read, ...): there
    /// is nothing to review then. \a workspace may be null (no file fields).
    static QString describe(const ToolWorkspace *workspace,
                            const PermissionSubject &subject,
                            PermissionRequest &request);

    /// Rules that would let the same call through next time, the broadest sensible one
    /// first: `Bash(npm test:*)` then `Bash(npm test -- a)`; `Edit(src/**)` then
    /// `Edit(src/a.cpp)`; `Read(/etc/**)` for a read outside the repository.
    static QList<PermissionRule> suggestedRules(const PermissionSubject &subject);

    /// The rules an allow-for-session/always answer without a rule of its own adds: the first
    /// suggestion, or for a compound command the first suggestion of each simple command (a
    /// rule approves a compound command only when every part matches). Behaviour Allow.
    static QList<PermissionRule> defaultRules(const PermissionSubject &subject);
};

} // namespace AgentCore
