#include "bashtool.h"
#include "translation.h"

#include "bwrapcommand.h"
#include "gitdirectories.h"
#include "outputcapture.h"
#include "processgroup.h"
#include "sandboxnotice.h"
#include "sandboxprobe.h"
#include "shelloverlay.h"
#include "toolschema.h"

#include <process/processgroupguard.h>

#include <QAbstractEventDispatcher>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QProcess>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <optional>

#include <unistd.h>

#ifdef Q_OS_LINUX
#    include <sys/prctl.h>
#endif

namespace AgentCore {

namespace {

enum class Ending { Exited, TimedOut, Aborted };

// The sandbox of one call: the workspace's policy, with the network when a rule of the user's
// grants it to this command, and what bwrap can do here (probed once per process).
struct Sandboxing
{
    SandboxPolicy policy;
    SandboxDecision decision;
};

Sandboxing decideSandbox(const SandboxPolicy &workspacePolicy, const QString &networkRule)
{
    Sandboxing sandboxing{workspacePolicy, {}};
    const bool ruleGrantsNetwork = !networkRule.isEmpty() && !sandboxing.policy.allowNetwork;
    if (ruleGrantsNetwork)
        sandboxing.policy.allowNetwork = true;
    sandboxing.decision = sandboxing.policy.decide();
    if (ruleGrantsNetwork && sandboxing.decision.sandboxed())
        sandboxing.decision.networkRule = networkRule;
    return sandboxing;
}

void noteSandbox(ToolDetails &details, const SandboxDecision &decision)
{
    details.other.insert(QStringLiteral("sandboxed"), decision.sandboxed());
    details.other.insert(QStringLiteral("network"), decision.network);
    if (!decision.networkRule.isEmpty())
        details.other.insert(QStringLiteral("networkRule"), decision.networkRule);
}

ToolResult refusedBySandbox(const SandboxDecision &decision, const ToolDetails &details)
{
    ToolResult refused = ToolResult::makeError(
        ToolsTr::tr("Command not run: the sandbox is required, but bubblewrap cannot run here: "
                    "%1 Turn the sandbox requirement off in the settings (or run with "
                    "--sandbox on) to run commands without it.")
            .arg(decision.reason));
    refused.details = details;
    return refused;
}

// What \a process runs: bash as it is, in bwrap, or in bwrap on an overlay of the repository; in
// the repository root, stdin empty, stdout and stderr merged. True when in bwrap.
bool setProgram(QProcess &process,
                const QString &root,
                const QString &command,
                const Sandboxing &sandboxing,
                const BashOptions &options,
                const QStringList &gitDirectories,
                const QString &logDirectory)
{
    process.setWorkingDirectory(root);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.setStandardInputFile(QProcess::nullDevice());
    const QStringList shell{QStringLiteral("/bin/bash"), QStringLiteral("-c"), command};
    if (options.overlay) {
        // On an overlay of the repository (ShellOverlay): its writes land in a scratch layer for
        // review. It needs bwrap whatever the sandbox mode; with the sandbox off the network and
        // the user's files stay as they are, but outside the repository the filesystem is read-only
        // (a write there could not be reviewed).
        SandboxPolicy policy = sandboxing.policy;
        if (policy.mode == SandboxMode::Off) {
            policy.allowNetwork = true;
            policy.hiddenPaths.clear();
        }
        const SandboxProbe::Result sandbox = SandboxProbe::probe(policy.bwrapPath);
        BwrapCommand bwrap(sandbox.bwrapPath, root, policy);
        // bwrap's own overlay where it has one, else unshare's (Debian 12's bwrap 0.8).
        bwrap.setRepositoryOverlay(options.overlay->upper,
                                   options.overlay->work,
                                   ShellOverlay::mount(policy.bwrapPath)
                                       .value_or(BwrapCommand::OverlayMount::Bwrap));
        // git's own work goes straight through, only the work tree is reviewed; for any other
        // command .git stays read-only (a write there would land in the scratch layer, and git's
        // files are not for review).
        bwrap.addGitDirectories(gitDirectories, options.gitWritable);
        bwrap.addReadablePath(logDirectory);
        process.setProgram(bwrap.program());
        process.setArguments(bwrap.arguments(shell));
        return true;
    }
    if (sandboxing.decision.sandboxed()) {
        // The repository's git folders stay read-only in bwrap unless the permission layer found
        // the command to be git's own work (add, commit, checkout...): a script, a Makefile recipe
        // or `python3 -c` cannot plant hooks or configuration that the user's next git runs.
        BwrapCommand bwrap(sandboxing.decision.bwrapPath, root, sandboxing.policy);
        bwrap.addGitDirectories(gitDirectories, options.gitWritable);
        // The full output of earlier commands, which their results point at: read-only.
        bwrap.addReadablePath(logDirectory);
        process.setProgram(bwrap.program());
        process.setArguments(bwrap.arguments(shell));
        return true;
    }
    process.setProgram(shell.first());
    process.setArguments(shell.mid(1));
    return false;
}

// The workspace's command environment (secrets removed, named in \a details), no pager, no terminal
// prompts.
void setEnvironment(QProcess &process,
                    const CommandEnvironment &commandEnvironment,
                    bool inBwrap,
                    ToolDetails &details)
{
    QStringList removedVariables;
    QProcessEnvironment environment
        = commandEnvironment.apply(QProcessEnvironment::systemEnvironment(), &removedVariables);
    if (!removedVariables.isEmpty())
        details.other.insert(QStringLiteral("removedVariables"),
                             QJsonArray::fromStringList(removedVariables));
    environment.insert(QStringLiteral("PAGER"), QStringLiteral("cat"));
    environment.insert(QStringLiteral("GIT_PAGER"), QStringLiteral("cat"));
    environment.insert(QStringLiteral("GIT_TERMINAL_PROMPT"), QStringLiteral("0"));
    environment.insert(QStringLiteral("TERM"), QStringLiteral("dumb"));
    // The sandbox's /tmp is private and empty: a TMPDIR elsewhere would be read-only or gone.
    if (inBwrap)
        environment.insert(QStringLiteral("TMPDIR"), QStringLiteral("/tmp"));
    process.setProcessEnvironment(environment);
}

// Its own session, hence its own process group: one signal reaches everything it starts.
// \a announce: the guard's descriptor, or -1 without a guard.
void startInOwnSession(QProcess &process, int announce)
{
    [[maybe_unused]] const pid_t agentDesk = ::getpid();
#if QT_VERSION >= QT_VERSION_CHECK(6, 7, 0)
    // The modifier below only makes system calls on its own behalf (and writes to the guard, not to
    // us), which is what vfork() allows: no copy of AgentDesk's page tables per command.
    process.setUnixProcessParameters(QProcess::UnixProcessFlag::UseVFork);
#endif
    // Runs in the forked child: async-signal-safe calls only.
    process.setChildProcessModifier([announce, agentDesk] {
        ::setsid();
        ProcessGroupGuard::announceFromChild(announce);
#ifdef Q_OS_LINUX
        if (announce < 0) {
            // Without a guard at least bash (or bwrap) itself goes with us; bash's children may
            // not, bwrap's do.
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (::getppid() != agentDesk)
                ::_exit(127);
        }
#endif
    });
}

// One command as BashTool::run worked it out: what it runs, how long it may, how.
struct Call
{
    QString command;
    int timeoutMs = 0;
    int graceMs = 0;
    BashOptions options;
    Sandboxing sandboxing;
};

struct Watched
{
    Ending ending = Ending::Exited;
    int remainingGraceMs = 0; ///< of the grace period its stop started, for the leftovers
};

// Waits for the started command (process group \a group) to end, its output appended to
// \a output and published (throttled); a timeout or an abort stops the group: TERM, then KILL
// after \a graceMs.
Watched watch(QProcess &process,
              pid_t group,
              OutputCapture &output,
              const AbortToken &abort,
              int timeoutMs,
              int graceMs,
              const std::function<void()> &publish)
{
    QEventLoop loop;
    Ending ending = Ending::Exited;
    QTimer killTimer;
    killTimer.setSingleShot(true);
    QObject::connect(&killTimer, &QTimer::timeout, &loop, [group] {
        ProcessGroup::signal(group, SIGKILL);
    });
    const auto stop = [&](Ending why) {
        if (ending != Ending::Exited)
            return;
        ending = why;
        ProcessGroup::signal(group, SIGTERM);
        killTimer.start(graceMs);
    };

    QTimer timeout;
    timeout.setSingleShot(true);
    QObject::connect(&timeout, &QTimer::timeout, &loop, [&] { stop(Ending::TimedOut); });
    QTimer throttle;
    throttle.setSingleShot(true);
    QObject::connect(&throttle, &QTimer::timeout, &loop, publish);
    QObject::connect(&process, &QProcess::readyReadStandardOutput, &loop, [&] {
        output.append(process.readAllStandardOutput());
        if (!throttle.isActive())
            throttle.start(BashTool::updateIntervalMs);
    });
    QObject::connect(&process, &QProcess::finished, &loop, &QEventLoop::quit);
    QObject abortContext;
    const int abortId = abort.onAbort(&abortContext, [&] { stop(Ending::Aborted); });

    if (process.state() == QProcess::Running) {
        timeout.start(timeoutMs);
        loop.exec();
    }
    abort.disconnect(abortId);
    timeout.stop();
    throttle.stop();
    output.append(process.readAllStandardOutput());

    const int remainingGrace = killTimer.isActive() ? killTimer.remainingTime() : graceMs;
    killTimer.stop();
    return {ending, remainingGrace};
}

// bash is gone; whatever it left behind in its group goes too. True when something was left.
bool endLeftovers(pid_t group, bool inBwrap, const Watched &watched, int graceMs)
{
    // bwrap's init in the command's own pid namespace may still be exiting when bwrap has returned,
    // and the kernel ends every process of that namespace with it: without this wait every
    // sandboxed command read as having left processes behind.
    const bool leftovers = inBwrap ? !ProcessGroup::waitUntilGone(group, 200)
                                   : ProcessGroup::isAlive(group);
    if (leftovers)
        ProcessGroup::terminate(group,
                                watched.ending == Ending::Exited ? graceMs
                                                                 : watched.remainingGraceMs);
    return leftovers;
}

// How the command ended, for its result.
struct Ended
{
    Ending ending = Ending::Exited;
    bool crashed = false;
    int code = 0; ///< the exit code, or the signal when crashed
    bool leftovers = false;
    int timeoutMs = 0;

