#include "schemavalidator.h"
#include "translation.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>
#include <memory>
#include <optional>

namespace AgentCore {

namespace {

// Enough for a model to fix its call; a huge array of bad items would otherwise flood it.
constexpr int maxReportedProblems = 20;
constexpr qsizetype maxRenderedLength = 60;

constexpr QLatin1String key(const char *name)
{
    return QLatin1String(name);
}

// One JSON Pointer reference token (RFC 6901).
QString pointerToken(QString name)
{
    name.replace(u'~', QLatin1String("~0"));
    name.replace(u'/', QLatin1String("~1"));
    return name;
}

// Where a value sits in the arguments, as a chain on the stack: the JSON Pointer text is only
// built for a report, so validating a valid call allocates no paths.
struct Path
{
    const Path *parent = nullptr;
    QString name;         // a property name, or empty for an array item / the root
    qsizetype index = -1; // an array index, or -1

    bool isRoot() const { return !parent; }
    QString toString() const
    {
        if (!parent)
            return {};
        const QString token = index >= 0 ? QString::number(index) : pointerToken(name);
        return parent->toString() + u'/' + token;
    }
};

QString subject(const Path &path)
{
    return path.isRoot() ? AiTr::tr("the arguments") : path.toString();
}

// Compact JSON, cut short: a model needs to recognize its value, not to read it back whole.
QString render(const QJsonValue &value)
{
    if (value.isUndefined())
        return AiTr::tr("nothing");
    const QByteArray array = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    QString text = QString::fromUtf8(array.mid(1, array.size() - 2));
    if (text.size() > maxRenderedLength) {
        text.truncate(maxRenderedLength - 3);
        text += QLatin1String("...");
    }
    return text;
}

QString renderList(const QJsonArray &values)
{
    QStringList rendered;
    for (const QJsonValue &value : values)
        rendered.append(render(value));
    return rendered.join(QLatin1String(", "));
}

QString quotedList(const QStringList &names)
{
    QStringList quoted;
    for (const QString &name : names)
        quoted.append(render(name));
    return quoted.join(QLatin1String(", "));
}

QString typeDescription(const QString &type)
{
    if (type == QLatin1String("string"))
        return AiTr::tr("a string");
    if (type == QLatin1String("number"))
        return AiTr::tr("a number");
    if (type == QLatin1String("integer"))
        return AiTr::tr("an integer");
    if (type == QLatin1String("boolean"))
        return AiTr::tr("a boolean");
    if (type == QLatin1String("object"))
        return AiTr::tr("an object");
    if (type == QLatin1String("array"))
        return AiTr::tr("an array");
    if (type == QLatin1String("null"))
        return AiTr::tr("null");
    return type;
}

// "a string", "a string or null", "a string, a number or null".
QString typesDescription(const QStringList &types)
{
    QStringList described;
    for (const QString &type : types)
        described.append(typeDescription(type));
    if (described.size() == 1)
        return described.constFirst();
    const QString last = described.takeLast();
    return AiTr::tr("%1 or %2").arg(described.join(QLatin1String(", ")), last);
}

bool isIntegral(const QJsonValue &value)
{
    if (!value.isDouble())
        return false;
    const double number = value.toDouble();
    return std::isfinite(number) && std::trunc(number) == number;
}

// Unknown type names match anything: a schema this validator does not understand must not
// block a call the tool itself may accept.
bool matchesType(const QJsonValue &value, const QString &type)
{
    if (type == QLatin1String("string"))
        return value.isString();
    if (type == QLatin1String("number"))
        return value.isDouble();
    if (type == QLatin1String("integer"))
        return isIntegral(value);
    if (type == QLatin1String("boolean"))
        return value.isBool();
    if (type == QLatin1String("object"))
        return value.isObject();
    if (type == QLatin1String("array"))
        return value.isArray();
    if (type == QLatin1String("null"))
        return value.isNull();
    return true;
}

// The schema as plain C++ data, read once: walking QJsonObjects looks every keyword up by
// string on every call, which cost more than the rest of a loop turn.
struct SchemaNode
{
    QStringList types; // empty: any
    QJsonArray enumValues;
    bool hasEnum = false;
    std::optional<double> minimum;
    std::optional<double> maximum;
    QJsonValue minimumValue; // as written, for messages
    QJsonValue maximumValue;
    // objects
    QHash<QString, std::shared_ptr<const SchemaNode>> properties;
    QStringList propertyNames; // in schema order, for messages
    QStringList required;
    QList<std::pair<QString, QJsonValue>> defaults;
    std::shared_ptr<const SchemaNode> additionalSchema;
    bool additionalForbidden = false;
    // arrays
    std::shared_ptr<const SchemaNode> items;

