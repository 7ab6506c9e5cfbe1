#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace AgentCore {

/// A custom slash command: a Markdown file whose body is the prompt `/NAME ARGS` sends, as
/// Claude Code's `.claude/commands/` hold them. Its front matter may give `description`,
/// `argument-hint`, `allowed-tools` and `model` (shown; see docs/extending.md for what
/// AgentDesk does with the last two). A plain value.
struct CustomCommand
{
    enum class Scope {
        Project, ///< the repository's `.agentdesk/commands/` or `.claude/commands/`
        User,    ///< `~/.config/agentdesk/commands/`
    };
    /// "review", or "frontend:test" for `frontend/test.md` (the folders, joined with ':').
    QString name;
    QString description;
    QString argumentHint;
    QStringList allowedTools;
    QString model;
    QString body; ///< the prompt, front matter removed
    QString path; ///< absolute
    Scope scope = Scope::Project;

    friend bool operator==(const CustomCommand &, const CustomCommand &) = default;
};

/// The commands one session offers, with the problems met reading them.
struct CustomCommands
{
    QList<CustomCommand> commands; ///< by name; the first folder that has a name wins
    QStringList warnings;          ///< "PATH:LINE: ...", a file skipped and why

    /// At most this many commands are read (the rest are left out with a warning)...
    static constexpr int maxCommands = 200;
    /// ...each file up to this size (a larger one is skipped with a warning)...
    static constexpr qint64 maxFileBytes = 64 * 1024;
    /// ...its description up to this many characters (cut, with a warning)...
    static constexpr int maxDescriptionChars = 300;
    /// ...and folders this deep below a commands folder.
    static constexpr int maxDepth = 3;

    /// The commands of \a repositoryRoot's `.agentdesk/commands/` and `.claude/commands/`,
    /// then \a userFolder's (`~/.config/agentdesk/commands`; empty: none), in that order of
    /// precedence. A file whose real path leaves its folder's top (a symlink out of the
    /// repository) is skipped. Reads files only; any thread; never fails (warnings).
    static CustomCommands discover(const QString &repositoryRoot, const QString &userFolder);
    /// The folder under `~/.config/agentdesk` user commands come from.
    static QString userFolder();

    const CustomCommand *find(const QString &name) const;
};

/// `/NAME ARGS` as typed: the command's name and the rest of the text.
struct CustomCommandInvocation
{
    QString name;
    QString arguments; ///< everything after the name, trimmed (may span lines)

    /// nullopt when \a text does not start with `/` and a name.
    static std::optional<CustomCommandInvocation> parse(const QString &text);
    /// The arguments split like a shell's words ("New York" is one; quotes removed).
    QStringList positional() const;
};

/// \a body with `$ARGUMENTS` replaced by \a invocation's arguments and `$1`..`$9` by its
/// positional ones (empty when missing). A body that uses none of them gets the arguments
/// appended, after a blank line, as "ARGUMENTS: ..." (as Claude Code does). Pure.
QString substituteArguments(const QString &body, const CustomCommandInvocation &invocation);

} // namespace AgentCore
