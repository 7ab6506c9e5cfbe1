#include "bwrapcommand.h"

#include "sandboxcaches.h"
#include "sandboxhome.h"
#include "sandboxprobe.h"
#include "sandboxsockets.h"
#include "shelloverlay.h"

#include <QDir>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QStandardPaths>

#include <algorithm>

#include <unistd.h>

namespace AgentCore {

namespace {

// True when \a path is \a folder or inside it.
bool isWithin(const QString &path, const QString &folder)
{
    return path == folder
           || (path.startsWith(folder)
               && (folder.endsWith(QLatin1Char('/')) || path.at(folder.size()) == QLatin1Char('/')));
}

bool isWithinAny(const QString &path, const QStringList &folders)
{
    return std::any_of(folders.cbegin(), folders.cend(), [&path](const QString &folder) {
        return isWithin(path, folder);
    });
}

// \a path with its links resolved, or \a path itself when it does not exist.
QString realPathOr(const QString &path)
{
    const QString real = QFileInfo(path).canonicalFilePath();
    return real.isEmpty() ? path : real;
}

// The bwrap arguments that show paths read-only inside folders the sandbox empties: each
// path's real file or folder bound at its real path, and each symbolic link on the way that
// lies in an emptied folder made again (--symlink), so that the path as written, a
// ~/.gitconfig linked to a dotfiles checkout, leads there too.
class ReadOnlyPaths
{
public:
    /// \a emptied: the folders shown empty; \a visible: folders bound later anyway (the
    /// repository, writable folders), whose insides need nothing.
    ReadOnlyPaths(const QStringList &emptied, const QStringList &visible)
        : m_emptied(emptied)
        , m_visible(visible)
    {}

    void add(const QString &path, int depth = 0)
    {
        const QString lexical = QDir::cleanPath(path);
        // A loop of links ends here; so does a path that does not exist (links followed).
        if (depth > 16 || !QDir::isAbsolutePath(lexical) || !QFileInfo::exists(lexical))
            return;
        const QStringList parts = lexical.split(QLatin1Char('/'), Qt::SkipEmptyParts);
        QString current;
        for (qsizetype i = 0; i < parts.size(); ++i) {
            current += QLatin1Char('/') + parts.at(i);
            const QFileInfo info(current);
            if (!info.isSymLink())
                continue;
            const QString target = info.symLinkTarget(); // absolute
            if (isWithinAny(current, m_emptied) && !m_links.contains(current)) {
                m_links.append(current);
                m_linkTargets.append(target);
            }
            const QStringList rest = parts.mid(i + 1);
            add(rest.isEmpty() ? target : target + QLatin1Char('/') + rest.join(QLatin1Char('/')),
                depth + 1);
            return;
        }
        // No link on the way: the path is its real path.
        if (lexical != QLatin1String("/") && isWithinAny(lexical, m_emptied)
            && !isWithinAny(lexical, m_visible) && !m_bound.contains(lexical))
            m_bound.append(lexical);
    }

