#include "contextstages.h"

namespace AgentCore {

ContextViewStage::ContextViewStage(std::shared_ptr<ContextManager> manager)
    : m_manager(std::move(manager))
{}

QLatin1String ContextViewStage::name() const
{
    return QLatin1String("context view");
}

RequestStage::Hooks ContextViewStage::hooks() const
{
    return Hook::View;
}

QList<Message> ContextViewStage::view(const QList<Message> &conversation) const
{
    return m_manager->view(conversation);
}

CompactionStage::CompactionStage(std::shared_ptr<ContextManager> manager)
    : m_manager(std::move(manager))
{}

QLatin1String CompactionStage::name() const
{
    return QLatin1String("compaction");
}

RequestStage::Hooks CompactionStage::hooks() const
{
    return Hook::BeforeRequest | Hook::ContextOverflow;
}

QList<Message> CompactionStage::beforeRequest(const Context &conversation, const AbortToken &abort)
{
    return m_manager->beforeRequest(conversation, abort);
}

std::optional<Message> CompactionStage::onContextOverflow(const Message &overflow,
                                                          const Context &conversation,
                                                          const AbortToken &abort)
{
    return m_manager->onContextOverflow(overflow, conversation, abort);
}

} // namespace AgentCore
