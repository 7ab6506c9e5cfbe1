#include "toolschema.h"

namespace AgentCore {

QJsonObject schemaProperty(const char *type, const QString &description)
{
    return {{QStringLiteral("type"), QLatin1String(type)},
            {QStringLiteral("description"), description}};
}

} // namespace AgentCore
