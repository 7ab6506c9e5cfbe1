#include "shadowgit.h"

#include <process/openfiles.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QThread>

#include <utility>

namespace AgentCore {

namespace {

// Settings that make the shadow repository independent of whatever the user configured: no
// hook runs, no daemon (fsmonitor) is asked, bytes are stored as they are, modes and links
// kept, and no background gc competes with a snapshot.
const QStringList fixedConfig = {
    QStringLiteral("core.hooksPath=/dev/null"),
    QStringLiteral("core.fsmonitor=false"),
    QStringLiteral("core.autocrlf=false"),
    QStringLiteral("core.safecrlf=false"),
    QStringLiteral("core.symlinks=true"),
    QStringLiteral("core.filemode=true"),
    QStringLiteral("core.ignorecase=false"),
    QStringLiteral("core.precomposeunicode=false"),
    QStringLiteral("core.quotepath=false"),
    // The untracked cache: `git status` stats the folders instead of reading them all. It
    // serves only the form of status it was made for, hence showUntrackedFiles=all.
    QStringLiteral("core.untrackedCache=true"),
    QStringLiteral("status.showUntrackedFiles=all"),
    QStringLiteral("core.splitIndex=false"),
    QStringLiteral("core.bigFileThreshold=512m"),
    // GIT_WORK_TREE makes the bare store count as non-bare, where HEAD would get a reflog:
    // a line per checkpoint that nothing reads.
    QStringLiteral("core.logAllRefUpdates=false"),
    QStringLiteral("gc.auto=0"),
    QStringLiteral("maintenance.auto=false"),
    QStringLiteral("commit.gpgSign=false"),
    QStringLiteral("advice.addIgnoredFile=false"),
    QStringLiteral("advice.addEmbeddedRepo=false"),
    QStringLiteral("submodule.recurse=false"),
    // The store holds the user's code: git makes its objects 0400, its other files 0600 and its
    // folders 0700, whatever the umask (AgentDesk's data is the user's alone).
    QStringLiteral("core.sharedRepository=0600"),
};

// How long a lock held by a process stays in the way before the command fails with git's
// words: longer than ChildGroupGuard's grace, so a killed AgentDesk's git is gone by then.
constexpr int staleLockWaitMs = 5000;

} // namespace

ShadowGit::ShadowGit(QString gitDir, QString workTree, const QString &indexFile)
    : m_gitDir(std::move(gitDir))
    , m_workTree(std::move(workTree))
{
    // Over GitProcess's environment (an allow-list, nothing of the user's GIT_*): this store,
    // none of the user's git configuration, and AgentDesk as the author.
    m_environment.insert(QStringLiteral("GIT_DIR"), m_gitDir);
    m_environment.insert(QStringLiteral("GIT_WORK_TREE"), m_workTree);
    m_environment.insert(QStringLiteral("GIT_INDEX_FILE"),
                         indexFile.isEmpty() ? m_gitDir + QStringLiteral("/index") : indexFile);
    m_environment.insert(QStringLiteral("GIT_CONFIG_NOSYSTEM"), QStringLiteral("1"));
    m_environment.insert(QStringLiteral("GIT_CONFIG_GLOBAL"), QStringLiteral("/dev/null"));
    m_environment.insert(QStringLiteral("GIT_TERMINAL_PROMPT"), QStringLiteral("0"));
    m_environment.insert(QStringLiteral("GIT_OPTIONAL_LOCKS"), QStringLiteral("0"));
    m_environment.insert(QStringLiteral("GIT_AUTHOR_NAME"), QStringLiteral("AgentDesk"));
    m_environment.insert(QStringLiteral("GIT_AUTHOR_EMAIL"),
                         QStringLiteral("checkpoints@agentdesk"));
    m_environment.insert(QStringLiteral("GIT_COMMITTER_NAME"), QStringLiteral("AgentDesk"));
    m_environment.insert(QStringLiteral("GIT_COMMITTER_EMAIL"),
                         QStringLiteral("checkpoints@agentdesk"));
    m_environment.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
}

ShadowGit::Result ShadowGit::run(const QStringList &args,
                                 const QByteArray &input,
                                 int timeoutMs) const
{
    return run(args, input, timeoutMs, m_environment);
}

ShadowGit::Result ShadowGit::runUpdatingIndex(const QStringList &args) const
{
    QProcessEnvironment environment = m_environment;
    environment.insert(QStringLiteral("GIT_OPTIONAL_LOCKS"), QStringLiteral("1"));
    return run(args, {}, 600000, environment);
}

ShadowGit::Result ShadowGit::init() const
{
    QProcessEnvironment environment = m_environment;
    environment.remove(QStringLiteral("GIT_DIR"));
    environment.remove(QStringLiteral("GIT_WORK_TREE"));
    environment.remove(QStringLiteral("GIT_INDEX_FILE"));
    return run({QStringLiteral("init"), QStringLiteral("--bare"), QStringLiteral("-q"), m_gitDir},
               {},
               60000,
               environment);
}

ShadowGit::Result ShadowGit::run(const QStringList &args,
                                 const QByteArray &input,
                                 int timeoutMs,
                                 const QProcessEnvironment &environment) const
{
    QStringList all;
    for (const QString &setting : fixedConfig)
        all << QStringLiteral("-c") << setting;
    all << args;

    GitProcess::Options options;
    options.environment = environment;
    options.input = input;
    options.timeoutMs = timeoutMs;
    // The store's configuration is AgentDesk's (no global or system config): nothing to list.
    options.ownConfiguration = true;
    Result result = GitProcess::run(all, m_workTree, options);
    // A lock in the way: once per lock, cleared if stale, and the command again.
    QStringList cleared;
    while (!result.ok()) {
        const QString lock = lockInTheWay(result);
        if (lock.isEmpty() || cleared.contains(lock) || !clearStaleLock(lock))
            break;
        cleared.append(lock);
        result = GitProcess::run(all, m_workTree, options);
    }
    return result;
}

QString ShadowGit::lockInTheWay(const Result &result) const
{
    // git's words for every lock file (the index, a ref, packed-refs...): "Unable to create
    // '<path>.lock': File exists."
    static const QRegularExpression exists(
        QStringLiteral("Unable to create '([^'\\n]+\\.lock)': File exists"));
    const QRegularExpressionMatch match = exists.match(QString::fromUtf8(result.err));
    if (!match.hasMatch())
        return {};
    const QString lock = QDir::cleanPath(match.captured(1));
    // Only the store's own: its index files and refs are all inside it.
    return lock.startsWith(QDir::cleanPath(m_gitDir) + QLatin1Char('/')) ? lock : QString();
}

bool ShadowGit::clearStaleLock(const QString &lock) const
{
    // The store's lock (the caller holds it) keeps every live AgentDesk's git away, so a git
    // that holds this lock is one a killed AgentDesk left running: ChildGroupGuard ends it
    // within a second (and git removes its lock on SIGTERM), an older one finishes its command.
    QElapsedTimer waited;
    waited.start();
    while (OpenFiles::isOpen(lock)) {
        if (waited.hasExpired(staleLockWaitMs))
            return false; // held: git's own words say so
        QThread::msleep(50);
    }
    if (!QFileInfo::exists(lock))
        return true; // its git finished after all
    if (!QFile::remove(lock))
        return false;
    if (m_repairs)
        m_repairs->append(
            QStringLiteral("removed %1, a lock that a killed git (AgentDesk ended while it wrote) "
                           "left in the checkpoint store, and ran the command again")
                .arg(lock));
    return true;
}

} // namespace AgentCore
