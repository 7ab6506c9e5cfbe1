#pragma once

#include <QString>

namespace AgentCore {

/// Whether a file is held open by a process: a lock file git left behind is stale when no
/// process holds it any more (git keeps its lock open from creating it to renaming it). Linux
/// looks through /proc/<pid>/fd of every process it may inspect (the user's own: those that
/// write AgentDesk's files); elsewhere it cannot tell and says no. Stateless; thread-safe.
/// Reads all of /proc: milliseconds, for the rare case of a lock found in the way.
class OpenFiles final
{
public:
    /// True when a process has \a path open (the same file: device and inode).
    static bool isOpen(const QString &path);
};

} // namespace AgentCore
