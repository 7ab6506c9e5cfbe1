#pragma once

#include <QString>
#include <QStringList>

#include <optional>

namespace AgentCore {

enum class PermissionBehavior { Allow, Ask, Deny };

/// One rule of the settings files: `Bash`, `Bash(git status)`, `Bash(npm test:*)`,
/// `Edit(src/**)`, `Read(~/notes/**)`, with its behaviour. A plain value.
///
/// Matching: a rule without a specifier matches every call of its tool. Bash: the specifier is
/// one simple command, matched exactly after whitespace normalisation, or as a word prefix when
/// it ends in `:*` (`npm test:*` matches `npm test` and `npm test -- x`, not `npm tests`).
/// Edit: a gitignore-style glob (GlobPattern) over the path relative to the repository root
/// (`/abs/**` and `~/x/**` match absolute paths); Edit rules also cover Write.
/// Read: the same, for Read, Grep, Glob and LS.
/// MCP tools: `mcp__github__create_issue` names one tool, `mcp__github__*` and `mcp__github`
/// every tool of the server github.
struct PermissionRule
{
    /// MCP tools' names begin so (`mcp__<server>__<tool>`); their rules may end in `*`.
    static constexpr QLatin1String mcpToolPrefix{"mcp__"};

    QString toolName;  ///< "Bash", "Edit", "Read", "Write", or any tool's name
    QString specifier; ///< inside the parentheses; empty: the whole tool
    PermissionBehavior behavior = PermissionBehavior::Ask;
    QString source; ///< where it came from, for explanations: a settings path, "session", ...

    /// Parses `Tool` or `Tool(specifier)`; nullopt with \a error for anything else.
    static std::optional<PermissionRule> parse(const QString &text,
                                               PermissionBehavior behavior,
                                               QString *error = nullptr);
    /// `Tool(specifier)` or `Tool`.
    QString toString() const;

    /// Whether the rule is about calls of \a toolName: its own tool; Edit rules also Write;
    /// Read rules also Grep, Glob and LS.
    bool appliesTo(const QString &toolName) const;
    /// Bash: whether the specifier matches the simple command \a words (after quote removal,
    /// without assignments and redirections). \a lenient (for deny rules) also compares the
    /// program's base name (`/bin/rm`) and looks through wrappers (`sudo`, `env X=1`, `nice`).
    bool matchesCommand(const QStringList &words, bool lenient = false) const;
    /// Edit, Write, Read: whether the glob matches the path or one of its parent directories
    /// (gitignore style: `src` and `src/` cover everything below src, a pattern without a
    /// slash matches a name at any depth, `./name` only at the top). \a relative: to the repository root, empty when
    /// outside; \a absolute: canonical. A rule without a specifier matches every path.
    bool matchesPath(const QString &relative, const QString &absolute) const;
    /// The specifier split into words as a shell would (quotes, backslashes), `:*` removed.
    QStringList commandWords() const;
    bool isCommandPrefix() const; ///< the specifier ends in `:*`

    friend bool operator==(const PermissionRule &a, const PermissionRule &b)
    {
        return a.toolName == b.toolName && a.specifier == b.specifier && a.behavior == b.behavior;
    }
};

} // namespace AgentCore
