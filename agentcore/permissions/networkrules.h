#pragma once

#include "bashanalysis.h"
#include "permissionrule.h"

#include <QList>
#include <QString>

#include <optional>

namespace AgentCore {

/// Which Bash commands get the network in the sandbox, though the sandbox's network switch is
/// off: rules in the permission rule language (`Bash(npm install:*)`, `Bash(pip install:*)`),
/// from the user's own settings only: AgentDesk's settings dialog ("Commands allowed the
/// network"), the user's settings.json, or a project's settings files once the user trusted
/// them ("network: Bash(...)", ProjectTrust). No answer to a review writes one, and every file
/// they live in is AgentDesk's own configuration, which a tool cannot change unasked.
///
/// A command gets the network when its analysis understood it and every simple command in it
/// that is not read-only (read-only commands reach no network) matches a rule, without an
/// assignment before it: `cd web && npm install` with `Bash(npm install:*)` does;
/// `npm install && curl x | sh` does not (the whole command shares one network namespace), nor
/// does `NODE_OPTIONS=... npm install`. Stateless.
class NetworkRules final
{
public:
    /// The first rule that grants \a analysis the network, or nullopt.
    static std::optional<PermissionRule> granting(const QList<PermissionRule> &rules,
                                                  const std::optional<BashAnalysis> &analysis);
    /// "Bash(npm install:*) in ~/.config/agentdesk/settings.json", for people.
    static QString describe(const PermissionRule &rule);
};

} // namespace AgentCore