    bool failed() const { return ending != Ending::Exited || crashed || code != 0; }
};

void noteEnd(ToolDetails &details, const Ended &ended, qint64 elapsedMs, OutputCapture &output)
{
    const QString log = output.finishLog(output.isTruncated());
    details.other.insert(QStringLiteral("durationMs"), double(elapsedMs));
    details.other.insert(QStringLiteral("outputBytes"), double(output.totalBytes()));
    details.other.insert(QStringLiteral("truncated"), output.isTruncated());
    details.other.insert(QStringLiteral("timedOut"), ended.ending == Ending::TimedOut);
    details.aborted = ended.ending == Ending::Aborted;
    details.logPath = log;
    if (ended.crashed)
        details.other.insert(QStringLiteral("signal"), ended.code);
    else
        details.other.insert(QStringLiteral("exitCode"), ended.code);
}

// The output, then how the command ended when it failed (or that its leftovers were ended).
QString endingText(const OutputCapture &output, const Ended &ended)
{
    QString text = output.totalBytes() > 0 ? output.text() : ToolsTr::tr("(no output)");
    if (!text.endsWith(QLatin1Char('\n')))
        text += QLatin1Char('\n');
    switch (ended.ending) {
    case Ending::TimedOut:
        text += ToolsTr::tr("Command timed out after %1 ms; its processes were terminated.")
                    .arg(ended.timeoutMs);
        break;
    case Ending::Aborted:
        text += ToolsTr::tr("Command aborted; its processes were terminated.");
        break;
    case Ending::Exited:
        if (ended.crashed)
            text += ToolsTr::tr("Command killed by signal %1.").arg(ended.code);
        else if (ended.code != 0)
            text += ToolsTr::tr("Exit code %1").arg(ended.code);
        break;
    }
    if (!ended.failed() && ended.leftovers) {
        text += QLatin1Char('\n');
        text += ToolsTr::tr("(Processes the command left running in the background were "
                            "terminated.)");
    }
    return text;
}

ToolResult commandResult(QString text, const ToolDetails &details, const Ended &ended)
{
    while (text.endsWith(QLatin1Char('\n')))
        text.chop(1);
    ToolResult result = ToolResult::makeText(text, details);
    result.isError = ended.failed();
    return result;
}

// So a failure the sandbox caused reads as such, not as a broken command: a write refused in the
// read-only .git, the sandbox's limits.
void explainSandboxFailure(QString &text,
                           const SandboxDecision &decision,
                           bool inBwrap,
                           bool gitWritable,
                           const QStringList &gitDirectories)
{
    // `.git/index.lock: Read-only file system`, not ~/.gitconfig's.
    const bool gitRefused = std::any_of(gitDirectories.cbegin(),
                                        gitDirectories.cend(),
                                        [&text](const QString &path) { return text.contains(path); })
                            || text.contains(QLatin1String(".git/"));
    if (inBwrap && !gitWritable && gitRefused
        && text.contains(QLatin1String("Read-only file system"))) {
        text += QLatin1Char('\n');
        text += ToolsTr::tr(
            "(The repository's .git folder was read-only for this command: only git's "
            "own work (git add, commit, checkout, merge, ...), run as git commands on "
            "their own or with read-only ones, may change it.)");
    }
    if (decision.sandboxed()) {
        text += QLatin1Char('\n');
        text += decision.network
                    ? ToolsTr::tr("(Ran in the sandbox: outside the repository the filesystem is "
                                  "read-only, and /tmp is private.)")
                    : ToolsTr::tr(
                        "(Ran in the sandbox: outside the repository the filesystem is "
                        "read-only, /tmp is private, and there is no network; the user can "
                        "allow it for such commands with a network rule in the settings.)");
    }
}

// Runs \a call's command and reports how it ended: started in a session of its own, its output
// streamed as updates, stopped on timeout or abort, what it left behind ended.
ToolResult runCommand(ToolWorkspace &workspace,
                      const ToolCallContext &context,
                      const Call &call,
                      ToolDetails details,
                      OutputCapture &output)
{
    QProcess process;
    const QStringList gitDirectories = GitDirectories::of(workspace.root()).paths();
    const bool inBwrap = setProgram(process,
                                    workspace.root(),
                                    call.command,
                                    call.sandboxing,
                                    call.options,
                                    gitDirectories,
                                    workspace.logDirectory());
    setEnvironment(process, workspace.commandEnvironment(), inBwrap, details);
    // Kills the group should AgentDesk die without cleaning up (kill -9, a crash). bwrap does that
    // itself, without a guard (a fork of all of AgentDesk, 5-8 ms per command): the parent-death
    // signal set in the child takes bwrap down with this thread, --die-with-parent its init with
    // bwrap, and the kernel every process of the command's pid namespace with the init, those that
    // left the group included.
    std::optional<ProcessGroupGuard> guard;
    if (!inBwrap)
        guard.emplace(call.graceMs);
    startInOwnSession(process, guard ? guard->announceDescriptor() : -1);

    QElapsedTimer clock;
    clock.start();
    process.start();
    if (!process.waitForStarted()) {
        output.finishLog(false);
        return ToolResult::makeError(
            ToolsTr::tr("Cannot start %1: %2").arg(process.program(), process.errorString()));
    }
    const pid_t group = pid_t(process.processId());
    details.other.insert(QStringLiteral("pid"), double(group));
    const auto publish = [&] {
        if (context.onUpdate)
            context.onUpdate(ToolResult::makeText(output.text(), details));
    };
    publish();

    const Watched watched
        = watch(process, group, output, context.abort, call.timeoutMs, call.graceMs, publish);
    Ended ended;
    ended.ending = watched.ending;
    ended.timeoutMs = call.timeoutMs;
    ended.leftovers = endLeftovers(group, inBwrap, watched, call.graceMs);
    output.append(process.readAllStandardOutput());
    if (guard)
        guard->release(); // the group is gone: nothing left to guard
    ended.crashed = process.exitStatus() == QProcess::CrashExit;
    ended.code = process.exitCode();
    noteEnd(details, ended, clock.elapsed(), output);

    QString text = endingText(output, ended);
    if (ended.failed())
        explainSandboxFailure(text,
                              call.sandboxing.decision,
                              inBwrap,
                              call.options.gitWritable,
                              gitDirectories);
    return commandResult(text, details, ended);
}

// Starts \a call's command as one of the session's background commands, with the program line,
// sandbox and environment a foreground command gets, and returns its shell id and what it
// printed in its first moment.
ToolResult startInBackground(ToolWorkspace &workspace,
                             BackgroundShells &shells,
                             const ToolCallContext &context,
                             const Call &call,
                             ToolDetails details)
{
    if (call.options.overlay) {
        // The permission layer runs background commands without the overlay once the user
        // approved them; this is the tool's own guard should anything else ask for one.
        return ToolResult::makeError(
            ToolsTr::tr("Command not run: a background command cannot run on the overlay that "
                        "reviews a command's writes, since it does not end. Run it without "
                        "run_in_background, or ask the user to approve it."));
    }
    // Only holds the program line and environment the helpers make; never started.
    QProcess configured;
    const bool inBwrap = setProgram(configured,
                                    workspace.root(),
                                    call.command,
                                    call.sandboxing,
                                    call.options,
                                    GitDirectories::of(workspace.root()).paths(),
                                    workspace.logDirectory());
    setEnvironment(configured, workspace.commandEnvironment(), inBwrap, details);
    QProcessEnvironment environment = configured.processEnvironment();
    // Its output is read while it runs: a Python server's lines as it prints them, not when a
    // pipe's buffer fills.
    environment.insert(QStringLiteral("PYTHONUNBUFFERED"), QStringLiteral("1"));
    BackgroundLaunch launch;
    launch.command = call.command;
    launch.description = details.other.value(QLatin1String("description")).toString();
    launch.program = configured.program();
    launch.arguments = configured.arguments();
    launch.environment = environment;
    launch.workingDirectory = configured.workingDirectory();
    launch.inBwrap = inBwrap;
    const BackgroundShells::Started started = shells.start(launch);
    if (!started.error.isEmpty()) {
        ToolResult refused = ToolResult::makeError(started.error);
        refused.details = details;
        return refused;
    }

    // The first moment: what a server says as it starts, or a command that fails at once.
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < BashTool::backgroundFirstMs && !context.abort.isAborted()) {
        const std::optional<BackgroundShell> shell = shells.shell(started.id);
        if (!shell || !shell->running)
            break;
        QThread::msleep(20);
    }
    const std::optional<BackgroundShells::Taken> taken = shells.takeNew(started.id);
    const BackgroundShell shell = taken ? taken->shell : BackgroundShell();
    details.logPath = shell.logPath;
    details.other.insert(QStringLiteral("background"), true);
    details.other.insert(QStringLiteral("shellId"), started.id);
    details.other.insert(QStringLiteral("pid"), double(started.pid));
    details.other.insert(QStringLiteral("running"), shell.running);

