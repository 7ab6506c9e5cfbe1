#include "mcpexpansionjob.h"

#include <mcp/mcpclient.h>

namespace Ui {

McpExpansionJob::McpExpansionJob(QObject *parent)
    : QObject(parent)
{
    // A cancelled expansion may still be leaving its server's request: the next one must not
    // wait for it.
    m_pool.setMaxThreadCount(2);
}

McpExpansionJob::~McpExpansionJob()
{
    cancel();
    m_pool.waitForDone();
}

void McpExpansionJob::start(const QString &text,
                            const QList<std::shared_ptr<AgentCore::McpClient>> &clients)
{
    cancel();
    m_abort = AgentCore::AbortToken();
    m_running = true;
    const int generation = ++m_generation;
    const AgentCore::AbortToken abort = m_abort;
    // The destructor waits for the pool: `this` outlives the task and its queued call.
    m_pool.start([this, generation, text, clients, abort] {
        const AgentCore::McpExpansion expansion = AgentCore::expandMcpReferences(text,
                                                                                 clients,
                                                                                 abort);
        if (abort.isAborted())
            return;
        QMetaObject::invokeMethod(
            this,
            [this, generation, expansion] {
                if (generation != m_generation || !m_running)
                    return; // cancelled meanwhile
                m_running = false;
                emit finished(expansion);
            },
            Qt::QueuedConnection);
    });
}

void McpExpansionJob::cancel()
{
    if (!m_running)
        return;
    m_running = false;
    ++m_generation;
    m_abort.abort();
}

} // namespace Ui

#include "moc_mcpexpansionjob.cpp"
