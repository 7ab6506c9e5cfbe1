#include "mcpstdiotransport.h"
#include "translation.h"

namespace AgentCore {

McpStdioTransport::McpStdioTransport(const McpServerConfig &config,
                                     const QProcessEnvironment &environment,
                                     const QString &workingDirectory,
                                     qsizetype maxLineBytes,
                                     QObject *parent)
    : McpTransport(parent)
    , m_config(config)
    , m_process({config.command, config.args, environment, workingDirectory},
                JsonRpcProcess::Framing::Lines,
                maxLineBytes,
                McpTr::tr("the MCP server \"%1\"").arg(config.name))
{
    connect(&m_process, &JsonRpcProcess::received, this, &McpTransport::received);
    connect(&m_process, &JsonRpcProcess::gone, this, &McpTransport::gone);
    connect(&m_process, &JsonRpcProcess::logged, this, &McpTransport::logged);
}

void McpStdioTransport::send(const QByteArray &message, qint64 requestId)
{
    Q_UNUSED(requestId)
    m_process.send(message);
}

} // namespace AgentCore

#include "moc_mcpstdiotransport.cpp"
