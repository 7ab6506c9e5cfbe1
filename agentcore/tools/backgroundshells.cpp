#include "backgroundshells.h"

#include "processgroup.h"

#include <process/processgroupguard.h>

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryFile>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <csignal>

#include <unistd.h>

#ifdef Q_OS_LINUX
#    include <sys/prctl.h>
#endif

namespace AgentCore {

namespace {
constexpr int announceIntervalMs = 100;
} // namespace

QString BackgroundShell::stateText() const
{
    if (running)
        return BackgroundShells::tr("running");
    if (stopped)
        return BackgroundShells::tr("stopped");
    if (crashed)
        return BackgroundShells::tr("killed by signal %1").arg(exitCode);
    return BackgroundShells::tr("exit code %1").arg(exitCode);
}

struct BackgroundShells::Entry
{
    // Under m_mutex.
    BackgroundShell shell;
    QByteArray kept;       ///< the last output, at most keptBytes and a quarter
    qint64 keptStart = 0;  ///< where kept begins in the whole output
    qint64 readOffset = 0; ///< how far the model read (takeNew)
    // On the object's thread only.
    QProcess *process = nullptr;
    std::unique_ptr<ProcessGroupGuard> guard;
    std::unique_ptr<QTemporaryFile> log;
    bool announcing = false; ///< a changed() is due
    bool groupEnded = false; ///< nothing of the command's group is left to signal
};

BackgroundShells::BackgroundShells(const QString &logDirectory, int maxRunning)
    : m_logDirectory(logDirectory)
    , m_maxRunning(maxRunning)
    , m_thread(new QThread)
    , m_context(new QObject)
{
    m_thread->setObjectName(QStringLiteral("BackgroundShells"));
    m_context->moveToThread(m_thread);
    // The documented way to delete an object of a thread that ends: the thread's last deferred
    // deletions run as it finishes.
    connect(m_thread, &QThread::finished, m_context, &QObject::deleteLater);
    m_thread->start();
}

BackgroundShells::~BackgroundShells()
{
    stopAll();
}

BackgroundShells::Started BackgroundShells::start(const BackgroundLaunch &launch)
{
    // Held while the object's thread starts the command, so stopAll() cannot end that thread
    // under a start that has passed the check.
    QMutexLocker starting(&m_startMutex);
    {
        QMutexLocker lock(&m_mutex);
        if (m_closed)
            return {{}, 0, tr("Background commands have ended with the session.")};
    }
    Started started;
    QMetaObject::invokeMethod(
        m_context, [&] { started = startHere(launch); }, Qt::BlockingQueuedConnection);
    if (!started.id.isEmpty())
        emit changed(started.id);
    return started;
}

BackgroundShells::Started BackgroundShells::startHere(const BackgroundLaunch &launch)
{
    QString id;
    {
        QMutexLocker lock(&m_mutex);
        const int running = int(std::count_if(m_entries.cbegin(),
                                              m_entries.cend(),
                                              [](const std::shared_ptr<Entry> &entry) {
                                                  return entry->shell.running;
                                              }));
        if (running >= m_maxRunning) {
            return {{},
                    0,
                    tr("%1 background commands are running already, the most one session may "
                       "run: stop one with KillShell (or wait for one to end) first.")
                        .arg(m_maxRunning)};
        }
        id = QStringLiteral("bash_%1").arg(m_nextId++);
    }

    auto entry = std::make_shared<Entry>();
    BackgroundShell &shell = entry->shell;
    shell.id = id;
    shell.command = launch.command;
    shell.description = launch.description;
    shell.sandboxed = launch.inBwrap;
    shell.started = QDateTime::currentDateTimeUtc();
    if (!m_logDirectory.isEmpty()) {
        // As Bash's long output: an unpredictable name, mode 0600, in the process's folder.
        entry->log = std::make_unique<QTemporaryFile>(m_logDirectory
                                                      + QStringLiteral("/bash-bg-XXXXXX.log"));
        entry->log->setAutoRemove(false);
        if (entry->log->open())
            shell.logPath = entry->log->fileName();
        else
            entry->log.reset();
    }

    auto process = new QProcess(m_context);
    process->setProgram(launch.program);
    process->setArguments(launch.arguments);
    process->setProcessEnvironment(launch.environment);
    process->setWorkingDirectory(launch.workingDirectory);
    process->setProcessChannelMode(QProcess::MergedChannels);
    process->setStandardInputFile(QProcess::nullDevice());
    // bwrap ends its sandbox with itself (--die-with-parent); outside it the guard ends the
    // group should AgentDesk be killed, grandchildren included.
    if (!launch.inBwrap)
        entry->guard = std::make_unique<ProcessGroupGuard>(m_graceMs);
    const int announceDescriptor = entry->guard ? entry->guard->announceDescriptor() : -1;
    const pid_t agentDesk = ::getpid();
    // Runs in the forked child: async-signal-safe calls only.
    process->setChildProcessModifier([announceDescriptor, agentDesk] {
        ::setsid();
        ProcessGroupGuard::announceFromChild(announceDescriptor);
#ifdef Q_OS_LINUX
        // With the thread that started it, which is this object's: the session's, or AgentDesk's.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != agentDesk)
            ::_exit(127);
#endif
    });
    connect(process, &QProcess::readyReadStandardOutput, m_context, [this, id, process] {
        appendOutput(id, process->readAllStandardOutput());
    });
    connect(process,
            &QProcess::finished,
            m_context,
            [this, id, process](int code, QProcess::ExitStatus status) {
                appendOutput(id, process->readAllStandardOutput());
                finish(id, status == QProcess::CrashExit, code);
            });
    process->start();
    if (!process->waitForStarted()) {
        const QString error = tr("Cannot start %1: %2").arg(launch.program, process->errorString());
        delete process;
        if (entry->guard)
            entry->guard->release();
        if (entry->log)
            entry->log->remove();
        return {{}, 0, error};
    }
    entry->process = process;
    shell.pid = process->processId();
    {
        QMutexLocker lock(&m_mutex);
        m_order.append(id);
        m_entries.insert(id, entry);
    }
    return {id, shell.pid, {}};
}

std::shared_ptr<BackgroundShells::Entry> BackgroundShells::entry(const QString &id) const
{
    QMutexLocker lock(&m_mutex);
    return m_entries.value(id);
}

void BackgroundShells::appendOutput(const QString &id, const QByteArray &bytes)
{
    const std::shared_ptr<Entry> found = entry(id);
    if (!found || bytes.isEmpty())
        return;
    if (found->log)
        found->log->write(bytes);
    {
        QMutexLocker lock(&m_mutex);
        found->kept += bytes;
        found->shell.totalBytes += bytes.size();
        // Trimmed in batches, so a flood of small chunks stays linear.
        if (found->kept.size() > keptBytes + keptBytes / 4) {
            const qsizetype drop = found->kept.size() - keptBytes;
            found->kept.remove(0, drop);
            found->keptStart += drop;
        }
    }
    if (!found->announcing) {
        found->announcing = true;
        QTimer::singleShot(announceIntervalMs, m_context, [this, found, id] {
            found->announcing = false;
            emit changed(id);
        });
    }
}

void BackgroundShells::finish(const QString &id, bool crashed, int code)
{
    const std::shared_ptr<Entry> found = entry(id);
    if (!found)
        return;
    qint64 group = 0;
    bool inBwrap = false;
    {
        QMutexLocker lock(&m_mutex);
        BackgroundShell &shell = found->shell;
        if (!shell.running)
            return;
        shell.running = false;
        shell.crashed = crashed;
        shell.exitCode = code;
        group = shell.pid;
        inBwrap = shell.sandboxed;
    }
    if (found->log)
        found->log->close();
    // What the command left running in its group goes too, as after a Bash command. bwrap's
    // init may still be tearing its namespace down: a moment for it first.
    const bool leftovers = inBwrap ? !ProcessGroup::waitUntilGone(pid_t(group), 200)
                                   : ProcessGroup::isAlive(pid_t(group));
    if (leftovers) {
        ProcessGroup::signal(pid_t(group), SIGTERM);
        QTimer::singleShot(m_graceMs.load(), m_context, [found, group] {
            if (!found->groupEnded)
                ProcessGroup::signal(pid_t(group), SIGKILL);
            found->groupEnded = true;
            if (found->guard)
                found->guard->release();
        });
    } else {
        found->groupEnded = true;
        if (found->guard)
            found->guard->release(); // nothing left to guard
    }
    emit changed(id);
}

std::optional<BackgroundShells::Taken> BackgroundShells::takeNew(const QString &id)
{
    QMutexLocker lock(&m_mutex);
    const std::shared_ptr<Entry> found = m_entries.value(id);
    if (!found)
        return std::nullopt;
    Taken taken;
    taken.shell = found->shell;
    const qint64 from = std::max(found->readOffset, found->keptStart);
    taken.dropped = from - found->readOffset;
    taken.bytes = found->kept.sliced(qsizetype(from - found->keptStart));
    found->readOffset = found->shell.totalBytes;
    return taken;
}

QByteArray BackgroundShells::tail(const QString &id, qsizetype bytes) const
{
    QMutexLocker lock(&m_mutex);
    const std::shared_ptr<Entry> found = m_entries.value(id);
    return found ? found->kept.right(bytes) : QByteArray();
}

std::optional<BackgroundShell> BackgroundShells::shell(const QString &id) const
{
    QMutexLocker lock(&m_mutex);
    const std::shared_ptr<Entry> found = m_entries.value(id);
    if (!found)
        return std::nullopt;
    return found->shell;
}

QList<BackgroundShell> BackgroundShells::shells() const
{
    QMutexLocker lock(&m_mutex);
    QList<BackgroundShell> all;
    all.reserve(m_order.size());
    for (const QString &id : m_order)
        all.append(m_entries.value(id)->shell);
    return all;
}

int BackgroundShells::runningCount() const
{
    QMutexLocker lock(&m_mutex);
    return int(
        std::count_if(m_entries.cbegin(),
                      m_entries.cend(),
                      [](const std::shared_ptr<Entry> &entry) { return entry->shell.running; }));
}

bool BackgroundShells::requestStop(const QString &id)
{
    QMutexLocker lock(&m_mutex);
    const std::shared_ptr<Entry> found = m_entries.value(id);
    if (!found || !found->shell.running)
        return false;
    found->shell.stopped = true;
    const auto group = pid_t(found->shell.pid);
    ProcessGroup::signal(group, SIGTERM);
    if (!m_closed) {
        // Posted under the lock: stopAll() marks the object closed under it before its thread
        // (and m_context) goes.
        const int grace = m_graceMs;
        QMetaObject::invokeMethod(
            m_context,
            [this, found, group, grace] {
                QTimer::singleShot(grace, m_context, [found, group] {
                    if (!found->groupEnded)
                        ProcessGroup::signal(group, SIGKILL);
                });
            },
            Qt::QueuedConnection);
    }
    return true;
}

std::optional<BackgroundShell> BackgroundShells::stop(const QString &id)
{
    requestStop(id);
    QElapsedTimer clock;
    clock.start();
    for (;;) {
        std::optional<BackgroundShell> now = shell(id);
        if (!now || !now->running || clock.elapsed() > m_graceMs + 1000)
            return now;
        QThread::msleep(10);
    }
}

void BackgroundShells::stopAll()
{
    QMutexLocker starting(&m_startMutex);
    QList<pid_t> groups;
    {
        QMutexLocker lock(&m_mutex);
        if (m_closed)
            return;
        m_closed = true;
        for (const std::shared_ptr<Entry> &found : std::as_const(m_entries)) {
            if (found->shell.running) {
                found->shell.stopped = true;
                groups.append(pid_t(found->shell.pid));
            }
        }
    }
    for (const pid_t group : std::as_const(groups))
        ProcessGroup::signal(group, SIGTERM);
    // The session is going, often on the UI thread: a short grace for them all together.
    const int grace = std::min(int(m_graceMs), stopAllGraceMs);
    QElapsedTimer clock;
    clock.start();
    for (const pid_t group : std::as_const(groups)) {
        const int left = std::max(0, int(grace - clock.elapsed()));
        if (!ProcessGroup::waitUntilGone(group, left)) {
            ProcessGroup::signal(group, SIGKILL);
            ProcessGroup::waitUntilGone(group, 1000);
        }
    }
    // Reaped and told on the object's thread, then its processes and guards go with it.
    QMetaObject::invokeMethod(
        m_context,
        [this] {
            QMutexLocker lock(&m_mutex);
            const auto entries = m_entries;
            lock.unlock();
            for (const std::shared_ptr<Entry> &found : entries) {
                if (!found->process)
                    continue;
                if (found->process->state() != QProcess::NotRunning)
                    found->process->waitForFinished(1000);
                if (found->process->state() != QProcess::NotRunning) {
                    found->process->kill();
                    found->process->waitForFinished(1000);
                }
                found->groupEnded = true;
                delete found->process;
                found->process = nullptr;
                found->guard.reset(); // releases: the group is gone
                found->log.reset();
            }
        },
        Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
    m_context = nullptr; // deleted as its thread finished
}

} // namespace AgentCore

#include "moc_backgroundshells.cpp"
