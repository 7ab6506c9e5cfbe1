#include "processgroup.h"

#include <QElapsedTimer>
#include <QThread>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

namespace AgentCore {

namespace {
// /proc/PID/stat: "pid (comm) state ppid pgrp ..."; comm may hold spaces and parentheses.
bool parseStat(const QByteArray &stat, char *state, qint64 *group)
{
    const qsizetype close = stat.lastIndexOf(')');
    if (close < 0)
        return false;
    const QList<QByteArray> fields = stat.mid(close + 2).split(' ');
    if (fields.size() < 3 || fields[0].isEmpty())
        return false;
    *state = fields[0][0];
    bool ok = false;
    *group = fields[2].toLongLong(&ok);
    return ok;
}
} // namespace

void ProcessGroup::signal(pid_t group, int signal)
{
    if (group > 1)
        ::kill(-group, signal);
}

QList<pid_t> ProcessGroup::livingMembers(pid_t group)
{
    QList<pid_t> members;
    if (!hasMembers(group))
        return members;
    // Plain readdir() and read(): this runs after every command, and QDir's listing stats each
    // of the few hundred entries of /proc on top.
    DIR *proc = ::access("/proc/self/stat", F_OK) == 0 ? ::opendir("/proc") : nullptr;
    if (!proc)
        return {group}; // no /proc: the group exists, assume it lives
    while (const dirent *entry = ::readdir(proc)) {
        char *end = nullptr;
        const long pid = std::strtol(entry->d_name, &end, 10);
        if (pid <= 0 || *end != '\0')
            continue;
        char path[64];
        std::snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        char buffer[1024];
        ssize_t size;
        do {
            size = ::read(fd, buffer, sizeof buffer);
        } while (size < 0 && errno == EINTR);
        ::close(fd);
        char state = 0;
        qint64 memberGroup = 0;
        if (size > 0 && parseStat(QByteArray::fromRawData(buffer, size), &state, &memberGroup)
            && memberGroup == group && state != 'Z' && state != 'X')
            members.append(pid_t(pid));
    }
    ::closedir(proc);
    return members;
}

bool ProcessGroup::hasMembers(pid_t group)
{
    return group > 1 && !(::kill(-group, 0) != 0 && errno == ESRCH);
}

bool ProcessGroup::waitUntilGone(pid_t group, int timeoutMs)
{
    // Nothing signals the end of processes that are not our children: poll. A command's last
    // processes usually go within a few milliseconds (bwrap's init tearing its namespaces
    // down), so first every millisecond with the cheap test, whether the group has any member
    // at all; a zombie nobody reaps still counts there, so /proc (which tells zombies from
    // the living) is read after 2 ms and then every 5 ms; the interval grows to 10 ms after
    // 20 ms.
    QElapsedTimer clock;
    clock.start();
    qint64 nextScan = 2;
    for (;;) {
        if (!hasMembers(group))
            return true;
        const qint64 elapsed = clock.elapsed();
        if (elapsed >= nextScan) {
            if (livingMembers(group).isEmpty())
                return true;
            nextScan = clock.elapsed() + 5;
        }
        if (clock.elapsed() >= timeoutMs)
            return false;
        QThread::usleep(elapsed < 20 ? 1000 : 10'000);
    }
}

bool ProcessGroup::terminate(pid_t group, int graceMs)
{
    if (!isAlive(group))
        return true;
    signal(group, SIGTERM);
    if (waitUntilGone(group, graceMs))
        return true;
    signal(group, SIGKILL);
    return waitUntilGone(group, 1000);
}

} // namespace AgentCore