    QByteArray bytes = taken ? taken->bytes : QByteArray();
    QString text;
    if (shell.running) {
        text = ToolsTr::tr("Started in the background as shell %1 (process %2). Read its output "
                           "with BashOutput, stop it with KillShell; it ends with the session.")
                   .arg(started.id)
                   .arg(started.pid);
    } else {
        text = ToolsTr::tr("Started in the background as shell %1, and already ended: %2.")
                   .arg(started.id, shell.stateText());
        details.other.insert(shell.crashed ? QStringLiteral("signal") : QStringLiteral("exitCode"),
                             shell.exitCode);
    }
    if (shell.running && call.sandboxing.decision.sandboxed() && !call.sandboxing.decision.network) {
        text += QLatin1Char('\n');
        text += ToolsTr::tr("(It runs in the sandbox without network: a server it starts cannot "
                            "be reached from outside the sandbox, not even by your next Bash "
                            "command. The user can allow the network for such commands with a "
                            "network rule in the settings.)");
    }
    text += QLatin1Char('\n');
    if (bytes.isEmpty()) {
        text += ToolsTr::tr("(no output yet)");
    } else {
        if (bytes.size() > BashTool::headBytes) {
            text += ToolsTr::tr("[... %1 bytes left out; all of it is in %2 ...]")
                        .arg(bytes.size() - BashTool::headBytes)
                        .arg(shell.logPath);
            text += QLatin1Char('\n');
            bytes = bytes.right(BashTool::headBytes);
        }
        text += (shell.running ? ToolsTr::tr("Output so far:") : ToolsTr::tr("Output:"))
                + QLatin1Char('\n') + QString::fromUtf8(bytes);
    }
    while (text.endsWith(QLatin1Char('\n')))
        text.chop(1);
    ToolResult result = ToolResult::makeText(text, details);
    result.isError = !shell.running && (shell.crashed || shell.exitCode != 0);
    return result;
}

} // namespace

