#include "processgroupguard.h"

#include "guardprocess.h"

#include <cerrno>
#include <csignal>
#include <cstring>

#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace AgentCore {

namespace {

using GuardProcess::announceTag;
using GuardProcess::releaseTag;

// The guard: a forked copy of a multithreaded process, so only async-signal-safe calls here.
[[noreturn]] void guardMain(int socket, int graceMs)
{
    GuardProcess::become(socket, "agentdesk-guard");

    pid_t group = 0;
    char buffer[64];
    size_t have = 0;
    for (;;) {
        const ssize_t n = ::read(socket, buffer + have, sizeof buffer - have);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; // every write end is closed
        have += size_t(n);
        size_t used = 0;
        while (used < have) {
            if (buffer[used] == releaseTag)
                ::_exit(0);
            if (buffer[used] != announceTag) {
                ++used;
                continue;
            }
            if (have - used < 1 + sizeof(pid_t))
                break;
            std::memcpy(&group, buffer + used + 1, sizeof(pid_t));
            used += 1 + sizeof(pid_t);
        }
        std::memmove(buffer, buffer + used, have - used);
        have -= used;
    }

    // No "done", yet nobody holds a write end any more: AgentDesk is gone.
    if (group > 1) {
        ::kill(-group, SIGTERM);
        constexpr int stepMs = 20;
        for (int waited = 0; waited < graceMs && ::kill(-group, 0) == 0; waited += stepMs)
            GuardProcess::sleepMs(stepMs);
        ::kill(-group, SIGKILL);
    }
    ::_exit(0);
}

} // namespace

ProcessGroupGuard::ProcessGroupGuard(int graceMs)
{
    int ends[2];
    // A socket pair rather than a pipe: send() can refuse SIGPIPE if the guard is gone.
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
        return;
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(ends[0]);
        guardMain(ends[1], graceMs);
    }
    ::close(ends[1]);
    if (pid < 0) {
        ::close(ends[0]);
        return;
    }
    m_guard = pid;
    m_writeEnd = ends[0];
}

ProcessGroupGuard::~ProcessGroupGuard()
{
    release();
}

void ProcessGroupGuard::announceFromChild(int descriptor)
{
    if (descriptor < 0)
        return;
    char message[1 + sizeof(pid_t)];
    message[0] = announceTag;
    const pid_t self = ::getpid();
    std::memcpy(message + 1, &self, sizeof self);
    ::send(descriptor, message, sizeof message, MSG_NOSIGNAL);
    ::close(descriptor);
}

void ProcessGroupGuard::release()
{
    if (m_writeEnd < 0)
        return;
    ::send(m_writeEnd, &releaseTag, 1, MSG_NOSIGNAL);
    ::close(m_writeEnd);
    m_writeEnd = -1;
    while (::waitpid(m_guard, nullptr, 0) < 0 && errno == EINTR) {
    }
    m_guard = -1;
}

} // namespace AgentCore
