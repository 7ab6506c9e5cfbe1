#include "toolrunner.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace AgentCore {

namespace {

using Clock = std::chrono::steady_clock;
// An idle thread that saw no job for this long exits; the next start() makes a new one.
constexpr auto idleExpiry = std::chrono::seconds(30);

class FunctionJob final : public ToolRunner::Job
{
public:
    FunctionJob(std::function<void()> job, std::function<void()> finished)
        : m_job(std::move(job))
        , m_finished(std::move(finished))
    {}
    void run() override
    {
        m_job();
        m_job = nullptr; // release what the job captured before idling
    }
    void finished() override
    {
        if (m_finished)
            m_finished();
    }

private:
    std::function<void()> m_job;
    std::function<void()> m_finished;
};

inline void cpuRelax()
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

} // namespace

// Shared with every thread, so a thread still running an abandoned job outlives the runner
// safely. `queued` mirrors jobs.size() for the lock-free spin.
struct ToolRunner::State
{
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<std::unique_ptr<Job>> jobs;
    std::atomic<int> queued = 0;
    int idle = 0;     // threads spinning or sleeping, under mutex
    int sleeping = 0; // of those, waiting on `wake`
    std::atomic<int> threads = 0;
    std::atomic<bool> spinnerTaken = false; // one idle thread spins; the others sleep at once
    bool warm = false; // warmUp(): a sleeping thread is to spin again, under mutex
    bool stopping = false;
    std::chrono::microseconds spin;

    std::unique_ptr<Job> takeJob() // under mutex
    {
        std::unique_ptr<Job> job = std::move(jobs.front());
        jobs.pop_front();
        queued.fetch_sub(1, std::memory_order_relaxed);
        return job;
    }

    bool spinForJob() const
    {
        const auto until = Clock::now() + spin;
        int rounds = 0;
        while (queued.load(std::memory_order_acquire) == 0) {
            cpuRelax();
            // Give the core away now and then: on a machine with fewer cores than busy
            // threads, the spin must not hold up the thread that will produce the job.
            if (++rounds % 64 == 0) {
                std::this_thread::yield();
                if (Clock::now() >= until)
                    return false;
            }
        }
        return true;
    }

    static void work(const std::shared_ptr<State> &self)
    {
        State &state = *self;
        std::unique_lock lock(state.mutex);
        for (;;) {
            if (!state.jobs.empty()) {
                std::unique_ptr<Job> job = state.takeJob();
                lock.unlock();
                job->run();
                lock.lock();
                ++state.idle;
                lock.unlock();
                job->finished();
                job.reset();
                lock.lock();
                --state.idle;
                continue;
            }
            if (state.stopping)
                break;
            ++state.idle;
            bool found = false;
            if (!state.spinnerTaken.exchange(true, std::memory_order_acquire)) {
                lock.unlock();
                found = state.spinForJob();
                state.spinnerTaken.store(false, std::memory_order_release);
                lock.lock();
            }
            if (!found && state.jobs.empty() && !state.stopping) {
                ++state.sleeping;
                const bool woken = state.wake.wait_for(lock, idleExpiry, [&state] {
                    return !state.jobs.empty() || state.stopping || state.warm;
                });
                --state.sleeping;
                state.warm = false;
                if (!woken) {
                    --state.idle;
                    break;
                }
            }
            --state.idle;
        }
        state.threads.fetch_sub(1, std::memory_order_relaxed);
    }
};

ToolRunner::ToolRunner(int spinMicroseconds)
    : m_state(std::make_shared<State>())
{
    m_state->spin = std::chrono::microseconds(spinMicroseconds);
}

ToolRunner::~ToolRunner()
{
    std::lock_guard lock(m_state->mutex);
    m_state->stopping = true;
    m_state->wake.notify_all();
}

void ToolRunner::start(std::function<void()> job, std::function<void()> finished)
{
    start(std::make_unique<FunctionJob>(std::move(job), std::move(finished)));
}

void ToolRunner::start(std::unique_ptr<Job> job)
{
    State &state = *m_state;
    std::unique_lock lock(state.mutex);
    state.jobs.push_back(std::move(job));
    state.queued.fetch_add(1, std::memory_order_release);
    // Each queued job needs an idle thread of its own; spinning ones see it by themselves.
    const int waiting = int(state.jobs.size());
    if (state.idle >= waiting) {
        if (state.idle - state.sleeping < waiting)
            state.wake.notify_one();
        return;
    }
    lock.unlock();
    state.threads.fetch_add(1, std::memory_order_relaxed);
    std::thread([self = m_state] { State::work(self); }).detach();
}

void ToolRunner::warmUp()
{
    State &state = *m_state;
    if (state.spinnerTaken.load(std::memory_order_relaxed))
        return;
    std::lock_guard lock(state.mutex);
    if (state.sleeping > 0 && state.idle == state.sleeping && !state.warm && state.jobs.empty()) {
        state.warm = true;
        state.wake.notify_one();
    }
}

int ToolRunner::spinMicroseconds() const
{
    return int(m_state->spin.count());
}

int ToolRunner::threadCount() const
{
    return m_state->threads.load(std::memory_order_relaxed);
}

} // namespace AgentCore
