#include "sandboxsockets.h"

namespace AgentCore {

QStringList SandboxSockets::defaultFolders()
{
    return {QStringLiteral("/run"),
            QStringLiteral("/var/run"),
            QStringLiteral("/var/lib/lxd"),
            QStringLiteral("/var/snap/lxd/common/lxd"),
            QStringLiteral("/var/lib/incus")};
}

QStringList SandboxSockets::neededFromSocketFolders(bool network)
{
    QStringList paths{QStringLiteral("/run/current-system")};
    if (network)
        paths.append(QStringLiteral("/etc/resolv.conf"));
    return paths;
}

} // namespace AgentCore
