#pragma once

#include <QJsonObject>
#include <QString>

#include <optional>

namespace AgentCore {

/// One tool as a server lists it in tools/list, checked. A value type.
struct McpToolInfo
{
    static constexpr qsizetype maxNameLength = 128;
    static constexpr qsizetype maxDescriptionLength = 4000; ///< longer ones are cut for the model

    QString name;
    QString title;
    QString description;
    QJsonObject inputSchema;
    /// annotations.readOnlyHint: the server SAYS the tool changes nothing. The specification
    /// calls annotations untrusted hints, and a server may call `delete_everything` read-only:
    /// it decides nothing (every MCP tool asks unless a user's rule allows it, plan mode
    /// refuses it, McpTool). Only shown, worded as the server's claim.
    bool readOnlyHint = false;

    /// The tool of \a json, or nullopt with \a problem ("its inputSchema is not valid JSON
    /// Schema: /properties/x is not a schema").
    static std::optional<McpToolInfo> fromJson(const QJsonObject &json, QString *problem);
};

/// Whether \a schema is a JSON Schema for a tool's arguments as MCP requires it: an object
/// schema ({"type": "object", ...}) whose keywords the loop's validation reads have the shapes
/// JSON Schema gives them, recursively. Empty when it is; else the first problem, by JSON path.
QString checkToolInputSchema(const QJsonObject &schema);

} // namespace AgentCore
