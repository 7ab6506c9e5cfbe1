// The start-up cost of the sandbox: BashTool running `true` inside bwrap against the same
// command without it (issue #18: under 20 ms more), and bwrap by itself around `true`.
//
// usage: bench_sandbox [REPEATS]   one JSON line per variant: median and best in milliseconds
#include <tools/bashtool.h>
#include <tools/sandboxprobe.h>
#include <tools/toolworkspace.h>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>

using namespace AgentCore;

namespace {

struct Timing
{
    double median = 0;
    double best = 0;
};

Timing measure(int repeats, const std::function<bool()> &run)
{
    QList<double> times;
    run(); // warm: the probe, the page cache
    for (int i = 0; i < repeats; ++i) {
        QElapsedTimer clock;
        clock.start();
        if (!run()) {
            std::fprintf(stderr, "bench_sandbox: the command failed\n");
            std::exit(1);
        }
        times.append(double(clock.nsecsElapsed()) / 1e6);
    }
    std::sort(times.begin(), times.end());
    return {times.at(times.size() / 2), times.first()};
}

void report(const char *name, const Timing &timing)
{
    const QJsonObject line{{QStringLiteral("variant"), QLatin1String(name)},
                           {QStringLiteral("medianMs"), timing.median},
                           {QStringLiteral("bestMs"), timing.best}};
    std::printf("%s\n", QJsonDocument(line).toJson(QJsonDocument::Compact).constData());
    std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int repeats = argc > 1 ? std::max(1, QString::fromLocal8Bit(argv[1]).toInt()) : 50;
    const SandboxProbe::Result probe = SandboxProbe::probe();
    if (!probe.available) {
        std::fprintf(stderr, "bench_sandbox: no sandbox here: %s\n", qPrintable(probe.error));
        return 2;
    }
    QTemporaryDir root;
    const auto workspace = std::make_shared<ToolWorkspace>(root.path(),
                                                           root.path() + QStringLiteral("-logs"));
    BashTool tool(workspace);
    const auto runTrue = [&tool] {
        ToolCallContext context;
        context.toolName = QStringLiteral("Bash");
        context.arguments = {{QStringLiteral("command"), QStringLiteral("true")}};
        return !tool.execute(context).isError;
    };

    SandboxPolicy off;
    workspace->setSandboxPolicy(off);
    const Timing plain = measure(repeats, runTrue);
    report("bash true", plain);

    SandboxPolicy on;
    on.mode = SandboxMode::On;
    on.hiddenPaths = SandboxPolicy::defaultHiddenPaths(QDir::homePath());
    workspace->setSandboxPolicy(on);
    const Timing sandboxed = measure(repeats, runTrue);
    report("bash true in the sandbox", sandboxed);

    on.allowNetwork = true;
    workspace->setSandboxPolicy(on);
    const Timing network = measure(repeats, runTrue);
    report("bash true in the sandbox, with network", network);

    const QJsonObject extra{{QStringLiteral("variant"), QStringLiteral("sandbox cost")},
                            {QStringLiteral("medianMs"), sandboxed.median - plain.median},
                            {QStringLiteral("networkMedianMs"), network.median - plain.median}};
    std::printf("%s\n", QJsonDocument(extra).toJson(QJsonDocument::Compact).constData());
    QDir(root.path() + QStringLiteral("-logs")).removeRecursively();
    return 0;
}