    QStringList arguments() const
    {
        QStringList bound = m_bound;
        bound.sort(); // a folder before those inside it: those are shown with it
        QStringList args;
        QStringList shown;
        for (const QString &path : std::as_const(bound)) {
            if (isWithinAny(path, shown))
                continue;
            shown.append(path);
            args << QStringLiteral("--ro-bind") << path << path;
        }
        // A link inside a bound folder is there already (bwrap could not make it again).
        for (qsizetype i = 0; i < m_links.size(); ++i) {
            if (!isWithinAny(m_links.at(i), shown))
                args << QStringLiteral("--symlink") << m_linkTargets.at(i) << m_links.at(i);
        }
        return args;
    }

private:
    QStringList m_emptied;
    QStringList m_visible;
    QStringList m_bound;
    QStringList m_links;
    QStringList m_linkTargets;
};

} // namespace

BwrapCommand::BwrapCommand(const QString &bwrapPath,
                           const QString &repositoryRoot,
                           const SandboxPolicy &policy)
    : m_bwrapPath(bwrapPath)
    , m_root(repositoryRoot)
    , m_workingDirectory(repositoryRoot)
    , m_policy(policy)
{}

void BwrapCommand::setRepositoryOverlay(const QString &upperDir,
                                        const QString &workDir,
                                        OverlayMount mount)
{
    m_upperDir = upperDir;
    m_workDir = workDir;
    m_overlayMount = mount;
}

QString BwrapCommand::program() const
{
    if (!mountsOverlayFirst())
        return m_bwrapPath;
    static const QString unshare = [] {
        const QString found = QStandardPaths::findExecutable(QStringLiteral("unshare"));
        return found.isEmpty() ? QStringLiteral("unshare") : found;
    }();
    return unshare;
}

QStringList BwrapCommand::unshareArguments(const QString &root) const
{
    // In the scratch folder, by relative names: overlayfs' options need no escaping then,
    // whatever the repository's path holds (a comma, a colon). `lower` is the real tree, bound
    // there; `merged` the overlay bwrap binds at the repository's path. mount(8) and the
    // kernel refuse what they cannot do, and bwrap does not start then.
    static const QString script = QStringLiteral(
        "cd \"$1\" && mkdir -p lower merged && mount --bind \"$2\" lower && mount -t overlay "
        "overlay -o \"lowerdir=lower,upperdir=$3,workdir=$4,userxattr\" merged && shift 4 && "
        "exec \"$@\"");
    const QFileInfo upper(m_upperDir);
    const QFileInfo work(m_workDir);
    return {QStringLiteral("--user"),
            QStringLiteral("--map-root-user"),
            QStringLiteral("--mount"),
            QStringLiteral("--"),
            QStringLiteral("/bin/sh"),
            QStringLiteral("-c"),
            script,
            QStringLiteral("sh"),
            upper.absolutePath(),
            root,
            upper.fileName(),
            work.fileName(),
            m_bwrapPath};
}

void BwrapCommand::addReadablePath(const QString &path)
{
    if (!path.isEmpty() && !m_readablePaths.contains(path))
        m_readablePaths.append(path);
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
    // Real paths throughout: bwrap mounts on the path as the sandbox sees it, and a link to
    // the repository or to a hidden folder must not lead around a mask.
    const QString root = realPathOr(m_root);
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
    // The home and the sockets' folders emptied, then what commands need of them shown again,
    // read-only; the hidden folders that hold the repository emptied after that (what they
    // hold stays hidden, whatever the allow-list says). All of these before the repository,
    // which is bound back on top of them.
    const QStringList around = hiddenFoldersAround(root);
    QStringList emptied = emptiedFolders(root);
    // One inside a hidden folder goes with it (and could not be remounted: gone from view).
    emptied.removeIf([&around](const QString &folder) { return isWithinAny(folder, around); });
    for (const QString &folder : std::as_const(emptied))
        args << QStringLiteral("--tmpfs") << folder;
    args += readableMounts(root, emptied);
    for (const QString &folder : around)
        args << QStringLiteral("--tmpfs") << folder;
    // After /tmp and the home were emptied: the folders AgentDesk's own results point at.
    for (const QString &path : m_readablePaths) {
        const QString real = realPathOr(path);
        if (QFileInfo(real).isDir() && !isWithin(real, root))
            args << QStringLiteral("--ro-bind") << real << real;
    }

    // After /tmp: a repository under /tmp must come back on top of the private one.
    if (m_upperDir.isEmpty()) {
        args << QStringLiteral("--bind") << root << root;
    } else if (mountsOverlayFirst()) {
        args << QStringLiteral("--bind")
             << QFileInfo(m_upperDir).absolutePath() + QStringLiteral("/merged") << root;
    } else {
        args << QStringLiteral("--overlay-src") << root << QStringLiteral("--overlay") << m_upperDir
             << m_workDir << root;
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
                                         root,
                                         ShellOverlay::mount(m_policy.bwrapPath)
                                             == OverlayMount::Bwrap);
    }

    // The secrets, last so that no bind above shows them again. A mask over a folder that
    // holds the repository was made above.
    QStringList masked;
    for (const QString &path : hiddenPaths()) {
        const QFileInfo info(path);
        if (!info.exists())
            continue;
        // bwrap mounts on the path as the sandbox sees it: follow symlinks to the target.
        const QString target = info.canonicalFilePath();
        if (target.isEmpty() || masked.contains(target) || isWithin(root, target)
            || target == QLatin1String("/"))
            continue;
        masked.append(target);
        if (info.isDir()) {
            args << QStringLiteral("--tmpfs") << target << QStringLiteral("--remount-ro") << target;
        } else {
            args << QStringLiteral("--ro-bind") << QStringLiteral("/dev/null") << target;
        }
    }
    // Read-only once everything inside them is mounted (bwrap's remount is not recursive).
    for (const QString &folder : emptied + around)
        args << QStringLiteral("--remount-ro") << folder;

