#include "shelloverlay.h"
#include "translation.h"

#include "bwrapcommand.h"
#include "sandboxprobe.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QMutex>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>

namespace AgentCore {

namespace {

// Whether a command in \a bwrapPath on an overlay that \a mount mounts writes to the upper
// layer and not to the tree: a trial run of the very command line Bash uses (the options may
// exist while the kernel or a policy refuses the mount). Empty when it does, else what was said.
QString trial(const QString &bwrapPath, BwrapCommand::OverlayMount mount)
{
    QTemporaryDir scratch;
    if (!scratch.isValid())
        return ToolsTr::tr("cannot make a scratch folder for an overlay: %1")
            .arg(scratch.errorString());
    const QString lower = scratch.filePath(QStringLiteral("tree"));
    const QString upper = scratch.filePath(QStringLiteral("upper"));
    const QString work = scratch.filePath(QStringLiteral("work"));
    QDir().mkpath(lower);
    QDir().mkpath(upper);
    QDir().mkpath(work);
    SandboxPolicy policy;
    policy.allowNetwork = true;
    BwrapCommand command(bwrapPath, lower, policy);
    command.setRepositoryOverlay(upper, work, mount);
    QProcess trial;
    trial.setProcessChannelMode(QProcess::MergedChannels);
    trial.start(command.program(),
                command.arguments({QStringLiteral("/bin/sh"),
                                   QStringLiteral("-c"),
                                   QStringLiteral(": > '%1/probe'").arg(lower)}));
    const bool finished = trial.waitForFinished(10000);
    const bool ok = finished && trial.exitCode() == 0
                    && QFileInfo::exists(upper + QStringLiteral("/probe"))
                    && !QFileInfo::exists(lower + QStringLiteral("/probe"));
    QDir(work).removeRecursively();
    if (ok)
        return {};
    const QString said = QString::fromUtf8(trial.readAll()).trimmed();
    return said.isEmpty() ? trial.errorString() : said;
}

struct Answer
{
    QString reason; ///< empty: supported
    BwrapCommand::OverlayMount mount = BwrapCommand::OverlayMount::Bwrap;
};

Answer probe(const QString &program)
{
    const SandboxProbe::Result sandbox = SandboxProbe::probe(program);
    if (sandbox.bwrapPath.isEmpty())
        return {
            ToolsTr::tr("bubblewrap (bwrap) is not installed; reviewing a command's writes needs "
                        "it")};
    QProcess version;
    version.setProcessChannelMode(QProcess::MergedChannels);
    version.start(sandbox.bwrapPath, {QStringLiteral("--version")});
    version.waitForFinished(5000);
    const QString found = QString::fromUtf8(version.readAll()).trimmed();
    QProcess help;
    help.setProcessChannelMode(QProcess::MergedChannels);
    help.start(sandbox.bwrapPath, {QStringLiteral("--help")});
    help.waitForFinished(5000);
    const bool bwrapOverlays = QString::fromUtf8(help.readAll())
                                   .contains(QLatin1String("--overlay-src"));
    const QString foundText = found.isEmpty() ? sandbox.bwrapPath : found;
    if (!sandbox.available && !bwrapOverlays) {
        return {
            ToolsTr::tr("reviewing a command's writes needs bubblewrap 0.9 or newer (found %1), "
                        "or one that runs here: %2")
                .arg(foundText, sandbox.error)};
    }
    if (!sandbox.available)
        return {ToolsTr::tr("bubblewrap cannot run here: %1").arg(sandbox.error)};
    if (bwrapOverlays) {
        if (const QString said = trial(sandbox.bwrapPath, BwrapCommand::OverlayMount::Bwrap);
            !said.isEmpty())
            return {ToolsTr::tr("bubblewrap cannot mount an overlay here: %1").arg(said)};
        return {{}, BwrapCommand::OverlayMount::Bwrap};
    }
    // An older bwrap (Debian 12's 0.8): unshare mounts the overlay before it.
    if (const QString said = trial(sandbox.bwrapPath, BwrapCommand::OverlayMount::Unshare);
        !said.isEmpty()) {
        return {
            ToolsTr::tr("reviewing a command's writes needs bubblewrap 0.9 or newer (found %1), "
                        "or unprivileged user namespaces that may mount an overlay for "
                        "unshare(1) (%2)")
                .arg(foundText, said)};
    }
    return {{}, BwrapCommand::OverlayMount::Unshare};
}

Answer answerFor(const QString &bwrap)
{
    static QMutex mutex;
    static QHash<QString, Answer> answers;
    const QString program = bwrap; // empty: SandboxProbe finds bwrap on PATH
    const QMutexLocker lock(&mutex);
    const auto it = answers.constFind(program);
    if (it != answers.cend())
        return *it;
    return *answers.insert(program, probe(program));
}

} // namespace

ShellOverlay::~ShellOverlay()
{
    if (!m_scratch.isEmpty()) {
        // overlayfs leaves its work directory without write permission for us.
        QDir(m_scratch + QStringLiteral("/work")).removeRecursively();
        QDir(m_scratch).removeRecursively();
    }
}

QString ShellOverlay::unsupportedReason(const QString &bwrap)
{
    return answerFor(bwrap).reason;
}

std::optional<BwrapCommand::OverlayMount> ShellOverlay::mount(const QString &bwrap)
{
    const Answer answer = answerFor(bwrap);
    if (!answer.reason.isEmpty())
        return std::nullopt;
    return answer.mount;
}

std::unique_ptr<ShellOverlay> ShellOverlay::create(const QString &root,
                                                   const QString &scratchParent,
                                                   QString *error)
{
    if (!QDir().mkpath(scratchParent)) {
        *error = ToolsTr::tr("cannot create the folder %1").arg(scratchParent);
        return nullptr;
    }
    QTemporaryDir scratch(scratchParent + QStringLiteral("/overlay-XXXXXX"));
    if (!scratch.isValid()) {
        *error = ToolsTr::tr("cannot create a scratch folder in %1: %2")
                     .arg(scratchParent, scratch.errorString());
        return nullptr;
    }
    scratch.setAutoRemove(false);
    std::unique_ptr<ShellOverlay> overlay(new ShellOverlay);
    overlay->m_root = root;
    overlay->m_scratch = scratch.path();
    if (!QDir().mkpath(overlay->upper())
        || !QDir().mkpath(scratch.path() + QStringLiteral("/work"))) {
        *error = ToolsTr::tr("cannot create the overlay's folders in %1").arg(scratch.path());
        return nullptr;
    }
    return overlay;
}

} // namespace AgentCore
