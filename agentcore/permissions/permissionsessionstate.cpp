#include "permissionsessionstate.h"
#include "translation.h"

#include "permissionmode.h"
#include "permissionpolicy.h"
#include "permissionrule.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <optional>

namespace AgentCore {

namespace {

const QLatin1String modeKey("permissionMode");
const QLatin1String rulesKey("sessionRules");
const QLatin1String sessionSource("session");

QString behaviorName(PermissionBehavior behavior)
{
    switch (behavior) {
    case PermissionBehavior::Allow:
        return QStringLiteral("allow");
    case PermissionBehavior::Ask:
        return QStringLiteral("ask");
    case PermissionBehavior::Deny:
        return QStringLiteral("deny");
    }
    return {};
}

std::optional<PermissionBehavior> parseBehavior(const QString &name)
{
    for (const PermissionBehavior behavior :
         {PermissionBehavior::Allow, PermissionBehavior::Ask, PermissionBehavior::Deny}) {
        if (behaviorName(behavior) == name)
            return behavior;
    }
    return std::nullopt;
}

} // namespace

QJsonObject permissionSessionState(const PermissionPolicy &policy,
                                   const QList<PermissionRule> &unconfirmed)
{
    QJsonArray rules;
    const auto append = [&rules](const PermissionRule &rule) {
        rules.append(QJsonObject{{QLatin1String("rule"), rule.toString()},
                                 {QLatin1String("behavior"), behaviorName(rule.behavior)}});
    };
    for (const PermissionRule &rule : policy.rules()) {
        if (rule.source == sessionSource)
            append(rule);
    }
    for (const PermissionRule &rule : unconfirmed)
        append(rule);
    return QJsonObject{{modeKey, permissionModeName(policy.mode())}, {rulesKey, rules}};
}

QList<PermissionRule> restorePermissionSessionState(const QJsonObject &state,
                                                    PermissionPolicy &policy,
                                                    QStringList *warnings)
{
    if (const auto mode = parsePermissionMode(state.value(modeKey).toString()))
        policy.setMode(*mode);
    QList<PermissionRule> restored;
    const QJsonArray rules = state.value(rulesKey).toArray();
    for (const QJsonValue &value : rules) {
        const QJsonObject object = value.toObject();
        const QString text = object.value(u"rule").toString();
        const std::optional<PermissionBehavior> behavior = parseBehavior(
            object.value(u"behavior").toString());
        QString error;
        std::optional<PermissionRule> rule;
        if (behavior)
            rule = PermissionRule::parse(text, *behavior, &error);
        if (!rule) {
            warnings->append(
                PermissionsTr::tr("The session's permission rule \"%1\" was not restored: %2")
                    .arg(text, error.isEmpty() ? PermissionsTr::tr("unknown kind") : error));
            continue;
        }
        rule->source = sessionSource;
        // Deny and ask rules only ever ask more: they apply. An allow rule waits for the user.
        if (rule->behavior == PermissionBehavior::Allow)
            restored.append(*rule);
        else
            policy.addRule(*rule);
    }
    return restored;
}

void grantSessionRules(const QList<PermissionRule> &rules, PermissionPolicy &policy)
{
    for (PermissionRule rule : rules) {
        rule.source = sessionSource;
        policy.addRule(rule);
    }
}

QString sessionRuleText(const PermissionRule &rule)
{
    return behaviorName(rule.behavior) + u' ' + rule.toString();
}

} // namespace AgentCore
