#pragma once

namespace AgentCore::GuardProcess {

/// What the guard processes (ProcessGroupGuard, ChildGroupGuard) share. Each guard is a forked
/// copy of a multithreaded process: these make only async-signal-safe calls.

/// In the forked guard, before it waits on \a socket: every other descriptor closed (above all
/// any copy of AgentDesk's end, or AgentDesk's death goes unseen), a session of its own (the
/// signals of AgentDesk's group or terminal do not reach it), the terminating signals ignored
/// and none blocked, and \a name as the process's name (Linux) for `ps`.
void become(int socket, const char *name);

/// Sleeps \a milliseconds, resumed after a signal.
void sleepMs(int milliseconds);

/// The first byte of a message to a guard: a process group it watches from now on.
constexpr char announceTag = 'p';
/// The first byte of a message to a guard: the group (ChildGroupGuard) or every group
/// (ProcessGroupGuard) ended normally, nothing to end.
constexpr char releaseTag = 'd';

} // namespace AgentCore::GuardProcess
