#pragma once

#include <chrono>
#include <thread>

#include <sched.h>

namespace AgentCore {

/// How long a thread that waits for a hand-off from another thread spins for it before going to
/// sleep. The loop hands each tool call to a ToolRunner thread and waits for its result in
/// LoopWaiter, turn after turn. A thread that sleeps at once makes every such hand-off a kernel
/// wake-up, and on two cores (a thread on each) that costs tens of microseconds each: the pure
/// loop cost 59 µs per turn without the spin on a quiet 2-vCPU machine, 7 to 18 with it even on
/// a loaded one, a difference a long session of many quick tool calls adds up
/// (docs/benchmarks.md, the loop section). A hand-off that comes within the bound costs no wake-up; a later one costs the
/// same wake-up as without the spin, plus at most this much CPU.
inline constexpr std::chrono::microseconds handOffSpinBound{50};

/// Whether a hand-off spin can help at all: only when this process may run on more than one
/// CPU. On one, the thread the spin waits for cannot run while it spins (each spin would cost
/// its whole bound: measured with taskset, the Agent facade went from 24 to 117 µs per turn).
inline bool handOffSpinHelps()
{
    static const bool helps = [] {
        cpu_set_t cpus;
        CPU_ZERO(&cpus);
        return sched_getaffinity(0, sizeof cpus, &cpus) != 0 || CPU_COUNT(&cpus) > 1;
    }();
    return helps;
}

/// Spins until \a ready() returns true or handOffSpinBound has passed; returns whether it did.
/// Never longer than the bound, whatever ready() says: a caller whose condition never comes
/// true (an abort nobody reports, a job that never arrives) sleeps as it would have without it.
/// Gives the core away every few rounds: with fewer cores than busy threads, the spin must not
/// hold up the very thread it waits for.
template<typename Ready>
bool spinForHandOff(const Ready &ready)
{
    if (!handOffSpinHelps())
        return ready();
    using Clock = std::chrono::steady_clock;
    constexpr int roundsBetweenYields = 64; // reading the clock costs more than a round
    const Clock::time_point until = Clock::now() + handOffSpinBound;
    for (int round = 1;; ++round) {
        if (ready())
            return true;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause(); // tells the core this is a spin: it saves power and the sibling
#elif defined(__aarch64__)
        asm volatile("yield");
#endif
        if (round % roundsBetweenYields == 0) {
            std::this_thread::yield();
            if (Clock::now() >= until)
                return ready();
        }
    }
}

} // namespace AgentCore
