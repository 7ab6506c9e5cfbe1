#pragma once

#include "agenttypes.h"

#include <ai/schemavalidator.h>

#include <QHash>

#include <optional>

namespace AgentCore {

/// A tool of the run with its argument schema, prepared once per run: definition() may build
/// its schema every time, and every call is validated twice.
struct RunTool
{
    AgentToolPtr tool;
    CompiledSchema schema;
};
using RunTools = QHash<QString, RunTool>; ///< by name

/// A tool call looked up and checked against its schema, before the middleware onion.
struct PreparedToolCall
{
    ContentBlock call;
    AgentToolPtr tool; ///< null when the tool is unknown
    CompiledSchema schema;
    QJsonObject arguments;            ///< validated, with schema defaults
    std::optional<ToolResult> failed; ///< set when the call cannot run (unknown, invalid)
};

/// Resolves \a call's tool by name and validates the model's arguments (the first of the two
/// validations). Pure; thread-safe.
PreparedToolCall prepareToolCall(const ContentBlock &call, const RunTools &tools);

/// Everything one execution needs, held by value: a tool abandoned on abort keeps running
/// with it and never touches the loop's state.
struct ToolJob
{
    AgentToolPtr tool;
    ToolCallContext context;
    QList<ToolMiddleware> middlewares; ///< outermost first
    EffectBoundary effects;
    /// The arguments the first validation passed. Final arguments equal to them (no
    /// middleware rewrote them; usually the very same shared object) skip the second one.
    QJsonObject validatedArguments;
};

/// Runs \a job through the middleware onion, validates the final arguments again right before
/// execute(), and wraps side-effecting tools in the effect hooks. Blocking; runs on the
/// calling thread (a pool thread). Never throws: an exception from a middleware, beforeEffect
/// or the tool becomes an error result, and every `next()` a middleware calls returns a result
/// (so its after-part always runs). An exception from afterEffect leaves the tool's result as
/// it was (the effect happened) with a note saying the hook failed appended, and is logged.
ToolResult executeToolCall(ToolJob job);

/// "Tool execution aborted." as a result: the call was aborted before it produced anything.
/// details.aborted is true, as for every result of a call the user stopped.
ToolResult abortedToolResult();

/// The result of a call that was still running when the run was aborted, built from its last
/// partial result (\a partial, what the user saw in its card): the output so far, then a line
/// saying it was stopped; details.aborted is true. Without a partial result (or an empty
/// one), abortedToolResult().
ToolResult stoppedToolResult(const std::optional<ToolResult> &partial);

} // namespace AgentCore
