#include "alwaysallow.h"

#include "permissionpolicy.h"
#include "permissionsettings.h"
#include "projecttrust.h"

namespace AgentCore {

bool alwaysAllow(PermissionPolicy &policy,
                 PermissionRule rule,
                 const QString &settingsPath,
                 const QString &projectTrustPath,
                 QString *error)
{
    const QString path = !settingsPath.isEmpty()
                             ? settingsPath
                             : PermissionSettings::projectLocalSettingsPath(policy.repositoryRoot());
    rule.behavior = PermissionBehavior::Allow;
    rule.source = path;
    policy.addRule(rule);
    if (!PermissionSettings::appendRule(path, rule, error))
        return false;
    return projectTrustPath.isEmpty()
           || ProjectTrust::remember(projectTrustPath,
                                     policy.repositoryRoot(),
                                     {ProjectTrust::ruleGrant(rule)},
                                     error);
}

} // namespace AgentCore
