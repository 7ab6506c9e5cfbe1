#pragma once

#include <ai/aborttoken.h>

#include <QEventLoop>
#include <QObject>

#include <atomic>

namespace AgentCore {

/// How the loop thread waits for work on other threads: a short spin, then a local event loop
/// that returns when woken or when the abort token fires. Callers wait in a loop around their
/// own condition: `while (!done() && !aborted) waiter.wait();` (a wake before wait() is never
/// lost, and a spurious return is harmless).
/// The spin is what makes a tool hand-off cheap: a tool that answers within it costs no kernel
/// wake-up; a slow one costs one, as before. Spins as long as the run's ToolRunner (see its
/// header for the measured gain; spin 0 there makes this one 0 too).
/// Lives on the thread that creates it; wait() must be called there. wake() is thread-safe
/// while the waiter exists (owners guarantee that, see ToolBatch's channel).
class LoopWaiter final
{
    Q_DISABLE_COPY_MOVE(LoopWaiter)
public:
    explicit LoopWaiter(const AbortToken &abort, int spinMicroseconds = defaultSpinMicroseconds);
    ~LoopWaiter();

    /// Returns at once when aborted or already woken; otherwise after the next wake() or abort.
    void wait();
    /// From any thread.
    void wake();

    static constexpr int defaultSpinMicroseconds = 50;

private:
    bool spin();

    AbortToken m_abort;
    int m_spinMicroseconds;
    std::atomic<bool> m_woken = false;
    std::atomic<bool> m_sleeping = false;
    QObject m_context; // wake-ups are posted to it; pending ones die with it
    QEventLoop m_loop;
    int m_abortId = 0;
};

} // namespace AgentCore
