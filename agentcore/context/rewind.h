#pragma once

#include <ai/types.h>

#include <QStringList>

#include <optional>

namespace AgentCore {

/// One rewind of a conversation ("Rewind to here"): the model goes on from the point right
/// before a message, as if what came after had not been said. History stays append-only, as
/// with a Compaction: a rewind is a message appended to the conversation (Message::Role::Custom,
/// customType "rewind"), the messages it rewinds stay where they were (the session file keeps
/// them, the window shows them as rewound), and contextView() (context/contextview.h) applies it.
///
/// A rewind to raw index N means: the next request sees what a request made just before message
/// N was appended saw (contextView of the conversation's first N messages, its own compactions
/// and rewinds applied), then whatever comes after the rewind message. So a rewind of a rewind
/// (N at or before an earlier rewind message) brings back what that one rewound, and a
/// compaction written after N is rewound with the messages it summarised.
struct Rewind
{
    /// The customType of a rewind message.
    static QString customType();

    enum class Scope {
        Files,        ///< only files were restored; the conversation goes on as it was
        Conversation, ///< only the conversation was rewound
        Both,
    };

    /// The raw index (on the append-only conversation) of the first message rewound: the
    /// conversation goes back to right before it. Never past the rewind message itself.
    qsizetype toIndex = 0;
    Scope scope = Scope::Both;
    /// The checkpoint the files were restored from (empty when no file was restored).
    QString checkpoint;
    /// The checkpoint recorded right before the files were restored: what "Undo rewind" restores.
    QString undoCheckpoint;
    QStringList restoredFiles; ///< repository-relative, as restored
    QStringList keptFiles;     ///< repository-relative, left as they were at the user's request
    qint64 timestamp = 0;

    bool rewindsConversation() const { return scope != Scope::Files; }
    bool restoresFiles() const { return scope != Scope::Conversation; }

    /// The rewind \a message records; nullopt for any other message (or one whose data is
    /// unreadable: it is then never applied).
    static std::optional<Rewind> of(const Message &message);
    /// The message to append to the conversation. Its text is what the model is told of a
    /// files-only rewind (the one kind a request carries, see contextView()).
    Message toMessage() const;

    friend bool operator==(const Rewind &, const Rewind &) = default;
};

/// True for a rewind message, readable or not.
bool isRewindMessage(const Message &message);

} // namespace AgentCore
