#pragma once

#include <loop/messagepages.h>
#include <loop/requestpipeline.h>
#include <loop/toolslot.h>

#include <QHash>
#include <QMutex>

#include <functional>
#include <memory>

namespace AgentCore {

class BashAnalyzer;
class CheckpointRecorder;
class ContextManager;
class PermissionPolicy;
class ToolWorkspace;
struct FileChange;

// The stages CodingAgent adds around the loop's requests and side effects (its pipeline is
// listed in one place: CodingAgent::assemble). Each does one job.

/// The first sandboxed command would wait for bwrap's probe (a process start of its own): it
/// runs while the first request is out instead (SandboxProbe::warmUp).
class SandboxWarmUpStage final : public RequestStage
{
public:
    explicit SandboxWarmUpStage(QString bwrapPath);
    QLatin1String name() const override;
    Hooks hooks() const override;
    QList<Message> beforeRequest(const Context &conversation, const AbortToken &abort) override;

private:
    QString m_bwrapPath;
};

/// Read may answer "unchanged" only about an output the model still has: each request tells
/// the workspace's ReadLedger which outputs it carries (a compaction or a dropped output
/// forgets the rest). Changes no message: after the context view.
class ReadLedgerStage final : public RequestStage
{
public:
    ReadLedgerStage(std::shared_ptr<ToolWorkspace> workspace,
                    std::shared_ptr<ContextManager> context);
    QLatin1String name() const override;
    Hooks hooks() const override;
    QList<Message> view(const QList<Message> &messages) const override;

private:
    std::shared_ptr<ToolWorkspace> m_workspace;
    std::shared_ptr<ContextManager> m_context;
};

/// The request carries whole messages where the history holds stubs of tool results kept in
/// the session file (Message::isPaged): each is read back through the pages (their bounded
/// cache, else one read of its record), so that the bytes sent are those of the whole
/// conversation and the provider's cache prefix stays as it was. After the context view (what
/// it leaves out is never read), before the read ledger (it sees what is sent).
class PagedMessagesStage final : public RequestStage
{
public:
    explicit PagedMessagesStage(std::shared_ptr<const MessagePages> pages);
    QLatin1String name() const override;
    Hooks hooks() const override;
    QList<Message> view(const QList<Message> &messages) const override;

private:
    std::shared_ptr<const MessagePages> m_pages;
};

/// In plan mode the side-effecting tools of \a tools but Bash leave the request
/// (PermissionPolicy::prepareContext), and those \a liveTools holds at the time.
class PlanModeStage final : public RequestStage
{
public:
    PlanModeStage(std::shared_ptr<PermissionPolicy> policy,
                  const QList<AgentToolPtr> &tools,
                  std::shared_ptr<ToolSlot> liveTools);
    QLatin1String name() const override;
    Hooks hooks() const override;
    Context prepare(Context context) const override;

private:
    std::shared_ptr<PermissionPolicy> m_policy;
    QStringList m_sideEffectTools;
    std::shared_ptr<ToolSlot> m_liveTools; // null: none
};

/// A checkpoint snapshot starts at each turn (CheckpointRecorder::turnStarted), with the
/// conversation as the loop gave it (without what the stages before it appended).
class CheckpointTurnStage final : public RequestStage
{
public:
    explicit CheckpointTurnStage(std::shared_ptr<CheckpointRecorder> recorder);
    QLatin1String name() const override;
    Hooks hooks() const override;
    QList<Message> beforeRequest(const Context &conversation, const AbortToken &abort) override;

private:
    std::shared_ptr<CheckpointRecorder> m_recorder;
};

/// Each side effect waits for the turn's snapshot (CheckpointRecorder::beforeEffect) and tells
/// the recorder when it is done; a read-only Bash command is no side effect. The calls whose
/// effect the recorder saw are kept here between the two hooks, by their ToolCallContext (one
/// object for both hooks of a call; tool threads run calls concurrently).
class EffectGuardStage final : public RequestStage
{
public:
    EffectGuardStage(std::shared_ptr<CheckpointRecorder> recorder,
                     std::shared_ptr<BashAnalyzer> bash);
    QLatin1String name() const override;
    Hooks hooks() const override;
    void beforeEffect(const ToolCallContext &context) override;
    void afterEffect(const ToolCallContext &context, const ToolResult &result) override;

private:
    std::shared_ptr<CheckpointRecorder> m_recorder;
    std::shared_ptr<BashAnalyzer> m_bash;
    QMutex m_mutex;
    QHash<const ToolCallContext *, bool> m_recorded; // under m_mutex; calls between the hooks
};

/// Tells the owner about every file a side-effecting call changed (FileChange::of its result).
class FileChangeStage final : public RequestStage
{
public:
    explicit FileChangeStage(std::function<void(const FileChange &change)> onFileChanged);
    QLatin1String name() const override;
    Hooks hooks() const override;
    void afterEffect(const ToolCallContext &context, const ToolResult &result) override;

private:
    std::function<void(const FileChange &change)> m_onFileChanged;
};

} // namespace AgentCore
