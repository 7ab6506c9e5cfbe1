#pragma once

#include "customcommand.h"

#include <ai/aborttoken.h>
#include <loop/agenttypes.h>

#include <QStringList>

#include <functional>
#include <memory>

namespace AgentCore {

class PermissionPolicy;
class ToolWorkspace;

/// What one `!command` line of a custom command came to.
struct ShellLineResult
{
    bool ran = false; ///< the policy let it run (whatever its exit code)
    QString output;   ///< what it printed (with its exit code when it failed), when it ran
    QString refusal;  ///< why it did not run (denied, nobody to ask), when it did not
};

/// What a custom command's expansion needs of the session.
struct CommandExpansionTools
{
    /// Runs one `!` line as a Bash call through the session's middlewares (the permission
    /// policy, the asker, the sandbox, the audit log). Null: `!` lines are refused.
    std::function<ShellLineResult(const QString &command)> runShellLine;
    /// The repository's workspace and policy, for `@path` references (the checks Read's
    /// paths go through). Null workspace: references stay text.
    std::shared_ptr<ToolWorkspace> workspace;
    std::shared_ptr<PermissionPolicy> policy;
};

/// What expandCustomCommand made of `/NAME ARGS`.
struct CommandExpansion
{
    QString text;         ///< the prompt to send
    QString error;        ///< why nothing may be sent
    QStringList attached; ///< the repository paths attached (`@path`)
    QStringList ran;      ///< the `!` lines run
    bool ok() const { return error.isEmpty(); }
};

/// `@path` references attached at most this many per command...
inline constexpr int maxCommandReferences = 20;
/// ...each file up to this size (a larger one is refused)...
inline constexpr qint64 maxReferencedFileBytes = 256 * 1024;
/// ...and a `!` line's output up to this many characters (cut with a note).
inline constexpr int maxShellLineOutputChars = 30 * 1024;

/// \a command's body with \a invocation's arguments substituted (substituteArguments), then:
/// every line starting with `!` (its command may be wrapped in backticks, as Claude Code's
/// "!`git status`") is run through \a tools.runShellLine and replaced by its output; every
/// `@path` at the start of a word outside such lines that names a file of the repository is
/// attached after the text in a <file path="..."> block, once. A reference outside the
/// repository, to a binary or too large file, or one the policy denies or would ask about,
/// is an error (nothing is sent); a `@word` that names no file stays text. A `!` line the
/// policy does not let run is an error too. Blocking (runs commands, may wait for an answer);
/// any thread but the one the asker answers on.
CommandExpansion expandCustomCommand(const CustomCommand &command,
                                     const CustomCommandInvocation &invocation,
                                     const CommandExpansionTools &tools,
                                     const AbortToken &abort = {});

/// Runs \a command as \a bash's call through \a middlewares (outermost first), the way the
/// loop runs a call: ShellLineResult::ran when the innermost layer was reached.
ShellLineResult runShellLine(const AgentToolPtr &bash,
                             const QList<ToolMiddleware> &middlewares,
                             const QString &command,
                             const AbortToken &abort);

} // namespace AgentCore
