#pragma once

#include <QString>

#include <optional>

namespace AgentCore {

/// A directory AgentDesk works on, usually the top level of a git working tree.
/// A plain value; open() reads .git directly instead of running git, so it is cheap enough
/// to call on the UI thread at start-up. Thread-safe (no shared state).
struct Repository
{
    QString root;       ///< canonical path of the working tree's top level (or the directory)
    QString gitDir;     ///< canonical path of the git directory; empty outside git
    QString branch;     ///< checked-out branch; empty when detached or outside git
    QString detachedAt; ///< abbreviated commit id when HEAD is detached
    bool isGit() const { return !gitDir.isEmpty(); }

    /// The last path component of root, as a person names the project.
    QString name() const;
    /// "branch", "detached at abc1234", or empty outside git.
    QString headDescription() const;

    /// Finds the working tree that contains \a path (a directory or a file inside one).
    /// Returns nullopt and sets \a error when \a path does not exist or is not readable.
    static std::optional<Repository> open(const QString &path, QString *error = nullptr);
};

} // namespace AgentCore
