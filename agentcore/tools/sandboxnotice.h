#pragma once

#include "sandboxpolicy.h"

#include <QString>

namespace AgentCore {

/// What AgentDesk tells the user, once, when the sandbox is on or required but bwrap cannot
/// run: what happens to commands now, why, and what to do about it, in one paragraph (one
/// line: headless prints it as one stderr line; the window shows it in a bar). Stateless.
class SandboxNotice final
{
public:
    /// The notice for \a decision (Unavailable or Refused; empty for any other outcome).
    /// \a bwrapPath: the policy's (empty: bwrap on PATH); \a procSys: where the kernel's
    /// settings are read to name the one that stops the namespaces (tests give a folder).
    static QString text(const SandboxDecision &decision,
                        const QString &bwrapPath = {},
                        const QString &procSys = QStringLiteral("/proc/sys"));
    /// Only the "what to do" part: install bubblewrap; or the sysctl that allows unprivileged
    /// user namespaces here (kernel.apparmor_restrict_unprivileged_userns on Ubuntu,
    /// kernel.unprivileged_userns_clone on Debian, user.max_user_namespaces); or a container's
    /// options.
    static QString advice(const QString &bwrapPath = {},
                          const QString &procSys = QStringLiteral("/proc/sys"));
};

} // namespace AgentCore
