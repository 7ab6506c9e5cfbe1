#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace AgentCore {

/// One `git [global options] subcommand args` invocation, split. A plain value.
struct BashGitCommand
{
    QString subcommand;  ///< empty for `git` or `git --version`
    QStringList args;    ///< after the subcommand
    QList<bool> expands; ///< parallel to args
    /// -c, --config-env or --exec-path: configuration that can make any subcommand run programs.
    bool overridesConfig = false;
    /// false: the subcommand is an expansion or a global option is unknown.
    bool clear = true;
    /// The values of -C, in order (git enters each from the one before).
    QStringList directories;
    /// A value of -C, --git-dir, --work-tree, --namespace... is an expansion.
    bool directoryExpands = false;
    /// --git-dir and --work-tree, when given (an expansion's source text as written).
    std::optional<QString> gitDirectory;
    std::optional<QString> workTree;

    /// \a words: `git` first.
    static BashGitCommand parse(const QStringList &words, const QList<bool> &expands);

    /// Only reads the repository: status, diff, log, show, branch/tag listings, config --get...
    bool isReadOnly() const;
    /// push, pull, fetch, clone, ls-remote, remote update, submodule update...
    bool usesNetwork() const;
    /// clean, rm, reset --hard, branch -D, stash drop, restore, checkout -- ...
    bool deletes() const;
    /// Why the command changes git's configuration or hooks, or makes git run a program it
    /// names: `git config` that writes, -c / --config-env / --exec-path, an `ext::` or `fd::`
    /// URL, `init --template`... Empty when it does not. Such a command asks in every mode.
    QString configurationChange() const;
    /// Ordinary work on the repository that writes git's own files: add, commit, checkout,
    /// switch, branch, merge, rebase, stash, tag, reset, restore, rm, mv, cherry-pick, revert,
    /// pull, fetch, push, worktree, remote (no ext:: URL), submodule (no foreach)... without
    /// what makes git run a program the command names (rebase --exec, --upload-pack, -c) and
    /// without --git-dir / --work-tree. Where it runs (-C, cd) the classifier checks.
    bool isRepositoryWork() const;

private:
    bool hasArg(const QString &arg) const { return args.contains(arg); }
    bool listsOnly(const QStringList &flags,
                   const QStringList &flagPrefixes,
                   const QStringList &flagsWithValue) const;
    bool readsConfig() const;
};

} // namespace AgentCore
