#include "sandboxpolicy.h"
#include "translation.h"

#include "sandboxprobe.h"

#include <QCoreApplication>
#include <QDir>

namespace AgentCore {

QString SandboxDecision::summary() const
{
    switch (outcome) {
    case Outcome::Sandboxed:
        if (network && !networkRule.isEmpty())
            return ToolsTr::tr("Runs sandboxed: read-only outside the repository, with network "
                               "(allowed by %1).")
                .arg(networkRule);
        return network
                   ? ToolsTr::tr("Runs sandboxed: read-only outside the repository, with network.")
                   : ToolsTr::tr("Runs sandboxed: read-only outside the repository, no network.");
    case Outcome::Off:
        return ToolsTr::tr("Runs without the sandbox (turned off in the settings).");
    case Outcome::Unavailable:
        return ToolsTr::tr("Runs without the sandbox: %1").arg(reason);
    case Outcome::Refused:
        return ToolsTr::tr("Will not run: the sandbox is required but unavailable: %1").arg(reason);
    }
    return {};
}

QStringList SandboxPolicy::defaultHiddenPaths(const QString &home)
{
    if (home.isEmpty())
        return {};
    const QDir dir(home);
    const QStringList relative = {
        QStringLiteral(".ssh"),
        QStringLiteral(".gnupg"),
        QStringLiteral(".local/share/keyrings"),
        QStringLiteral(".password-store"),
        QStringLiteral(".aws"),
        QStringLiteral(".azure"),
        QStringLiteral(".config/gcloud"),
        QStringLiteral(".config/gh"),
        QStringLiteral(".docker"),
        QStringLiteral(".kube"),
        QStringLiteral(".netrc"),
        QStringLiteral(".git-credentials"),
        QStringLiteral(".pypirc"),
        QStringLiteral(".npmrc"),
        QStringLiteral(".cargo/credentials.toml"), // crates.io's token, beside the private caches
        QStringLiteral(".cargo/credentials"),
        // Credentials inside the folders SandboxHome shows, and a few well-known ones for a
        // home the sandbox cannot hide (one inside the repository).
        QStringLiteral(".config/git/credentials"),
        QStringLiteral(".m2/settings.xml"),
        QStringLiteral(".m2/settings-security.xml"),
        QStringLiteral(".gradle/gradle.properties"),
        QStringLiteral(".gem/credentials"),
        QStringLiteral(".pgpass"),
        QStringLiteral(".vault-token"),
    };
    QStringList paths;
    for (const QString &path : relative)
        paths.append(QDir::cleanPath(dir.absoluteFilePath(path)));
    return paths;
}

QString SandboxPolicy::modeName(SandboxMode mode)
{
    switch (mode) {
    case SandboxMode::Off:
        return QStringLiteral("off");
    case SandboxMode::On:
        return QStringLiteral("on");
    case SandboxMode::Required:
        return QStringLiteral("required");
    }
    return {};
}

std::optional<SandboxMode> SandboxPolicy::parseMode(const QString &name)
{
    for (const SandboxMode mode : {SandboxMode::Off, SandboxMode::On, SandboxMode::Required}) {
        if (name.compare(modeName(mode), Qt::CaseInsensitive) == 0)
            return mode;
    }
    return std::nullopt;
}

SandboxDecision SandboxPolicy::decide() const
{
    SandboxDecision decision;
    if (mode == SandboxMode::Off)
        return decision;
    const SandboxProbe::Result probe = SandboxProbe::probe(bwrapPath);
    if (probe.available) {
        decision.outcome = SandboxDecision::Outcome::Sandboxed;
        decision.network = allowNetwork;
        decision.bwrapPath = probe.bwrapPath;
        return decision;
    }
    decision.outcome = mode == SandboxMode::Required ? SandboxDecision::Outcome::Refused
                                                     : SandboxDecision::Outcome::Unavailable;
    decision.reason = probe.error;
    return decision;
}

} // namespace AgentCore
