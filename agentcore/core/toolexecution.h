#pragma once

#include "agenttypes.h"

#include <QHash>

#include <optional>

namespace AgentCore {

/// A tool call looked up and checked against its schema, before the middleware onion.
struct PreparedToolCall
{
    ContentBlock call;
    AgentToolPtr tool;                ///< null when the tool is unknown
    QJsonObject arguments;            ///< validated, with schema defaults
    std::optional<ToolResult> failed; ///< set when the call cannot run (unknown, invalid)
};

/// Resolves \a call's tool by name and validates the model's arguments (the first of the two
/// validations). Pure; thread-safe.
PreparedToolCall prepareToolCall(const ContentBlock &call,
                                 const QHash<QString, AgentToolPtr> &toolsByName);

/// Everything one execution needs, held by value: a tool abandoned on abort keeps running
/// with it and never touches the loop's state.
struct ToolJob
{
    AgentToolPtr tool;
    ToolCallContext context;
    QList<ToolMiddleware> middlewares; ///< outermost first
    EffectHooks effects;
};

/// Runs \a job through the middleware onion, validates the final arguments again right before
/// execute(), and wraps side-effecting tools in the effect hooks. Blocking; runs on the
/// calling thread (a pool thread). Never throws: an exception from a middleware, a hook or the
/// tool becomes an error result, and every `next()` a middleware calls returns a result
/// (so its after-part always runs).
ToolResult executeToolCall(ToolJob job);

/// "Tool execution aborted." as a result: the call was running when the run was aborted.
ToolResult abortedToolResult();

} // namespace AgentCore
