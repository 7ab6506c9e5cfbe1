#include "permissionmiddleware.h"
#include "translation.h"

#include "permissionrecord.h"

#include "alwaysallow.h"
#include "editedchange.h"
#include "networkrules.h"
#include "partialchange.h"
#include "pathcapability.h"
#include "permissionreview.h"
#include "permissionsettings.h"
#include "projecttrust.h"
#include "shellwritesreview.h"

#include <loop/toolexecution.h>
#include <tools/bashtool.h>
#include <tools/shelloverlay.h>
#include <tools/shellwriteapplier.h>
#include <tools/shellwrites.h>
#include <tools/textfile.h>

#include <QCoreApplication>
#include <QDir>

#include <mutex>

namespace AgentCore {

namespace {

// The arguments of the built-in tools that name a path, and what the tool does with it.
QList<std::pair<QString, PathAccess>> pathArguments(ToolKind tool, const QJsonObject &args)
{
    const auto value = [&args](const char *key, const QString &fallback = {}) {
        const QString text = args.value(QLatin1String(key)).toString();
        return text.trimmed().isEmpty() ? fallback : text;
    };
    if (tool == ToolKind::Read)
        return {{value("file_path"), PathAccess::Read}};
    if (changesFile(tool))
        return {{value("file_path"), PathAccess::Write}};
    if (searchesFiles(tool))
        return {{value("path", QStringLiteral(".")), PathAccess::Read}};
    return {};
}

bool hasSideEffects(const ToolCallContext &context)
{
    if (context.tool)
        return context.tool->hasSideEffects();
    const ToolKind kind = toolKindOf(context);
    return changesFile(kind) || kind == ToolKind::Bash;
}

struct Call
{
    PermissionSubject subject;
    QStringList outsideReads; ///< granted for this call only, once it is allowed
    /// A background command where writes are reviewed: asked for every time, then run
    /// without the overlay (runsUnreviewedInBackground).
    bool unreviewedBackground = false;
};

bool runsInBackground(const ToolCallContext &context)
{
    return toolKindOf(context) == ToolKind::Bash
           && context.arguments.value(QLatin1String("run_in_background")).toBool();
}

Call describeCall(const PermissionGate &gate, const ToolCallContext &context)
{
    Call call;
    PermissionSubject &subject = call.subject;
    subject.toolName = context.toolName;
    subject.arguments = context.arguments;
    subject.sideEffects = hasSideEffects(context);
    const ToolKind kind = toolKindOf(context);
    const QStringList roots = gate.policy->writableRoots();
    if (gate.workspace) {
        for (const auto &[argument, access] : pathArguments(kind, subject.arguments)) {
            if (argument.isEmpty())
                continue;
            // The guard's verdict does not matter here; the policy decides from the path.
            const ResolvedPath resolved = gate.workspace->resolve(argument, access);
            if (resolved.path.isEmpty())
                continue; // the tool reports the problem itself
            PermissionSubject::Path path;
            path.absolute = resolved.path;
            path.relative = resolved.insideRoot ? resolved.relative : QString();
            path.write = access == PathAccess::Write;
            path.insideWritableRoot = PathCapability::isWritable(resolved.path, roots);
            if (!path.write && !PathCapability::isInside(resolved.path, roots))
                call.outsideReads.append(resolved.path);
            subject.paths.append(path);
        }
    }
    if (kind == ToolKind::Bash) {
        const QString command = subject.arguments.value(QLatin1String("command")).toString();
        if (gate.bash) {
            subject.bash = gate.bash->analyze(command);
        } else {
            BashAnalysis analysis;
            analysis.command = command;
            analysis.problem = PermissionsTr::tr("no command analysis is available");
            subject.bash = analysis;
        }
    }
    return call;
}

QString shellWritesFolder(const PermissionGate &gate)
{
    return gate.shellWritesFolder.isEmpty()
               ? QDir::tempPath() + QStringLiteral("/agentdesk-shell-writes")
               : gate.shellWritesFolder;
}

// A command that is not read-only, in default mode, with someone to ask about its writes.
bool reviewsWrites(const PermissionGate &gate, const Call &call)
{
    if (!gate.reviewShellWrites || !gate.workspace || !call.subject.bash
        || call.subject.bash->readOnly || gate.policy->mode() != PermissionMode::Default)
        return false;
    if (!gate.reviewShellWrites())
        return false;
    if (!gate.asker) {
        // A headless run (--print): nobody can review what the command wrote. It was allowed
        // (a rule or the mode), so it runs and writes to the repository directly, as the
        // user's rule says; the checkpoint taken before it is the way back. Said (once per
        // agent: the gate's notice is), so an unreviewed write is never silent.
        if (gate.onShellWritesUnavailable) {
            gate.onShellWritesUnavailable(
                PermissionsTr::tr("Shell writes are not reviewed: nobody can be asked in this run. "
                                  "Commands a rule allows write to the repository directly; the "
                                  "checkpoint taken before each one is the way back (agentdesk "
                                  "--rewind)."));
        }
        return false;
    }
    if (const QString why = ShellOverlay::unsupportedReason(); !why.isEmpty()) {
        if (gate.onShellWritesUnavailable) {
            gate.onShellWritesUnavailable(
                PermissionsTr::tr(
                    "Shell writes are not reviewed: %1. Commands run as before and write "
                    "to the repository directly.")
                    .arg(why));
        }
        return false;
    }
    return true;
}

// Runs the command on an overlay of the repository, then asks about what it wrote and
// applies only what the reviewer accepts.
ToolResult runReviewingWrites(const PermissionGate &gate,
                              ToolCallContext &context,
                              const ToolNext &next,
                              PermissionRecord &record)
{
    const QString folder = shellWritesFolder(gate);
    QString error;
    const std::unique_ptr<ShellOverlay> overlay
        = ShellOverlay::create(gate.workspace->root(), folder + QStringLiteral("/scratch"), &error);
    if (!overlay) {
        record.writes = PermissionRecord::Writes::NotReviewed;
        record.writesError = error;
        return next(context);
    }
    context.toolOptions.edit<BashOptions>().overlay = overlay->bashOverlay();
    const ToolResult commandResult = next(context);
    const ShellWrites::Result writes = ShellWrites::compute(overlay->root(), overlay->upper());
    if (!writes.error.isEmpty()) {
        record.writes = PermissionRecord::Writes::Lost;
        record.writesError = writes.error;
        return ShellWritesReview::discarded(commandResult, {}, writes.error);
    }
    if (writes.changes.isEmpty())
        return commandResult;
    if (context.abort.isAborted() || commandResult.details.aborted) {
        record.writes = PermissionRecord::Writes::DiscardedAborted;
        return ShellWritesReview::discarded(commandResult,
                                            writes.changes,
                                            PermissionsTr::tr("the command was stopped"));
    }
    PermissionRequest request;
    request.toolCallId = context.toolCallId;
    request.subagent = context.caller;
    request.toolName = context.toolName;
    request.arguments = context.arguments;
    request.workingDirectory = gate.workspace->root();
    ShellWritesReview::describe(writes.changes, commandResult, request);
    const std::optional<PermissionAnswer> answer = gate.asker->ask(request, context.abort);
    if (!answer) {
        record.writes = PermissionRecord::Writes::DiscardedInReview;
        return ShellWritesReview::discarded(commandResult,
                                            writes.changes,
                                            PermissionsTr::tr("the review was stopped"));
    }
    const ShellWriteApplier applier(folder + QStringLiteral("/journal"));
    const ShellWriteApplier::Outcome outcome = applier.apply(overlay->root(),
                                                             writes.changes,
                                                             ShellWritesReview::choices(request,
                                                                                        answer));
    record.writes = PermissionRecord::Writes::Reviewed;
    record.writesApplied = outcome.applied.size();
    record.writesTotal = writes.changes.size();
    return ShellWritesReview::result(commandResult, request, answer, outcome);
}

ToolResult runAllowed(const PermissionGate &gate,
                      ToolCallContext &context,
                      const ToolNext &next,
                      const Call &call,
                      PermissionRecord &record)
{
    const PathCapability::Scope scope(call.outsideReads);
    // A network rule of the user's gives this command the network in the sandbox; the tool
    // learns it through its options, which the model cannot set.
    if (const auto rule = gate.policy->networkGrant(call.subject)) {
        record.networkRule = NetworkRules::describe(*rule);
        context.toolOptions.edit<BashOptions>().networkRule = record.networkRule;
    }
    // git's own work may write the repository's git folders, which the sandbox keeps
    // read-only for every other command (BashTool).
    if (call.subject.bash && call.subject.bash->gitWork)
        context.toolOptions.edit<BashOptions>().gitWritable = true;
    if (!call.unreviewedBackground && reviewsWrites(gate, call))
        return runReviewingWrites(gate, context, next, record);
    return next(context);
}

// Shell writes are reviewed once a command ends, on an overlay of the repository: a background
// command (a dev server, a watcher) does not end. It runs without the overlay, writing to the
// repository directly, and only when the person approved this very call, told so: no rule or
// mode runs it unasked, and the approval offers no rule to remember.
void runsUnreviewedInBackground(const PermissionGate &gate, Call &call, PermissionRecord &record)
{
    if (record.decision.behavior == PermissionBehavior::Deny || !reviewsWrites(gate, call))
        return;
    call.unreviewedBackground = true;
    record.decision.behavior = PermissionBehavior::Ask;
    record.decision.reason = PermissionsTr::tr(
                                 "%1; it runs in the background, so what it writes cannot be "
                                 "reviewed when it ends: once approved, it writes to the "
                                 "repository directly")
                                 .arg(record.decision.reason);
}

// The kept hunks of an Edit or Write the reviewer partly rejected: the call is rewritten to
// apply only them and runs on through next(), so the tool writes the file, the second
// validation checks the new arguments and the effect hooks see the write.
ToolResult runPartial(const PermissionGate &gate,
                      ToolCallContext &context,
                      const ToolNext &next,
                      const Call &call,
                      const PartialChange &partial,
                      const QString &feedback)
{
    if (context.abort.isAborted())
        return abortedToolResult();
    const PathCapability::Scope scope(call.outsideReads);
    PartialChange::Rewrite rewrite = partial.rewrite(*gate.workspace);
    if (rewrite.refused)
        return *rewrite.refused;
    context.arguments = std::move(rewrite.arguments);
    return partial.result(next(context), feedback);
}

// The user's own version of an Edit or Write: the call is rewritten to write exactly it and
// runs on through next(), as a partial change does.
ToolResult runEdited(const PermissionGate &gate,
                     ToolCallContext &context,
                     const ToolNext &next,
                     const Call &call,
                     const EditedChange &edited,
                     const QString &feedback)
{
    if (context.abort.isAborted())
        return abortedToolResult();
    const PathCapability::Scope scope(call.outsideReads);
    EditedChange::Rewrite rewrite = edited.rewrite(*gate.workspace);
    if (rewrite.refused)
        return *rewrite.refused;
    context.arguments = std::move(rewrite.arguments);
    return edited.result(next(context), feedback);
}

QString sentence(const QString &text)
{
    return text.endsWith(QLatin1Char('.')) ? text : text + QLatin1Char('.');
}

// "this Edit of src/a.cpp", "this Bash command (git push)", "this WebFetch call".
QString callDescription(const PermissionRequest &request)
{
    if (!request.displayPath.isEmpty())
        return PermissionsTr::tr("this %1 of %2").arg(request.toolName, request.displayPath);
    if (request.bash)
        return PermissionsTr::tr("this Bash command (%1)").arg(request.bash->command.trimmed());
    return PermissionsTr::tr("this %1 call").arg(request.toolName);
}

// \a why: what the user did, when it was more than pressing Deny.
QString deniedMessage(const PermissionRequest &request,
                      const QString &feedback,
                      const QString &why = {})
{
    const QString denied
        = why.isEmpty()
              ? PermissionsTr::tr("The user denied %1.").arg(callDescription(request))
              : PermissionsTr::tr("The user denied %1: %2.").arg(callDescription(request), why);
    if (!feedback.trimmed().isEmpty())
        return denied + QLatin1Char(' ')
               + PermissionsTr::tr("Their feedback: %1").arg(feedback.trimmed());
    return denied + QLatin1Char(' ')
           + PermissionsTr::tr(
               "Do not retry it unchanged; if the reason is unclear, ask the user.");
}

// Adds the rules of an allow-for-session/always answer and notes them in \a record.
void rememberApproval(const PermissionGate &gate,
                      const Call &call,
                      const PermissionAnswer &answer,
                      PermissionRecord &record)
{
    const bool always = answer.choice == PermissionAnswer::Choice::AllowAlways;
    record.answer = always ? PermissionRecord::Answer::AlwaysAllowed
                           : PermissionRecord::Answer::AllowedForSession;
    QList<PermissionRule> rules = answer.rule ? QList<PermissionRule>{*answer.rule}
                                              : PermissionReview::defaultRules(call.subject);
    const QString settingsPath = !gate.alwaysAllowSettingsPath.isEmpty()
                                     ? gate.alwaysAllowSettingsPath
                                     : PermissionSettings::projectLocalSettingsPath(
                                         gate.policy->repositoryRoot());
    for (PermissionRule rule : rules) {
        record.rememberedRules.append(rule.toString());
        QString error;
        if (always) {
            if (!alwaysAllow(*gate.policy, rule, settingsPath, gate.projectTrustPath, &error))
                record.notSaved.append(error);
            continue;
        }
        rule.behavior = PermissionBehavior::Allow;
        rule.source = QStringLiteral("session");
        gate.policy->addRule(rule);
    }
}

// What the person is shown: the call, its diff or command, the sandbox it gets. An error when
// the call would fail without changing anything: then nobody is asked.
QString describeRequest(const PermissionGate &gate,
                        const ToolCallContext &context,
                        const Call &call,
                        const PermissionDecision &decision,
                        PermissionRequest &request)
{
    request.toolCallId = context.toolCallId;
    request.subagent = context.caller;
    request.reason = decision.reason;
    if (const QString error = PermissionReview::describe(gate.workspace.get(),
                                                         call.subject,
                                                         request);
        !error.isEmpty())
        return error;
    if (request.sandbox && request.sandbox->sandboxed() && !request.sandbox->network) {
        // The reviewer sees what the run will get: the network, and the rule that grants it.
        if (const auto rule = gate.policy->networkGrant(call.subject)) {
            request.sandbox->network = true;
            request.sandbox->networkRule = NetworkRules::describe(*rule);
        }
    }
    if (call.unreviewedBackground)
        request.suggestedRules.clear(); // each such command is asked for (runsUnreviewedInBackground)
    if (decision.changesConfiguration) {
        // An approval of a settings change is for this change only: a rule would pre-approve
        // the next one, which the person has not seen.
        request.suggestedRules.clear();
    }
    return {};
}

// The decision asks and nobody can be asked (a headless run): denied, and said so.
ToolResult denyUnattended(const PermissionGate &gate,
                          const PermissionRequest &request,
                          const PermissionDecision &decision)
{
    if (decision.changesConfiguration) {
        if (gate.onUnattendedDeny) {
            gate.onUnattendedDeny(
                PermissionsTr::tr("Denied %1: %2, and nobody can be asked. No mode "
                                  "or rule allows it; change the settings yourself.")
                    .arg(callDescription(request), decision.reason));
        }
        return ToolResult::makeError(
            PermissionsTr::tr("Permission denied: %1: %2, and nobody can be asked in this session. "
                              "Do not retry it; finish and tell the user which setting to change.")
                .arg(callDescription(request), decision.reason));
    }
    if (gate.onUnattendedDeny) {
        gate.onUnattendedDeny(
            PermissionsTr::tr("Denied %1: it needs approval (%2) and nobody can be "
                              "asked. Allow it with a rule in .agentdesk/settings.json "
                              "or choose another permission mode.")
                .arg(callDescription(request), decision.reason));
    }
    return ToolResult::makeError(
        PermissionsTr::tr(
            "Permission denied: %1 needs the user's approval (%2), and nobody can be "
            "asked in this session. Do not retry it; continue without it, or finish and "
            "tell the user which permission you need.")
            .arg(callDescription(request), decision.reason));
}

// Runs the call the person allowed (whole or the hunks they kept), remembering rules as
// their answer says.
ToolResult runApproved(const PermissionGate &gate,
                       ToolCallContext &context,
                       const ToolNext &next,
                       const Call &call,
                       const PermissionAnswer &answer,
                       const PartialChange &partial,
                       const EditedChange &edited,
                       PermissionRecord &record)
{
    if (answer.choice == PermissionAnswer::Choice::AllowOnce)
        record.answer = PermissionRecord::Answer::AllowedOnce;
    else if (record.decision.changesConfiguration)
        record.answer = PermissionRecord::Answer::AllowedOnceOwnSettings;
    else
        rememberApproval(gate, call, answer, record);
    if (edited.isEdited() && gate.workspace) {
        record.userEdit = edited.auditText();
        return runEdited(gate, context, next, call, edited, answer.feedback);
    }
    if (!partial.isPartial() || !gate.workspace)
        return runAllowed(gate, context, next, call, record);
    record.partialChange = partial.auditText();
    return runPartial(gate, context, next, call, partial, answer.feedback);
}

ToolResult askPerson(const PermissionGate &gate,
                     ToolCallContext &context,
                     const ToolNext &next,
                     const Call &call,
                     PermissionRecord &record)
{
    const PermissionDecision &decision = record.decision;
    PermissionRequest request;
    if (const QString error = describeRequest(gate, context, call, decision, request);
        !error.isEmpty()) {
        // The call would fail without changing anything: let the model fix it first.
        record.answer = PermissionRecord::Answer::NotAsked;
        return ToolResult::makeError(error);
    }
    if (!gate.asker) {
        record.answer = PermissionRecord::Answer::NobodyToAsk;
        return denyUnattended(gate, request, decision);
    }
    if (gate.checkProposal && !request.filePath.isEmpty()) {
        request.proposalCheck = gate.checkProposal(request.filePath,
                                                   request.oldText,
                                                   request.newText,
                                                   request.newFile);
    }

    const std::optional<PermissionAnswer> answer = gate.asker->ask(request, context.abort);
    if (!answer) {
        record.answer = PermissionRecord::Answer::Aborted;
        return ToolResult::makeError(
            PermissionsTr::tr("Aborted while waiting for the user to approve %1.")
                .arg(callDescription(request)));
    }
    if (answer->choice == PermissionAnswer::Choice::Deny) {
        record.answer = PermissionRecord::Answer::Denied;
        record.feedback = answer->feedback;
        return ToolResult::makeError(deniedMessage(request, answer->feedback));
    }
    const EditedChange edited = EditedChange::of(request, *answer);
    if (edited.changesNothing()) {
        // The user's version is the file as it is: nothing would be written.
        record.answer = PermissionRecord::Answer::Denied;
        record.feedback = answer->feedback;
        return ToolResult::makeError(
            deniedMessage(request,
                          answer->feedback,
                          PermissionsTr::tr("they edited the change back to the file as it is")));
    }
    // A user's version already leaves out the hunks they rejected (PermissionAnswer::userText).
    const PartialChange partial = answer->userText ? PartialChange()
                                                   : PartialChange::of(request, *answer);
    if (partial.rejectsEverything()) {
        // Nothing would be written: a deny, and no rule is remembered.
        record.answer = PermissionRecord::Answer::DeniedEveryHunk;
        record.feedback = answer->feedback;
        return ToolResult::makeError(
            deniedMessage(request,
                          answer->feedback,
                          TextFile::plural(partial.hunkCount(),
                                           PermissionsTr::tr(
                                               "they rejected the only hunk of the change"),
                                           PermissionsTr::tr(
                                               "they rejected all %1 hunks of the change"))));
    }
    return runApproved(gate, context, next, call, *answer, partial, edited, record);
}

// The policy's decision, then what the person says where it asks.
ToolResult permit(const PermissionGate &gate,
                  ToolCallContext &context,
                  const ToolNext &next,
                  PermissionRecord &record)
{
    Call call = describeCall(gate, context);
    record.decision = gate.policy->decide(call.subject);
    if (runsInBackground(context))
        runsUnreviewedInBackground(gate, call, record);
    switch (record.decision.behavior) {
    case PermissionBehavior::Allow:
        return runAllowed(gate, context, next, call, record);
    case PermissionBehavior::Deny:
        return ToolResult::makeError(
            PermissionsTr::tr(
                "Permission denied: %1 Do not retry the same call; find another way or "
                "ask the user.")
                .arg(sentence(record.decision.reason)));
    case PermissionBehavior::Ask:
        break;
    }
    return askPerson(gate, context, next, call, record);
}

} // namespace

ToolMiddleware makePermissionMiddleware(const PermissionGate &gate)
{
    Q_ASSERT(gate.policy);
    if (gate.workspace) {
        const std::weak_ptr<PermissionPolicy> policy = gate.policy;
        const QString root = gate.workspace->root();
        PathCapability::install(*gate.workspace, [policy, root] {
            const std::shared_ptr<PermissionPolicy> alive = policy.lock();
            return alive ? alive->writableRoots() : QStringList{root};
        });
    }
    PermissionGate own = gate;
    if (gate.onShellWritesUnavailable) {
        // Once per middleware, that is per agent: every session of a window is told, not only
        // the first one of the process.
        own.onShellWritesUnavailable =
            [told = std::make_shared<std::once_flag>(), notice = gate.onShellWritesUnavailable](
                const QString &message) { std::call_once(*told, [&] { notice(message); }); };
    }
    return [gate = std::move(own)](ToolCallContext &context, const ToolNext &next) {
        PermissionRecord record;
        // The audit's line is written here only: for the inner layers before the call runs,
        // and once it is done with what happened on the way.
        const ToolNext recorded = [&record, &next](ToolCallContext &call) {
            call.permissionDecision = record.text();
            return next(call);
        };
        ToolResult result = permit(gate, context, recorded, record);
        context.permissionDecision = record.text();
        return result;
    };
}

} // namespace AgentCore
