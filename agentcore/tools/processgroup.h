#pragma once

#include <QList>

#include <sys/types.h>

namespace AgentCore {

/// Signals and inspects a process group (a command started in its own session by Bash).
/// Linux reads /proc to tell living members from zombies that nobody has reaped yet; elsewhere
/// any member counts as living. Stateless; thread-safe.
class ProcessGroup final
{
public:
    static void signal(pid_t group, int signal);
    /// Members that are still running (not zombies). Reads all of /proc: a few milliseconds.
    static QList<pid_t> livingMembers(pid_t group);
    /// Whether any process is in the group, zombies included (one system call).
    static bool hasMembers(pid_t group);
    static bool isAlive(pid_t group) { return !livingMembers(group).isEmpty(); }
    /// Polls until no member lives or \a timeoutMs passes; true when none lives.
    static bool waitUntilGone(pid_t group, int timeoutMs);
    /// TERM, then KILL after \a graceMs if any member is still alive; waits a little for the end.
    /// True when no member lives afterwards.
    static bool terminate(pid_t group, int graceMs);
};

} // namespace AgentCore
