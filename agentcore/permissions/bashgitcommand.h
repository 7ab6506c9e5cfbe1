#pragma once

#include <QList>
#include <QString>
#include <QStringList>

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

    /// \a words: `git` first.
    static BashGitCommand parse(const QStringList &words, const QList<bool> &expands);

    /// Only reads the repository: status, diff, log, show, branch/tag listings, config --get...
    bool isReadOnly() const;
    /// push, pull, fetch, clone, ls-remote, remote update, submodule update...
    bool usesNetwork() const;
    /// clean, rm, reset --hard, branch -D, stash drop, restore, checkout -- ...
    bool deletes() const;

private:
    bool hasArg(const QString &arg) const { return args.contains(arg); }
    bool listsOnly(const QStringList &flags,
                   const QStringList &flagPrefixes,
                   const QStringList &flagsWithValue) const;
    bool readsConfig() const;
};

} // namespace AgentCore
