#include "pathcapability.h"
#include "translation.h"

#include <QCoreApplication>

namespace AgentCore {

namespace {

// The grants of the Scopes open on this thread: tool calls run on pool threads, and a
// grant must never leak into a parallel call that was not approved.
thread_local QStringList grantedPaths;

bool isUnder(const QString &path, const QString &root)
{
    if (path == root)
        return true;
    if (root.endsWith(QLatin1Char('/')))
        return path.startsWith(root);
    return path.startsWith(root) && path.at(root.size()) == QLatin1Char('/');
}

QString rootOf(const QString &path, const QStringList &roots)
{
    QString best;
    for (const QString &root : roots) {
        if (isUnder(path, root) && root.size() > best.size())
            best = root;
    }
    return best;
}

bool inGitFolder(const QString &path, const QString &root)
{
    const QStringList components = path.mid(root.size()).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    return components.contains(QLatin1String(".git"));
}
} // namespace

void PathCapability::install(ToolWorkspace &workspace, const QStringList &writableRoots)
{
    install(workspace, [writableRoots] { return writableRoots; });
}

void PathCapability::install(ToolWorkspace &workspace, std::function<QStringList()> writableRoots)
{
    const QString root = workspace.root();
    workspace.setPathGuard([root, writableRoots = std::move(writableRoots)](const ResolvedPath &path,
                                                                            PathAccess access) {
        return check(path, access, root, writableRoots());
    });
}

QString PathCapability::check(const ResolvedPath &path,
                              PathAccess access,
                              const QString &repositoryRoot,
                              const QStringList &writableRoots)
{
    if (access == PathAccess::Write) {
        if (isWritable(path.path, writableRoots))
            return {};
        if (isInside(path.path, writableRoots)) {
            return PermissionsTr::tr(
                       "%1 is inside a .git folder; git's own files are never changed by "
                       "tools.")
                .arg(path.displayPath());
        }
        return PermissionsTr::tr(
                   "%1 is outside the repository (%2); only files inside the repository%3 "
                   "can be changed.")
            .arg(path.path,
                 repositoryRoot,
                 writableRoots.size() > 1 ? PermissionsTr::tr(" and its additional directories")
                                          : QString());
    }
    if (isInside(path.path, writableRoots) || isUnder(path.path, repositoryRoot)
        || isGranted(path.path))
        return {};
    return PermissionsTr::tr(
               "Reading %1 needs the user's approval: it is outside the repository (%2).")
        .arg(path.path, repositoryRoot);
}

bool PathCapability::isWritable(const QString &canonicalPath, const QStringList &roots)
{
    const QString root = rootOf(canonicalPath, roots);
    return !root.isEmpty() && !inGitFolder(canonicalPath, root);
}

bool PathCapability::isInside(const QString &canonicalPath, const QStringList &roots)
{
    return !rootOf(canonicalPath, roots).isEmpty();
}

bool PathCapability::isGranted(const QString &canonicalPath)
{
    for (const QString &granted : std::as_const(grantedPaths)) {
        if (isUnder(canonicalPath, granted))
            return true;
    }
    return false;
}

PathCapability::Scope::Scope(const QStringList &readablePaths)
    : m_previous(grantedPaths)
{
    grantedPaths.append(readablePaths);
}

PathCapability::Scope::~Scope()
{
    grantedPaths = m_previous;
}

} // namespace AgentCore