    args += namespaceArguments();
    args << QStringLiteral("--die-with-parent");
    const QStringList unset = unsetVariables();
    for (const QString &name : unset)
        args << QStringLiteral("--unsetenv") << name;
    args << QStringLiteral("--chdir") << (m_workingDirectory == m_root ? root : m_workingDirectory)
         << QStringLiteral("--");
    args += command;
    return mountsOverlayFirst() ? unshareArguments(root) + args : args;
}

QStringList BwrapCommand::namespaceArguments() const
{
    // bwrap's --unshare-all, spelled out: the IPC namespace too (the host's System V shared
    // memory and message queues, a database's among them), the host name's, the cgroups'. The
    // network's is shared only when allowed (--unshare-all --share-net). Not --unshare-user-try:
    // bwrap makes a user namespace for every user but root anyway, and for root, whose
    // capabilities are dropped below, asking for one fails where the kernel forbids it (in a
    // chroot, as in the build root) instead of being skipped.
    QStringList args{QStringLiteral("--unshare-ipc"),
                     QStringLiteral("--unshare-pid"),
                     QStringLiteral("--unshare-uts"),
                     QStringLiteral("--unshare-cgroup-try")};
    if (!m_policy.allowNetwork)
        args << QStringLiteral("--unshare-net");
    // bwrap runs as the root of unshare's user namespace: the command gets the user's own
    // ids back (files it makes, git's check of who owns the repository, tools that refuse
    // root), in a user namespace of bwrap's inside that one.
    if (mountsOverlayFirst()) {
        args << QStringLiteral("--unshare-user") << QStringLiteral("--uid")
             << QString::number(::getuid()) << QStringLiteral("--gid")
             << QString::number(::getgid());
    }
    // No capability inside, also for a user who runs AgentDesk as root: with them the command
    // could unmount the masks (umount ~/.ssh) and remount / writable.
    args << QStringLiteral("--cap-drop") << QStringLiteral("ALL");
    return args;
}

QStringList BwrapCommand::hiddenPaths() const
{
    QStringList hidden = m_policy.hiddenPaths;
    const QString runtime = QProcessEnvironment::systemEnvironment().value(
        QStringLiteral("XDG_RUNTIME_DIR"));
    if (!runtime.isEmpty())
        hidden.append(runtime);
    return hidden;
}

QStringList BwrapCommand::emptiedFolders(const QString &root) const
{
    // The overlay of a review without the sandbox (mode Off) hides nothing.
    if (m_policy.mode == SandboxMode::Off)
        return {};
    QStringList candidates = m_policy.socketFolders;
    candidates.prepend(m_policy.home.isEmpty() ? QDir::homePath() : m_policy.home);
    QStringList folders;
    for (const QString &path : std::as_const(candidates)) {
        const QFileInfo info(path);
        const QString real = info.isDir() ? info.canonicalFilePath() : QString();
        // A home inside the repository (or the repository itself) is the repository's.
        if (real.isEmpty() || real == QLatin1String("/") || folders.contains(real)
            || isWithin(real, root))
            continue;
        folders.append(real);
    }
    folders.sort(); // a folder before those inside it
    return folders;
}

QStringList BwrapCommand::readableMounts(const QString &root, const QStringList &emptied) const
{
    if (emptied.isEmpty())
        return {};
    const QString home = m_policy.home.isEmpty() ? QDir::homePath() : m_policy.home;
    QStringList paths = SandboxHome::defaultReadablePaths(home);
    // The command inherits AgentDesk's PATH: what it names in the home must be there.
    paths += SandboxHome::pathFolders(home,
                                      QProcessEnvironment::systemEnvironment().value(
                                          QStringLiteral("PATH")));
    paths += m_policy.readablePaths;
    paths += SandboxHome::gitFolders(root);
    paths += SandboxSockets::neededFromSocketFolders(m_policy.allowNetwork);
    ReadOnlyPaths shown(emptied, QStringList{root} + m_writablePaths);
    for (const QString &path : std::as_const(paths))
        shown.add(path);
    return shown.arguments();
}

QStringList BwrapCommand::hiddenFoldersAround(const QString &root) const
{
    QStringList folders;
    for (const QString &path : hiddenPaths()) {
        const QFileInfo info(path);
        const QString real = info.isDir() ? info.canonicalFilePath() : QString();
        if (!real.isEmpty() && real != QLatin1String("/") && isWithin(root, real)
            && !folders.contains(real))
            folders.append(real);
    }
    folders.sort(); // a folder before those inside it
    return folders;
}

} // namespace AgentCore
