#include "sandboxcaches.h"

#include <QDir>
#include <QFileInfo>

namespace AgentCore {

namespace {

// True when \a path is \a folder or inside it.
bool isWithin(const QString &path, const QString &folder)
{
    return path == folder
           || (path.startsWith(folder)
               && (folder.endsWith(QLatin1Char('/')) || path.at(folder.size()) == QLatin1Char('/')));
}

} // namespace

QStringList SandboxCaches::defaultPaths(const QString &home)
{
    if (home.isEmpty())
        return {};
    const QDir dir(home);
    const QStringList relative = {
        QStringLiteral(".cache"),
        QStringLiteral(".npm"),
        QStringLiteral(".cargo/registry"),
        QStringLiteral(".cargo/git"),
        QStringLiteral(".rustup/downloads"),
        QStringLiteral(".rustup/tmp"),
        QStringLiteral(".m2/repository"),
        QStringLiteral(".gradle/caches"),
        QStringLiteral("go/pkg/mod"),
        QStringLiteral(".bun/install/cache"),
        QStringLiteral(".local/share/pnpm/store"),
        QStringLiteral(".nuget/packages"),
    };
    QStringList paths;
    for (const QString &path : relative)
        paths.append(QDir::cleanPath(dir.absoluteFilePath(path)));
    return paths;
}

QStringList SandboxCaches::arguments(const QStringList &paths,
                                     const QString &repositoryRoot,
                                     bool overlay)
{
    QStringList args;
    QStringList mounted;
    for (const QString &path : paths) {
        const QFileInfo info(path);
        if (!info.isDir())
            continue;
        // bwrap mounts on the path as the sandbox sees it: follow symlinks to the target.
        const QString target = info.canonicalFilePath();
        if (target.isEmpty() || target == QLatin1String("/") || mounted.contains(target)
            || isWithin(repositoryRoot, target) || isWithin(target, repositoryRoot))
            continue;
        mounted.append(target);
        if (overlay)
            args << QStringLiteral("--overlay-src") << target << QStringLiteral("--tmp-overlay")
                 << target;
        else
            args << QStringLiteral("--tmpfs") << target;
    }
    return args;
}

} // namespace AgentCore
