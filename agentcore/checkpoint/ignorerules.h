#pragma once

#include <QByteArray>
#include <QString>

namespace AgentCore {

/// The ignore rules from outside the tree that a checkpoint applies as `git status` does for
/// the user: their repository's info/exclude and their own excludes file (core.excludesFile),
/// which the shadow repository would not read by itself, and git's default excludes file
/// ($XDG_CONFIG_HOME/git/ignore), which it does.
namespace IgnoreRules {

/// The info/exclude of the user's repository at \a workTree (its .git folder, or the common
/// folder a .git file of a linked worktree leads to); empty when there is none.
QString userExcludeFile(const QString &workTree);
/// The user's core.excludesFile (their global config); empty when it is not set. Asked once
/// per work tree and process: one git process, not one per snapshot.
QString userGlobalExcludesFile(const QString &workTree);
/// The two files above, one after the other, each ending in a newline: the first lines of the
/// shadow repository's exclude file.
QByteArray userExcludes(const QString &workTree);
/// The three files' names and contents: an incremental snapshot is only taken with the rules
/// of the snapshot it builds on.
QByteArray outsideRules(const QString &workTree);
/// An anchored gitignore pattern matching exactly \a path.
QByteArray excludePattern(const QString &path);

} // namespace IgnoreRules

} // namespace AgentCore
