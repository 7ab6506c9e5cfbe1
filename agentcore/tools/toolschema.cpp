#include "toolschema.h"

namespace AgentCore {

QJsonObject schemaProperty(const char *type, const QString &description)
{
    QJsonObject property{{QStringLiteral("type"), QLatin1String(type)}};
    if (!description.isEmpty())
        property.insert(QStringLiteral("description"), description);
    return property;
}

} // namespace AgentCore
