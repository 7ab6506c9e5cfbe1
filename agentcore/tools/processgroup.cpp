#include "processgroup.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QThread>

#include <cerrno>
#include <csignal>

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
    if (group <= 1)
        return members;
    if (::kill(-group, 0) != 0 && errno == ESRCH)
        return members;
    const QDir proc(QStringLiteral("/proc"));
    if (!proc.exists(QStringLiteral("self/stat")))
        return {group}; // no /proc: the group exists, assume it lives
    const QStringList entries = proc.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool numeric = false;
        const qint64 pid = entry.toLongLong(&numeric);
        if (!numeric)
            continue;
        QFile file(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        char state = 0;
        qint64 memberGroup = 0;
        if (parseStat(file.readAll(), &state, &memberGroup) && memberGroup == group && state != 'Z'
            && state != 'X')
            members.append(pid_t(pid));
    }
    return members;
}

bool ProcessGroup::waitUntilGone(pid_t group, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    for (;;) {
        if (!isAlive(group))
            return true;
        if (deadline.hasExpired())
            return false;
        // Nothing signals the end of processes that are not our children: poll.
        QThread::msleep(10);
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
