#pragma once

#include <QtGlobal>

#include <sys/types.h>

namespace AgentCore {

/// Makes the process groups of AgentDesk's own children (its git runs, its MCP servers) die with
/// AgentDesk, even when it is killed with SIGKILL: one guard process for all of them, forked at
/// the first use and living as long as AgentDesk, so a git run costs two small messages rather
/// than a fork of all of AgentDesk (ProcessGroupGuard, one per Bash command, 5-8 ms). A child,
/// in a session of its own, announces its group from its process modifier
/// (announceFromChild()); its owner release()s the group once it has ended. When the guard's
/// socket closes (the kernel closed AgentDesk's end: it died, or exited), every group still
/// announced gets SIGTERM, then SIGKILL after a grace period. A git killed so removes its lock
/// files itself (git cleans up on SIGTERM). Linux and other Unixes. Thread-safe.
class ChildGroupGuard final
{
    Q_DISABLE_COPY_MOVE(ChildGroupGuard)
public:
    /// The guard of this process: forked at the first call. Never destroyed: AgentDesk's exit
    /// closes the socket, and the guard ends what is still announced.
    static ChildGroupGuard &instance();

    bool isActive() const { return m_socket >= 0; }
    /// Process id of the guard; 0 when it could not be started.
    pid_t guardPid() const { return m_guard > 0 ? m_guard : 0; }
    /// The descriptor to pass to announceFromChild(); -1 when there is no guard (the children
    /// run unguarded). Close-on-exec: the command does not inherit it.
    int announceDescriptor() const { return m_socket; }

    /// In the child, after setsid() and before exec: tells the guard the group to end should
    /// AgentDesk die. Async-signal-safe (one send()); a no-op for -1.
    static void announceFromChild(int descriptor);

    /// The group \a group ended (or its owner ends it): the guard forgets it.
    void release(qint64 group);

private:
    ChildGroupGuard();

    pid_t m_guard = -1;
    int m_socket = -1;
};

} // namespace AgentCore
