#include "toolrunner.h"

#include "handoffspin.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace AgentCore {

namespace {

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

} // namespace

// Shared with every thread, so a thread still running an abandoned job outlives the runner
// safely.
struct ToolRunner::State
{
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<std::unique_ptr<Job>> jobs;
    std::atomic<int> queued = 0; // jobs.size(), for the spin, which reads it without the mutex
    int idle = 0;                // threads without a job (any of them looks for one), under mutex
    int sleeping = 0;            // of those, waiting on `wake`, under mutex
    std::atomic<bool> spinning = false; // one idle thread spins; the others sleep at once
    std::atomic<int> threads = 0;
    bool stopping = false;

    std::unique_ptr<Job> takeJob() // under mutex
    {
        std::unique_ptr<Job> job = std::move(jobs.front());
        jobs.pop_front();
        queued.fetch_sub(1, std::memory_order_relaxed);
        return job;
    }

    // Before sleeping, one idle thread spins for the next job: when the model answers at once,
    // the loop starts it within microseconds of this thread's finished() (handOffSpinBound).
    // More spinners would only take cores from the thread that makes the job.
    void spinForJob(std::unique_lock<std::mutex> &lock)
    {
        if (spinning.exchange(true, std::memory_order_acquire))
            return;
        lock.unlock();
        spinForHandOff([this] { return queued.load(std::memory_order_acquire) > 0; });
        spinning.store(false, std::memory_order_release);
        lock.lock();
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
            state.spinForJob(lock);
            bool expired = false;
            if (state.jobs.empty() && !state.stopping) {
                ++state.sleeping;
                expired = !state.wake.wait_for(lock, idleExpiry, [&state] {
                    return !state.jobs.empty() || state.stopping;
                });
                --state.sleeping;
            }
            --state.idle;
            if (expired)
                break;
        }
        state.threads.fetch_sub(1, std::memory_order_relaxed);
    }
};

ToolRunner::ToolRunner()
    : m_state(std::make_shared<State>())
{}

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
    // Each queued job needs an idle thread of its own. Those awake (spinning, or just done
    // with a job) find it by themselves: a sleeper is woken only when they are too few.
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

int ToolRunner::threadCount() const
{
    return m_state->threads.load(std::memory_order_relaxed);
}

} // namespace AgentCore
