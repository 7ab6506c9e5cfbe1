#include "mcptoolinfo.h"
#include "translation.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace AgentCore {

namespace {

const QStringList &knownTypes()
{
    static const QStringList types{QStringLiteral("object"),
                                   QStringLiteral("array"),
                                   QStringLiteral("string"),
                                   QStringLiteral("number"),
                                   QStringLiteral("integer"),
                                   QStringLiteral("boolean"),
                                   QStringLiteral("null")};
    return types;
}

QString checkSchema(const QJsonValue &value, const QString &path, int depth);

QString checkSchemaMap(const QJsonValue &value, const QString &path, int depth)
{
    if (!value.isObject())
        return McpTr::tr("%1 is not an object").arg(path);
    const QJsonObject map = value.toObject();
    for (auto it = map.begin(); it != map.end(); ++it) {
        if (QString problem = checkSchema(it.value(), path + QLatin1Char('/') + it.key(), depth);
            !problem.isEmpty())
            return problem;
    }
    return {};
}

QString checkSchemaList(const QJsonValue &value, const QString &path, int depth)
{
    if (!value.isArray())
        return McpTr::tr("%1 is not an array").arg(path);
    const QJsonArray list = value.toArray();
    for (qsizetype i = 0; i < list.size(); ++i) {
        if (QString problem = checkSchema(list.at(i),
                                          QStringLiteral("%1/%2").arg(path).arg(i),
                                          depth);
            !problem.isEmpty())
            return problem;
    }
    return {};
}

QString checkSchema(const QJsonValue &value, const QString &path, int depth)
{
    if (value.isBool())
        return {}; // true and false are schemas
    if (!value.isObject())
        return McpTr::tr("%1 is not a schema (an object or a boolean)").arg(path);
    if (depth > 32)
        return McpTr::tr("%1 is nested too deeply").arg(path);
    const QJsonObject schema = value.toObject();
    const QJsonValue type = schema.value(QLatin1String("type"));
    if (!type.isUndefined()) {
        QJsonArray types = type.isArray() ? type.toArray() : QJsonArray{type};
        if (types.isEmpty())
            return McpTr::tr("%1/type is an empty list").arg(path);
        for (const QJsonValue &one : std::as_const(types)) {
            if (!knownTypes().contains(one.toString()))
                return McpTr::tr("%1/type names no JSON Schema type").arg(path);
        }
    }
    if (const QJsonValue properties = schema.value(QLatin1String("properties"));
        !properties.isUndefined()) {
        if (QString problem = checkSchemaMap(properties,
                                             path + QLatin1String("/properties"),
                                             depth + 1);
            !problem.isEmpty())
            return problem;
    }
    for (const char *key : {"$defs", "definitions", "patternProperties"}) {
        const QJsonValue map = schema.value(QLatin1String(key));
        if (map.isUndefined())
            continue;
        if (QString problem = checkSchemaMap(map,
                                             path + QLatin1Char('/') + QLatin1String(key),
                                             depth + 1);
            !problem.isEmpty())
            return problem;
    }
    for (const char *key : {"items", "additionalProperties", "not", "if", "then", "else"}) {
        const QJsonValue sub = schema.value(QLatin1String(key));
        if (sub.isUndefined())
            continue;
        if (QString problem = checkSchema(sub,
                                          path + QLatin1Char('/') + QLatin1String(key),
                                          depth + 1);
            !problem.isEmpty())
            return problem;
    }
    for (const char *key : {"anyOf", "oneOf", "allOf", "prefixItems"}) {
        const QJsonValue list = schema.value(QLatin1String(key));
        if (list.isUndefined())
            continue;
        if (QString problem = checkSchemaList(list,
                                              path + QLatin1Char('/') + QLatin1String(key),
                                              depth + 1);
            !problem.isEmpty())
            return problem;
    }
    if (const QJsonValue required = schema.value(QLatin1String("required"));
        !required.isUndefined()) {
        const QJsonArray names = required.toArray();
        if (!required.isArray()
            || std::any_of(names.begin(), names.end(), [](const QJsonValue &name) {
                   return !name.isString();
               })) {
            return McpTr::tr("%1/required is not a list of names").arg(path);
        }
    }
    if (const QJsonValue values = schema.value(QLatin1String("enum"));
        !values.isUndefined() && !values.isArray()) {
        return McpTr::tr("%1/enum is not an array").arg(path);
    }
    for (const char *key :
         {"minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems"}) {
        const QJsonValue bound = schema.value(QLatin1String(key));
        if (!bound.isUndefined() && !bound.isDouble())
            return McpTr::tr("%1/%2 is not a number").arg(path, QLatin1String(key));
    }
    return {};
}

} // namespace

QString checkToolInputSchema(const QJsonObject &schema)
{
    if (schema.value(QLatin1String("type")).toString() != QLatin1String("object"))
        return McpTr::tr("it is not an object schema ({\"type\": \"object\"})");
    return checkSchema(schema, QString(), 0);
}

std::optional<McpToolInfo> McpToolInfo::fromJson(const QJsonObject &json, QString *problem)
{
    McpToolInfo tool;
    tool.name = json.value(QLatin1String("name")).toString();
    if (tool.name.isEmpty()) {
        *problem = McpTr::tr("a tool without a name");
        return std::nullopt;
    }
    if (tool.name.size() > maxNameLength) {
        *problem = McpTr::tr("a tool whose name is longer than %1 characters").arg(maxNameLength);
        return std::nullopt;
    }
    const QJsonValue schema = json.value(QLatin1String("inputSchema"));
    if (!schema.isObject()) {
        *problem = McpTr::tr("tool \"%1\" has no inputSchema object").arg(tool.name);
        return std::nullopt;
    }
    tool.inputSchema = schema.toObject();
    if (const QString schemaProblem = checkToolInputSchema(tool.inputSchema);
        !schemaProblem.isEmpty()) {
        *problem = McpTr::tr("the inputSchema of tool \"%1\" is not valid JSON Schema: %2")
                       .arg(tool.name, schemaProblem);
        return std::nullopt;
    }
    tool.title = json.value(QLatin1String("title")).toString().left(maxNameLength);
    tool.description = json.value(QLatin1String("description")).toString();
    if (tool.description.size() > maxDescriptionLength)
        tool.description = tool.description.left(maxDescriptionLength) + QStringLiteral("…");
    tool.readOnlyHint = json.value(QLatin1String("annotations"))
                            .toObject()
                            .value(QLatin1String("readOnlyHint"))
                            .toBool();
    return tool;
}

} // namespace AgentCore
