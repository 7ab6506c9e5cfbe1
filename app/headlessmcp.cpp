#include "headlessmcp.h"
#include "translation.h"

#include "headlessprinter.h"

#include <mcp/mcpconfigexpansion.h>
#include <mcp/mcpserverlist.h>
#include <permissions/projecttrust.h>

#include <QCoreApplication>
#include <QElapsedTimer>

namespace App {

std::optional<int> HeadlessMcp::start(const PrintOptions &print,
                                      const QString &root,
                                      const QProcessEnvironment &environment,
                                      const AgentCore::CommandEnvironment &filter,
                                      std::shared_ptr<AgentCore::ToolSlot> *tools)
{
    using namespace AgentCore;
    const ProjectTrust trust = print.trustProjectSettings
                                   ? ProjectTrust::everything()
                                   : ProjectTrust::load(ProjectTrust::defaultStorePath(), root);
    const McpServerList list = McpServerList::gather(root,
                                                     print.mcpConfigFiles,
                                                     print.strictMcpConfig,
                                                     trust);
    if (!list.error.isEmpty()) {
        headlessStderr(AppTr::tr("--mcp-config: %1").arg(list.error));
        return 2 /* HeadlessExit::Usage */;
    }
    for (const QString &problem : list.problems)
        headlessStderr(AppTr::tr("warning: %1").arg(problem));
    for (const McpServerConfig &server : list.untrusted) {
        headlessStderr(
            AppTr::tr("warning: the MCP server \"%1\" of this repository's .mcp.json (%2) "
                      "is not started: a repository's servers run code, and you have not "
                      "trusted this one. Run with --trust-project-settings, or name the "
                      "file with --mcp-config.")
                .arg(server.name, server.commandLine()));
    }
    if (list.servers.isEmpty())
        return std::nullopt;

    // The same variables as Claude Code's, in milliseconds.
    McpClientOptions base;
    base.workingDirectory = root;
    if (const int ms = environment.value(QStringLiteral("MCP_TIMEOUT")).toInt(); ms > 0)
        base.initializeTimeoutMs = ms;
    if (const int ms = environment.value(QStringLiteral("MCP_TOOL_TIMEOUT")).toInt(); ms > 0)
        base.callTimeoutMs = ms;
    m_host = std::make_unique<McpHost>();
    for (const McpServerConfig &configured : list.servers) {
        // The window's rule: ${VAR} and ${VAR:-default} expanded, a provider's key never.
        // A run opens no keyring: a ${keyring:NAME} secret is the window's.
        QStringList problems;
        const QStringList secrets = McpConfigExpansion::keyringNames(configured);
        const McpServerConfig server = secrets.isEmpty() ? McpConfigExpansion::expand(configured,
                                                                                      environment,
                                                                                      {},
                                                                                      filter,
                                                                                      &problems)
                                                         : McpServerConfig();
        if (!secrets.isEmpty()) {
            problems.append(AppTr::tr("it names the keyring secret \"%1\", which only the window "
                                      "reads; put it in a variable and name that")
                                .arg(secrets.first()));
        }
        if (!problems.isEmpty()) {
            const QString error = AppTr::tr("the MCP server \"%1\" is not started: %2")
                                      .arg(configured.name, problems.join(QStringLiteral("; ")));
            headlessStderr(AppTr::tr("warning: %1.").arg(error));
            m_servers.append(QJsonObject{{QStringLiteral("name"), configured.name},
                                         {QStringLiteral("status"), QStringLiteral("failed")},
                                         {QStringLiteral("tools"), 0},
                                         {QStringLiteral("error"), error}});
            continue;
        }
        McpClientOptions options = base;
        QStringList dropped;
        options.environment = McpHost::serverEnvironment(environment, filter, server.env, &dropped);
        if (!dropped.isEmpty()) {
            headlessStderr(AppTr::tr("warning: the MCP server \"%1\" does not get %2: the model "
                                     "providers' keys are never passed to MCP servers.")
                               .arg(server.name, dropped.join(QStringLiteral(", "))));
        }
        m_host->addServer(server, options);
    }
    QElapsedTimer started;
    started.start();
    m_host->startAll();
    m_host->waitUntilSettled(base.initializeTimeoutMs + 1000);
    QStringList taken;
    for (ToolKind kind : {ToolKind::Bash,
                          ToolKind::Read,
                          ToolKind::Write,
                          ToolKind::Edit,
                          ToolKind::Glob,
                          ToolKind::Grep,
                          ToolKind::Ls})
        taken.append(toolKindName(kind));
    QStringList problems;
    m_host->tools(taken, &problems);
    // Kept up to date: a server's list_changed reaches the model at its next turn.
    *tools = std::make_shared<ToolSlot>();
    m_host->publishTools(*tools, taken);
    for (const QString &problem : std::as_const(problems))
        headlessStderr(AppTr::tr("warning: %1").arg(problem));
    for (const std::shared_ptr<McpClient> &client : m_host->clients()) {
        const bool ready = client->state() == McpClient::State::Ready;
        QString error = client->error();
        if (!ready && error.isEmpty())
            error = AppTr::tr("the MCP server \"%1\" is still starting").arg(client->config().name);
        if (!ready)
            headlessStderr(
                AppTr::tr("warning: %1; its tools are not available in this run.").arg(error));
        QJsonObject server{{QStringLiteral("name"), client->config().name},
                           {QStringLiteral("status"),
                            ready ? QStringLiteral("connected") : QStringLiteral("failed")},
                           {QStringLiteral("tools"), ready ? qint64(client->tools().size()) : 0}};
        if (!ready)
            server.insert(QStringLiteral("error"), error);
        m_servers.append(server);
    }
    m_readyMs = started.elapsed();
    return std::nullopt;
}

} // namespace App
