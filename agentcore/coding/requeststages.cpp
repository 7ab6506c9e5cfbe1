#include "requeststages.h"

#include <checkpoint/checkpointrecorder.h>
#include <context/contextmanager.h>
#include <permissions/bashanalysis.h>
#include <permissions/permissionpolicy.h>
#include <tools/filechange.h>
#include <tools/sandboxprobe.h>
#include <tools/toolworkspace.h>

namespace AgentCore {

namespace {
QStringList sideEffectToolNames(const QList<AgentToolPtr> &tools)
{
    QStringList names;
    for (const AgentToolPtr &tool : tools) {
        if (tool->hasSideEffects())
            names.append(tool->definition().name);
    }
    return names;
}
} // namespace

SandboxWarmUpStage::SandboxWarmUpStage(QString bwrapPath)
    : m_bwrapPath(std::move(bwrapPath))
{}

QLatin1String SandboxWarmUpStage::name() const
{
    return QLatin1String("sandbox warm-up");
}

RequestStage::Hooks SandboxWarmUpStage::hooks() const
{
    return Hook::BeforeRequest;
}

QList<Message> SandboxWarmUpStage::beforeRequest(const Context &, const AbortToken &)
{
    SandboxProbe::warmUp(m_bwrapPath);
    return {};
}

ReadLedgerStage::ReadLedgerStage(std::shared_ptr<ToolWorkspace> workspace,
                                 std::shared_ptr<ContextManager> context)
    : m_workspace(std::move(workspace))
    , m_context(std::move(context))
{}

QLatin1String ReadLedgerStage::name() const
{
    return QLatin1String("read ledger");
}

RequestStage::Hooks ReadLedgerStage::hooks() const
{
    return Hook::View;
}

QList<Message> ReadLedgerStage::view(const QList<Message> &messages) const
{
    ReadLedger &ledger = m_workspace->readLedger();
    if (!ledger.isEmpty())
        ledger.retainShown(messages, m_context->edits().droppedToolOutputs);
    return messages;
}

PagedMessagesStage::PagedMessagesStage(std::shared_ptr<const MessagePages> pages)
    : m_pages(std::move(pages))
{}

QLatin1String PagedMessagesStage::name() const
{
    return QLatin1String("paged messages");
}

RequestStage::Hooks PagedMessagesStage::hooks() const
{
    return Hook::View;
}

QList<Message> PagedMessagesStage::view(const QList<Message> &messages) const
{
    return MessagePages::whole(messages, m_pages.get());
}

PlanModeStage::PlanModeStage(std::shared_ptr<PermissionPolicy> policy,
                             const QList<AgentToolPtr> &tools,
                             std::shared_ptr<ToolSlot> liveTools)
    : m_policy(std::move(policy))
    , m_sideEffectTools(sideEffectToolNames(tools))
    , m_liveTools(std::move(liveTools))
{}

QLatin1String PlanModeStage::name() const
{
    return QLatin1String("plan mode");
}

RequestStage::Hooks PlanModeStage::hooks() const
{
    return Hook::Prepare;
}

Context PlanModeStage::prepare(Context context) const
{
    if (!m_liveTools)
        return m_policy->prepareContext(std::move(context), m_sideEffectTools);
    return m_policy->prepareContext(std::move(context),
                                    m_sideEffectTools + sideEffectToolNames(m_liveTools->tools()));
}

CheckpointTurnStage::CheckpointTurnStage(std::shared_ptr<CheckpointRecorder> recorder)
    : m_recorder(std::move(recorder))
{}

QLatin1String CheckpointTurnStage::name() const
{
    return QLatin1String("checkpoint");
}

RequestStage::Hooks CheckpointTurnStage::hooks() const
{
    return Hook::BeforeRequest;
}

QList<Message> CheckpointTurnStage::beforeRequest(const Context &conversation, const AbortToken &)
{
    const QList<Message> &messages = conversation.messages;
    const bool userMessage = !messages.isEmpty()
                             && messages.constLast().role == Message::Role::User;
    const auto timeFromEnd = [&messages](qsizetype back) {
        return messages.size() >= back ? messages.at(messages.size() - back).timestamp : 0;
    };
    m_recorder->turnStarted(int(messages.size()), userMessage, timeFromEnd(1), timeFromEnd(2));
    return {};
}

EffectGuardStage::EffectGuardStage(std::shared_ptr<CheckpointRecorder> recorder,
                                   std::shared_ptr<BashAnalyzer> bash)
    : m_recorder(std::move(recorder))
    , m_bash(std::move(bash))
{}

QLatin1String EffectGuardStage::name() const
{
    return QLatin1String("effect guard");
}

RequestStage::Hooks EffectGuardStage::hooks() const
{
    return Hook::BeforeEffect | Hook::AfterEffect;
}

void EffectGuardStage::beforeEffect(const ToolCallContext &context)
{
    const bool effect
        = toolKindOf(context) != ToolKind::Bash
          || !m_bash->analyze(context.arguments.value(QLatin1String("command")).toString()).readOnly;
    {
        // Also when it is none: an entry a call left behind (its afterEffect never came) must
        // not count for the next call with the same context object.
        QMutexLocker locker(&m_mutex);
        m_recorded.insert(&context, effect);
    }
    if (effect)
        m_recorder->beforeEffect(context.toolName,
                                 [abort = context.abort] { return abort.isAborted(); });
}

void EffectGuardStage::afterEffect(const ToolCallContext &context, const ToolResult &)
{
    bool recorded = false;
    {
        QMutexLocker locker(&m_mutex);
        recorded = m_recorded.take(&context);
    }
    if (recorded)
        m_recorder->afterEffect();
}

FileChangeStage::FileChangeStage(std::function<void(const FileChange &change)> onFileChanged)
    : m_onFileChanged(std::move(onFileChanged))
{}

QLatin1String FileChangeStage::name() const
{
    return QLatin1String("file changes");
}

RequestStage::Hooks FileChangeStage::hooks() const
{
    return Hook::AfterEffect;
}

void FileChangeStage::afterEffect(const ToolCallContext &, const ToolResult &result)
{
    if (const std::optional<FileChange> change = FileChange::of(result))
        m_onFileChanged(*change);
}

} // namespace AgentCore
