#pragma once

#include <QMap>
#include <QString>
#include <QStringList>

namespace AgentCore {

/// The YAML front matter of a Markdown file (custom commands, skills), as Claude Code's files
/// write it: a first line `---`, then `key: value` lines up to a closing `---`, then the body.
/// Only the subset those files use is read: one `key: value` per line, values plain, quoted
/// ('..' or "..") or a flow list ([a, b], kept as its text); `#` comment lines and blank lines
/// are skipped; a value that goes on over indented lines is joined with spaces (a `>` or `|`
/// block too). Anything else is an error naming the file and the line, and the field is left
/// out; the rest of the file is still read. A plain value: parse() is pure and thread-safe.
struct FrontMatter
{
    QMap<QString, QString> fields; ///< by key, lower case
    QString body;                  ///< the text after the front matter (all of it without one)
    int bodyLine = 1;              ///< the body's first line in the file, from 1
    QStringList errors;            ///< "PATH:LINE: what is wrong", for people

    /// Values longer than this are cut (an error says so).
    static constexpr int maxValueChars = 4096;

    /// \a text's front matter; \a path names the file in errors.
    static FrontMatter parse(const QString &text, const QString &path);
    /// A field's value as a list: a flow list's items, else the value split at commas and
    /// spaces (`allowed-tools: Bash(git status:*), Read`), parentheses kept whole.
    static QStringList listOf(const QString &value);
};

} // namespace AgentCore
