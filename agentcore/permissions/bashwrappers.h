#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace AgentCore {

/// A command that another program runs: `sudo rm x` runs `rm x`, `xargs grep -l foo` runs grep
/// with more words from its input, `find . -exec rm {} \;` runs rm. A plain value.
struct WrappedCommand
{
    QStringList words;
    QList<bool> expands;
    bool argumentsFromInput = false; ///< xargs: words we cannot see are appended
};

/// Knows the programs that run other commands. Stateless; thread-safe.
class BashWrappers final
{
public:
    /// The program name without its directory (`/usr/bin/sudo` -> `sudo`).
    static QString programName(const QString &word);
    /// What sudo, doas, env, nice, nohup, timeout, stdbuf, ionice, xargs, time, command, exec,
    /// builtin, chroot run; nullopt for other programs or when they run nothing.
    static std::optional<WrappedCommand> unwrap(const QStringList &words,
                                                const QList<bool> &expands);
    /// The commands of find's -exec, -execdir, -ok and -okdir.
    static QList<WrappedCommand> findActions(const QStringList &words, const QList<bool> &expands);
    /// Why the command runs a string as shell code (eval, sh -c, su -c, trap, watch...) or
    /// reads shell code from its input (`| bash`); empty when it does not.
    static QString runsShellCode(const QStringList &words);
};

} // namespace AgentCore
