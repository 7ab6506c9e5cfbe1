#pragma once

#include <QJsonObject>
#include <QString>

namespace AgentCore {

/// One property of a tool's JSON Schema: {"type": type, "description": description}.
QJsonObject schemaProperty(const char *type, const QString &description);

} // namespace AgentCore
