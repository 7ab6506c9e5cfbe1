#include "schemavalidator.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace AgentCore {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(AgentCore::SchemaValidator)
};

// Enough for a model to fix its call; a huge array of bad items would otherwise flood it.
constexpr int maxReportedProblems = 20;
constexpr qsizetype maxRenderedLength = 60;

QString key(const char *name)
{
    return QString::fromLatin1(name);
}

// One JSON Pointer reference token (RFC 6901).
QString pointerToken(QString name)
{
    name.replace(u'~', QLatin1String("~0"));
    name.replace(u'/', QLatin1String("~1"));
    return name;
}

QString childPath(const QString &path, const QString &name)
{
    return path + u'/' + pointerToken(name);
}

QString subject(const QString &path)
{
    return path.isEmpty() ? Tr::tr("the arguments") : path;
}

// Compact JSON, cut short: a model needs to recognize its value, not to read it back whole.
QString render(const QJsonValue &value)
{
    if (value.isUndefined())
        return Tr::tr("nothing");
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
        return Tr::tr("a string");
    if (type == QLatin1String("number"))
        return Tr::tr("a number");
    if (type == QLatin1String("integer"))
        return Tr::tr("an integer");
    if (type == QLatin1String("boolean"))
        return Tr::tr("a boolean");
    if (type == QLatin1String("object"))
        return Tr::tr("an object");
    if (type == QLatin1String("array"))
        return Tr::tr("an array");
    if (type == QLatin1String("null"))
        return Tr::tr("null");
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
    return Tr::tr("%1 or %2").arg(described.join(QLatin1String(", ")), last);
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

QStringList schemaTypes(const QJsonObject &schema)
{
    const QJsonValue type = schema.value(key("type"));
    if (type.isString())
        return {type.toString()};
    QStringList types;
    for (const QJsonValue &entry : type.toArray()) {
        if (entry.isString())
            types.append(entry.toString());
    }
    return types;
}

class Validator
{
public:
    // Returns \a value with the schema's defaults filled in.
    QJsonValue validate(const QJsonValue &value, const QJsonObject &schema, const QString &path);

    QStringList problems;
    int problemCount = 0;

private:
    bool checkType(const QJsonValue &value, const QJsonObject &schema, const QString &path);
    void checkEnum(const QJsonValue &value, const QJsonObject &schema, const QString &path);
    void checkRange(const QJsonValue &value, const QJsonObject &schema, const QString &path);
    QJsonObject validateObject(const QJsonObject &object,
                               const QJsonObject &schema,
                               const QString &path);
    QJsonArray validateArray(const QJsonArray &array,
                             const QJsonObject &schema,
                             const QString &path);
    void report(const QString &problem);
};

void Validator::report(const QString &problem)
{
    if (++problemCount <= maxReportedProblems)
        problems.append(problem);
}

QJsonValue Validator::validate(const QJsonValue &value,
                               const QJsonObject &schema,
                               const QString &path)
{
    if (!checkType(value, schema, path))
        return value;
    checkEnum(value, schema, path);
    if (value.isDouble())
        checkRange(value, schema, path);
    if (value.isObject())
        return validateObject(value.toObject(), schema, path);
    if (value.isArray())
        return validateArray(value.toArray(), schema, path);
    return value;
}

bool Validator::checkType(const QJsonValue &value, const QJsonObject &schema, const QString &path)
{
    const QStringList types = schemaTypes(schema);
    if (types.isEmpty())
        return true;
    for (const QString &type : types) {
        if (matchesType(value, type))
            return true;
    }
    report(
        Tr::tr("%1 must be %2, got %3").arg(subject(path), typesDescription(types), render(value)));
    return false;
}

void Validator::checkEnum(const QJsonValue &value, const QJsonObject &schema, const QString &path)
{
    const QJsonValue allowed = schema.value(key("enum"));
    if (!allowed.isArray() || allowed.toArray().contains(value))
        return;
    report(Tr::tr("%1 must be one of %2, got %3")
               .arg(subject(path), renderList(allowed.toArray()), render(value)));
}

void Validator::checkRange(const QJsonValue &value, const QJsonObject &schema, const QString &path)
{
    const double number = value.toDouble();
    const QJsonValue minimum = schema.value(key("minimum"));
    if (minimum.isDouble() && number < minimum.toDouble()) {
        report(Tr::tr("%1 must be at least %2, got %3")
                   .arg(subject(path), render(minimum), render(value)));
    }
    const QJsonValue maximum = schema.value(key("maximum"));
    if (maximum.isDouble() && number > maximum.toDouble()) {
        report(Tr::tr("%1 must be at most %2, got %3")
                   .arg(subject(path), render(maximum), render(value)));
    }
}

QJsonObject Validator::validateObject(const QJsonObject &object,
                                      const QJsonObject &schema,
                                      const QString &path)
{
    const QJsonObject properties = schema.value(key("properties")).toObject();
    for (const QJsonValue &required : schema.value(key("required")).toArray()) {
        const QString name = required.toString();
        if (!object.contains(name))
            report(Tr::tr("%1 is required").arg(childPath(path, name)));
    }

    const QJsonValue additional = schema.value(key("additionalProperties"));
    QJsonObject filled = object;
    QStringList unexpected;
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString childAt = childPath(path, it.key());
        if (properties.contains(it.key())) {
            const QJsonObject childSchema = properties.value(it.key()).toObject();
            filled.insert(it.key(), validate(it.value(), childSchema, childAt));
        } else if (additional.isObject()) {
            filled.insert(it.key(), validate(it.value(), additional.toObject(), childAt));
        } else if (additional.isBool() && !additional.toBool()) {
            unexpected.append(it.key());
        }
    }
    if (!unexpected.isEmpty()) {
        const QString allowed = properties.isEmpty() ? Tr::tr("none")
                                                     : quotedList(properties.keys());
        const QString names = quotedList(unexpected);
        const bool one = unexpected.size() == 1;
        if (path.isEmpty()) {
            report(one ? Tr::tr("unexpected property %1 (allowed: %2)").arg(names, allowed)
                       : Tr::tr("unexpected properties %1 (allowed: %2)").arg(names, allowed));
        } else {
            report(
                one ? Tr::tr("%1 has unexpected property %2 (allowed: %3)").arg(path, names, allowed)
                    : Tr::tr("%1 has unexpected properties %2 (allowed: %3)")
                          .arg(path, names, allowed));
        }
    }

    for (auto it = properties.begin(); it != properties.end(); ++it) {
        const QJsonValue defaultValue = it.value().toObject().value(key("default"));
        if (!object.contains(it.key()) && !defaultValue.isUndefined())
            filled.insert(it.key(), defaultValue);
    }
    return filled;
}

QJsonArray Validator::validateArray(const QJsonArray &array,
                                    const QJsonObject &schema,
                                    const QString &path)
{
    const QJsonValue items = schema.value(key("items"));
    if (!items.isObject())
        return array;
    const QJsonObject itemSchema = items.toObject();
    QJsonArray filled;
    for (qsizetype i = 0; i < array.size(); ++i)
        filled.append(validate(array.at(i), itemSchema, path + u'/' + QString::number(i)));
    return filled;
}

} // namespace

ArgumentValidation validateToolArguments(const ToolDefinition &tool, const QJsonObject &arguments)
{
    Validator validator;
    const QJsonValue filled = validator.validate(arguments, tool.parameters, {});
    ArgumentValidation result;
    result.ok = validator.problemCount == 0;
    result.arguments = filled.toObject();
    if (result.ok)
        return result;
    QStringList problems = validator.problems;
    if (validator.problemCount > problems.size()) {
        problems.append(
            Tr::tr("%1 more problems not shown").arg(validator.problemCount - problems.size()));
    }
    result.error = Tr::tr("Invalid arguments for %1: %2")
                       .arg(tool.name, problems.join(QLatin1String("; ")));
    return result;
}

} // namespace AgentCore
