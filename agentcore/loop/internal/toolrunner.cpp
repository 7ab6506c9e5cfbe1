#include "toolrunner.h"

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
    int idle = 0; // threads waiting for a job, under mutex
    std::atomic<int> threads = 0;
    bool stopping = false;

    static void work(const std::shared_ptr<State> &self)
    {
        State &state = *self;
        std::unique_lock lock(state.mutex);
        for (;;) {
            if (!state.jobs.empty()) {
                std::unique_ptr<Job> job = std::move(state.jobs.front());
                state.jobs.pop_front();
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
            const bool woken = state.wake.wait_for(lock, idleExpiry, [&state] {
                return !state.jobs.empty() || state.stopping;
            });
            --state.idle;
            if (!woken)
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
    // Each queued job needs an idle thread of its own.
    if (state.idle >= int(state.jobs.size())) {
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
