#pragma once

#include <QElapsedTimer>

namespace AgentCore {

/// The Agent's batching clock: its worker collects events and wakes the UI thread once per
/// batch (when it is about to wait, when the run ends, or when the batch is maxAgeMs old; the
/// last is this clock's call), instead of once per event: a wake-up is a kernel round trip,
/// more than the rest of a loop turn.
/// Measured 2026-12-01, bench_loop variants (1000 runs x 10 turns, medians of 15 alternating
/// rounds, one core): agent 14.2 µs per turn and 0.11 UI-thread wake-ups per turn vs
/// agent-nobatch (one delivery per event) 160.6 µs and 17.8 wake-ups per turn; with two cores
/// 13.9 vs 159.6 µs. Streaming from a network the worker waits between chunks and hands each
/// chunk's events over then; the clock only bounds how late a busy worker's events arrive.
/// Internal to the Agent; used under its event mutex.
class EventBatchClock final
{
public:
    /// For each collected event: true when the batch is due (its first event is maxAgeMs
    /// old). Reading the clock costs as much as collecting an event: it looks every few events.
    bool due()
    {
        if (!m_open) {
            m_open = true;
            m_age.start();
            m_sinceRead = 0;
        }
        return ++m_sinceRead % readEvery == 0 && m_age.elapsed() >= maxAgeMs;
    }
    /// The batch was handed over: the next event opens a new one.
    void reset() { m_open = false; }

    static constexpr qint64 maxAgeMs = 8;
    static constexpr int readEvery = 8;

private:
    QElapsedTimer m_age; // since the first event not yet handed over
    bool m_open = false; // m_age runs (a flag: isValid() is a call per event)
    int m_sinceRead = 0;
};

} // namespace AgentCore
