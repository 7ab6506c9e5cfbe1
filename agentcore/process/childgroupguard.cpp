#include "childgroupguard.h"

#include "guardprocess.h"

#include <cerrno>
#include <csignal>
#include <cstring>

#include <sys/socket.h>
#include <unistd.h>

namespace AgentCore {

namespace {

using GuardProcess::announceTag;
using GuardProcess::releaseTag;
constexpr int graceMs = 1000;
// More groups at once than AgentDesk ever has (a git run or two per thread, a few servers).
constexpr int maxGroups = 1024;

struct Message
{
    char tag;
    pid_t group;
};

bool anyAlive(const pid_t *groups)
{
    for (int i = 0; i < maxGroups; ++i) {
        if (groups[i] > 1 && ::kill(-groups[i], 0) == 0)
            return true;
    }
    return false;
}

// The guard: a forked copy of a multithreaded process, so only async-signal-safe calls here
// (the table is on the stack, nothing is allocated).
[[noreturn]] void guardMain(int socket)
{
    GuardProcess::become(socket, "agentdesk-lifeline");

    pid_t groups[maxGroups] = {};
    for (;;) {
        Message message;
        // A sequenced-packet socket: one message per read, never half of one.
        const ssize_t n = ::recv(socket, &message, sizeof message, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; // every one of AgentDesk's ends is closed
        if (size_t(n) != sizeof message || message.group <= 1)
            continue;
        if (message.tag == announceTag) {
            for (pid_t &slot : groups) {
                if (slot == 0) {
                    slot = message.group;
                    break;
                }
            }
        } else if (message.tag == releaseTag) {
            for (pid_t &slot : groups) {
                if (slot == message.group)
                    slot = 0;
            }
        }
    }

    // AgentDesk is gone: what it still ran goes too.
    for (const pid_t group : groups) {
        if (group > 1)
            ::kill(-group, SIGTERM);
    }
    constexpr int stepMs = 20;
    for (int waited = 0; waited < graceMs && anyAlive(groups); waited += stepMs)
        GuardProcess::sleepMs(stepMs);
    for (const pid_t group : groups) {
        if (group > 1)
            ::kill(-group, SIGKILL);
    }
    ::_exit(0);
}

} // namespace

ChildGroupGuard &ChildGroupGuard::instance()
{
    static ChildGroupGuard *const guard = new ChildGroupGuard; // never destroyed, see above
    return *guard;
}

ChildGroupGuard::ChildGroupGuard()
{
    int ends[2];
    if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends) != 0)
        return;
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(ends[0]);
        guardMain(ends[1]);
    }
    ::close(ends[1]);
    if (pid < 0) {
        ::close(ends[0]);
        return;
    }
    m_guard = pid;
    m_socket = ends[0];
}

void ChildGroupGuard::announceFromChild(int descriptor)
{
    if (descriptor < 0)
        return;
    Message message;
    std::memset(&message, 0, sizeof message); // no stray bytes of the stack in the padding
    message.tag = announceTag;
    message.group = ::getpid();
    ::send(descriptor, &message, sizeof message, MSG_NOSIGNAL);
}

void ChildGroupGuard::release(qint64 group)
{
    if (m_socket < 0 || group <= 1)
        return;
    Message message;
    std::memset(&message, 0, sizeof message);
    message.tag = releaseTag;
    message.group = pid_t(group);
    ::send(m_socket, &message, sizeof message, MSG_NOSIGNAL);
}

} // namespace AgentCore
