#pragma once

#include <checkpoint/checkpoint.h>
#include <context/contextedits.h>
#include <worktree/sessionworktree.h>

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace AgentCore {

/// The part of a session file's state that the application layer owns (CodingSession): what
/// the person named and typed, the model they chose, their context edits, the session's
/// worktree and the checkpoints it recorded. One typed value, read and written here only, under
/// the keys every version of AgentDesk wrote ("title", "draft", "model", "contextEdits",
/// "worktree", "checkpoints"), so old and new versions read each other's files.
///
/// The other keys of the state belong to the layers that write them and are kept as they are:
/// the permission mode and session rules (permissionSessionState), the steering and follow-up
/// queues (SessionRecorder).
struct SessionState
{
    QString title;
    QString draft;
    /// The model the front end chose, as the front end writes it (the window's ModelSelection
    /// JSON, {"demo": true}); undefined: none recorded.
    QJsonValue model = QJsonValue(QJsonValue::Undefined);
    ContextEdits contextEdits;
    std::optional<SessionWorktree> worktree;
    QList<Checkpoint> checkpoints; ///< oldest first; written by the recorder's state source
    /// The deferred tools the model loaded, in order (ToolDeferral): a resumed session offers
    /// them as before, so its requests start as its last ones did.
    QStringList loadedTools;

    static constexpr QLatin1StringView titleKey{"title"};
    static constexpr QLatin1StringView draftKey{"draft"};
    static constexpr QLatin1StringView modelKey{"model"};
    static constexpr QLatin1StringView contextEditsKey{"contextEdits"};
    static constexpr QLatin1StringView checkpointsKey{"checkpoints"};
    static constexpr QLatin1StringView loadedToolsKey{"loadedTools"};

    /// Reads a session's whole \a state; what is missing or unreadable stays empty.
    static SessionState fromJson(const QJsonObject &state);
    /// The keys this value owns, as fromJson reads them; what is empty is left out (a file
    /// without the key reads the same).
    QJsonObject toJson() const;
    /// The keys CodingSession writes through SessionRecorder::setStateValue: all of toJson's
    /// but "checkpoints", which the recorder's state source writes with the permission state.
    QJsonObject recorderValues() const;
    /// The checkpoints as the "checkpoints" key lists them: each one's id, message index,
    /// reason, tool and time (the store has the rest), and how many files it skipped.
    static QJsonArray checkpointsJson(const QList<Checkpoint> &checkpoints);
};

} // namespace AgentCore
