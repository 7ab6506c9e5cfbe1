#pragma once

#include <QString>

namespace AgentCore {

/// Whether bwrap can make its namespaces here: runs `bwrap --ro-bind / / --unshare-pid
/// --unshare-net ... true` once per bwrap path and process (cached; thread-safe), because a
/// container, a kernel without unprivileged user namespaces or an AppArmor rule can each stop
/// it, and only trying tells.
class SandboxProbe final
{
public:
    struct Result
    {
        bool available = false;
        QString bwrapPath;            ///< absolute; empty when none was found
        QString error;                ///< why it is not available; for people
        bool supportsOverlay = false; ///< bwrap has --overlay-src (0.10 and later)
    };

    /// \a bwrapPath: a program path, or empty for `bwrap` on PATH.
    static Result probe(const QString &bwrapPath = {});
    /// Forgets every cached result (tests).
    static void clearCache();
};

} // namespace AgentCore
