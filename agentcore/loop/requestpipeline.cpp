#include "requestpipeline.h"

#include <QStringList>

namespace AgentCore {

QList<Message> RequestStage::view(const QList<Message> &messages) const
{
    return messages;
}

QList<Message> RequestStage::beforeRequest(const Context &, const AbortToken &)
{
    return {};
}

std::optional<Message> RequestStage::onContextOverflow(const Message &,
                                                       const Context &,
                                                       const AbortToken &)
{
    return std::nullopt;
}

Context RequestStage::prepare(Context context) const
{
    return context;
}

void RequestStage::beforeEffect(const ToolCallContext &) {}

void RequestStage::afterEffect(const ToolCallContext &, const ToolResult &) {}

RequestPipeline::RequestPipeline(std::vector<RequestStagePtr> stages)
{
    for (RequestStagePtr &stage : stages)
        add(std::move(stage));
}

RequestPipeline &RequestPipeline::add(RequestStagePtr stage)
{
    if (stage)
        m_stages.push_back(std::move(stage));
    return *this;
}

const std::vector<RequestStagePtr> &RequestPipeline::stages() const
{
    return m_stages;
}

QStringList RequestPipeline::names() const
{
    QStringList names;
    for (const RequestStagePtr &stage : m_stages)
        names.append(stage->name());
    return names;
}

void RequestPipeline::installInto(AgentLoopConfig &loop) const
{
    // Each seam gets only the stages that take part in it, so a call walks no others.
    using Stages = std::shared_ptr<const std::vector<RequestStagePtr>>;
    const auto taking = [this](RequestStage::Hook hook) -> Stages {
        std::vector<RequestStagePtr> stages;
        for (const RequestStagePtr &stage : m_stages) {
            if (stage->hooks().testFlag(hook))
                stages.push_back(stage);
        }
        if (stages.empty())
            return {};
        return std::make_shared<const std::vector<RequestStagePtr>>(std::move(stages));
    };

    if (Stages stages = taking(RequestStage::Hook::View)) {
        loop.contextView = [stages](const QList<Message> &conversation) {
            QList<Message> messages = conversation;
            for (const RequestStagePtr &stage : *stages)
                messages = stage->view(messages);
            return messages;
        };
    }
    if (Stages stages = taking(RequestStage::Hook::BeforeRequest)) {
        loop.beforeRequest = [stages](const Context &conversation, const AbortToken &abort) {
            QList<Message> added;
            for (const RequestStagePtr &stage : *stages)
                added += stage->beforeRequest(conversation, abort);
            return added;
        };
    }
    if (Stages stages = taking(RequestStage::Hook::ContextOverflow)) {
        loop.onContextOverflow = [stages](const Message &overflow,
                                          const Context &conversation,
                                          const AbortToken &abort) -> std::optional<Message> {
            for (const RequestStagePtr &stage : *stages) {
                if (std::optional<Message> retry = stage->onContextOverflow(overflow,
                                                                            conversation,
                                                                            abort))
                    return retry;
            }
            return std::nullopt;
        };
    }
    if (Stages stages = taking(RequestStage::Hook::Prepare)) {
        loop.prepareContext = [stages](Context context) {
            for (const RequestStagePtr &stage : *stages)
                context = stage->prepare(std::move(context));
            return context;
        };
    }
    if (Stages stages = taking(RequestStage::Hook::BeforeEffect)) {
        loop.effects.beforeEffect = [stages](const ToolCallContext &context) {
            for (const RequestStagePtr &stage : *stages)
                stage->beforeEffect(context);
        };
    }
    if (Stages stages = taking(RequestStage::Hook::AfterEffect)) {
        loop.effects.afterEffect = [stages](const ToolCallContext &context,
                                            const ToolResult &result) {
            for (const RequestStagePtr &stage : *stages)
                stage->afterEffect(context, result);
        };
    }
}

} // namespace AgentCore
