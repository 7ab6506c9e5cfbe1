#include "sandboxnotice.h"
#include "translation.h"

#include "sandboxprobe.h"

#include <QCoreApplication>
#include <QFile>

namespace AgentCore {

namespace {

// The kernel setting \a name under \a procSys ("kernel/unprivileged_userns_clone"), or -1
// when it does not exist here.
int sysctl(const QString &procSys, const QString &name)
{
    QFile file(procSys + QLatin1Char('/') + name);
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    bool ok = false;
    const int value = file.readAll().trimmed().toInt(&ok);
    return ok ? value : -1;
}

QString oneLine(QString text)
{
    return text.replace(QLatin1Char('\n'), QLatin1Char(' ')).simplified();
}

} // namespace

QString SandboxNotice::advice(const QString &bwrapPath, const QString &procSys)
{
    const SandboxProbe::Result probe = SandboxProbe::probe(bwrapPath);
    if (probe.bwrapPath.isEmpty()) {
        return bwrapPath.isEmpty()
                   ? ToolsTr::tr("install bubblewrap: sudo apt install bubblewrap (or sudo dnf "
                                 "install bubblewrap).")
                   : ToolsTr::tr("install bubblewrap (the package \"bubblewrap\") or correct the "
                                 "path of bwrap.");
    }
    // The usual stoppers, most specific first: each names the switch that turns it off.
    if (sysctl(procSys, QStringLiteral("kernel/apparmor_restrict_unprivileged_userns")) == 1) {
        return ToolsTr::tr("AppArmor restricts unprivileged user namespaces here (Ubuntu 23.10 and "
                           "later); allow them with: sudo sysctl -w "
                           "kernel.apparmor_restrict_unprivileged_userns=0 (or give bwrap an "
                           "AppArmor profile with \"userns,\").");
    }
    if (sysctl(procSys, QStringLiteral("kernel/unprivileged_userns_clone")) == 0) {
        return ToolsTr::tr("unprivileged user namespaces are turned off; turn them on with: sudo "
                           "sysctl -w kernel.unprivileged_userns_clone=1.");
    }
    if (sysctl(procSys, QStringLiteral("user/max_user_namespaces")) == 0) {
        return ToolsTr::tr("user namespaces are limited to none; allow them with: sudo sysctl -w "
                           "user.max_user_namespaces=10000.");
    }
    return ToolsTr::tr("allow unprivileged user namespaces (on Ubuntu: sudo sysctl -w "
                       "kernel.apparmor_restrict_unprivileged_userns=0; on Debian: sudo sysctl -w "
                       "kernel.unprivileged_userns_clone=1); in a container, run it with user "
                       "namespaces allowed (e.g. docker run --security-opt seccomp=unconfined "
                       "--security-opt apparmor=unconfined).");
}

QString SandboxNotice::text(const SandboxDecision &decision,
                            const QString &bwrapPath,
                            const QString &procSys)
{
    switch (decision.outcome) {
    case SandboxDecision::Outcome::Unavailable:
        return oneLine(
            ToolsTr::tr("The sandbox for Bash is unavailable, so commands run without it, "
                        "with your rights: %1 To sandbox them, %2 To refuse commands "
                        "instead, set Sandbox to Required in the settings (headless: "
                        "--sandbox required).")
                .arg(decision.reason, advice(bwrapPath, procSys)));
    case SandboxDecision::Outcome::Refused:
        return oneLine(
            ToolsTr::tr("The sandbox for Bash is required but unavailable, so Bash "
                        "commands are refused: %1 To sandbox them, %2 To run them without "
                        "the sandbox instead, set Sandbox to On in the settings "
                        "(headless: --sandbox on).")
                .arg(decision.reason, advice(bwrapPath, procSys)));
    case SandboxDecision::Outcome::Sandboxed:
    case SandboxDecision::Outcome::Off:
        break;
    }
    return {};
}

} // namespace AgentCore
