#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace AgentCore {

/// The read-only list: programs that only read files and print, with the options that would
/// make them write, delete or run other programs excluded (sed -i, sort -o, find -exec,
/// git branch -D, rg --pre...). A word with an expansion might turn into such an option, so a
/// program whose options matter is not read-only with one. Stateless; thread-safe.
class BashReadOnlyCommands final
{
public:
    /// \a words: program first; a program given with a path is never on the list (it may be a
    /// script of the same name). \a expands parallel to \a words.
    static bool isReadOnly(const QStringList &words, const QList<bool> &expands);
    /// A program with no option that writes or runs anything: read-only whatever words it gets,
    /// even words it reads from its input (`xargs grep foo`).
    static bool ignoresArguments(const QString &program);
};

} // namespace AgentCore