    static std::shared_ptr<const SchemaNode> compile(const QJsonObject &schema);
};

std::shared_ptr<const SchemaNode> SchemaNode::compile(const QJsonObject &schema)
{
    auto node = std::make_shared<SchemaNode>();
    const QJsonValue type = schema.value(key("type"));
    if (type.isString()) {
        node->types.append(type.toString());
    } else {
        for (const QJsonValue &entry : type.toArray()) {
            if (entry.isString())
                node->types.append(entry.toString());
        }
    }
    const QJsonValue allowed = schema.value(key("enum"));
    if (allowed.isArray()) {
        node->hasEnum = true;
        node->enumValues = allowed.toArray();
    }
    node->minimumValue = schema.value(key("minimum"));
    if (node->minimumValue.isDouble())
        node->minimum = node->minimumValue.toDouble();
    node->maximumValue = schema.value(key("maximum"));
    if (node->maximumValue.isDouble())
        node->maximum = node->maximumValue.toDouble();

    const QJsonObject properties = schema.value(key("properties")).toObject();
    for (auto it = properties.begin(); it != properties.end(); ++it) {
        const QJsonObject propertySchema = it.value().toObject();
        node->properties.insert(it.key(), compile(propertySchema));
        node->propertyNames.append(it.key());
        const QJsonValue defaultValue = propertySchema.value(key("default"));
        if (!defaultValue.isUndefined())
            node->defaults.append({it.key(), defaultValue});
    }
    for (const QJsonValue &name : schema.value(key("required")).toArray())
        node->required.append(name.toString());
    const QJsonValue additional = schema.value(key("additionalProperties"));
    if (additional.isObject())
        node->additionalSchema = compile(additional.toObject());
    else if (additional.isBool() && !additional.toBool())
        node->additionalForbidden = true;
    const QJsonValue items = schema.value(key("items"));
    if (items.isObject())
        node->items = compile(items.toObject());
    return node;
}

class Validator
{
public:
    // Returns \a value with the schema's defaults filled in.
    QJsonValue validate(const QJsonValue &value, const SchemaNode &schema, const Path &path);

    QStringList problems;
    int problemCount = 0;

private:
    bool checkType(const QJsonValue &value, const SchemaNode &schema, const Path &path);
    void checkEnum(const QJsonValue &value, const SchemaNode &schema, const Path &path);
    void checkRange(const QJsonValue &value, const SchemaNode &schema, const Path &path);
    QJsonObject validateObject(const QJsonObject &object,
                               const SchemaNode &schema,
                               const Path &path);
    QJsonArray validateArray(const QJsonArray &array, const SchemaNode &schema, const Path &path);
    void reportUnexpected(const QStringList &unexpected, const SchemaNode &schema, const Path &path);
    void report(const QString &problem);
};

void Validator::report(const QString &problem)
{
    if (++problemCount <= maxReportedProblems)
        problems.append(problem);
}

QJsonValue Validator::validate(const QJsonValue &value, const SchemaNode &schema, const Path &path)
{
    if (!checkType(value, schema, path))
        return value;
    if (schema.hasEnum)
        checkEnum(value, schema, path);
    if (value.isDouble())
        checkRange(value, schema, path);
    if (value.isObject())
        return validateObject(value.toObject(), schema, path);
    if (value.isArray())
        return validateArray(value.toArray(), schema, path);
    return value;
}

bool Validator::checkType(const QJsonValue &value, const SchemaNode &schema, const Path &path)
{
    if (schema.types.isEmpty())
        return true;
    for (const QString &type : schema.types) {
        if (matchesType(value, type))
            return true;
    }
    report(AiTr::tr("%1 must be %2, got %3")
               .arg(subject(path), typesDescription(schema.types), render(value)));
    return false;
}

void Validator::checkEnum(const QJsonValue &value, const SchemaNode &schema, const Path &path)
{
    if (schema.enumValues.contains(value))
        return;
    report(AiTr::tr("%1 must be one of %2, got %3")
               .arg(subject(path), renderList(schema.enumValues), render(value)));
}

void Validator::checkRange(const QJsonValue &value, const SchemaNode &schema, const Path &path)
{
    const double number = value.toDouble();
    if (schema.minimum && number < *schema.minimum) {
        report(AiTr::tr("%1 must be at least %2, got %3")
                   .arg(subject(path), render(schema.minimumValue), render(value)));
    }
    if (schema.maximum && number > *schema.maximum) {
        report(AiTr::tr("%1 must be at most %2, got %3")
                   .arg(subject(path), render(schema.maximumValue), render(value)));
    }
}

QJsonObject Validator::validateObject(const QJsonObject &object,
                                      const SchemaNode &schema,
                                      const Path &path)
{
    for (const QString &name : schema.required) {
        if (!object.contains(name))
            report(AiTr::tr("%1 is required").arg(Path{&path, name}.toString()));
    }

    QJsonObject filled = object;
    QStringList unexpected;
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString name = it.key();
        const SchemaNode *childSchema = schema.properties.value(name).get();
        if (!childSchema)
            childSchema = schema.additionalSchema.get();
        if (childSchema) {
            // Only objects and arrays can come back changed (defaults filled in): leaving
            // scalars alone keeps `filled` shared with the caller's object.
            const QJsonValue checked = validate(it.value(), *childSchema, Path{&path, name});
            if (checked.isObject() || checked.isArray())
                filled.insert(name, checked);
        } else if (schema.additionalForbidden) {
            unexpected.append(name);
        }
    }
    if (!unexpected.isEmpty())
        reportUnexpected(unexpected, schema, path);

