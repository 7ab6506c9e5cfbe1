#include "filechange.h"

#include <QJsonObject>

namespace AgentCore {

std::optional<FileChange> FileChange::of(const ToolResult &result)
{
    if (result.isError)
        return std::nullopt;
    return fromDetails(result.details);
}

std::optional<FileChange> FileChange::fromDetails(const QJsonValue &details)
{
    const QJsonObject object = details.toObject();
    const QString path = object.value(u"path").toString();
    // A diff is what tells a change from a look at a file (Read names its path too).
    if (path.isEmpty() || !object.value(u"diff").isString())
        return std::nullopt;
    FileChange change;
    change.path = path;
    change.displayPath = object.value(u"displayPath").toString(path);
    change.additions = object.value(u"additions").toInt();
    change.deletions = object.value(u"deletions").toInt();
    change.created = object.value(u"created").toBool();
    return change;
}

} // namespace AgentCore
