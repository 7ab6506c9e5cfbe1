#pragma once

#include "streameventlog.h"

#include <ai/aborttoken.h>
#include <ai/types.h>

#include <memory>

QT_FORWARD_DECLARE_CLASS(QThread)

namespace AgentCore {
class HttpModelClient;
}

namespace TestSupport {

/// HttpModelClient::complete() of httpClientHelloContext() on a worker thread of its own, as
/// the agent runs it; starts at once. Aborts and joins when destroyed, so a failed check never
/// leaves the worker behind. \a client must outlive it.
class WorkerCall final
{
public:
    WorkerCall(AgentCore::HttpModelClient &client, const AgentCore::AbortToken &token);
    ~WorkerCall();
    WorkerCall(const WorkerCall &) = delete;
    WorkerCall &operator=(const WorkerCall &) = delete;

    QThread *thread() const { return m_thread.get(); }
    bool isFinished() const;

    StreamEventLog log;
    AgentCore::Message message; ///< valid once finished

private:
    AgentCore::AbortToken m_token;
    std::unique_ptr<QThread> m_thread;
};

} // namespace TestSupport
