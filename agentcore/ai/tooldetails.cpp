#include "tooldetails.h"

namespace AgentCore {

namespace {
// The keys the typed fields stand for: fromJson takes them out of `other`.
constexpr const char *typedKeys[] = {"path",
                                     "displayPath",
                                     "created",
                                     "diff",
                                     "additions",
                                     "deletions",
                                     "logPath",
                                     "aborted",
                                     "interrupted"};

void insertString(QJsonObject &json, const char *key, const QString &value)
{
    if (!value.isEmpty())
        json.insert(QLatin1String(key), value);
}

void insertFlag(QJsonObject &json, const char *key, bool value)
{
    if (value)
        json.insert(QLatin1String(key), true);
}

void insertCount(QJsonObject &json, const char *key, int value)
{
    if (value != 0)
        json.insert(QLatin1String(key), value);
}
} // namespace

QJsonObject ToolDetails::toJson() const
{
    QJsonObject json = other;
    insertString(json, "path", path);
    insertString(json, "displayPath", displayPath);
    insertFlag(json, "created", created);
    insertString(json, "diff", diff);
    insertCount(json, "additions", additions);
    insertCount(json, "deletions", deletions);
    insertString(json, "logPath", logPath);
    insertFlag(json, "aborted", aborted);
    insertFlag(json, "interrupted", interrupted);
    return json;
}

ToolDetails ToolDetails::fromJson(const QJsonValue &json)
{
    ToolDetails details;
    const QJsonObject object = json.toObject();
    details.path = object.value(u"path").toString();
    details.displayPath = object.value(u"displayPath").toString();
    details.created = object.value(u"created").toBool();
    details.diff = object.value(u"diff").toString();
    details.additions = object.value(u"additions").toInt();
    details.deletions = object.value(u"deletions").toInt();
    details.logPath = object.value(u"logPath").toString();
    details.aborted = object.value(u"aborted").toBool();
    details.interrupted = object.value(u"interrupted").toBool();
    details.other = object;
    for (const char *key : typedKeys)
        details.other.remove(QLatin1String(key));
    return details;
}

} // namespace AgentCore
