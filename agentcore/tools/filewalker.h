#pragma once

#include "gitignore.h"

#include <ai/aborttoken.h>

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

#include <functional>
#include <optional>
#include <vector>

namespace AgentCore {

/// Walks a directory tree the way ripgrep does with `--hidden`: .gitignore files of the
/// directory, its subdirectories and its parents up to the repository root, and
/// .git/info/exclude, apply only inside a git repository (a nested repository starts afresh);
/// .git is always skipped; symbolic links and special files are not followed or listed.
/// Single-threaded; entries of a directory come in byte order of their names.
class FileWalker final
{
public:
    enum class Visit { Continue, SkipDirectory, Stop };
    /// \a relativePath: relative to the walked directory, NUL-terminated, valid during the call.
    using Visitor = std::function<Visit(QByteArrayView relativePath, bool isDirectory)>;

    /// \a directory: an existing directory (absolute).
    explicit FileWalker(const QString &directory);

    void setRespectGitIgnore(bool respect) { m_respectGitIgnore = respect; }
    /// ripgrep's --glob semantics: `glob` whitelists, `!glob` excludes; a decision of these
    /// wins over .gitignore; with any whitelist glob, a file that matches none is skipped.
    /// Matched against the path relative to the walked directory; `{a,b}` expands.
    void setOverrideGlobs(const QList<QByteArray> &globs);
    /// 1: only the directory's own entries. 0: unlimited.
    void setMaxDepth(int depth) { m_maxDepth = depth; }
    void setAbortToken(const AbortToken &token) { m_abort = token; }

    /// Visits every entry that is not ignored, directories before their content.
    void walk(const Visitor &visitor);
    /// Entries skipped because an ignore rule or override matched them (not counting what is
    /// inside an ignored directory).
    int ignoredCount() const { return m_ignored; }
    bool aborted() const { return m_stopped && m_abort && m_abort->isAborted(); }

    /// Sorts paths the way the walk visits them: component by component.
    static bool pathLess(QByteArrayView a, QByteArrayView b);

private:
    struct Frame
    {
        qsizetype offset = 0; ///< where paths relative to this directory start in m_path
        GitIgnore ignore;
        GitIgnore exclude;
        bool repositoryRoot = false;
    };

    void addAncestors();
    void pushFrame(const QByteArray &absoluteDirectory,
                   qsizetype offset,
                   bool hasGitIgnore,
                   bool hasGit);
    bool isIgnored(bool isDirectory) const;
    bool walkDirectory(const QByteArray &absoluteDirectory, int depth, const Visitor &visitor);

    QByteArray m_directory; ///< absolute, local 8-bit
    bool m_respectGitIgnore = true;
    GitIgnore m_overrides;
    int m_overrideWhitelists = 0;
    int m_maxDepth = 0;
    std::optional<AbortToken> m_abort;

    std::vector<Frame> m_frames;
    int m_repositoryFrames = 0;
    QByteArray m_path;            ///< current entry, relative to the outermost frame
    qsizetype m_searchOffset = 0; ///< where the path relative to m_directory starts in m_path
    int m_ignored = 0;
    bool m_stopped = false;
};

} // namespace AgentCore
