#pragma once

#include "types.h"

#include <memory>

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

/// A tool's parameter schema read once into plain data, for validating many calls quickly.
/// An immutable value (copies share the data); validate() is thread-safe.
class CompiledSchema final
{
public:
    CompiledSchema() = default; ///< the empty schema: accepts any object
    explicit CompiledSchema(const QJsonObject &schema);
    /// As validateToolArguments, naming the tool \a toolName in the error.
    ArgumentValidation validate(const QString &toolName, const QJsonObject &arguments) const;

private:
    struct Data;
    std::shared_ptr<const Data> m_data;
};

/// Validates \a arguments against \a tool.parameters. Supports the JSON Schema subset tools use:
/// type (incl. lists and "integer"), properties, required, enum, items,
/// additionalProperties (bool or schema), minimum/maximum, default. Pure; thread-safe.
ArgumentValidation validateToolArguments(const ToolDefinition &tool, const QJsonObject &arguments);

} // namespace AgentCore
