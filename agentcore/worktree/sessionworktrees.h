#pragma once

#include "sessionworktree.h"
#include "worktreechanges.h"

#include <permissions/permissionrequest.h>
#include <tools/shellwriteapplier.h>

#include <QHash>
#include <QList>
#include <QString>

#include <optional>

namespace AgentCore {

/// A session's own git worktree, driven through the real `git` (GitProcess), on the user's
/// repository with the user's own git configuration but no hook run and no optional lock
/// taken: made on a new branch from the main checkout's HEAD (`git worktree add`), its changes
/// brought back into the main checkout through the writes review, kept as a branch, or
/// removed with the session. The main checkout's HEAD, index and branch are never touched
/// (only the new branch's ref and git's worktree bookkeeping are written); what is found
/// broken (branch deleted or moved, folder deleted, not a repository any more) is reported
/// with a message a person can act on, never repaired or recreated silently. Blocking calls
/// (each runs git a few times): call them off the UI thread for large trees. Thread-safe (no
/// state).
class SessionWorktrees final
{
public:
    /// AgentDesk's folder of session worktrees (AppLocalDataLocation/worktrees, beside the
    /// checkpoints).
    static QString defaultRoot();

    /// Empty when sessions of \a repositoryRoot can have a worktree; else why not ("... is not
    /// a git repository", "has no commit yet", git missing), for the disabled menu entry.
    static QString unavailableReason(const QString &repositoryRoot);

    /// "agentdesk/<slug>-<short id>": \a name lowercased to letters, digits and dashes (at
    /// most 40 characters; "session" when nothing is left), \a sessionId's last part (its
    /// random tail) as the short id.
    static QString branchName(const QString &name, const QString &sessionId);

    struct Created
    {
        std::optional<SessionWorktree> worktree;
        QString error; ///< set when nothing was made
    };
    /// Makes a worktree for the session \a sessionId named \a name: branch branchName() (with
    /// "-2", "-3"... when that branch or folder exists already) from the main checkout's HEAD,
    /// checked out in a folder of \a dataRoot (defaultRoot() in production) named after the
    /// repository and the branch. Record the result in the session state (toJson()).
    static Created create(const QString &repositoryRoot,
                          const QString &dataRoot,
                          const QString &name,
                          const QString &sessionId);

    /// Empty when \a worktree is as AgentDesk left it (its folder a worktree of the main
    /// repository with its branch checked out, the branch still containing the base commit);
    /// else what is wrong, for the user. Repairs nothing: a resumed session shows it and does
    /// not run in the main checkout instead.
    static QString check(const SessionWorktree &worktree);

    /// What the worktree changed against its base commit, with the paths the main checkout
    /// changed meanwhile marked as conflicts. Symbolic links and binary or large files come
    /// back as a whole; text files by hunk. Submodules and ignored files are left out.
    static WorktreeChanges changes(const SessionWorktree &worktree);

    /// The review of \a changes: a writes review (PermissionRequest::shellWrites) the window
    /// shows with its writes review view, per file and per hunk; conflicts named in its reason
    /// and in the output text; toolName "Worktree", arguments "branch" and "base". Answer it
    /// with ShellWritesReview::choices().
    static PermissionRequest reviewRequest(const SessionWorktree &worktree,
                                           const WorktreeChanges &changes);

    /// Writes the accepted part of \a changes (\a choices, by index; missing: rejected) into
    /// the main checkout through ShellWriteApplier (journaled in \a journalDirectory, a crash
    /// leaves each file before or after). A conflict is never written: it is in
    /// Outcome::failed with its reason, and so is a file the main checkout changed between
    /// changes() and now.
    static ShellWriteApplier::Outcome bringBack(const SessionWorktree &worktree,
                                                const WorktreeChanges &changes,
                                                const QHash<int, ShellWriteApplier::Choice> &choices,
                                                const QString &journalDirectory);

    /// Keeps the session's work as its branch instead of bringing it back: what is not
    /// committed in the worktree (untracked files included) is committed on the branch with
    /// \a message (the user's identity, else "AgentDesk"; no hook). Empty on success (nothing
    /// to commit included), else why not. The branch then outlives remove().
    static QString keepAsBranch(const SessionWorktree &worktree, const QString &message);

    /// `git status` in \a worktreePath lists something (untracked files included), or git
    /// cannot say there while the folder exists: what remove() would take with it, so the
    /// user is asked first.
    static bool hasUncommittedChanges(const QString &worktreePath);

    /// Removes the worktree when its session is deleted (`git worktree remove --force`, then
    /// `git worktree prune`, so a folder deleted by hand is forgotten too); its uncommitted
    /// changes go with it. The branch is kept unless \a deleteBranch. Empty on success, else
    /// why not.
    static QString remove(const SessionWorktree &worktree, bool deleteBranch = false);
};

} // namespace AgentCore
