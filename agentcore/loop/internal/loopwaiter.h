#pragma once

#include <ai/aborttoken.h>

#include <QEventLoop>
#include <QObject>

#include <atomic>

namespace AgentCore {

/// How the loop thread waits for work on other threads: a short spin (handOffSpinBound), then a
/// local event loop that returns when woken or when the abort token fires (queued events to the
/// thread's objects are delivered meanwhile). Callers wait in a loop around their own
/// condition: `while (!done() && !aborted) waiter.wait();` (a wake before wait() is never lost,
/// and a spurious return is harmless).
/// Lives on the thread that creates it; wait() must be called there. wake() is thread-safe
/// while the waiter exists (owners guarantee that, see ToolBatch's channel).
class LoopWaiter final
{
    Q_DISABLE_COPY_MOVE(LoopWaiter)
public:
    explicit LoopWaiter(const AbortToken &abort);
    ~LoopWaiter();

    /// Returns at once when aborted or already woken; otherwise after the next wake() or abort.
    /// Spins at most handOffSpinBound before it sleeps, never longer.
    void wait();
    /// From any thread.
    void wake();

private:
    AbortToken m_abort;
    std::atomic<bool> m_woken = false;
    std::atomic<bool> m_sleeping = false;
    QObject m_context; // wake-ups are posted to it; pending ones die with it
    QEventLoop m_loop;
    int m_abortId = 0;
};

} // namespace AgentCore
