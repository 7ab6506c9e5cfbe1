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
    /// \a filesRead: where to add the files the scripts' `r` and `R` commands read (their
    /// contents are printed: the caller checks where they are).
    static bool isReadOnlyInvocation(const QStringList &args,
                                     const QList<bool> &expands,
                                     QStringList *filesRead = nullptr);
    /// One script as given to -e (or as the first operand).
    static bool isReadOnlyScript(const QString &script);
};

} // namespace AgentCore
