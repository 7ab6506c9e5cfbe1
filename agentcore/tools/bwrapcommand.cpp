#include "bwrapcommand.h"

#include "sandboxcaches.h"
#include "sandboxprobe.h"
#include "shelloverlay.h"

#include <QDir>
#include <QFileInfo>
#include <QProcessEnvironment>

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

BwrapCommand::BwrapCommand(const QString &bwrapPath,
                           const QString &repositoryRoot,
                           const SandboxPolicy &policy)
    : m_bwrapPath(bwrapPath)
    , m_root(repositoryRoot)
    , m_workingDirectory(repositoryRoot)
    , m_policy(policy)
{}

void BwrapCommand::setRepositoryOverlay(const QString &upperDir, const QString &workDir)
{
    m_upperDir = upperDir;
    m_workDir = workDir;
}

void BwrapCommand::addWritablePath(const QString &path)
{
    if (!path.isEmpty() && !m_writablePaths.contains(path))
        m_writablePaths.append(path);
}

void BwrapCommand::addGitDirectories(const QStringList &paths, bool writable)
{
    m_gitDirectories = paths;
    m_gitWritable = writable;
}

QStringList BwrapCommand::unsetVariables()
{
    return {QStringLiteral("DBUS_SESSION_BUS_ADDRESS"),
            QStringLiteral("SSH_AUTH_SOCK"),
            QStringLiteral("SSH_AGENT_PID"),
            QStringLiteral("GPG_AGENT_INFO"),
            QStringLiteral("GNOME_KEYRING_CONTROL")};
}

QStringList BwrapCommand::arguments(const QStringList &command) const
{
    QStringList args{
        QStringLiteral("--ro-bind"),
        QStringLiteral("/"),
        QStringLiteral("/"),
        QStringLiteral("--dev"),
        QStringLiteral("/dev"),
        QStringLiteral("--proc"),
        QStringLiteral("/proc"),
        QStringLiteral("--tmpfs"),
        QStringLiteral("/tmp"),
    };
    // After /tmp: a repository under /tmp must come back on top of the private one.
    if (m_upperDir.isEmpty()) {
        args << QStringLiteral("--bind") << m_root << m_root;
    } else {
        args << QStringLiteral("--overlay-src") << m_root << QStringLiteral("--overlay")
             << m_upperDir << m_workDir << m_root;
    }
    for (const QString &path : m_writablePaths)
        args << QStringLiteral("--bind") << path << path;
    // After the repository and the writable paths, which may hold them.
    for (const QString &path : m_gitDirectories) {
        args << (m_gitWritable ? QStringLiteral("--bind") : QStringLiteral("--ro-bind")) << path
             << path;
    }
    // The caches, privately writable (SandboxCaches); before the secrets, which stay masked.
    // Whether bwrap can overlay them is asked once per process (a run of bwrap), and only
    // where there are caches to give.
    if (!m_policy.privatePaths.isEmpty()) {
        args += SandboxCaches::arguments(m_policy.privatePaths,
                                         m_root,
                                         ShellOverlay::unsupportedReason(m_policy.bwrapPath)
                                             .isEmpty());
    }

    // The secrets, last so that no bind above shows them again. A mask over a folder that
    // holds the repository would hide the repository: skipped.
    QStringList hidden = m_policy.hiddenPaths;
    const QString runtime = QProcessEnvironment::systemEnvironment().value(
        QStringLiteral("XDG_RUNTIME_DIR"));
    if (!runtime.isEmpty())
        hidden.append(runtime);
    QStringList masked;
    for (const QString &path : std::as_const(hidden)) {
        const QFileInfo info(path);
        if (!info.exists())
            continue;
        // bwrap mounts on the path as the sandbox sees it: follow symlinks to the target.
        const QString target = info.canonicalFilePath();
        if (target.isEmpty() || masked.contains(target) || isWithin(m_root, target)
            || target == QLatin1String("/"))
            continue;
        masked.append(target);
        if (info.isDir()) {
            args << QStringLiteral("--tmpfs") << target << QStringLiteral("--remount-ro") << target;
        } else {
            args << QStringLiteral("--ro-bind") << QStringLiteral("/dev/null") << target;
        }
    }

    args << QStringLiteral("--unshare-pid");
    if (!m_policy.allowNetwork)
        args << QStringLiteral("--unshare-net");
    args << QStringLiteral("--die-with-parent");
    const QStringList unset = unsetVariables();
    for (const QString &name : unset)
        args << QStringLiteral("--unsetenv") << name;
    args << QStringLiteral("--chdir") << m_workingDirectory << QStringLiteral("--");
    args += command;
    return args;
}

} // namespace AgentCore
