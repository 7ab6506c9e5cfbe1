#pragma once

#include "checkpoint.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace AgentCore {

/// The files a checkpoint store keeps beside git's, and the few rules of its format that every
/// part of CheckpointStore shares: where a session's chain lives, how a checkpoint is written
/// into a commit message and read back, how its NUL-separated lists are split.
namespace StoreFiles {

/// Where a restore's journal lives while it runs (FileSetWriter).
QString journalFolder(const QString &gitDir);
/// The paths the last snapshot left out (over the size cap, unreadable), NUL-separated.
QString leftOutList(const QString &gitDir);
/// The repositories nested in the tree at the last snapshot, one a line, sorted.
QString nestedList(const QString &gitDir);
/// The shadow repository's exclude file: the user's excludes, then one anchored pattern for
/// each nested repository and each file left out.
QString excludeFile(const QString &gitDir);
/// The shadow repository's attributes file (attributes()).
QString attributesFile(const QString &gitDir);
/// Highest precedence of all attribute files: whatever the tree's .gitattributes say, bytes go
/// in and come out unchanged (no end-of-line conversion, no clean/smudge filter, no ident).
QByteArray attributes();

/// The ref of \a sessionId's chain of checkpoints: refs/agentdesk/<session>/head (characters a
/// ref may not hold replaced).
QString sessionRef(const QString &sessionId);
/// The message of \a checkpoint's commit: its JSON without the id (the commit's own), with the
/// working tree.
QByteArray commitMessage(const Checkpoint &checkpoint, const QString &workTree);
/// The checkpoint a commit \a id with \a message records; nullopt for a commit not ours.
std::optional<Checkpoint> checkpointFromCommit(const QString &id, const QByteArray &message);

/// The paths of \a files.
QStringList skippedPaths(const QList<SkippedFile> &files);

/// \a bytes split at each NUL, without the empty part after a last one.
QList<QByteArray> splitNul(const QByteArray &bytes);
/// The file's bytes; empty when \a path is empty or cannot be read.
QByteArray read(const QString &path);
/// Writes \a bytes to \a path (private to the user) unless it holds them already: an
/// unchanged exclude file keeps git's untracked cache valid.
bool write(const QString &path, const QByteArray &bytes);

} // namespace StoreFiles

} // namespace AgentCore
