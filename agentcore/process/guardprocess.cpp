#include "guardprocess.h"

#include <QtGlobal>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>

#include <unistd.h>

#ifdef Q_OS_LINUX
#    include <sys/prctl.h>
#endif

namespace AgentCore::GuardProcess {

namespace {

void closeAllBut(int keep)
{
#ifdef Q_OS_LINUX
    if (keep > 0)
        ::close_range(0, unsigned(keep) - 1, 0);
    ::close_range(unsigned(keep) + 1, ~0U, 0);
#else
    const long last = ::sysconf(_SC_OPEN_MAX);
    for (int fd = 0; fd < (last > 0 ? last : 1024); ++fd) {
        if (fd != keep)
            ::close(fd);
    }
#endif
}

} // namespace

void become(int socket, const char *name)
{
    closeAllBut(socket);
    ::setsid();
    for (const int number : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) {
        struct sigaction ignore;
        std::memset(&ignore, 0, sizeof ignore);
        ignore.sa_handler = SIG_IGN;
        ::sigaction(number, &ignore, nullptr);
    }
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
#ifdef Q_OS_LINUX
    ::prctl(PR_SET_NAME, name, 0, 0, 0);
#else
    Q_UNUSED(name)
#endif
}

void sleepMs(int milliseconds)
{
    timespec duration{milliseconds / 1000, long(milliseconds % 1000) * 1000000L};
    while (::nanosleep(&duration, &duration) != 0 && errno == EINTR) {
    }
}

} // namespace AgentCore::GuardProcess
