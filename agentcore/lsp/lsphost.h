#pragma once

#include "lspclient.h"
#include "lspserverconfig.h"

#include <QMutex>
#include <QThread>

#include <memory>

namespace AgentCore {

/// The language servers of one repository: a client for each configured server, made at the
/// first question about a file of its language and started by it (LspClient), all on one
/// thread of their own that never waits for anything but their pipes. Stopping the host stops
/// every server; a client still held elsewhere then fails at once. Thread-safe.
class LspHost final
{
public:
    /// \a servers: those to use (LspServerConfig::available() of the configured ones).
    LspHost(const QList<LspServerConfig> &servers, const LspClientOptions &options);
    ~LspHost(); ///< stops every server, without waiting for them

    LspHost(const LspHost &) = delete;
    LspHost &operator=(const LspHost &) = delete;

    QList<LspServerConfig> servers() const { return m_servers; }
    bool handles(const QString &path) const;
    /// The client of the server for \a path's language (made now if it is the first question;
    /// the server starts at its first use); null when none is for that language.
    std::shared_ptr<LspClient> clientFor(const QString &path);
    /// The clients made so far.
    QList<std::shared_ptr<LspClient>> clients() const;

private:
    const QList<LspServerConfig> m_servers;
    const LspClientOptions m_options;
    QThread *m_thread; ///< the clients'; ended after them, on a pool thread (~LspHost)
    mutable QMutex m_mutex;
    QHash<QString, std::shared_ptr<LspClient>> m_clients; ///< by server name
};

} // namespace AgentCore
