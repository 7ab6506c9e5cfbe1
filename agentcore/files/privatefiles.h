#pragma once

#include <QFileDevice>
#include <QString>

namespace AgentCore {

/// AgentDesk's own data (sessions, audit logs, checkpoint stores, worktrees' metadata, the
/// settings it writes) holds the user's code, prompts and the model's answers: it is the
/// user's alone. Folders AgentDesk makes are 0700, files 0600 (git's read-only objects 0400):
/// no group or other bits, whatever the umask. Unix only; elsewhere these do nothing harmful.
struct PrivateFiles
{
    /// The mode of a file AgentDesk writes: QFile::open(mode, PrivateFiles::fileMode).
    static constexpr QFileDevice::Permissions fileMode = QFileDevice::ReadOwner
                                                         | QFileDevice::WriteOwner;

    /// Creates \a path empty and 0600 when it is missing, so that a QSaveFile (which keeps an
    /// existing file's mode) writes it private; an existing file is restricted. false when
    /// it can be neither.
    static bool prepareFile(const QString &path);
    /// QDir::mkpath, each folder it creates 0700 (folders already there are left as they are).
    static bool makePath(const QString &path);
    /// Takes the group and other bits off \a path (a file or folder; not followed when a
    /// link). false when it cannot be changed.
    static bool restrict(const QString &path);
    /// restrict() on \a root and everything under it (links are not followed). The number of
    /// entries changed.
    static int tighten(const QString &root);
    /// The data or config folder \a root made private: created 0700 when missing; when it is
    /// there with group or other bits (an older AgentDesk made it 0755), everything in it is
    /// tightened once. The folders above it are not touched. false when it cannot be done.
    static bool secureFolder(const QString &root);
};

} // namespace AgentCore