    for (const auto &[name, defaultValue] : schema.defaults) {
        if (!object.contains(name))
            filled.insert(name, defaultValue);
    }
    return filled;
}

void Validator::reportUnexpected(const QStringList &unexpected,
                                 const SchemaNode &schema,
                                 const Path &path)
{
    QStringList propertyNames = schema.propertyNames;
    propertyNames.sort(); // as QJsonObject::keys() listed them
    const QString allowed = propertyNames.isEmpty() ? AiTr::tr("none") : quotedList(propertyNames);
    const QString names = quotedList(unexpected);
    const bool one = unexpected.size() == 1;
    if (path.isRoot()) {
        report(one ? AiTr::tr("unexpected property %1 (allowed: %2)").arg(names, allowed)
                   : AiTr::tr("unexpected properties %1 (allowed: %2)").arg(names, allowed));
    } else {
        const QString at = path.toString();
        report(
            one ? AiTr::tr("%1 has unexpected property %2 (allowed: %3)").arg(at, names, allowed)
                : AiTr::tr("%1 has unexpected properties %2 (allowed: %3)").arg(at, names, allowed));
    }
}

QJsonArray Validator::validateArray(const QJsonArray &array,
                                    const SchemaNode &schema,
                                    const Path &path)
{
    if (!schema.items)
        return array;
    QJsonArray filled;
    for (qsizetype i = 0; i < array.size(); ++i)
        filled.append(validate(array.at(i), *schema.items, Path{&path, {}, i}));
    return filled;
}

} // namespace

struct CompiledSchema::Data
{
    std::shared_ptr<const SchemaNode> root;
};

CompiledSchema::CompiledSchema(const QJsonObject &schema)
    : m_data(std::make_shared<Data>(Data{SchemaNode::compile(schema)}))
{}

ArgumentValidation CompiledSchema::validate(const QString &toolName,
                                            const QJsonObject &arguments) const
{
    static const SchemaNode anything;
    Validator validator;
    const QJsonValue filled = validator.validate(arguments,
                                                 m_data ? *m_data->root : anything,
                                                 Path{});
    ArgumentValidation result;
    result.ok = validator.problemCount == 0;
    result.arguments = filled.toObject();
    if (result.ok)
        return result;
    QStringList problems = validator.problems;
    if (validator.problemCount > problems.size()) {
        problems.append(
            AiTr::tr("%1 more problems not shown").arg(validator.problemCount - problems.size()));
    }
    result.error = AiTr::tr("Invalid arguments for %1: %2")
                       .arg(toolName, problems.join(QLatin1String("; ")));
    return result;
}

ArgumentValidation validateToolArguments(const ToolDefinition &tool, const QJsonObject &arguments)
{
    return CompiledSchema(tool.parameters).validate(tool.name, arguments);
}

} // namespace AgentCore
