#pragma once

#include <QJsonObject>
#include <QString>

namespace AgentCore {

/// One property of a tool's JSON Schema: {"type": type, "description": description}, without
/// the description when it is empty (the name says it all: every request pays for its bytes).
QJsonObject schemaProperty(const char *type, const QString &description = {});

} // namespace AgentCore
