#include "permissionmode.h"
#include "translation.h"

#include <QCoreApplication>

namespace AgentCore {

QString permissionModeTitle(PermissionMode mode)
{
    switch (mode) {
    case PermissionMode::Default:
        return PermissionsTr::tr("Ask before changes");
    case PermissionMode::AcceptEdits:
        return PermissionsTr::tr("Accept edits");
    case PermissionMode::Plan:
        return PermissionsTr::tr("Plan (read-only)");
    case PermissionMode::Bypass:
        return PermissionsTr::tr("Bypass permissions");
    }
    return PermissionsTr::tr("Ask before changes");
}

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
