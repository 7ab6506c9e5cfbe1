#pragma once

#include "contextmanager.h"

#include <loop/requestpipeline.h>

#include <memory>

namespace AgentCore {

/// The request carries the manager's view of the conversation: what a compaction replaced and
/// what the user dropped are left out (ContextManager::view). The first view stage.
class ContextViewStage final : public RequestStage
{
public:
    explicit ContextViewStage(std::shared_ptr<ContextManager> manager);
    QLatin1String name() const override;
    Hooks hooks() const override;
    QList<Message> view(const QList<Message> &conversation) const override;

private:
    std::shared_ptr<ContextManager> m_manager;
};

/// Keeps the request within the window: counts it before it goes out and appends a summary
/// that is ready (or waits for one it cannot do without), and compacts on the provider's
/// overflow so the loop sends the turn again (ContextManager::beforeRequest, onContextOverflow).
class CompactionStage final : public RequestStage
{
public:
    explicit CompactionStage(std::shared_ptr<ContextManager> manager);
    QLatin1String name() const override;
    Hooks hooks() const override;
    QList<Message> beforeRequest(const Context &conversation, const AbortToken &abort) override;
    std::optional<Message> onContextOverflow(const Message &overflow,
                                             const Context &conversation,
                                             const AbortToken &abort) override;

private:
    std::shared_ptr<ContextManager> m_manager;
};

} // namespace AgentCore
