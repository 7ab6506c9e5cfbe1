#include "loopwaiter.h"

namespace AgentCore {

LoopWaiter::LoopWaiter(const AbortToken &abort)
    : m_abort(abort)
{
    m_abortId = m_abort.onAbort(&m_context, [this] { m_loop.quit(); });
}

LoopWaiter::~LoopWaiter()
{
    m_abort.disconnect(m_abortId);
}

void LoopWaiter::wait()
{
    if (!m_abort.isAborted())
        m_loop.exec();
}

void LoopWaiter::wake()
{
    QMetaObject::invokeMethod(
        &m_context, [this] { m_loop.quit(); }, Qt::QueuedConnection);
}

} // namespace AgentCore
