#include "shadowgit.h"

#include <QDir>
#include <QProcess>

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
    QStringLiteral("core.untrackedCache=true"),
    QStringLiteral("core.splitIndex=false"),
    QStringLiteral("core.bigFileThreshold=512m"),
    QStringLiteral("gc.auto=0"),
    QStringLiteral("maintenance.auto=false"),
    QStringLiteral("commit.gpgSign=false"),
    QStringLiteral("advice.addIgnoredFile=false"),
    QStringLiteral("advice.addEmbeddedRepo=false"),
    QStringLiteral("submodule.recurse=false"),
};

} // namespace

QString ShadowGit::Result::problem() const
{
    if (!startError.isEmpty())
        return startError;
    QString text = QString::fromUtf8(err).trimmed();
    const QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (lines.size() > 3)
        text = lines.mid(lines.size() - 3).join(QLatin1Char('\n'));
    return text.isEmpty() ? QStringLiteral("git exited with code %1").arg(exitCode) : text;
}

ShadowGit::ShadowGit(QString gitDir, QString workTree)
    : m_gitDir(std::move(gitDir))
    , m_workTree(std::move(workTree))
{
    const QProcessEnvironment system = QProcessEnvironment::systemEnvironment();
    for (const QString &key : system.keys()) {
        // GIT_DIR, GIT_INDEX_FILE, GIT_CONFIG_*, GIT_OBJECT_DIRECTORY... from a hook that
        // started AgentDesk would point git at the user's repository.
        if (!key.startsWith(QLatin1String("GIT_")))
            m_environment.insert(key, system.value(key));
    }
    m_environment.insert(QStringLiteral("GIT_DIR"), m_gitDir);
    m_environment.insert(QStringLiteral("GIT_WORK_TREE"), m_workTree);
    m_environment.insert(QStringLiteral("GIT_INDEX_FILE"), m_gitDir + QStringLiteral("/index"));
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

    Result result;
    QProcess process;
    process.setProcessEnvironment(environment);
    process.setWorkingDirectory(QDir(m_workTree).exists() ? m_workTree : QDir::rootPath());
    process.start(QStringLiteral("git"), all);
    if (!process.waitForStarted()) {
        result.startError = QStringLiteral("could not start git: %1").arg(process.errorString());
        return result;
    }
    if (!input.isEmpty())
        process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        result.startError = QStringLiteral("git did not finish in time");
        return result;
    }
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    if (process.exitStatus() != QProcess::NormalExit) {
        result.startError = QStringLiteral("git crashed");
        return result;
    }
    result.exitCode = process.exitCode();
    return result;
}

} // namespace AgentCore
