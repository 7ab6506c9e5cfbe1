#include "mcpservers.h"

#include "common/background.h"
#include "keys/keystore.h"

#include <mcp/mcpconfigexpansion.h>
#include <mcp/mcphost.h>
#include <permissions/projecttrust.h>

#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QFile>
#include <QMutex>
#include <QWaitCondition>

namespace Ui {

using AgentCore::McpClient;
using AgentCore::McpConfig;
using AgentCore::McpServerConfig;

/// The running clients, shared with the agents' threads (toolSource()).
struct McpServers::Clients
{
    QMutex mutex;
    QWaitCondition published; // signalled when the configured servers are first published
    bool configured = false;
    QList<std::shared_ptr<McpClient>> clients;
};

namespace {
QString userKey(const QString &name)
{
    return QStringLiteral("user:") + name;
}
QString repositoryKey(const QString &root, const QString &name)
{
    return QStringLiteral("%1:%2").arg(root, name);
}

QStringList builtinToolNames()
{
    using AgentCore::ToolKind;
    QStringList names;
    for (ToolKind kind : {ToolKind::Bash,
                          ToolKind::Read,
                          ToolKind::Write,
                          ToolKind::Edit,
                          ToolKind::Glob,
                          ToolKind::Grep,
                          ToolKind::Ls})
        names.append(AgentCore::toolKindName(kind));
    return names;
}
} // namespace

McpServers::McpServers(Options options, KeyStore *keyStore, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_keyStore(keyStore)
    , m_host(std::make_unique<AgentCore::McpHost>())
    , m_clients(std::make_shared<Clients>())
{}

namespace {
// Where the hosts of destroyed McpServers stop their servers.
QThreadPool &teardowns()
{
    static QThreadPool pool;
    return pool;
}
} // namespace

McpServers::~McpServers()
{
    {
        QMutexLocker locker(&m_clients->mutex);
        m_clients->clients.clear();
    }
    // A server that ignores its closed stdin takes a second to stop (half a second for it to
    // exit, half a second after SIGTERM), the host's servers one after another: not on the UI
    // thread. The background stops hold clients of the host: they end before it goes.
    teardowns().start(
        [stops = m_stops, host = std::shared_ptr<AgentCore::McpHost>(std::move(m_host))]() mutable {
            stops->waitForDone();
            host.reset();
        });
}

void McpServers::waitForStoppedServers()
{
    teardowns().waitForDone();
}

QString McpServers::secretAccount(const QString &name)
{
    return QStringLiteral("mcp:") + name;
}

QString McpServers::fileGrant(const QByteArray &contents)
{
    return QStringLiteral("mcpServers: .mcp.json sha256:%1")
        .arg(QString::fromLatin1(
            QCryptographicHash::hash(contents, QCryptographicHash::Sha256).toHex()));
}

void McpServers::start()
{
    runInBackground(
        this,
        [root = m_options.repositoryRoot, trustStorePath = m_options.trustStorePath] {
            return readProjectFile(root, trustStorePath);
        },
        [this](ProjectFile project) { configured(std::move(project)); });
}

McpServers::ProjectFile McpServers::readProjectFile(const QString &repositoryRoot,
                                                    const QString &trustStorePath)
{
    ProjectFile project;
    if (repositoryRoot.isEmpty())
        return project;
    const QString path = McpConfig::projectFile(repositoryRoot);
    QFile file(path); // off the UI thread
    if (!file.exists())
        return project;
    if (file.size() > McpConfig::maxFileBytes || !file.open(QIODevice::ReadOnly)) {
        project.problems.append(tr("%1 cannot be read or is larger than %2 KiB")
                                    .arg(path)
                                    .arg(McpConfig::maxFileBytes / 1024));
        return project;
    }
    project.contents = file.read(McpConfig::maxFileBytes);
    // off the UI thread
    const AgentCore::ProjectTrust trust = AgentCore::ProjectTrust::load(trustStorePath,
                                                                        repositoryRoot);
    project.trusted = trust.trusts(fileGrant(project.contents));
    return project;
}

void McpServers::configured(ProjectFile project)
{
    m_project = std::move(project);
    m_trusted = m_trusted || m_project.trusted;
    m_configured = true;
    configure();
    for (int i = 0; i < m_entries.size(); ++i)
        launch(i);
    publishClients(); // also when there is none: a run waiting for the configuration goes on
    emit changed();
    const QStringList untrusted = untrustedServers();
    if (!untrusted.isEmpty())
        emit trustNeeded(untrusted);
}

void McpServers::configure()
{
    m_entries.clear();
    m_problems = m_project.problems;
    QList<McpServerEntry> repository;
    if (!m_project.contents.isEmpty()) {
        const McpConfig config = McpConfig::parse(m_project.contents,
                                                  McpConfig::projectFile(m_options.repositoryRoot));
        if (!config.error.isEmpty())
            m_problems.append(config.error);
        m_problems += config.problems;
        for (const McpServerConfig &server : config.servers) {
            McpServerEntry entry;
            entry.config = server;
            entry.source = McpServerEntry::Source::Repository;
            entry.key = repositoryKey(m_options.repositoryRoot, server.name);
            entry.awaitingTrust = !m_trusted;
            repository.append(entry);
        }
    }
    if (!m_options.userServers.trimmed().isEmpty()) {
        const McpConfig config = McpConfig::parse(m_options.userServers, tr("your settings"));
        if (!config.error.isEmpty())
            m_problems.append(config.error);
        m_problems += config.problems;
        for (const McpServerConfig &server : config.servers) {
            McpServerEntry entry;
            entry.config = server;
            entry.source = McpServerEntry::Source::User;
            entry.key = userKey(server.name);
            const bool replaced = std::any_of(repository.cbegin(),
                                              repository.cend(),
                                              [&server](const McpServerEntry &other) {
                                                  return other.config.name == server.name;
                                              });
            if (replaced) {
                entry.replaced = true;
                entry.problem = tr("replaced by the repository's server of the same name "
                                   "(.mcp.json)");
            }
            m_entries.append(entry);
        }
    }
    m_entries = repository + m_entries;
    for (McpServerEntry &entry : m_entries)
        entry.enabled = !m_options.disabled.contains(entry.key);
}

QStringList McpServers::untrustedServers() const
{
    QStringList lines;
    for (const McpServerEntry &entry : m_entries) {
        if (!entry.awaitingTrust)
            continue;
        QString line = QStringLiteral("%1: %2").arg(entry.config.name,
                                                    entry.config.type == QLatin1String("stdio")
                                                        ? entry.config.commandLine()
                                                        : entry.config.url);
        if (!entry.config.env.isEmpty()) {
            line += QLatin1Char(' ')
                    + tr("(environment: %1)").arg(entry.config.env.keys().join(QStringLiteral(", ")));
        }
        lines.append(line);
    }
    return lines;
}

void McpServers::trust()
{
    if (m_project.contents.isEmpty() || m_trusted)
        return;
    // The file's hash, and each server's own grant (what `agentdesk --print` checks).
    QStringList grants{fileGrant(m_project.contents)};
    for (const McpServerEntry &entry : std::as_const(m_entries)) {
        if (entry.source == McpServerEntry::Source::Repository)
            grants.append(entry.config.grant());
    }
    if (!m_options.trustStorePath.isEmpty()) {
        runInBackground(
            this,
            [path = m_options.trustStorePath, root = m_options.repositoryRoot, grants] {
                QString error; // off the UI thread
                AgentCore::ProjectTrust::remember(path, root, grants, &error);
                return error;
            },
            [this](const QString &error) {
                if (!error.isEmpty())
                    emit serverFailed(tr(".mcp.json"),
                                      tr("the trust could not be remembered: %1").arg(error));
            });
    }
    m_trusted = true;
    for (int i = 0; i < m_entries.size(); ++i) {
        if (m_entries[i].awaitingTrust) {
            m_entries[i].awaitingTrust = false;
            launch(i);
        }
    }
    emit changed();
}

void McpServers::launch(int index)
{
    McpServerEntry &entry = m_entries[index];
    ++entry.launch;
    if (!entry.enabled || entry.awaitingTrust || !entry.problem.isEmpty() || entry.client)
        return;
    const QStringList names = AgentCore::McpConfigExpansion::keyringNames(entry.config);
    if (names.isEmpty() || !m_keyStore) {
        startClient(index, {});
        return;
    }
    // Every secret first, then the server: it never runs without its credentials.
    auto secrets = std::make_shared<QHash<QString, QString>>();
    auto left = std::make_shared<int>(int(names.size()));
    const QString key = entry.key;
    const int launch = entry.launch;
    for (const QString &name : names) {
        m_keyStore->readKey(secretAccount(name),
                            this,
                            [this, secrets, left, name, key, launch](const KeyResult &result) {
                                if (result.succeeded() && !result.key.isEmpty())
                                    secrets->insert(name, result.key);
                                if (--*left > 0)
                                    return;
                                const int at = indexOf(key);
                                if (at < 0 || m_entries[at].launch != launch)
                                    return; // restarted, disabled or reconfigured meanwhile
                                startClient(at, *secrets);
                            });
    }
}

void McpServers::startClient(int index, const QHash<QString, QString> &secrets)
{
    McpServerEntry &entry = m_entries[index];
    // The rule headless runs follow too: a provider's key is never expanded into a server.
    QStringList problems;
    const McpServerConfig expanded = AgentCore::McpConfigExpansion::expand(entry.config,
                                                                           m_options.environment,
                                                                           secrets,
                                                                           m_options.filter,
                                                                           &problems);
    if (!problems.isEmpty()) {
        entry.problem = tr("not started: %1").arg(problems.join(QStringLiteral("; ")));
        emit serverFailed(entry.config.name, entry.problem);
        emit changed();
        return;
    }
    AgentCore::McpClientOptions options;
    options.workingDirectory = m_options.repositoryRoot;
    if (const int ms = m_options.environment.value(QStringLiteral("MCP_TIMEOUT")).toInt(); ms > 0)
        options.initializeTimeoutMs = ms;
    if (const int ms = m_options.environment.value(QStringLiteral("MCP_TOOL_TIMEOUT")).toInt();
        ms > 0)
        options.callTimeoutMs = ms;
    QStringList dropped;
    options.environment = AgentCore::McpHost::serverEnvironment(m_options.environment,
                                                                m_options.filter,
                                                                expanded.env,
                                                                &dropped);
    entry.client = m_host->addServer(expanded, options);
    McpClient *client = entry.client.get();
    const QString name = entry.config.name;
    connect(client, &McpClient::stateChanged, this, [this, client, name](McpClient::State state) {
        if (state == McpClient::State::Failed)
            emit serverFailed(name, client->error());
        emit changed();
    });
    connect(client, &McpClient::toolsChanged, this, &McpServers::changed);
    if (!dropped.isEmpty()) {
        emit serverFailed(name,
                          tr("does not get %1: the model providers' keys are never passed to "
                             "MCP servers")
                              .arg(dropped.join(QStringLiteral(", "))));
    }
    publishClients();
    if (!m_holding)
        entry.client->start();
}

void McpServers::releaseStarts()
{
    m_holding = false;
    for (const McpServerEntry &entry : std::as_const(m_entries)) {
        if (entry.client && entry.client->state() == McpClient::State::Stopped)
            entry.client->start();
    }
}

void McpServers::stop(int index)
{
    McpServerEntry &entry = m_entries[index];
    ++entry.launch;
    if (const std::shared_ptr<McpClient> client = std::exchange(entry.client, nullptr)) {
        client->disconnect(this);
        m_stops->start([client] { client->shutdown(); });
    }
    publishClients();
}

void McpServers::restart(const QString &key)
{
    const int index = indexOf(key);
    if (index < 0)
        return;
    stop(index);
    if (!m_entries[index].replaced)
        m_entries[index].problem.clear();
    launch(index);
    emit changed();
}

void McpServers::setEnabled(const QString &key, bool enabled)
{
    const int index = indexOf(key);
    if (index < 0 || m_entries[index].enabled == enabled)
        return;
    m_entries[index].enabled = enabled;
    m_options.disabled.removeAll(key);
    if (!enabled)
        m_options.disabled.append(key);
    if (enabled)
        launch(index);
    else
        stop(index);
    emit disabledChanged(m_options.disabled);
    emit changed();
}

void McpServers::setUserServers(const QByteArray &json)
{
    if (json == m_options.userServers)
        return;
    // Simplest honest rule: every server is configured again; those whose entry did not change
    // keep running.
    const QList<McpServerEntry> before = m_entries;
    m_options.userServers = json;
    configure();
    for (const McpServerEntry &old : before) {
        const int index = indexOf(old.key);
        const bool same = index >= 0
                          && m_entries[index].config.commandLine() == old.config.commandLine()
                          && m_entries[index].config.env == old.config.env
                          && m_entries[index].config.url == old.config.url
                          && m_entries[index].problem.isEmpty() && m_entries[index].enabled
                          && !m_entries[index].awaitingTrust;
        if (same) {
            m_entries[index].client = old.client;
            m_entries[index].launch = old.launch;
        } else if (old.client) {
            old.client->disconnect(this);
            m_stops->start([client = old.client] { client->shutdown(); });
        }
    }
    for (int i = 0; i < m_entries.size(); ++i)
        launch(i);
    publishClients();
    emit changed();
}

std::function<QList<AgentCore::AgentToolPtr>(const AgentCore::AbortToken &)> McpServers::toolSource()
    const
{
    const std::weak_ptr<Clients> weak = m_clients;
    const int waitMs = m_options.waitForStartingMs;
    return [weak, waitMs](const AgentCore::AbortToken &abort) {
        QList<std::shared_ptr<McpClient>> clients;
        // The configuration still being read and servers still starting get a little time,
        // in slices, so Stop still stops.
        const QDeadlineTimer deadline(waitMs);
        if (const std::shared_ptr<Clients> shared = weak.lock()) {
            QMutexLocker locker(&shared->mutex);
            while (!shared->configured && !abort.isAborted() && !deadline.hasExpired())
                shared->published.wait(&shared->mutex,
                                       QDeadlineTimer(
                                           std::min<qint64>(100, deadline.remainingTime())));
            clients = shared->clients;
        }
        for (const std::shared_ptr<McpClient> &client : std::as_const(clients)) {
            while (client->isPending() && !abort.isAborted() && !deadline.hasExpired()) {
                client->waitUntilSettled(int(std::min<qint64>(100, deadline.remainingTime())));
            }
        }
        QStringList problems;
        return AgentCore::McpHost::toolsOf(clients, builtinToolNames(), true, &problems);
    };
}

void McpServers::publishClients()
{
    QList<std::shared_ptr<McpClient>> clients;
    for (const McpServerEntry &entry : std::as_const(m_entries)) {
        if (entry.client)
            clients.append(entry.client);
    }
    QMutexLocker locker(&m_clients->mutex);
    m_clients->clients = clients;
    if (m_configured && !m_clients->configured) {
        m_clients->configured = true;
        m_clients->published.wakeAll();
    }
}

int McpServers::indexOf(const QString &key) const
{
    for (int i = 0; i < m_entries.size(); ++i) {
        if (m_entries[i].key == key)
            return i;
    }
    return -1;
}

} // namespace Ui

#include "moc_mcpservers.cpp"
