#include "hookseams.h"

#include <QJsonArray>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>

namespace AgentCore {

namespace {

QJsonObject toolResponse(const ToolCallContext &context, const ToolResult &result)
{
    QJsonObject response{
        {QStringLiteral("content"), result.text()},
        {QStringLiteral("is_error"), result.isError},
        {QStringLiteral("success"), !result.isError},
    };
    const QString file = context.arguments.value(QLatin1String("file_path")).toString();
    if (!file.isEmpty())
        response.insert(QStringLiteral("filePath"), file);
    return response;
}

QString deniedText(const QString &reason)
{
    return QStringLiteral("A PreToolUse hook denied this call: %1").arg(reason);
}

// Asks as the asker it wraps, after starting the Notification hooks (not waiting for them).
class NotifyingAsker final : public PermissionAsker
{
public:
    NotifyingAsker(std::shared_ptr<PermissionAsker> asker, std::shared_ptr<const HookRunner> runner)
        : m_asker(std::move(asker))
        , m_runner(std::move(runner))
    {}

    std::optional<PermissionAnswer> ask(const PermissionRequest &request,
                                        const AbortToken &abort) override
    {
        if (m_runner->has(HookEventName::Notification)) {
            const QString type = QStringLiteral("permission_prompt");
            const QJsonObject fields{{QStringLiteral("message"),
                                      QStringLiteral("AgentDesk needs your permission to use %1")
                                          .arg(request.toolName)},
                                     {QStringLiteral("notification_type"), type}};
            // On the global pool, which the application waits for at its end; a hook that
            // hangs stops at its own timeout.
            (void) QtConcurrent::run([runner = m_runner, type, fields] {
                runner->run(HookEventName::Notification, type, fields);
            });
        }
        return m_asker->ask(request, abort);
    }

private:
    std::shared_ptr<PermissionAsker> m_asker;
    std::shared_ptr<const HookRunner> m_runner;
};

} // namespace

std::shared_ptr<PermissionAsker> makeNotifyingAsker(std::shared_ptr<PermissionAsker> asker,
                                                    std::shared_ptr<const HookRunner> runner)
{
    if (!asker || !runner)
        return asker;
    return std::make_shared<NotifyingAsker>(std::move(asker), std::move(runner));
}

QString hookContextText(HookEventName event, const QStringList &context)
{
    return QStringLiteral("<%1-hook>\n%2\n</%1-hook>")
        .arg(hookEventNameText(event), context.join(QLatin1Char('\n')));
}

ToolMiddleware makeHookMiddleware(HookGate gate)
{
    return [gate](ToolCallContext &context, const ToolNext &next) -> ToolResult {
        const HookRunner &runner = *gate.runner;
        if (runner.has(HookEventName::PreToolUse)) {
            const HookOutcome before = runner.run(HookEventName::PreToolUse,
                                                  context.toolName,
                                                  {{QStringLiteral("tool_name"), context.toolName},
                                                   {QStringLiteral("tool_input"),
                                                    context.arguments}},
                                                  context.abort,
                                                  context.toolCallId);
            if (before.stop)
                context.abort.abort();
            if (before.blocked || before.permissionDecision == u"deny") {
                const QString reason = before.blockReason.isEmpty() ? before.permissionReason
                                                                    : before.blockReason;
                context.permissionDecision = QStringLiteral("deny: hook: ") + reason;
                return ToolResult::makeError(deniedText(reason));
            }
            if (before.stop) {
                context.permissionDecision = QStringLiteral("deny: hook stopped the run");
                return ToolResult::makeError(
                    QStringLiteral("A hook stopped the run: %1").arg(before.stopReason));
            }
            if (before.updatedInput) {
                QJsonObject updated = *before.updatedInput;
                if (context.tool) {
                    const ArgumentValidation valid = context.tool->compiledSchema()
                                                         .validate(context.toolName, updated);
                    if (!valid.ok) {
                        context.permissionDecision = QStringLiteral("deny: hook's updatedInput");
                        return ToolResult::makeError(
                            QStringLiteral("A PreToolUse hook changed the input to one the tool "
                                           "does not take: %1")
                                .arg(valid.error));
                    }
                    updated = valid.arguments;
                }
                context.arguments = updated;
            }
            if (before.permissionDecision == u"ask") {
                PermissionRequest request;
                request.toolCallId = context.toolCallId;
                request.toolName = context.toolName;
                request.arguments = context.arguments;
                request.subagent = context.caller;
                request.reason = before.permissionReason.isEmpty()
                                     ? QStringLiteral("A hook asks about this call")
                                     : QStringLiteral("A hook asks: %1").arg(before.permissionReason);
                if (!gate.asker) {
                    const QString message = QStringLiteral(
                                                "%1 was denied: a hook asks, and nobody can answer "
                                                "(%2)")
                                                .arg(context.toolName, request.reason);
                    if (gate.onUnattendedDeny)
                        gate.onUnattendedDeny(message);
                    context.permissionDecision = QStringLiteral("deny: hook asks, unattended");
                    return ToolResult::makeError(message);
                }
                const std::optional<PermissionAnswer> answer = gate.asker->ask(request,
                                                                               context.abort);
                if (!answer || answer->choice == PermissionAnswer::Choice::Deny) {
                    context.permissionDecision = QStringLiteral("deny: asked for a hook");
                    QString message = QStringLiteral("The user denied this call (a hook asked).");
                    if (answer && !answer->feedback.isEmpty())
                        message += QStringLiteral(" Their feedback: ") + answer->feedback;
                    return ToolResult::makeError(message);
                }
                // Any allow is for this call only; the policy still decides below.
            }
        }
        ToolResult result = next(context);
        if (!runner.has(HookEventName::PostToolUse) || context.abort.isAborted())
            return result;
        const HookOutcome after = runner.run(HookEventName::PostToolUse,
                                             context.toolName,
                                             {{QStringLiteral("tool_name"), context.toolName},
                                              {QStringLiteral("tool_input"), context.arguments},
                                              {QStringLiteral("tool_response"),
                                               toolResponse(context, result)}},
                                             context.abort,
                                             context.toolCallId);
        QStringList notes;
        if (after.blocked)
            notes.append(QStringLiteral("PostToolUse hook feedback:\n") + after.blockReason);
        if (!after.additionalContext.isEmpty())
            notes.append(hookContextText(HookEventName::PostToolUse, after.additionalContext));
        if (!notes.isEmpty()) {
            ContentBlock block;
            block.type = ContentBlock::Type::Text;
            block.text = notes.join(QStringLiteral("\n\n"));
            result.content.append(block);
        }
        if (after.stop)
            context.abort.abort();
        return result;
    };
}

std::function<QList<Message>(const AbortToken &abort)> makeStopHook(
    std::shared_ptr<const HookRunner> runner, HookEventName event)
{
    auto continued = std::make_shared<std::atomic_int>(0);
    return [runner, continued, event](const AbortToken &abort) -> QList<Message> {
        if (!runner->has(event))
            return {};
        const int times = continued->load();
        if (times >= maxStopContinuations) {
            continued->store(0);
            return {};
        }
        const HookOutcome outcome = runner->run(event,
                                                {},
                                                {{QStringLiteral("stop_hook_active"), times > 0}},
                                                abort);
        if (!outcome.blocked || outcome.stop || abort.isAborted()) {
            continued->store(0);
            return {};
        }
        continued->store(times + 1);
        return {Message::makeUser(QStringLiteral("A %1 hook asks you to go on: %2")
                                      .arg(hookEventNameText(event), outcome.blockReason))};
    };
}

} // namespace AgentCore
