#pragma once

#include <loop/agenttypes.h>

#include <QMutex>

#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace AgentCore {

/// Keeps the memory of event boxes a consumer is done with, for the loop's next events: a run
/// makes about a dozen events per turn, and each one costs an allocation on the loop thread and
/// a free on the consumer's thread, which is the most expensive kind (the memory goes back to
/// the other thread's arena). A box made here is an ordinary `new AgentEvent` as far as its
/// owner is concerned: a consumer that keeps it, or deletes it, needs to know nothing of the
/// pool. recycle() is thread-safe; make() is called from one thread at a time (the loop's).
/// Internal to the loop and the Agent.
/// Measured 2026-12-02 with callgrind, bench_loop 300 runs x 10 turns through the Agent: 146 M
/// instructions without the pool, 102 M with it; malloc's slow paths (a box freed on the UI
/// thread goes to the worker's arena) took about 4,500 instructions per turn. Removed in the
/// redesign as "nothing a user could feel", the loop benchmark fell level with pi-agent-core;
/// the timing with and without it is in docs/benchmarks.md (the loop section).
class EventBoxPool final
{
    Q_DISABLE_COPY_MOVE(EventBoxPool)
public:
    EventBoxPool() = default;
    ~EventBoxPool()
    {
        for (void *memory : m_taken)
            release(memory);
        for (void *memory : m_spare)
            release(memory);
    }

    /// A new event built from \a args, in a recycled box when one is spare.
    template<typename... Args>
    std::unique_ptr<AgentEvent> make(Args &&...args)
    {
        void *memory = take();
        // The same allocation `new AgentEvent` makes, so the default deleter frees it.
        return std::unique_ptr<AgentEvent>(new (memory) AgentEvent(std::forward<Args>(args)...));
    }

    /// Destroys \a event and keeps its box (up to a bound; beyond it the memory is freed).
    void recycle(std::unique_ptr<AgentEvent> event)
    {
        if (!event)
            return;
        AgentEvent *box = event.release();
        box->~AgentEvent();
        {
            QMutexLocker locker(&m_mutex);
            if (m_spare.size() < maxSpare) {
                m_spare.push_back(box);
                return;
            }
        }
        release(box);
    }

private:
    static_assert(alignof(AgentEvent) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
    // More than a busy run keeps in flight between two deliveries.
    static constexpr std::size_t maxSpare = 256;

    void *take()
    {
        if (m_taken.empty()) {
            QMutexLocker locker(&m_mutex);
            m_taken.swap(m_spare); // one lock for every box recycled since the last one
        }
        if (m_taken.empty())
            return ::operator new(sizeof(AgentEvent));
        void *memory = m_taken.back();
        m_taken.pop_back();
        return memory;
    }

    static void release(void *memory) { ::operator delete(memory, sizeof(AgentEvent)); }

    QMutex m_mutex;
    std::vector<void *> m_spare; // under m_mutex
    std::vector<void *> m_taken; // make()'s thread only
};

} // namespace AgentCore
