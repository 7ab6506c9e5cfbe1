#pragma once

#include <QByteArray>
#include <QList>

namespace AgentCore {

/// A wildcard pattern with git's wildmatch semantics over '/'-separated UTF-8 paths:
/// `*` and `?` stop at '/', `**` as a whole component spans directories, `[a-z]`, `[!x]`,
/// `[[:alpha:]]` and `\` escapes; optionally `{a,b}` alternatives (as in ripgrep globs).
/// A plain value; matching is const and thread-safe.
class GlobPattern final
{
public:
    enum Flag {
        NoFlags = 0,
        PathName = 1,        ///< `*` and `?` do not match '/'
        CaseInsensitive = 2, ///< ASCII case folding
        Braces = 4,          ///< expand `{a,b,c}` first
    };

    GlobPattern() = default;
    explicit GlobPattern(const QByteArray &pattern, int flags = PathName);

    bool isEmpty() const { return m_alternatives.isEmpty(); }
    /// \a text must be NUL-terminated (QByteArray::constData is).
    bool matches(const char *text) const;
    bool matches(const QByteArray &text) const { return matches(text.constData()); }

    /// git's dowild(); both strings NUL-terminated.
    static bool wildmatch(const char *pattern, const char *text, int flags);
    /// `a{b,c{d,e}}` -> ab, acd, ace. Unbalanced braces stay literal. At most 256 results.
    static QList<QByteArray> expandBraces(const QByteArray &pattern);
    static bool hasWildcards(const QByteArray &pattern);

private:
    enum class Kind {
        Literal,   ///< no wildcard: byte equality
        Suffix,    ///< `*.ext`: ends with, no '/' before it (with PathName)
        AnySuffix, ///< `**/*.ext`: ends with
        Wildcard,  ///< everything else
    };
    struct Alternative
    {
        Kind kind = Kind::Wildcard;
        QByteArray text; ///< the pattern, or the literal / suffix of the fast paths
    };

    QList<Alternative> m_alternatives;
    int m_flags = PathName;
};

} // namespace AgentCore
