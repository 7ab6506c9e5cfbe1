#pragma once

#include "mcpconfig.h"
#include "mcptransport.h"

#include <QProcessEnvironment>

class QProcess;

namespace AgentCore {

/// MCP's stdio transport: the server is a child process (in a process group of its own, so a
/// stop reaches what `npx` starts, and ChildGroupGuard ends it should AgentDesk die), one JSON-RPC message a line on its stdin and stdout; its
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
    ~McpStdioTransport() override;

    void open() override;
    void send(const QByteArray &line, qint64 requestId) override;
    void stop(bool gracefully) override;
    QString describe() const override { return m_config.commandLine(); }

private:
    void readStdout();
    void readStderr();
    void onGone(const QString &reason);
    /// The server's group is over (or being ended): the guard forgets it.
    void releaseGroup();

    const McpServerConfig m_config;
    const QProcessEnvironment m_environment;
    const QString m_workingDirectory;
    QProcess *m_process = nullptr;
    qint64 m_group = 0; ///< the server's process group, announced to ChildGroupGuard
    McpLineReader m_reader;
    QByteArray m_lastStderrLine;
};

} // namespace AgentCore
