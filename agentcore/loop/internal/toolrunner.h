#pragma once

#include <QtGlobal>

#include <functional>
#include <memory>

namespace AgentCore {

/// The threads tool calls run on: a pool of its own, not QThreadPool's, because
/// - there is no upper limit on threads: a tool that ignores the abort token keeps its thread
///   after the run moved on (raceAbort), and must never starve the calls that come after it;
/// - a job's finished() runs once its thread counts as idle again, so the job the waiting loop
///   starts next finds this thread instead of making a new one (QThreadPool counts a thread
///   busy until its runnable returned).
/// An idle thread first spins briefly for the next job (one at a time; handOffSpinBound says
/// why and how long), then sleeps, and exits after a while without work.
/// start() is thread-safe. The destructor never waits for a running job: threads still busy
/// (abandoned tools) are left to finish on their own and exit then.
class ToolRunner final
{
    Q_DISABLE_COPY_MOVE(ToolRunner)
public:
    /// A job and what runs after it, in one allocation: a std::function allocates for
    /// nearly any capture (a shared_ptr, or more than two pointers), and the loop hands a
    /// job over every turn.
    class Job
    {
    public:
        virtual ~Job() = default;
        virtual void run() = 0;
        /// Runs on the same thread after run(), once the thread counts as idle again.
        virtual void finished() {}
    };

    ToolRunner();
    ~ToolRunner();

    /// Runs \a job on an idle thread, or a new one. Never blocks on running jobs.
    /// \a finished, if given, runs next on the same thread once it counts as idle again: tell
    /// the waiting caller there, so the job it starts next finds this thread instead of
    /// making a new one.
    void start(std::function<void()> job, std::function<void()> finished = {});
    /// The same for a job object (not null); it is destroyed on the running thread after
    /// finished().
    void start(std::unique_ptr<Job> job);

    /// Threads currently alive (busy, spinning or sleeping), for tests.
    int threadCount() const;

private:
    struct State;
    std::shared_ptr<State> m_state;
};

} // namespace AgentCore
