#include "openfiles.h"

#include <QFile>

#include <cstdio>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

namespace AgentCore {

bool OpenFiles::isOpen(const QString &path)
{
#ifdef Q_OS_LINUX
    struct stat target;
    if (::stat(QFile::encodeName(path).constData(), &target) != 0)
        return false;
    DIR *proc = ::opendir("/proc");
    if (!proc)
        return false;
    bool found = false;
    while (!found) {
        const dirent *process = ::readdir(proc);
        if (!process)
            break;
        if (process->d_name[0] < '1' || process->d_name[0] > '9')
            continue;
        char folder[300]; // a name is at most 255 bytes
        std::snprintf(folder, sizeof folder, "/proc/%s/fd", process->d_name);
        DIR *descriptors = ::opendir(folder); // only another user's process refuses
        if (!descriptors)
            continue;
        while (const dirent *descriptor = ::readdir(descriptors)) {
            if (descriptor->d_name[0] == '.')
                continue;
            struct stat open; // of the file the descriptor's link leads to
            if (::fstatat(::dirfd(descriptors), descriptor->d_name, &open, 0) == 0
                && open.st_dev == target.st_dev && open.st_ino == target.st_ino) {
                found = true;
                break;
            }
        }
        ::closedir(descriptors);
    }
    ::closedir(proc);
    return found;
#else
    Q_UNUSED(path)
    return false;
#endif
}

} // namespace AgentCore
