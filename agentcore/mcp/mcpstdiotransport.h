#pragma once

#include "mcpconfig.h"
#include "mcptransport.h"

#include <jsonrpc/jsonrpcprocess.h>

#include <QProcessEnvironment>

namespace AgentCore {

/// MCP's stdio transport: the server is a child process (JsonRpcProcess: a process group of
/// its own, ended with AgentDesk), one JSON-RPC message a line on its stdin and stdout; its
/// stderr goes to the log, its last line into the reason when it dies.
class McpStdioTransport final : public McpTransport
{
    Q_OBJECT

public:
    McpStdioTransport(const McpServerConfig &config,
                      const QProcessEnvironment &environment,
                      const QString &workingDirectory,
                      qsizetype maxLineBytes,
                      QObject *parent = nullptr);

    void open() override { m_process.open(); }
    void send(const QByteArray &message, qint64 requestId) override;
    void stop(bool gracefully) override { m_process.stop(gracefully); }
    QString describe() const override { return m_config.commandLine(); }

private:
    const McpServerConfig m_config;
    JsonRpcProcess m_process;
};

} // namespace AgentCore
