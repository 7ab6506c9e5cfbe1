#include "sessionstate.h"

namespace AgentCore {

SessionState SessionState::fromJson(const QJsonObject &state)
{
    SessionState read;
    read.title = state.value(titleKey).toString();
    read.draft = state.value(draftKey).toString();
    read.model = state.value(modelKey);
    read.contextEdits = ContextEdits::fromJson(state.value(contextEditsKey).toObject());
    read.worktree = SessionWorktree::fromState(state);
    for (const QJsonValue &value : state.value(loadedToolsKey).toArray()) {
        if (value.isString())
            read.loadedTools.append(value.toString());
    }
    for (const QJsonValue &value : state.value(checkpointsKey).toArray()) {
        if (std::optional<Checkpoint> checkpoint = Checkpoint::fromJson(value.toObject()))
            read.checkpoints.append(*checkpoint);
    }
    return read;
}

QJsonObject SessionState::recorderValues() const
{
    QJsonObject values;
    if (!title.isEmpty())
        values.insert(titleKey, title);
    if (!draft.isEmpty())
        values.insert(draftKey, draft);
    if (!model.isUndefined())
        values.insert(modelKey, model);
    if (!contextEdits.isEmpty())
        values.insert(contextEditsKey, contextEdits.toJson());
    if (worktree)
        values.insert(SessionWorktree::stateKey, worktree->toJson());
    if (!loadedTools.isEmpty())
        values.insert(loadedToolsKey, QJsonArray::fromStringList(loadedTools));
    return values;
}

QJsonObject SessionState::toJson() const
{
    QJsonObject values = recorderValues();
    if (!checkpoints.isEmpty())
        values.insert(checkpointsKey, checkpointsJson(checkpoints));
    return values;
}

QJsonArray SessionState::checkpointsJson(const QList<Checkpoint> &checkpoints)
{
    QJsonArray array;
    for (const Checkpoint &checkpoint : checkpoints) {
        QJsonObject object = checkpoint.toJson();
        object.remove(QLatin1String("skipped"));
        if (!checkpoint.skipped.isEmpty())
            object.insert(QLatin1String("skippedCount"), int(checkpoint.skipped.size()));
        array.append(object);
    }
    return array;
}

} // namespace AgentCore
