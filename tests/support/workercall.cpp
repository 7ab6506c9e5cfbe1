#include "workercall.h"

#include "httpclienttest.h"

#include <ai/httpmodelclient.h>

#include <QThread>

namespace TestSupport {

using namespace AgentCore;

WorkerCall::WorkerCall(HttpModelClient &client, const AbortToken &token)
    : m_token(token)
    , m_thread(QThread::create([this, &client] {
        message = client.complete(httpClientHelloContext(), m_token, log.sink());
    }))
{
    m_thread->start();
}

WorkerCall::~WorkerCall()
{
    m_token.abort();
    m_thread->wait();
}

bool WorkerCall::isFinished() const
{
    return m_thread->isFinished();
}

} // namespace TestSupport
