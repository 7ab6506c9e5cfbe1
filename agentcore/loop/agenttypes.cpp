#include "agenttypes.h"

#include <array>
#include <utility>

namespace AgentCore {

namespace {
constexpr std::array eventTypeNames{
    std::pair{AgentEvent::Type::AgentStart, "agent_start"},
    std::pair{AgentEvent::Type::AgentEnd, "agent_end"},
    std::pair{AgentEvent::Type::TurnStart, "turn_start"},
    std::pair{AgentEvent::Type::TurnEnd, "turn_end"},
    std::pair{AgentEvent::Type::MessageStart, "message_start"},
    std::pair{AgentEvent::Type::MessageUpdate, "message_update"},
    std::pair{AgentEvent::Type::MessageEnd, "message_end"},
    std::pair{AgentEvent::Type::MessageDiscard, "message_discard"},
    std::pair{AgentEvent::Type::ToolExecutionStart, "tool_execution_start"},
    std::pair{AgentEvent::Type::ToolExecutionUpdate, "tool_execution_update"},
    std::pair{AgentEvent::Type::ToolExecutionEnd, "tool_execution_end"},
};

} // namespace

AgentEvent::AgentEvent() = default;
AgentEvent::AgentEvent(const AgentEvent &other) = default;
AgentEvent &AgentEvent::operator=(const AgentEvent &other) = default;
AgentEvent::~AgentEvent() = default;

AgentEvent::AgentEvent(Type type, const Message &message)
    : type(type)
    , message(message)
{}

AgentEvent::AgentEvent(Type type, const StreamEvent &streamEvent)
    : type(type)
    , streamEvent(streamEvent)
{}

ToolKind toolKindOf(const ToolCallContext &context)
{
    return context.tool ? context.tool->kind() : toolKind(context.toolName);
}

ToolResult ToolResult::makeText(const QString &text, const ToolDetails &details)
{
    ToolResult result;
    result.content.append(ContentBlock::makeText(text));
    result.details = details;
    return result;
}

ToolResult ToolResult::makeError(const QString &message)
{
    ToolResult result;
    result.content.append(ContentBlock::makeText(message));
    result.isError = true;
    return result;
}

QString ToolResult::text() const
{
    QString joined;
    for (const ContentBlock &block : content) {
        if (block.isText())
            joined += block.text;
    }
    return joined;
}

QString agentEventTypeName(AgentEvent::Type type)
{
    for (const auto &[value, name] : eventTypeNames) {
        if (value == type)
            return QString::fromLatin1(name);
    }
    return {};
}

CompiledSchema AgentTool::compiledSchema() const
{
    std::call_once(m_schemaOnce, [this] { m_schema = CompiledSchema(definition().parameters); });
    return m_schema;
}

} // namespace AgentCore
