#pragma once

#include <QtGlobal>

#include <ctime>

namespace TestSupport {

/// CPU time used so far, in milliseconds: by the calling thread (CLOCK_THREAD_CPUTIME_ID) or
/// the whole process (CLOCK_PROCESS_CPUTIME_ID). What a test of a spin-wait measures: a spin
/// that does not end uses the CPU, a sleep does not.
inline qint64 cpuMilliseconds(clockid_t clock)
{
    timespec now{};
    clock_gettime(clock, &now);
    return qint64(now.tv_sec) * 1000 + now.tv_nsec / 1000000;
}

inline qint64 threadCpuMs()
{
    return cpuMilliseconds(CLOCK_THREAD_CPUTIME_ID);
}

inline qint64 processCpuMs()
{
    return cpuMilliseconds(CLOCK_PROCESS_CPUTIME_ID);
}

} // namespace TestSupport
