#include "loopwaiter.h"

#include "handoffspin.h"

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
    // The tool a turn waits for often answers within microseconds: waiting for it here costs
    // no kernel wake-up (see handOffSpinBound).
    if (spinForHandOff([this] {
            return m_woken.exchange(false, std::memory_order_acquire) || m_abort.isAborted();
        }))
        return;
    // Dekker-style hand-shake with wake(): either it sees m_sleeping and posts, or we see
    // m_woken here. A post that arrives after we returned only makes a later wait() return
    // early, which callers tolerate.
    m_sleeping.store(true);
    if (!m_woken.exchange(false) && !m_abort.isAborted())
        m_loop.exec();
    m_sleeping.store(false);
    m_woken.store(false, std::memory_order_relaxed);
}

void LoopWaiter::wake()
{
    m_woken.store(true);
    if (m_sleeping.load())
        QMetaObject::invokeMethod(
            &m_context, [this] { m_loop.quit(); }, Qt::QueuedConnection);
}

} // namespace AgentCore