BashTool::BashTool(std::shared_ptr<ToolWorkspace> workspace,
                   std::shared_ptr<BackgroundShells> shells)
    : m_workspace(std::move(workspace))
    , m_shells(std::move(shells))
{}

ToolDefinition BashTool::definition() const
{
    // Descriptions say only what the names and the schema do not: every request carries them.
    QJsonObject timeout
        = schemaProperty("integer", ToolsTr::tr("Milliseconds (default %1).").arg(defaultTimeoutMs));
    timeout.insert(QStringLiteral("minimum"), 1);
    timeout.insert(QStringLiteral("maximum"), maxTimeoutMs);
    QJsonObject properties{
        {QStringLiteral("command"), schemaProperty("string")},
        {QStringLiteral("timeout"), timeout},
        {QStringLiteral("description"),
         schemaProperty("string", ToolsTr::tr("A few words for the user."))},
    };
    QString description = ToolsTr::tr(
                              "Runs a command with bash -c in the repository root; returns "
                              "stdout and stderr together and the exit code (non-zero is an "
                              "error). Each call is a fresh shell (cd and variables do not carry "
                              "over) without terminal or stdin: pass non-interactive flags (git "
                              "--no-pager, -y). Background processes end with the command. Long "
                              "output keeps its first %1 KiB and last %2 KiB, the whole in a log "
                              "file named in the result.")
                              .arg(headBytes / 1024)
                              .arg(tailBytes / 1024);
    if (m_shells) {
        // Only where it works: a model never sees an argument it cannot use.
        properties.insert(QStringLiteral("run_in_background"),
                          schemaProperty("boolean",
                                         ToolsTr::tr("Return at once with a shell id: "
                                                     "BashOutput reads its output, KillShell "
                                                     "stops it. It ends with the session.")));
        description += QLatin1Char(' ')
                       + ToolsTr::tr("For a server or watcher that should keep running, use "
                                     "run_in_background (at most %1 at once).")
                             .arg(m_shells->maxRunning());
    }
    return {
        toolKindName(ToolKind::Bash),
        description,
        QJsonObject{
            {QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"), properties},
            {QStringLiteral("required"), QJsonArray{QStringLiteral("command")}},
            {QStringLiteral("additionalProperties"), false},
        },
    };
}

ToolResult BashTool::execute(const ToolCallContext &context)
{
    // The local event loop needs an event dispatcher, which a thread Qt did not start (a
    // std::thread it merely adopted) lacks: run on a QThread of our own there.
    if (!QAbstractEventDispatcher::instance()) {
        ToolResult result;
        const std::unique_ptr<QThread> thread(QThread::create([&] { result = run(context); }));
        thread->start();
        thread->wait();
        return result;
    }
    return run(context);
}

ToolResult BashTool::run(const ToolCallContext &context)
{
    const QJsonObject &args = context.arguments;
    const QString command = args.value(QLatin1String("command")).toString();
    if (command.trimmed().isEmpty())
        return ToolResult::makeError(ToolsTr::tr("command is empty."));
    const int timeoutMs = int(
        std::clamp<qint64>(args.value(QLatin1String("timeout")).toInteger(defaultTimeoutMs),
                           1,
                           maxTimeoutMs));
    if (context.abort.isAborted())
        return ToolResult::makeError(ToolsTr::tr("Command aborted before it started."));
    // Set by the permission layer (a network rule of the user's, git's own work, an overlay): only
    // a middleware sets tool options, never the model.
    const BashOptions options = context.toolOptions.value<BashOptions>();
    const bool background = args.value(QLatin1String("run_in_background")).toBool();
    if (background && !m_shells)
        return ToolResult::makeError(
            ToolsTr::tr("run_in_background is not available here: run the command without it."));

    ToolDetails details;
    details.other = {{QStringLiteral("command"), command},
                     {QStringLiteral("description"),
                      args.value(QLatin1String("description")).toString()}};
    OutputCapture output(headBytes, tailBytes);
    const QString logDirectory = m_workspace->logDirectory();
    if (!logDirectory.isEmpty())
        output.openLog(logDirectory + QStringLiteral("/bash-XXXXXX.log"));

    const Sandboxing sandboxing = decideSandbox(m_workspace->sandboxPolicy(), options.networkRule);
    const SandboxDecision &decision = sandboxing.decision;
    noteSandbox(details, decision);
    if (decision.outcome == SandboxDecision::Outcome::Refused) {
        output.finishLog(false);
        return refusedBySandbox(decision, details);
    }
    if (decision.outcome == SandboxDecision::Outcome::Unavailable) {
        m_workspace->noteSandboxUnavailable(
            SandboxNotice::text(decision, sandboxing.policy.bwrapPath));
    }

    const Call call{command, timeoutMs, m_graceMs, options, sandboxing};
    if (background) {
        output.finishLog(false); // the background command keeps a log of its own
        return startInBackground(*m_workspace, *m_shells, context, call, details);
    }
    return runCommand(*m_workspace, context, call, details, output);
}

} // namespace AgentCore
