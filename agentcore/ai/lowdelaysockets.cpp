#include "lowdelaysockets.h"

#include <QHostAddress>

#ifdef Q_OS_LINUX
#    include <dirent.h>
#    include <netinet/in.h>
#    include <netinet/tcp.h>
#    include <sys/socket.h>

#    include <cstdlib>
#endif

namespace AgentCore {

#ifdef Q_OS_LINUX

namespace {

/// Whether \a fd is a connected TCP socket whose peer is \a port on \a address (any address
/// when null), and TCP_NODELAY is still off.
bool needsLowDelay(int fd, const QHostAddress &address, bool anyLoopback, quint16 port)
{
    int type = 0;
    socklen_t length = sizeof type;
    if (::getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) != 0 || type != SOCK_STREAM)
        return false; // not a socket (most open files), or not a stream
    sockaddr_storage peer{};
    length = sizeof peer;
    if (::getpeername(fd, reinterpret_cast<sockaddr *>(&peer), &length) != 0)
        return false; // not connected: a listening socket
    quint16 peerPort = 0;
    if (peer.ss_family == AF_INET)
        peerPort = ntohs(reinterpret_cast<const sockaddr_in &>(peer).sin_port);
    else if (peer.ss_family == AF_INET6)
        peerPort = ntohs(reinterpret_cast<const sockaddr_in6 &>(peer).sin6_port);
    else
        return false; // a Unix domain socket
    if (peerPort != port)
        return false;
    if (anyLoopback || !address.isNull()) {
        const QHostAddress peerAddress(reinterpret_cast<const sockaddr *>(&peer));
        if (anyLoopback ? !peerAddress.isLoopback()
                        : !peerAddress.isEqual(address, QHostAddress::TolerantConversion))
            return false;
    }
    int noDelay = 0;
    length = sizeof noDelay;
    return ::getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &noDelay, &length) == 0 && noDelay == 0;
}

} // namespace

int setLowDelayOnConnectionsTo(const QUrl &url)
{
    const bool https = url.scheme().compare(QLatin1String("https"), Qt::CaseInsensitive) == 0;
    const int port = url.port(https ? 443 : 80);
    if (port <= 0)
        return 0;
    const QString host = url.host();
    const bool anyLoopback = host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0;
    const QHostAddress address(host); // null unless the host is an IP address

    DIR *descriptors = ::opendir("/proc/self/fd");
    if (!descriptors)
        return 0;
    const int own = ::dirfd(descriptors);
    int changed = 0;
    while (const dirent *entry = ::readdir(descriptors)) {
        char *end = nullptr;
        const long fd = std::strtol(entry->d_name, &end, 10);
        if (end == entry->d_name || *end != '\0' || fd == own)
            continue; // "." and ".."
        if (!needsLowDelay(int(fd), address, anyLoopback, quint16(port)))
            continue;
        const int on = 1;
        if (::setsockopt(int(fd), IPPROTO_TCP, TCP_NODELAY, &on, sizeof on) == 0)
            ++changed;
    }
    ::closedir(descriptors);
    return changed;
}

#else

int setLowDelayOnConnectionsTo(const QUrl &)
{
    return 0;
}

#endif

} // namespace AgentCore
