#pragma once

#include <QJsonObject>
#include <QSet>
#include <QString>

namespace AgentCore {

/// What the user changed about what the model sees, without changing the history: tool
/// outputs dropped from future requests (replaced by a short stub, so each call keeps its
/// result) and messages pinned (always sent verbatim, even once a compaction covers them).
/// A value type; the session keeps it (toJson) next to the messages.
struct ContextEdits
{
    /// The tool results, by toolCallId, that requests carry as droppedToolOutputText().
    QSet<QString> droppedToolOutputs;
    /// Indexes into the raw conversation (append-only, so an index stays valid) of messages
    /// kept verbatim. A pinned tool output is never dropped.
    QSet<qsizetype> pinnedMessages;

    bool isEmpty() const { return droppedToolOutputs.isEmpty() && pinnedMessages.isEmpty(); }
    /// {"droppedToolOutputs": [ids, sorted], "pinnedMessages": [indexes, sorted]}.
    QJsonObject toJson() const;
    /// What toJson wrote; anything unreadable is left out.
    static ContextEdits fromJson(const QJsonObject &json);

    friend bool operator==(const ContextEdits &, const ContextEdits &) = default;
};

} // namespace AgentCore
