#pragma once

#include <QtGlobal>

#include <functional>
#include <memory>

namespace AgentCore {

/// The threads tool calls run on. Built for the loop's hand-off pattern: the loop gives a call
/// to a thread and waits for its result, turn after turn. A QThreadPool parks idle threads on a
/// condition variable, so every hand-off pays two kernel wake-ups (each tens of microseconds
/// on a loaded or virtual machine): more than the rest of a turn. Here a thread that finished a
/// job first spins briefly for the next one, and only then sleeps.
/// Measured 2026-12-01, bench_loop variants (1000 runs x 10 turns through the Agent, medians of
/// 15 alternating rounds, 2 vCPUs, not pinned): agent 13.9 µs per turn (12.6 µs CPU) vs
/// agent-nospin (spin 0 here and in LoopWaiter) 30.7 µs (20.0 µs CPU). On one core (taskset)
/// the spin neither helps nor costs: 14.2 vs 13.2 µs, within noise.
///
/// There is no upper limit on threads: a tool that ignores the abort token keeps its thread
/// after the run moved on (raceAbort), and must never starve the calls that come after it.
/// Idle threads beyond the spin sleep, and exit after a while without work.
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

    explicit ToolRunner(int spinMicroseconds = defaultSpinMicroseconds);
    ~ToolRunner();

    /// Runs \a job on an idle thread, or a new one. Never blocks on running jobs.
    /// \a finished, if given, runs next on the same thread once it counts as idle again: tell
    /// the waiting caller there, so the job it starts next finds this thread instead of
    /// making a new one.
    void start(std::function<void()> job, std::function<void()> finished = {});
    /// The same for a job object (not null); it is destroyed on the running thread after
    /// finished().
    void start(std::unique_ptr<Job> job);

    /// A job is coming soon: wakes a sleeping idle thread to spin for it, so that start()
    /// finds it awake instead of paying the wake-up then. Does nothing when a thread already
    /// spins, or none is idle. Thread-safe; never blocks on running jobs.
    void warmUp();

    int spinMicroseconds() const;

    /// Threads currently alive (busy, spinning or sleeping), for tests.
    int threadCount() const;

    static constexpr int defaultSpinMicroseconds = 50;

private:
    struct State;
    std::shared_ptr<State> m_state;
};

} // namespace AgentCore
