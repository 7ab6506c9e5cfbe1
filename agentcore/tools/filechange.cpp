#include "filechange.h"

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
    return change;
}

} // namespace AgentCore
