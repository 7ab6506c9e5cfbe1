#pragma once

#include <QtGlobal>

#include <sys/types.h>

namespace AgentCore {

/// Makes a command's process group die with AgentDesk, even when AgentDesk is killed with
/// SIGKILL and cannot clean up: a guard process (a fork of this one that only makes system
/// calls, in a session of its own) waits on a pipe whose write ends only AgentDesk and,
/// briefly, the command's group leader hold. The leader writes its process id there before it
/// runs the command (announceFromChild()). When the pipe closes without release() having
/// said "done" (AgentDesk died: the kernel closed its end), the guard terminates the group:
/// TERM, then KILL after the grace period. A pipe rather than PR_SET_PDEATHSIG, which fires
/// when the forking *thread* ends and reaches only direct children, not the grandchildren a
/// command starts (`sleep 100 & sleep 100`).
/// Linux and other Unixes. Not thread-safe: one command, one thread.
class ProcessGroupGuard final
{
    Q_DISABLE_COPY_MOVE(ProcessGroupGuard)
public:
    /// Forks the guard. isActive() is false when that failed (the command still runs).
    explicit ProcessGroupGuard(int graceMs);
    /// release()s.
    ~ProcessGroupGuard();

    bool isActive() const { return m_guard > 0; }
    /// Process id of the guard; 0 when inactive.
    pid_t guardPid() const { return m_guard > 0 ? m_guard : 0; }
    /// The descriptor to pass to announceFromChild(); -1 when inactive.
    int announceDescriptor() const { return m_writeEnd; }

    /// In the command's leader, after setsid() and before exec: tells the guard the group to
    /// watch and closes the leader's copy of the pipe. Async-signal-safe; a no-op for -1.
    static void announceFromChild(int descriptor);

    /// The group has ended (or never started): the guard exits without signalling anyone.
    /// Waits for the guard to exit.
    void release();

private:
    pid_t m_guard = -1;
    int m_writeEnd = -1;
};

} // namespace AgentCore
