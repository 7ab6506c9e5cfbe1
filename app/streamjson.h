#pragma once

#include <loop/agenttypes.h>

#include <QByteArray>
#include <QJsonObject>

namespace App {

/// The stream-json output of --print (docs/stream-json.md): one JSON object per lifecycle
/// event. Pure functions; thread-safe.
struct StreamJson
{
    /// {"type": agentEventTypeName, ...the event's fields}; messages as messageToJson writes
    /// them, message_update with only the compact delta.
    static QJsonObject fromEvent(const AgentCore::AgentEvent &event);
    /// The compact delta of message_update: {"type": "text_delta", "contentIndex": 0, ...}.
    static QJsonObject fromStreamEvent(const AgentCore::StreamEvent &event);
    /// {"content": [...], "isError": b} plus "details" when the tool gave some.
    static QJsonObject fromToolResult(const AgentCore::ToolResult &result);
    /// "start", "text_delta", "toolcall_end", "retry", "done", "error", ...
    static QString streamEventTypeName(AgentCore::StreamEvent::Type type);
    /// \a object as one compact line, ending with "\n", with "type" as its first key.
    static QByteArray line(const QJsonObject &object);
};

} // namespace App
