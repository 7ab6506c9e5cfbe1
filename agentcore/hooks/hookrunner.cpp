#include "hookrunner.h"

#include <process/childgroupguard.h>

#include <QDir>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QProcess>

#include <signal.h>
#include <unistd.h>

namespace AgentCore {

namespace {

// Keeps the first maxKeptBytes of a stream, counting all.
void keep(QByteArray &kept, const QByteArray &more, bool *capped)
{
    const qsizetype room = HookRun::maxKeptBytes - kept.size();
    if (more.size() > room) {
        *capped = true;
        if (room > 0)
            kept.append(more.left(room));
    } else {
        kept.append(more);
    }
}

int decisionRank(const QString &decision)
{
    if (decision == u"deny")
        return 3;
    if (decision == u"ask")
        return 2;
    if (decision == u"allow")
        return 1;
    return 0;
}

QString trimmedText(const QByteArray &bytes)
{
    return QString::fromUtf8(bytes).trimmed();
}

// What one run says, added to \a outcome (Claude Code's rules: exit 2 blocks with stderr; exit
// 0 may print JSON; anything else is shown and does not block).
void combine(HookOutcome &outcome, HookEventName event, const HookRun &run)
{
    const QString name = run.hook.command;
    if (run.blocks()) {
        outcome.blocked = true;
        QString reason = trimmedText(run.err);
        if (reason.isEmpty())
            reason = QStringLiteral("blocked by hook: %1").arg(name);
        outcome.blockReason += (outcome.blockReason.isEmpty() ? QString() : QStringLiteral("\n"))
                               + reason;
        if (event == HookEventName::PreToolUse) {
            outcome.permissionDecision = QStringLiteral("deny");
            outcome.permissionReason = outcome.blockReason;
        }
        return;
    }
    if (run.failed()) {
        const QString err = trimmedText(run.err);
        outcome.userMessages.append(
            QStringLiteral("hook %1: %2%3")
                .arg(name,
                     run.outcomeText(),
                     err.isEmpty() ? QString() : QStringLiteral(": ") + err));
        return;
    }
    if (!run.json) {
        // Plain stdout of these events is context for the model, as in Claude Code.
        const QString text = trimmedText(run.out);
        if (!text.isEmpty()
            && (event == HookEventName::UserPromptSubmit || event == HookEventName::SessionStart))
            outcome.additionalContext.append(text);
        return;
    }
    const QJsonObject &json = *run.json;
    if (json.value(QLatin1String("continue")).toBool(true) == false) {
        outcome.stop = true;
        outcome.stopReason = json.value(QLatin1String("stopReason")).toString();
    }
    if (const QString message = json.value(QLatin1String("systemMessage")).toString();
        !message.isEmpty())
        outcome.userMessages.append(message);
    const QString reason = json.value(QLatin1String("reason")).toString();
    const QString decision = json.value(QLatin1String("decision")).toString();
    const auto setPermission = [&outcome](const QString &value, const QString &why) {
        if (decisionRank(value) > decisionRank(outcome.permissionDecision)) {
            outcome.permissionDecision = value;
            outcome.permissionReason = why;
        }
    };
    if (decision == u"block") {
        outcome.blocked = true;
        outcome.blockReason += (outcome.blockReason.isEmpty() ? QString() : QStringLiteral("\n"))
                               + (reason.isEmpty() ? QStringLiteral("blocked by hook: %1").arg(name)
                                                   : reason);
        if (event == HookEventName::PreToolUse)
            setPermission(QStringLiteral("deny"), outcome.blockReason);
    } else if (decision == u"approve" && event == HookEventName::PreToolUse) {
        setPermission(QStringLiteral("allow"), reason);
    }
    const QJsonObject specific = json.value(QLatin1String("hookSpecificOutput")).toObject();
    if (const QString context = specific.value(QLatin1String("additionalContext")).toString();
        !context.isEmpty())
        outcome.additionalContext.append(context);
    if (event == HookEventName::PreToolUse) {
        const QString permission = specific.value(QLatin1String("permissionDecision")).toString();
        if (decisionRank(permission) > 0) {
            const QString why = specific.value(QLatin1String("permissionDecisionReason")).toString();
            setPermission(permission, why);
            if (permission == u"deny") {
                outcome.blocked = true;
                outcome.blockReason += (outcome.blockReason.isEmpty() ? QString()
                                                                      : QStringLiteral("\n"))
                                       + (why.isEmpty()
                                              ? QStringLiteral("denied by hook: %1").arg(name)
                                              : why);
            }
        }
        const QJsonValue updated = specific.value(QLatin1String("updatedInput"));
        if (updated.isObject())
            outcome.updatedInput = updated.toObject();
    }
}

} // namespace

QString HookRun::outcomeText() const
{
    if (!startError.isEmpty())
        return startError;
    if (timedOut)
        return QStringLiteral("timed out after %1 s").arg(hook.timeoutSeconds);
    if (flooded)
        return QStringLiteral("stopped: wrote more than %1 MiB").arg(maxFloodBytes / (1024 * 1024));
    if (exitCode == 0)
        return QStringLiteral("ok");
    if (exitCode == 2)
        return QStringLiteral("blocked (exit 2)");
    return QStringLiteral("exit %1").arg(exitCode);
}

QJsonObject HookRun::toJson() const
{
    QJsonObject object{
        {QStringLiteral("type"), QStringLiteral("hook")},
        {QStringLiteral("event"), hookEventNameText(hook.event)},
        {QStringLiteral("command"), hook.command},
        {QStringLiteral("source"), hook.sourceLabel},
        {QStringLiteral("file"), hook.file},
        {QStringLiteral("exitCode"), exitCode},
        {QStringLiteral("outcome"), outcomeText()},
        {QStringLiteral("blocked"), blocks()},
        {QStringLiteral("durationMs"), elapsedMs},
        {QStringLiteral("stdout"), QString::fromUtf8(out)},
        {QStringLiteral("stderr"), QString::fromUtf8(err)},
    };
    if (!hook.matcher.isEmpty())
        object.insert(QStringLiteral("matcher"), hook.matcher);
    if (!toolCallId.isEmpty())
        object.insert(QStringLiteral("toolCallId"), toolCallId);
    if (timedOut)
        object.insert(QStringLiteral("timedOut"), true);
    if (outputCapped)
        object.insert(QStringLiteral("outputCapped"), true);
    return object;
}

HookRunner::HookRunner(HookConfig config,
                       Session session,
                       const std::function<bool(const QString &grant)> &trusted,
                       Report report)
    : m_config(std::move(config))
    , m_session(std::move(session))
    , m_report(std::move(report))
{
    m_config.trustedOnly(trusted, &m_untrusted);
}

HookConfig HookRunner::active() const
{
    const QMutexLocker locker(&m_mutex);
    return m_config.trustedOnly([this](
                                    const QString &grant) { return !m_untrusted.contains(grant); },
                                nullptr);
}

bool HookRunner::has(HookEventName event) const
{
    return active().has(event);
}

QStringList HookRunner::untrustedGrants() const
{
    const QMutexLocker locker(&m_mutex);
    return m_untrusted;
}

void HookRunner::trust(const QStringList &grants)
{
    const QMutexLocker locker(&m_mutex);
    for (const QString &grant : grants)
        m_untrusted.removeAll(grant);
}

HookOutcome HookRunner::run(HookEventName event,
                            const QString &matchValue,
                            const QJsonObject &fields,
                            const AbortToken &abort,
                            const QString &toolCallId) const
{
    HookOutcome outcome;
    const QList<HookEntry> hooks = active().matching(event, matchValue);
    if (hooks.isEmpty())
        return outcome;
    QJsonObject input = fields;
    input.insert(QStringLiteral("session_id"), m_session.sessionId);
    input.insert(QStringLiteral("transcript_path"), m_session.transcriptPath);
    input.insert(QStringLiteral("cwd"), m_session.cwd);
    input.insert(QStringLiteral("hook_event_name"), hookEventNameText(event));
    const QByteArray bytes = QJsonDocument(input).toJson(QJsonDocument::Compact);
    for (const HookEntry &hook : hooks) {
        if (abort.isAborted())
            break;
        HookRun run = runOne(hook, bytes, m_session.cwd, m_session.environment, abort);
        run.toolCallId = toolCallId;
        combine(outcome, event, run);
        if (m_report)
            m_report(run);
        outcome.runs.append(std::move(run));
    }
    return outcome;
}

HookRun HookRunner::runOne(const HookEntry &hook,
                           const QByteArray &input,
                           const QString &cwd,
                           const QProcessEnvironment &environment,
                           const AbortToken &abort)
{
    HookRun run;
    run.hook = hook;
    QElapsedTimer clock;
    clock.start();
    ChildGroupGuard &guard = ChildGroupGuard::instance();
    const int announce = guard.announceDescriptor();
    QProcess process;
    QProcessEnvironment env = environment.isEmpty() ? QProcessEnvironment::systemEnvironment()
                                                    : environment;
    // Claude Code's scripts find the repository by this name; AgentDesk's own spelling too.
    env.insert(QStringLiteral("CLAUDE_PROJECT_DIR"), cwd);
    env.insert(QStringLiteral("AGENTDESK_PROJECT_DIR"), cwd);
    process.setProcessEnvironment(env);
    process.setWorkingDirectory(QDir(cwd).exists() ? cwd : QDir::rootPath());
    // In the forked child: async-signal-safe calls only. A group of its own, so that a
    // timeout ends what the hook started too, and AgentDesk's death ends the group.
    process.setChildProcessModifier([announce] {
        ::setsid();
        ChildGroupGuard::announceFromChild(announce);
    });
    process.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), hook.command});
    if (!process.waitForStarted()) {
        run.startError = QStringLiteral("could not start: %1").arg(process.errorString());
        run.elapsedMs = clock.elapsed();
        return run;
    }
    const qint64 group = process.processId();
    process.write(input);
    process.closeWriteChannel();
    const qint64 deadline = qint64(hook.timeoutSeconds) * 1000;
    qint64 total = 0;
    const auto drain = [&] {
        const QByteArray out = process.readAllStandardOutput();
        const QByteArray err = process.readAllStandardError();
        total += out.size() + err.size();
        keep(run.out, out, &run.outputCapped);
        keep(run.err, err, &run.outputCapped);
    };
    bool killed = false;
    while (process.state() != QProcess::NotRunning) {
        process.waitForFinished(20);
        drain();
        if (clock.elapsed() >= deadline)
            run.timedOut = true;
        else if (total > HookRun::maxFloodBytes)
            run.flooded = true;
        else if (!abort.isAborted())
            continue;
        if (abort.isAborted() && !run.timedOut && !run.flooded)
            run.startError = QStringLiteral("stopped with the run");
        ::kill(-pid_t(group), SIGKILL);
        process.kill();
        process.waitForFinished();
        killed = true;
        break;
    }
    drain();
    guard.release(group);
    run.elapsedMs = clock.elapsed();
    if (killed)
        return run;
    if (process.exitStatus() != QProcess::NormalExit) {
        run.startError = QStringLiteral("crashed");
        return run;
    }
    run.exitCode = process.exitCode();
    if (run.exitCode == 0) {
        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(run.out.trimmed(), &error);
        if (error.error == QJsonParseError::NoError && document.isObject())
            run.json = document.object();
    }
    return run;
}

} // namespace AgentCore
