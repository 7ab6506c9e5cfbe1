#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace AgentCore {

/// A kind of subagent the Task tool can start: the built-in `explore` and `general`, or a
/// Markdown file of `.agentdesk/agents/`, `.claude/agents/` or the user's agents folder, whose
/// front matter gives `name`, `description`, `tools` and `model` and whose body is the
/// subagent's system prompt (as Claude Code's `.claude/agents/` files are written). A plain
/// value.
struct SubagentType
{
    enum class Scope {
        BuiltIn,
        Project, ///< the repository's `.agentdesk/agents/` or `.claude/agents/`
        User,    ///< `~/.config/agentdesk/agents/`
    };
    QString name;        ///< what the Task call's subagent_type names
    QString description; ///< for the model: when to use it
    /// The tools it gets, by name, from its parent's (case does not matter); nullopt: all of
    /// the parent's. Names the session does not have are left out.
    std::optional<QStringList> tools;
    QString model;        ///< empty or "inherit": the parent's model; else a model name
    QString systemPrompt; ///< the body, front matter removed (the built-ins' own for them)
    QString path;         ///< absolute; empty for a built-in type
    Scope scope = Scope::BuiltIn;

    /// Only read-only tools (Read, Grep, Glob, LS): its Task calls run in parallel with the
    /// other calls of their batch, and it starts no subagent of its own.
    bool isReadOnly() const;
    /// Whether it may be given \a toolName of its parent's tools.
    bool offers(const QString &toolName) const;

    friend bool operator==(const SubagentType &, const SubagentType &) = default;
};

/// The subagent types one session offers, with the problems met reading them.
struct SubagentTypes
{
    QList<SubagentType> types; ///< the built-in ones first, then the files' by name
    QStringList warnings;      ///< "PATH: ...", a file skipped or cut and why

    /// At most this many types are read from files (the rest left out with a warning)...
    static constexpr int maxTypes = 50;
    /// ...each file up to this size (a larger one is skipped with a warning)...
    static constexpr qint64 maxFileBytes = 64 * 1024;
    /// ...its description up to this many characters (cut, with a warning).
    static constexpr int maxDescriptionChars = 500;

    /// `explore` (read-only tools) and `general` (the parent's tools).
    static QList<SubagentType> builtIn();
    /// The built-in types, then the Markdown files of \a repositoryRoot's `.agentdesk/agents/`
    /// and `.claude/agents/`, then \a userFolder's (empty: none), in that order of precedence:
    /// the first file with a name wins, and no file takes a built-in type's name. A file whose
    /// real path leaves its folder (a symlink) is skipped. Reads files only; any thread; never
    /// fails (warnings).
    static SubagentTypes discover(const QString &repositoryRoot, const QString &userFolder);
    /// The folder under `~/.config/agentdesk` user agent types come from.
    static QString userFolder();

    const SubagentType *find(const QString &name) const;
    /// "- NAME: DESCRIPTION" lines, for the Task tool's description.
    QString listing() const;
};

} // namespace AgentCore
