#include "filechange.h"

#include "shellwrite.h"

#include <QDir>
#include <QJsonArray>

namespace AgentCore {

std::optional<FileChange> FileChange::of(const ToolResult &result)
{
    if (result.isError)
        return std::nullopt;
    return fromDetails(result.details);
}

std::optional<FileChange> FileChange::fromDetails(const ToolDetails &details)
{
    // A diff is what tells a change from a look at a file (Read names its path too).
    if (details.path.isEmpty() || details.diff.isEmpty())
        return std::nullopt;
    FileChange change;
    change.path = details.path;
    change.displayPath = details.displayPath.isEmpty() ? details.path : details.displayPath;
    change.additions = details.additions;
    change.deletions = details.deletions;
    change.created = details.created;
    if (const QJsonValue problems = details.other.value(QLatin1String("problems"));
        problems.isDouble() && problems.toDouble() >= 0 && problems.toDouble() <= 1e6)
        change.problems = problems.toInt(); // a recorded file is not trusted further than that
    return change;
}

QList<FileChange> FileChange::ofShellWrites(const ToolDetails &details,
                                            const QString &repositoryRoot)
{
    QList<FileChange> changes;
    const QJsonArray writes = details.other.value(QLatin1String("shellWrites")).toArray();
    for (const QJsonValue &value : writes) {
        const QJsonObject write = value.toObject();
        const QString path = write.value(QLatin1String("path")).toString();
        // A folder or a mode is no file's lines; a path that leaves the repository is no
        // write the review made.
        const QString kind = write.value(QLatin1String("kind")).toString();
        if (!write.value(QLatin1String("applied")).toBool() || path.isEmpty()
            || QDir::isAbsolutePath(path) || QDir::cleanPath(path).startsWith(QLatin1String(".."))
            || kind == ShellWrite::kindName(ShellWrite::Kind::ModeChanged)
            || write.value(QLatin1String("directory")).toBool())
            continue;
        FileChange change;
        change.path = QDir::cleanPath(repositoryRoot + QLatin1Char('/') + path);
        change.displayPath = path;
        change.additions = write.value(QLatin1String("additions")).toInt();
        change.deletions = write.value(QLatin1String("deletions")).toInt();
        change.created = kind == ShellWrite::kindName(ShellWrite::Kind::Added);
        changes.append(change);
    }
    return changes;
}

} // namespace AgentCore
