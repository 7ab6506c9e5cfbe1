#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace AgentCore {

/// Decides whether a path written in a Bash command lies inside the repository root, following
/// `cd` and `pushd` through the command: a relative path counts as inside only when it is
/// inside from every directory the shell may be in by then. Symbolic links of existing parents
/// are followed one component at a time, as the kernel does: `link/..` is the parent of the
/// link's target. A plain value; reads the file system, never changes it.
class BashPathResolver final
{
public:
    enum class Location {
        Inside,
        InsideGitDirectory, ///< under a .git of the repository (its own, a submodule's
                            ///< `.git` file): hooks and config run code
        Outside,
        Unknown,
    };

    explicit BashPathResolver(const QString &repositoryRoot);

    /// \a expands: the path is an expansion's source text, so where it points is Unknown,
    /// unless it is a plain glob, located by its literal directories and by what it matches
    /// now (a match may be a link out of the repository).
    Location locate(const QString &path, bool expands) const;
    /// The directories the shell may be in by now (canonical); empty when one of them is only
    /// known at run time.
    QStringList workingDirectories() const;
    /// \a path (literal) from \a directory, as the kernel finds it (links followed); empty when
    /// that cannot be known (`~user`, a dangling link).
    QString resolve(const QString &directory, const QString &path) const
    {
        return absolute(directory, path);
    }
    QString root() const { return m_root; }
    /// Follows `cd` / `pushd` / `popd` with \a args (options included).
    void changeDirectory(const QString &program,
                         const QStringList &args,
                         const QList<bool> &expands);

private:
    QString absolute(const QString &directory, const QString &path) const;
    bool isInside(const QString &absolutePath) const;

    QString m_root;
    QStringList m_directories;
    bool m_directoryUnknown = false;
};

} // namespace AgentCore
