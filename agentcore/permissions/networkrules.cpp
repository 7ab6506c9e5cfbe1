#include "networkrules.h"
#include "translation.h"

#include <loop/toolkind.h>

#include <QCoreApplication>
#include <QDir>

#include <algorithm>

namespace AgentCore {

std::optional<PermissionRule> NetworkRules::granting(const QList<PermissionRule> &rules,
                                                     const std::optional<BashAnalysis> &analysis)
{
    if (rules.isEmpty() || !analysis || !analysis->understood)
        return std::nullopt;
    std::optional<PermissionRule> first;
    for (const SimpleCommand &command : analysis->commands) {
        if (command.readOnly)
            continue;
        if (!command.assignments.isEmpty())
            return std::nullopt;
        const auto it = std::find_if(rules.cbegin(), rules.cend(), [&](const PermissionRule &rule) {
            return toolKind(rule.toolName) == ToolKind::Bash
                   && (rule.specifier.isEmpty() || rule.matchesCommand(command.words));
        });
        if (it == rules.cend())
            return std::nullopt;
        if (!first)
            first = *it;
    }
    return first; // nullopt too when every command is read-only: none needs the network
}

QString NetworkRules::describe(const PermissionRule &rule)
{
    if (rule.source.isEmpty())
        return rule.toString();
    QString source = rule.source;
    const QString home = QDir::homePath();
    if (home.size() > 1 && source.startsWith(home + QLatin1Char('/')))
        source = QStringLiteral("~") + source.mid(home.size());
    return PermissionsTr::tr("%1 in %2").arg(rule.toString(), source);
}

} // namespace AgentCore
