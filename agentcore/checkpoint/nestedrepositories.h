#pragma once

#include "shadowgit.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace AgentCore {

class StoreSession;

/// The git repositories nested in the tree (not submodules) that a snapshot covers file by
/// file.
///
/// What a user expects back after a rewind is what they see as theirs in the folder, and a
/// repository nested in it (a clone of a dependency, an experiment: not a submodule) is
/// theirs too: a Bash `rm -rf` or `git checkout .` in it destroys work its own .git may
/// not hold (untracked or uncommitted files). git would store it as a bare gitlink (its
/// HEAD's id, no content), so each nested repository gets an index of its own in the store
/// (its .gitignore files apply; its .git is never read or written), and its tree is
/// grafted under its path into the checkpoint's tree: a diff and a restore see its files
/// like any other. The main index leaves it out (an exclude pattern), so `add` never
/// meets it.
class NestedRepositories final
{
public:
    explicit NestedRepositories(StoreSession &session);

    /// Whether the folder \a path below \a workTree is a git repository of its own (a `.git`
    /// in it) and not a submodule of this one (\a gitmodules: the tree's .gitmodules).
    static bool isNested(const QString &workTree, const QString &path, const QByteArray &gitmodules);

    /// Starts from the last snapshot's list: the ones that still are repositories. Returns
    /// the list as the store holds it (empty: there were none).
    QByteArray keepPrevious(const QByteArray &gitmodules);
    /// Adds \a path (a folder `git status` named that isNested()).
    void add(const QString &path) { m_paths.append(path); }
    /// Sorted, without duplicates.
    QStringList paths() const;
    bool isEmpty() const { return m_paths.isEmpty(); }

    /// Writes the list for the next snapshot and grafts each one's tree into \a tree (the main
    /// index's). Returns the tree that holds them all, or empty with \a error set.
    QString graftInto(const QString &tree, QString *error);

private:
    /// `git write-tree` of \a path's files through its own index in the store.
    ShadowGit::Result treeOf(const QString &path);

    StoreSession &m_session;
    QStringList m_paths;
};

} // namespace AgentCore
