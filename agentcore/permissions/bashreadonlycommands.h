#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace AgentCore {

/// A path given as an option's argument (`date -f FILE`, `grep -fFILE`, `--exclude-from=FILE`).
struct BashOptionPath
{
    QString text;
    bool expands = false;
};

/// Why a program reads paths that no word of the command names.
enum class BashUnknownReads {
    None,
    FollowsSymlinks, ///< `grep -R`, `rg -L`, `find -L`, `du -L`, `tree -l`, `diff -r`...
    NamesFromFile,   ///< `wc --files0-from=F`, `file -f F`, `sha256sum -c F`...
};

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

    /// The paths \a words (program first) name in option arguments, in every form the program
    /// takes them: `-f F`, `-fF`, `-uf F`, `--file F`, `--file=F`, `--fi=F` (an abbreviation),
    /// also for programs whose operands are no paths (`date -f F`); `strings @F` reads options
    /// from F. Operands are the caller's to check.
    static QList<BashOptionPath> optionPaths(const QStringList &words, const QList<bool> &expands);
    /// Options that make the program read paths the command does not show: it follows the
    /// symbolic links it finds (which may lead out of the repository) or reads the names of the
    /// files to read from a file. Such a command is not read-only: it cannot be checked.
    static BashUnknownReads unknownReads(const QStringList &words, const QList<bool> &expands);
};

} // namespace AgentCore
