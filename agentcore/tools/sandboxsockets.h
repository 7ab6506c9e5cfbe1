#pragma once

#include <QString>
#include <QStringList>

namespace AgentCore {

/// Unix sockets on the filesystem inside the sandbox. A network namespace of its own cuts the
/// command off the network and from abstract sockets (they belong to the namespace), but a
/// socket file is reached by its path: a listener in the home, the session bus, the Docker
/// socket (root for a docker-group user). So no folder where sockets live is shown as it is:
/// the home is hidden but for an allow-list (SandboxHome), /tmp is private, and the folders
/// below are emptied, the network allowed or not (a socket file is no network). Stateless;
/// thread-safe.
class SandboxSockets final
{
public:
    /// The folders where services listen on Unix sockets (SandboxPolicy::socketFolders'
    /// default), emptied inside the sandbox whether or not the network is allowed: /run and
    /// /var/run (the Docker and Podman sockets, the system bus, $XDG_RUNTIME_DIR's session bus
    /// and agents), the LXD and Incus sockets' folders. Whether each exists is not checked.
    static QStringList defaultFolders();

    /// What commands need from inside those folders: NixOS's /run/current-system (its
    /// programs), and with \a network the resolver's configuration /etc/resolv.conf links to
    /// (/run/systemd/resolve/stub-resolv.conf, ...); files and folders without sockets.
    static QStringList neededFromSocketFolders(bool network);
};

} // namespace AgentCore
