#include "streamjson.h"

#include <ai/messagejson.h>

#include <QJsonArray>
#include <QJsonDocument>

#include <array>
#include <utility>

namespace App {

using AgentCore::AgentEvent;
using AgentCore::Message;
using AgentCore::StreamEvent;

namespace {

constexpr std::array streamEventNames{
    std::pair{StreamEvent::Type::Start, "start"},
    std::pair{StreamEvent::Type::TextStart, "text_start"},
    std::pair{StreamEvent::Type::TextDelta, "text_delta"},
    std::pair{StreamEvent::Type::TextEnd, "text_end"},
    std::pair{StreamEvent::Type::ThinkingStart, "thinking_start"},
    std::pair{StreamEvent::Type::ThinkingDelta, "thinking_delta"},
    std::pair{StreamEvent::Type::ThinkingEnd, "thinking_end"},
    std::pair{StreamEvent::Type::ToolCallStart, "toolcall_start"},
    std::pair{StreamEvent::Type::ToolCallDelta, "toolcall_delta"},
    std::pair{StreamEvent::Type::ToolCallEnd, "toolcall_end"},
    std::pair{StreamEvent::Type::Retry, "retry"},
    std::pair{StreamEvent::Type::Done, "done"},
    std::pair{StreamEvent::Type::Error, "error"},
};

QJsonArray messagesToJson(const QList<Message> &messages)
{
    QJsonArray array;
    for (const Message &message : messages)
        array.append(AgentCore::messageToJson(message));
    return array;
}

void insertToolCall(QJsonObject &json, const AgentEvent &event)
{
    json.insert(u"toolCallId", event.toolCallId);
    json.insert(u"toolName", event.toolName);
}

} // namespace

QString StreamJson::streamEventTypeName(StreamEvent::Type type)
{
    for (const auto &[value, name] : streamEventNames) {
        if (value == type)
            return QLatin1String(name);
    }
    return {};
}

QJsonObject StreamJson::fromStreamEvent(const StreamEvent &event)
{
    QJsonObject json{{QStringLiteral("type"), streamEventTypeName(event.type)}};
    if (event.contentIndex >= 0)
        json.insert(u"contentIndex", event.contentIndex);
    if (!event.delta.isEmpty())
        json.insert(u"delta", event.delta);
    switch (event.type) {
    case StreamEvent::Type::ToolCallStart:
        json.insert(u"toolCallId", event.toolCallId);
        json.insert(u"toolName", event.toolName);
        break;
    case StreamEvent::Type::ToolCallEnd:
        json.insert(u"toolCallId", event.toolCallId);
        json.insert(u"toolName", event.toolName);
        json.insert(u"arguments", event.arguments);
        break;
    case StreamEvent::Type::Retry:
        json.insert(u"retryAttempt", event.retryAttempt);
        json.insert(u"retryDelayMs", event.retryDelayMs);
        json.insert(u"errorMessage", event.errorMessage);
        break;
    case StreamEvent::Type::Done:
        json.insert(u"stopReason", AgentCore::stopReasonName(event.stopReason));
        break;
    case StreamEvent::Type::Error:
        json.insert(u"stopReason", AgentCore::stopReasonName(event.stopReason));
        json.insert(u"errorMessage", event.errorMessage);
        break;
    default:
        break;
    }
    return json;
}

QJsonObject StreamJson::fromToolResult(const AgentCore::ToolResult &result)
{
    // The content blocks in the same form as a message's.
    Message carrier;
    carrier.role = Message::Role::ToolResult;
    carrier.content = result.content;
    QJsonObject json{
        {QStringLiteral("content"), AgentCore::messageToJson(carrier).value(u"content")},
        {QStringLiteral("isError"), result.isError},
    };
    if (!result.details.isEmpty())
        json.insert(u"details", result.details.toJson());
    return json;
}

QJsonObject StreamJson::fromEvent(const AgentEvent &event)
{
    QJsonObject json{{QStringLiteral("type"), AgentCore::agentEventTypeName(event.type)}};
    switch (event.type) {
    case AgentEvent::Type::AgentStart:
    case AgentEvent::Type::TurnStart:
        break;
    case AgentEvent::Type::MessageDiscard:
        // Why the draft is withdrawn: what follows differs (a retry with a repair directive,
        // or a compaction and the same request again).
        if (event.message.stopReason == AgentCore::StopReason::ContextOverflow)
            json.insert(u"reason", QStringLiteral("context_overflow"));
        else if (event.message.protocolViolation)
            json.insert(u"reason", QStringLiteral("protocol_violation"));
        break;
    case AgentEvent::Type::AgentEnd:
        json.insert(u"newMessages", messagesToJson(event.newMessages));
        break;
    case AgentEvent::Type::TurnEnd:
        json.insert(u"message", AgentCore::messageToJson(event.message));
        json.insert(u"toolResults", messagesToJson(event.toolResults));
        json.insert(u"hasMoreToolCalls", event.hasMoreToolCalls);
        break;
    case AgentEvent::Type::MessageStart:
    case AgentEvent::Type::MessageEnd:
        json.insert(u"message", AgentCore::messageToJson(event.message));
        break;
    case AgentEvent::Type::MessageUpdate:
        json.insert(u"event", fromStreamEvent(event.streamEvent));
        break;
    case AgentEvent::Type::ToolExecutionStart:
        insertToolCall(json, event);
        json.insert(u"arguments", event.arguments);
        break;
    case AgentEvent::Type::ToolExecutionUpdate:
        insertToolCall(json, event);
        json.insert(u"partialResult", fromToolResult(event.result));
        break;
    case AgentEvent::Type::ToolExecutionEnd:
        insertToolCall(json, event);
        json.insert(u"result", fromToolResult(event.result));
        json.insert(u"isError", event.isError);
        break;
    }
    return json;
}

QByteArray StreamJson::line(const QJsonObject &object)
{
    // "type" first, so that a line can be recognised by its start (grep '^{"type":"agent_end"').
    QJsonObject rest = object;
    const QJsonValue type = rest.take(u"type");
    const QByteArray fields = QJsonDocument(rest).toJson(QJsonDocument::Compact);
    if (type.isUndefined())
        return fields + '\n';
    const QByteArray head
        = "{\"type\":"
          + QJsonDocument(QJsonArray{type}).toJson(QJsonDocument::Compact).mid(1).chopped(1);
    return head + (rest.isEmpty() ? QByteArray("}") : ',' + fields.mid(1)) + '\n';
}

} // namespace App
