#pragma once

#include <QUrl>

namespace AgentCore {

/// Turns Nagle's algorithm off (TCP_NODELAY) on this process's TCP connections to \a url's
/// port (and address, when the host is an IP address or "localhost"); returns how many
/// connections it changed. Idempotent and cheap (a few system calls per open file): call it
/// whenever QNetworkAccessManager may have opened a connection to \a url.
///
/// Why: QNetworkAccessManager writes an HTTP/1.1 request as the headers with the first
/// 16 KiB of the body, then the rest in 16 KiB pieces, on a socket without TCP_NODELAY (Qt
/// leaves LowDelayOption off on purpose and offers no way to set it). On a kept-alive
/// connection the last partial segment of a body over 16 KiB then waits for the server's
/// delayed ACK: 40 ms per request on Linux, measured at 41 ms per turn against a local model
/// server. With TCP_NODELAY each piece leaves at once. Qt gives no access to the sockets of
/// QNetworkAccessManager, so they are found by their peer. A connection to the same port of
/// another host (a name, not an address) may be changed too: harmless, TCP_NODELAY is what
/// curl, Go and Node set on every HTTP connection. No-op where the open sockets cannot be
/// listed (not Linux).
int setLowDelayOnConnectionsTo(const QUrl &url);

} // namespace AgentCore
