#pragma once

#include <ai/aborttoken.h>
#include <mcp/mcpreferences.h>

#include <QObject>
#include <QThreadPool>

#include <memory>

namespace AgentCore {
class McpClient;
}

namespace Ui {

/// Expands the MCP references of one message (expandMcpReferences: a `/SERVER:PROMPT` and
/// `@SERVER:URI` mentions) on a thread of its own pool, for the composer: the UI thread never
/// waits on a server. One expansion at a time; cancel() aborts it (the servers' requests get
/// notifications/cancelled) and its result is never delivered.
/// Lives on the UI thread; finished() comes on it. ~McpExpansionJob aborts and joins.
class McpExpansionJob final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(McpExpansionJob)
public:
    explicit McpExpansionJob(QObject *parent = nullptr);
    ~McpExpansionJob() override;

    /// Starts expanding \a text with \a clients (an expansion under way is cancelled first).
    void start(const QString &text, const QList<std::shared_ptr<AgentCore::McpClient>> &clients);
    void cancel();
    bool isRunning() const { return m_running; }

signals:
    /// Not after cancel(). \a expansion.ok(): its text is what to send; else its error says why
    /// nothing may be sent.
    void finished(const AgentCore::McpExpansion &expansion);

private:
    QThreadPool m_pool;
    AgentCore::AbortToken m_abort;
    int m_generation = 0;
    bool m_running = false;
};

} // namespace Ui
