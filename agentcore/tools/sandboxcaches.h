#pragma once

#include <QString>
#include <QStringList>

namespace AgentCore {

/// The package managers' caches inside the sandbox. The sandbox shows the home read-only, and
/// npm, pip, cargo and go refuse to work without writing their cache (`npm install` fails with
/// EROFS on ~/.npm/_cacache). Making the real caches writable would let a command plant
/// content there that the user's own builds later run, outside the sandbox; so each cache
/// folder gets a private writable layer instead: what the command writes there is seen by it
/// alone and vanishes when it ends. Where bwrap can mount overlays
/// (ShellOverlay::unsupportedReason) the layer lies over the real cache, so what is cached
/// already is used (offline builds keep working); elsewhere the folder is an empty tmpfs.
/// The secrets (SandboxPolicy::hiddenPaths) are masked after these mounts, so they stay hidden
/// also inside a cache folder. Stateless; thread-safe.
class SandboxCaches final
{
public:
    /// The well-known cache folders under \a home: ~/.cache (pip, go, yarn, node-gyp, ...),
    /// ~/.npm, ~/.cargo/registry and ~/.cargo/git, ~/.rustup/downloads and ~/.rustup/tmp,
    /// ~/.m2/repository, ~/.gradle/caches, ~/go/pkg/mod, ~/.bun/install/cache,
    /// ~/.local/share/pnpm/store, ~/.nuget/packages. Settings and credentials are not among
    /// them.
    static QStringList defaultPaths(const QString &home);

    /// The bwrap arguments that make each existing folder of \a paths privately writable,
    /// with \a overlay (`--overlay-src P --tmp-overlay P`) or without (`--tmpfs P`). Symbolic
    /// links are followed to the folder they name; a folder that holds \a repositoryRoot or
    /// lies inside it is skipped (the repository stays bound as it is), as is `/`.
    static QStringList arguments(const QStringList &paths,
                                 const QString &repositoryRoot,
                                 bool overlay);
};

} // namespace AgentCore
