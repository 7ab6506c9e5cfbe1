#pragma once

#include <tools/toolworkspace.h>

#include <QStringList>

#include <functional>

namespace AgentCore {

/// The path guard the permission layer installs in the ToolWorkspace: writes only inside the
/// writable roots (repository and additional directories) and never into a .git/ folder;
/// reads inside the repository always, outside only within a Scope that grants them.
/// A Scope is opened by the permission middleware around next() on the tool's thread and
/// revoked when the tool returns, so an approval for /etc/hosts is good for that call only.
class PathCapability final
{
public:
    /// Replaces \a workspace's guard. \a writableRoots: canonical absolute directories.
    static void install(ToolWorkspace &workspace, const QStringList &writableRoots);
    /// The same, asking \a writableRoots on every check (roots added later count). It is
    /// called on the tools' threads; it must be thread-safe.
    static void install(ToolWorkspace &workspace, std::function<QStringList()> writableRoots);

    /// The guard's verdict: the refusal for the model, or empty. \a repositoryRoot is
    /// readable too (it is the first writable root in practice).
    static QString check(const ResolvedPath &path,
                         PathAccess access,
                         const QString &repositoryRoot,
                         const QStringList &writableRoots);
    /// Inside one of \a roots (canonical) and not in a .git folder below it.
    static bool isWritable(const QString &canonicalPath, const QStringList &roots);
    /// Inside one of \a roots (or equal to it).
    static bool isInside(const QString &canonicalPath, const QStringList &roots);
    /// Granted by a Scope open on this thread.
    static bool isGranted(const QString &canonicalPath);

    /// Grants reads of \a readablePaths (files or directories, canonical) on this thread
    /// until destroyed. Nests.
    class Scope final
    {
        Q_DISABLE_COPY_MOVE(Scope)
    public:
        explicit Scope(const QStringList &readablePaths);
        ~Scope();

    private:
        QStringList m_previous;
    };
};

} // namespace AgentCore
