#include "sessionworktree.h"

namespace AgentCore {

namespace {
const QLatin1StringView repositoryKey("repository");
const QLatin1StringView pathKey("path");
const QLatin1StringView branchKey("branch");
const QLatin1StringView baseKey("base");
} // namespace

QJsonObject SessionWorktree::toJson() const
{
    return {{repositoryKey, repositoryRoot},
            {pathKey, path},
            {branchKey, branch},
            {baseKey, baseCommit}};
}

std::optional<SessionWorktree> SessionWorktree::fromJson(const QJsonObject &object)
{
    SessionWorktree worktree;
    worktree.repositoryRoot = object.value(repositoryKey).toString();
    worktree.path = object.value(pathKey).toString();
    worktree.branch = object.value(branchKey).toString();
    worktree.baseCommit = object.value(baseKey).toString();
    if (!worktree.isValid())
        return std::nullopt;
    return worktree;
}

std::optional<SessionWorktree> SessionWorktree::fromState(const QJsonObject &state)
{
    const QJsonValue value = state.value(stateKey);
    if (!value.isObject())
        return std::nullopt;
    return fromJson(value.toObject());
}

} // namespace AgentCore
