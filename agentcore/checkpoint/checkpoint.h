#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace AgentCore {

/// A file a checkpoint does not hold, and why: the UI says these are "not covered", and a
/// restore to that checkpoint leaves them as they are.
struct SkippedFile
{
    enum class Why {
        OverSizeCap, ///< larger than CheckpointStore::maxFileBytes()
        Unreadable,  ///< could not be opened or read (permissions, vanished meanwhile)
    };
    QString path; ///< relative to the working tree, '/' separated
    Why why = Why::OverSizeCap;
    qint64 size = -1; ///< bytes; -1 when unknown

    QJsonObject toJson() const;
    static SkippedFile fromJson(const QJsonObject &object);
    bool operator==(const SkippedFile &) const = default;
};

/// One recorded state of a working tree (CheckpointStore): a commit of AgentDesk's shadow
/// store, never of the user's repository. A value; crosses threads.
struct Checkpoint
{
    enum class Reason {
        UserMessage,   ///< recorded when a user message started a turn
        BeforeTool,    ///< before the first side effect of a turn (toolName says which tool)
        BeforeRestore, ///< the state a restore replaced: restoring to it undoes the restore
    };

    QString id;        ///< the shadow store's commit hash (40 hex digits)
    QString sessionId; ///< the session it belongs to (its file's id)
    /// Index into the session's conversation of the first message this state precedes: a
    /// restore for "rewind to message i" uses the latest checkpoint whose messageIndex <= i.
    /// -1: not tied to a message (a restore's own checkpoint).
    int messageIndex = -1;
    /// The timestamp (ms since the epoch) of the message right before messageIndex on the
    /// branch it was taken on. A session with branches has several messages at one index; the
    /// files' history up to here is only that of the branches that hold this message. 0: not
    /// known (a checkpoint of an older version) or not needed (messageIndex 0: every branch
    /// starts there).
    qint64 afterMessageTime = 0;
    Reason reason = Reason::UserMessage;
    QString toolName; ///< BeforeTool: the tool about to run
    QDateTime time;   ///< UTC, when the snapshot was taken
    QList<SkippedFile> skipped;

    bool isNull() const { return id.isEmpty(); }
    /// Whether the checkpoint is a state of the branch whose messages have the timestamps
    /// \a branchTimes (by raw index): the message before it is that branch's. Unknown
    /// (afterMessageTime 0) counts as on every branch, as before branches existed.
    bool isOnBranch(const QList<qint64> &branchTimes) const;
    /// "before Bash", "at your message", "before the rewind": for people (tr()).
    QString reasonText() const;

    /// The form kept in the session's state and in the commit's message.
    QJsonObject toJson() const;
    /// nullopt when \a object has no id.
    static std::optional<Checkpoint> fromJson(const QJsonObject &object);
    static QString reasonName(Reason reason); ///< "user_message", "before_tool", "before_restore"
    static std::optional<Reason> reasonFromName(const QString &name);
};

} // namespace AgentCore
