#pragma once

#include "types.h"

namespace AgentCore {

/// Result of checking a tool call's arguments against the tool's JSON Schema.
struct ArgumentValidation
{
    bool ok = false;
    /// Readable for a model, naming each problem by its JSON path, e.g.
    /// "Invalid arguments for Edit: /old_string is required; /replace_all must be a boolean, got \"yes\"".
    QString error;
    QJsonObject arguments; ///< the arguments with schema defaults filled in (when ok)
};

/// Validates \a arguments against \a tool.parameters. Supports the JSON Schema subset tools use:
/// type (incl. lists and "integer"), properties, required, enum, items,
/// additionalProperties (bool or schema), minimum/maximum, default. Pure; thread-safe.
ArgumentValidation validateToolArguments(const ToolDefinition &tool, const QJsonObject &arguments);

} // namespace AgentCore
