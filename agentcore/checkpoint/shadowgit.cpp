#include "shadowgit.h"

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

} // namespace

ShadowGit::ShadowGit(QString gitDir, QString workTree, const QString &indexFile)
    : m_gitDir(std::move(gitDir))
    , m_workTree(std::move(workTree))
{
    // Nothing of the environment that started AgentDesk points git elsewhere.
    m_environment = GitProcess::cleanEnvironment();
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

    return GitProcess::run(all, m_workTree, environment, input, timeoutMs);
}

} // namespace AgentCore
