#pragma once

#include "globpattern.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace AgentCore {

/// The patterns of one .gitignore file (or .git/info/exclude, or a list of ripgrep-style
/// globs), matched as git does: the last matching pattern wins, `!` re-includes, a trailing
/// '/' matches directories only, a pattern with a '/' before its end is anchored to the file's
/// directory, any other pattern matches the entry's name at any depth.
/// A plain value; matching is const and thread-safe.
class GitIgnore final
{
public:
    enum class Result {
        None,      ///< no pattern matched
        Ignored,   ///< the last matching pattern excludes the path
        Whitelist, ///< the last matching pattern is a `!` pattern
    };

    GitIgnore() = default;
    /// \a flags: GlobPattern::Braces for ripgrep globs, CaseInsensitive.
    static GitIgnore parse(const QByteArray &text, int flags = 0);
    /// An empty matcher when the file cannot be read.
    static GitIgnore fromFile(const QString &path);

    void addPattern(const QByteArray &line, int flags = 0);
    bool isEmpty() const { return m_rules.isEmpty(); }
    /// The number of `!` patterns.
    int whitelistCount() const { return m_whitelists; }

    /// \a relativePath: '/'-separated, relative to the ignore file's directory, NUL-terminated.
    Result match(const char *relativePath, bool isDirectory) const;

private:
    struct Rule
    {
        GlobPattern pattern;
        bool negated = false;
        bool directoryOnly = false;
        bool basename = false; ///< no '/' in the pattern: match the last component only
    };
    QList<Rule> m_rules;
    int m_whitelists = 0;
};

} // namespace AgentCore
