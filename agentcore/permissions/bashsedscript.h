#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace AgentCore {

/// Decides whether a `sed` invocation only reads: no -i / --in-place, no script file, and
/// scripts without the commands that write files or run programs (`w`, `W`, `e`, and the `w`
/// and `e` flags of `s`). A script it cannot follow counts as writing. Stateless; thread-safe.
class BashSedScript final
{
public:
    /// \a args: the words after `sed`; \a expands parallel to them.
    static bool isReadOnlyInvocation(const QStringList &args, const QList<bool> &expands);
    /// One script as given to -e (or as the first operand).
    static bool isReadOnlyScript(const QString &script);
};

} // namespace AgentCore
