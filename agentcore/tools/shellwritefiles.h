#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>

#include <unistd.h>

/// What the shell-writes review (ShellWrites) and its applier (ShellWriteApplier) both read of
/// a file: its bytes and a symbolic link's target, by the file's encoded name.
namespace AgentCore::ShellWriteFiles {

inline QByteArray encoded(const QString &path)
{
    return QFile::encodeName(path);
}

/// The file's bytes; empty when it cannot be read.
inline QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// The target of the symbolic link at \a path; empty when it is none.
inline QByteArray linkTarget(const QString &path)
{
    QByteArray buffer(4096, '\0');
    const ssize_t n = ::readlink(encoded(path).constData(), buffer.data(), buffer.size());
    return n < 0 ? QByteArray() : buffer.left(n);
}

} // namespace AgentCore::ShellWriteFiles
