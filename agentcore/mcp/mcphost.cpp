#include "mcphost.h"
#include "translation.h"

#include "mcptool.h"

#include <loop/toolslot.h>

#include <ai/providerconfig.h>
#include <tools/commandenvironment.h>

#include <QCoreApplication>
#include <QDeadlineTimer>

namespace AgentCore {

McpHost::McpHost()
{
    m_thread.setObjectName(QStringLiteral("mcp"));
    m_thread.start();
}

McpHost::~McpHost()
{
    for (const std::shared_ptr<McpClient> &client : std::as_const(m_clients))
        client->shutdown();
    m_thread.quit();
    m_thread.wait();
}

std::shared_ptr<McpClient> McpHost::addServer(const McpServerConfig &config,
                                              const McpClientOptions &options)
{
    auto client = std::make_shared<McpClient>(config, options);
    client->moveToThread(&m_thread);
    m_clients.append(client);
    return client;
}

void McpHost::startAll()
{
    for (const std::shared_ptr<McpClient> &client : std::as_const(m_clients))
        client->start();
}

void McpHost::waitUntilSettled(int timeoutMs) const
{
    const QDeadlineTimer deadline(timeoutMs);
    for (const std::shared_ptr<McpClient> &client : m_clients)
        client->waitUntilSettled(int(std::max<qint64>(0, deadline.remainingTime())));
}

QList<AgentToolPtr> McpHost::tools(const QStringList &takenNames, QStringList *problems) const
{
    return toolsOf(m_clients, takenNames, true, problems);
}

void McpHost::publishTools(const std::shared_ptr<ToolSlot> &slot, const QStringList &takenNames)
{
    slot->setTools(toolsOf(m_clients, takenNames, false, nullptr));
    // Weak: the clients hold these connections, and the slot outlives nothing it must.
    QList<std::weak_ptr<McpClient>> weakClients;
    for (const std::shared_ptr<McpClient> &client : std::as_const(m_clients))
        weakClients.append(client);
    const std::weak_ptr<ToolSlot> weakSlot = slot;
    for (const std::shared_ptr<McpClient> &client : std::as_const(m_clients)) {
        QObject::connect(client.get(), &McpClient::toolsChanged, client.get(), [=] {
            const std::shared_ptr<ToolSlot> target = weakSlot.lock();
            if (!target)
                return;
            QList<std::shared_ptr<McpClient>> clients;
            for (const std::weak_ptr<McpClient> &weak : weakClients) {
                if (std::shared_ptr<McpClient> strong = weak.lock())
                    clients.append(strong);
            }
            target->setTools(toolsOf(clients, takenNames, false, nullptr));
        });
    }
}

QList<AgentToolPtr> McpHost::toolsOf(const QList<std::shared_ptr<McpClient>> &clients,
                                     const QStringList &takenNames,
                                     bool readyOnly,
                                     QStringList *problems)
{
    QList<AgentToolPtr> tools;
    QStringList names = takenNames;
    for (const std::shared_ptr<McpClient> &client : clients) {
        if (readyOnly && client->state() != McpClient::State::Ready)
            continue;
        for (const McpToolInfo &info : client->tools()) {
            auto tool = std::make_shared<McpTool>(client, client->config().name, info);
            const QString name = tool->definition().name;
            if (names.contains(name, Qt::CaseInsensitive)) {
                if (problems) {
                    problems->append(McpTr::tr("the tool \"%1\" of MCP server \"%2\" is left out: "
                                               "another tool is called %3")
                                         .arg(info.name, client->config().name, name));
                }
                continue;
            }
            names.append(name);
            tools.append(tool);
        }
    }
    return tools;
}

QProcessEnvironment McpHost::serverEnvironment(const QProcessEnvironment &base,
                                               const CommandEnvironment &filter,
                                               const QMap<QString, QString> &env,
                                               QStringList *dropped)
{
    QProcessEnvironment result = filter.apply(base);
    // What the configuration names is the user's choice (a GITHUB_TOKEN for the GitHub
    // server), except the model providers' keys: those are AgentDesk's, never a server's.
    CommandEnvironment keysOnly = filter;
    keysOnly.setSecretPatterns({});
    keysOnly.setPassedPatterns({});
    QStringList keyValues;
    for (const QString &name : apiKeyVariables())
        keyValues.append(base.value(name));
    keyValues.removeAll(QString());
    keysOnly.addSecretValues(keyValues);
    QProcessEnvironment configured;
    for (auto it = env.begin(); it != env.end(); ++it)
        configured.insert(it.key(), it.value());
    QStringList removed;
    const QProcessEnvironment kept = keysOnly.apply(configured, &removed);
    for (const QString &name : kept.keys())
        result.insert(name, kept.value(name));
    for (const QString &name : std::as_const(removed))
        result.remove(name);
    if (dropped)
        *dropped = removed;
    return result;
}

} // namespace AgentCore
