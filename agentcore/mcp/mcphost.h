#pragma once

#include "mcpclient.h"

#include <loop/agenttypes.h>

#include <QProcessEnvironment>
#include <QThread>

#include <memory>

namespace AgentCore {

class CommandEnvironment;
class ToolSlot;

/// The MCP servers of one agent (or one window, later): their clients on one thread of their
/// own that never waits for anything but their pipes, started in parallel. Its tools hold
/// their clients; once the host is gone their calls fail with a clear message.
/// Not thread-safe itself (used from the thread that made it); its clients are.
class McpHost final
{
public:
    McpHost();
    ~McpHost(); ///< stops every server

    McpHost(const McpHost &) = delete;
    McpHost &operator=(const McpHost &) = delete;

    std::shared_ptr<McpClient> addServer(const McpServerConfig &config,
                                         const McpClientOptions &options);
    QList<std::shared_ptr<McpClient>> clients() const { return m_clients; }

    void startAll();
    /// Blocks until every server is Ready or Failed, at most \a timeoutMs in all.
    void waitUntilSettled(int timeoutMs) const;

    /// The tools of every Ready server as tools of the loop. A tool whose name is one of
    /// \a takenNames (the built-in and other tools) or another server's tool's is left out, with
    /// a problem in \a problems.
    QList<AgentToolPtr> tools(const QStringList &takenNames, QStringList *problems) const;
    /// The same for \a clients (a window's servers, whose list changes on the UI thread while
    /// the agents' threads take a copy); with \a readyOnly false also the tools a server listed
    /// before it failed (a call starts it again). Thread-safe.
    static QList<AgentToolPtr> toolsOf(const QList<std::shared_ptr<McpClient>> &clients,
                                       const QStringList &takenNames,
                                       bool readyOnly,
                                       QStringList *problems);

    /// Keeps \a slot holding the tools of every server (as tools() does, and also those of a
    /// server that failed since it listed them: a call starts it again), now and after each
    /// change of a server's list (notifications/tools/list_changed), from the server's thread.
    /// A running agent offers them from its next turn (CodingAgentOptions::tools.live).
    void publishTools(const std::shared_ptr<ToolSlot> &slot, const QStringList &takenNames);

    /// The environment a server runs in: \a base without its secrets (as Bash's, \a filter),
    /// then the configuration's \a env, except the model providers' key variables and any value
    /// holding the run's key (named in \a dropped): an MCP server never gets them.
    static QProcessEnvironment serverEnvironment(const QProcessEnvironment &base,
                                                 const CommandEnvironment &filter,
                                                 const QMap<QString, QString> &env,
                                                 QStringList *dropped = nullptr);

private:
    QThread m_thread;
    QList<std::shared_ptr<McpClient>> m_clients;
};

} // namespace AgentCore
