#include "sandboxprobe.h"
#include "translation.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QHash>
#include <QMutex>
#include <QMutexLocker>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QtConcurrent/QtConcurrentRun>

namespace AgentCore {

namespace {

constexpr int probeTimeoutMs = 10'000;

QMutex &cacheMutex()
{
    static QMutex mutex;
    return mutex;
}

QHash<QString, SandboxProbe::Result> &cache()
{
    static QHash<QString, SandboxProbe::Result> results;
    return results;
}

// The paths warmUp() has handed to the pool (under cacheMutex()).
QSet<QString> &warming()
{
    static QSet<QString> paths;
    return paths;
}

SandboxProbe::Result runProbe(const QString &configured)
{
    SandboxProbe::Result result;
    if (configured.isEmpty()) {
        result.bwrapPath = QStandardPaths::findExecutable(QStringLiteral("bwrap"));
        if (result.bwrapPath.isEmpty()) {
            result.error = ToolsTr::tr("bubblewrap (bwrap) is not installed; install the package "
                                       "\"bubblewrap\".");
            return result;
        }
    } else {
        const QFileInfo info(configured);
        if (!info.isFile() || !info.isExecutable()) {
            result.error = ToolsTr::tr("%1 is not an executable program.").arg(configured);
            return result;
        }
        result.bwrapPath = info.absoluteFilePath();
    }

    // The namespaces and mounts every sandboxed command needs, around a command that does
    // nothing.
    QProcess process;
    process.setProgram(result.bwrapPath);
    process.setArguments({QStringLiteral("--ro-bind"),
                          QStringLiteral("/"),
                          QStringLiteral("/"),
                          QStringLiteral("--dev"),
                          QStringLiteral("/dev"),
                          QStringLiteral("--proc"),
                          QStringLiteral("/proc"),
                          QStringLiteral("--tmpfs"),
                          QStringLiteral("/tmp"),
                          QStringLiteral("--unshare-pid"),
                          QStringLiteral("--unshare-net"),
                          QStringLiteral("--die-with-parent"),
                          QStringLiteral("--"),
                          QStringLiteral("true")});
    process.setStandardInputFile(QProcess::nullDevice());
    process.start();
    if (!process.waitForStarted(probeTimeoutMs)) {
        result.error = ToolsTr::tr("%1 cannot be started: %2")
                           .arg(result.bwrapPath, process.errorString());
        return result;
    }
    if (!process.waitForFinished(probeTimeoutMs)) {
        process.kill();
        process.waitForFinished(1000);
        result.error = ToolsTr::tr("%1 did not answer within %2 s.")
                           .arg(result.bwrapPath)
                           .arg(probeTimeoutMs / 1000);
        return result;
    }
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        const QString said = QString::fromLocal8Bit(process.readAllStandardError()).trimmed();
        result.error = ToolsTr::tr(
                           "bubblewrap cannot create its namespaces here (%1). Unprivileged "
                           "user namespaces may be disabled, or this is a container.")
                           .arg(said.isEmpty() ? ToolsTr::tr("exit code %1").arg(process.exitCode())
                                               : said);
        return result;
    }
    result.available = true;
    return result;
}

} // namespace

SandboxProbe::Result SandboxProbe::probe(const QString &bwrapPath)
{
    // Held while probing: two threads asking at once start one probe, not two.
    QMutexLocker locker(&cacheMutex());
    const auto found = cache().constFind(bwrapPath);
    if (found != cache().cend())
        return *found;
    const Result result = runProbe(bwrapPath);
    cache().insert(bwrapPath, result);
    return result;
}

void SandboxProbe::warmUp(const QString &bwrapPath)
{
    {
        QMutexLocker locker(&cacheMutex());
        if (cache().contains(bwrapPath) || warming().contains(bwrapPath))
            return;
        warming().insert(bwrapPath);
    }
    // One-off work; nobody waits for it: probe() takes the cache's mutex first.
    const QFuture<void> probing = QtConcurrent::run([bwrapPath] {
        probe(bwrapPath);
        QMutexLocker locker(&cacheMutex());
        warming().remove(bwrapPath);
    });
}

void SandboxProbe::clearCache()
{
    QMutexLocker locker(&cacheMutex());
    cache().clear();
}

} // namespace AgentCore
