#pragma once

#include <ai/aborttoken.h>

#include <QList>
#include <QString>

namespace AgentCore {

/// One Grep search, as both backends (ripgrep and the built-in one) take it.
struct GrepQuery
{
    enum class Mode {
        FilesWithMatches, ///< the files that match
        Content,          ///< the matching lines (and context lines)
        Count,            ///< matching lines per file
    };

    QString pattern;   ///< regular expression, one line at a time
    QString directory; ///< absolute: the directory searched, or the file's directory
    QString file;      ///< a single file in directory to search, or empty to walk directory
    QString glob;      ///< ripgrep --glob: `*.cpp`, `src/**/*.{h,cpp}`, `!*.min.js`
    Mode mode = Mode::FilesWithMatches;
    bool caseInsensitive = false;
    int before = 0; ///< context lines (Content mode)
    int after = 0;
    /// Stop collecting after this many matching lines in all (keeps huge results in bounds).
    qint64 maxLines = 200000;
    AbortToken abort;
};

/// A line of a Content result.
struct GrepLine
{
    qint64 number = 0; ///< 1-based
    QString text;      ///< without the line break (a CR before it is dropped too)
    bool match = true; ///< false: a context line
    friend bool operator==(const GrepLine &, const GrepLine &) = default;
};

/// One file of a result. Paths are relative to GrepQuery::directory, '/'-separated.
struct GrepFile
{
    QString path;
    qint64 count = 0;      ///< matching lines (Count mode; at least 1 otherwise)
    QList<GrepLine> lines; ///< Content mode
    friend bool operator==(const GrepFile &, const GrepFile &) = default;
};

struct GrepOutcome
{
    QList<GrepFile> files;   ///< sorted by path (FileWalker::pathLess order)
    QString error;           ///< the search failed (bad pattern, missing tool...)
    bool incomplete = false; ///< stopped at GrepQuery::maxLines or by abort
};

} // namespace AgentCore
