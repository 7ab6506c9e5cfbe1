#pragma once

#include "sandboxsockets.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace AgentCore {

/// Whether Bash commands run inside bubblewrap (bwrap).
enum class SandboxMode {
    Off,      ///< commands run as they are, with the user's rights
    On,       ///< sandboxed where bwrap works; elsewhere they run as they are, said once
    Required, ///< sandboxed, or refused with the reason in the tool result
};

/// Where and how a Bash command runs: the decision for one command, from SandboxPolicy::decide().
/// A value; crosses threads.
struct SandboxDecision
{
    enum class Outcome {
        Sandboxed,   ///< inside bwrap (bwrapPath)
        Off,         ///< the mode is Off: as it is
        Unavailable, ///< the mode is On but bwrap cannot run here (reason): as it is
        Refused,     ///< the mode is Required but bwrap cannot run here (reason): not at all
    };
    Outcome outcome = Outcome::Off;
    bool network = true; ///< whether the command can reach the network (always, unsandboxed)
    /// Sandboxed with network because a rule of the user's granted it (not the global switch):
    /// the rule and where it came from, "Bash(npm install:*) in ~/.config/agentdesk/...".
    QString networkRule;
    QString bwrapPath; ///< absolute; set when Sandboxed
    QString reason;    ///< why bwrap cannot run (Unavailable, Refused); for people

    bool sandboxed() const { return outcome == Outcome::Sandboxed; }
    bool runs() const { return outcome != Outcome::Refused; }
    /// One line for people: "Runs in the sandbox: no network, read-only outside the repository",
    /// "Runs without the sandbox: REASON", ...
    QString summary() const;
};

/// The sandbox settings of a workspace's Bash commands: the mode, whether the network stays
/// reachable, and which paths the commands must not see (the user's secrets, AgentDesk's own
/// settings and key file). In the sandbox the whole filesystem is read-only except the
/// repository and a private /tmp; the hidden paths are emptied (directories) or unreadable
/// (files). A value; not thread-safe (ToolWorkspace guards its copy).
struct SandboxPolicy
{
    SandboxMode mode = SandboxMode::Off;
    /// False: the command gets a network namespace of its own with only a loopback of its own
    /// (even 127.0.0.1 of the host is out of reach).
    bool allowNetwork = false;
    /// Folders of the home the command may write to, each privately (SandboxCaches): the
    /// package managers' caches (~/.cache, ~/.npm, ~/.cargo/registry, ...), so npm, pip and
    /// cargo work, while their writes vanish with the command. Those that do not exist, or
    /// hold or lie inside the repository, are skipped. Hidden paths stay hidden inside them.
    QStringList privatePaths;
    /// Absolute paths masked inside the sandbox (their real paths, links followed); those that
    /// do not exist are skipped. A folder that holds the repository is masked too, with the
    /// repository bound back on top (a session worktree in AgentDesk's data folder).
    QStringList hiddenPaths;
    /// The home folder, hidden inside the sandbox but for an allow-list (SandboxHome): an
    /// empty read-only tmpfs at its real path showing SandboxHome::defaultReadablePaths(),
    /// readablePaths, the repository and its git folders. Empty: QDir::homePath() ($HOME).
    /// Not hidden when it lies inside the repository.
    QString home;
    /// More paths shown read-only where the sandbox hides (the home, socketFolders): the
    /// additional directories and the user's extra paths (settings: "Readable in the sandbox",
    /// `"sandboxReadable"` in the user's settings file). Hidden paths stay hidden inside them.
    QStringList readablePaths;
    /// Folders emptied inside the sandbox because services listen on Unix sockets there
    /// (SandboxSockets), the network allowed or not; those that do not exist are skipped.
    QStringList socketFolders = SandboxSockets::defaultFolders();
    /// The bwrap to run; empty: `bwrap` found on PATH. A test injects a missing one.
    QString bwrapPath;

    /// The secrets under \a home every sandbox hides: ~/.ssh, ~/.gnupg, the keyrings,
    /// ~/.aws, ~/.config/gcloud, ~/.netrc, ~/.docker, ~/.kube, ~/.git-credentials, and those
    /// inside the folders SandboxHome shows (~/.cargo/credentials.toml, ~/.m2/settings.xml,
    /// ~/.gradle/gradle.properties, ~/.config/git/credentials, ...). The rest of the home is
    /// hidden anyway (SandboxHome); these also when a home cannot be (inside the repository).
    static QStringList defaultHiddenPaths(const QString &home);

    /// "off", "on", "required".
    static QString modeName(SandboxMode mode);
    /// The inverse of modeName (case-insensitive); nullopt for anything else.
    static std::optional<SandboxMode> parseMode(const QString &name);

    /// The decision for a command now: probes bwrap (once per bwrap path and process, see
    /// SandboxProbe) unless the mode is Off. May block a few milliseconds the first time.
    SandboxDecision decide() const;
};

} // namespace AgentCore
