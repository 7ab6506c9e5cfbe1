#pragma once

#include <loop/agenttypes.h>
#include <mcp/mcpclient.h>
#include <mcp/mcpconfig.h>
#include <tools/commandenvironment.h>

#include <QObject>
#include <QPointer>
#include <QProcessEnvironment>
#include <QThreadPool>

#include <functional>
#include <memory>

namespace AgentCore {
class McpHost;
}

namespace Ui {

class KeyStore;

/// One MCP server as the window knows it: configured, and maybe running.
struct McpServerEntry
{
    enum class Source { User, Repository };

    AgentCore::McpServerConfig config; ///< as configured: its ${...} references unexpanded
    Source source = Source::User;
    QString key; ///< "user:NAME" or "<repository root>:NAME": what disabling is remembered by
    bool enabled = true;
    /// Null while not started: disabled, not trusted, replaced, or a reference missing.
    std::shared_ptr<AgentCore::McpClient> client;
    QString problem;            ///< why it is not started (empty while it runs or is disabled)
    bool awaitingTrust = false; ///< a repository server the user has not trusted yet
    bool replaced = false;      ///< a user server the repository's of the same name replaces
    int launch = 0;             ///< counts starts: keyring answers for an older start are dropped
};

/// The MCP servers of the repository a window has open: those of the repository's .mcp.json
/// and those of the user's settings (AppSettings::mcpServers, the same format; on a name clash
/// the repository's is used and the user's is listed as replaced). Started once, on one
/// McpHost shared by every session of the repository, without ever waiting on the UI thread:
/// each agent takes the ready servers' tools at the start of each run (toolSource()).
///
/// A repository's servers run code anyone who commits could have written: they start only
/// once the user trusted that exact .mcp.json (trustNeeded(), trust(): remembered in the
/// ProjectTrust store with the file's hash, so a changed file asks again). `${VAR}` references
/// take the environment, `${keyring:NAME}` the secret "mcp:NAME" of the KeyStore
/// (McpConfigExpansion, as headless runs do); the model providers' keys never reach a server:
/// a configuration that names one is not started (McpConfigExpansion), and its env never gets
/// them (McpHost::serverEnvironment). UI thread.
class McpServers final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(McpServers)
public:
    struct Options
    {
        QString repositoryRoot;
        QByteArray userServers; ///< AppSettings::mcpServers
        QStringList disabled;   ///< AppSettings::disabledMcpServers (McpServerEntry::key)
        QString trustStorePath; ///< ProjectTrust's store; empty: nothing is remembered
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        AgentCore::CommandEnvironment filter; ///< what of the environment a server gets
        int waitForStartingMs = 10'000;       ///< a run waits this long for servers still starting
    };

    McpServers(Options options, KeyStore *keyStore, QObject *parent = nullptr);
    /// Stops every server, in the background: a server that ignores its closed stdin and
    /// SIGTERM takes a second to stop, and opening another repository must not wait for it.
    ~McpServers() override;
    /// Blocks until the servers of every McpServers destroyed so far have stopped: what the
    /// window does as it goes, so that none outlives the program.
    static void waitForStoppedServers();

    /// The keyring account of the secret `${keyring:NAME}` names.
    static QString secretAccount(const QString &name);
    /// The ProjectTrust grant of a .mcp.json with these contents.
    static QString fileGrant(const QByteArray &contents);

    /// Reads the configuration (the repository's .mcp.json and the trust store on a worker
    /// thread) and starts what may start; asks for trust (trustNeeded()) when the repository's
    /// servers are not trusted yet. changed() follows once it has been read.
    void start();
    /// start() has read the configuration: servers() lists it.
    bool isConfigured() const { return m_configured; }
    QList<McpServerEntry> servers() const { return m_entries; }
    QString repositoryRoot() const { return m_options.repositoryRoot; }
    QStringList problems() const { return m_problems; } ///< entries of the files left out
    /// What the trust dialog lists: one line per repository server (its command line or url).
    QStringList untrustedServers() const;
    /// The user trusted the repository's .mcp.json as it is: remembered, its servers start.
    void trust();
    void restart(const QString &key);
    /// Holds back the servers' processes (their clients exist; a call still starts one) until
    /// releaseStarts(): the window lets its first paint go first.
    void holdStarts() { m_holding = true; }
    void releaseStarts();
    void setEnabled(const QString &key, bool enabled);
    QStringList disabled() const { return m_options.disabled; }
    /// The user's servers changed (the settings dialog): those whose entry changed restart.
    void setUserServers(const QByteArray &json);

    /// For each agent of the repository (AgentConfig::runTools): the ready servers' tools, on
    /// the agent's thread; waits up to waitForStartingMs for the configuration still being read
    /// and for servers still starting, never past the run's abort. Outlives this object safely (it then offers none).
    std::function<QList<AgentCore::AgentToolPtr>(const AgentCore::AbortToken &)> toolSource() const;

signals:
    void trustNeeded(const QStringList &servers);
    /// A server started, stopped, failed, listed its tools, or the list changed.
    void changed();
    void serverFailed(const QString &name, const QString &reason);
    /// setEnabled() changed the disabled list: the window keeps it in its settings.
    void disabledChanged(const QStringList &disabled);

private:
    struct Clients;

    /// The repository's .mcp.json as read, and whether the trust store trusts it.
    struct ProjectFile
    {
        QByteArray contents;
        QStringList problems;
        bool trusted = false;
    };
    static ProjectFile readProjectFile(const QString &repositoryRoot, const QString &trustStorePath);
    void configured(ProjectFile project);
    void configure();
    void launch(int index);
    void startClient(int index, const QHash<QString, QString> &secrets);
    void stop(int index);
    void publishClients();
    int indexOf(const QString &key) const;

    Options m_options;
    QPointer<KeyStore> m_keyStore;
    /// Stopping a server waits for it: never on the UI thread. Shared with the teardown.
    std::shared_ptr<QThreadPool> m_stops = std::make_shared<QThreadPool>();
    std::unique_ptr<AgentCore::McpHost> m_host;
    std::shared_ptr<Clients> m_clients;
    QList<McpServerEntry> m_entries;
    QStringList m_problems;
    ProjectFile m_project; // read once, by start()
    bool m_trusted = false;
    bool m_configured = false;
    bool m_holding = false; ///< holdStarts(): clients are made but not started
};

} // namespace Ui
