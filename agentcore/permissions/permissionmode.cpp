#include "permissionmode.h"

namespace AgentCore {

QString permissionModeName(PermissionMode mode)
{
    switch (mode) {
    case PermissionMode::Default:
        return QStringLiteral("default");
    case PermissionMode::AcceptEdits:
        return QStringLiteral("acceptEdits");
    case PermissionMode::Plan:
        return QStringLiteral("plan");
    case PermissionMode::Bypass:
        return QStringLiteral("bypass");
    }
    return QStringLiteral("default");
}

std::optional<PermissionMode> parsePermissionMode(QStringView text)
{
    const QStringView trimmed = text.trimmed();
    for (const PermissionMode mode : {PermissionMode::Default,
                                      PermissionMode::AcceptEdits,
                                      PermissionMode::Plan,
                                      PermissionMode::Bypass}) {
        if (trimmed == permissionModeName(mode))
            return mode;
    }
    if (trimmed == QLatin1String("bypassPermissions"))
        return PermissionMode::Bypass;
    return std::nullopt;
}

} // namespace AgentCore
