#include "mcpserverlist.h"

#include <permissions/projecttrust.h>

namespace AgentCore {

McpServerList McpServerList::gather(const QString &repositoryRoot,
                                    const QStringList &files,
                                    bool strict,
                                    const ProjectTrust &trust)
{
    McpServerList list;
    QList<McpServerConfig> named;
    for (const QString &file : files) {
        const McpConfig config = McpConfig::load(file, false);
        if (!config.error.isEmpty()) {
            list.error = config.error;
            return list;
        }
        list.problems += config.problems;
        for (const McpServerConfig &server : config.servers) {
            named.removeIf(
                [&server](const McpServerConfig &other) { return other.name == server.name; });
            named.append(server);
        }
    }
    if (!strict && !repositoryRoot.isEmpty()) {
        const McpConfig project = McpConfig::load(McpConfig::projectFile(repositoryRoot), true);
        if (!project.error.isEmpty())
            list.problems.append(project.error);
        list.problems += project.problems;
        for (const McpServerConfig &server : project.servers) {
            const bool replaced = std::any_of(named.cbegin(),
                                              named.cend(),
                                              [&server](const McpServerConfig &other) {
                                                  return other.name == server.name;
                                              });
            if (replaced)
                continue;
            if (trust.trusts(server.grant()))
                list.servers.append(server);
            else
                list.untrusted.append(server);
        }
    }
    list.servers += named;
    return list;
}

} // namespace AgentCore
