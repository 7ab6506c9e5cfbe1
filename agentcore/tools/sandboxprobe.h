#pragma once

#include <QString>

namespace AgentCore {

/// Whether bwrap can make its namespaces here: runs `bwrap --ro-bind / / --unshare-pid
/// --unshare-net ... true` once per bwrap path and process (cached; thread-safe), because a
/// container, a kernel without unprivileged user namespaces or an AppArmor rule can each stop
/// it, and only trying tells. warmUp() probes ahead on a worker thread, so that the first
/// sandboxed command does not wait for it.
class SandboxProbe final
{
public:
    struct Result
    {
        bool available = false;
        QString bwrapPath; ///< absolute; empty when none was found
        QString error;     ///< why it is not available; for people
    };

    /// \a bwrapPath: a program path, or empty for `bwrap` on PATH. Blocks while the probe
    /// runs (~20 ms), also one that warmUp() started.
    static Result probe(const QString &bwrapPath = {});
    /// Starts probe(\a bwrapPath) on the global thread pool unless its result is known or on
    /// its way; returns at once.
    static void warmUp(const QString &bwrapPath = {});
    /// Forgets every cached result (tests).
    static void clearCache();
};

} // namespace AgentCore
