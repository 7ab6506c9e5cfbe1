#pragma once

#include <QByteArray>
#include <QString>

namespace TestSupport {

/// The bytes of the file at \a path, or "<missing>" when it cannot be read: a file that went
/// away never compares equal to one that was read before, even an empty one, and a failing
/// QCOMPARE says which it was.
QByteArray fileBytes(const QString &path);

/// What git runs of a repository, as one value to compare before and after: the configuration,
/// the hooks and the info files of the git folder \a gitDirectory, with their modes.
QByteArray gitFolderSnapshot(const QString &gitDirectory);

/// `git init -q` in \a folder, made with its parents first; false when either failed.
bool gitInit(const QString &folder);

} // namespace TestSupport
