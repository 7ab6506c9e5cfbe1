#pragma once

#include "contextedits.h"
#include "rewind.h"

#include <ai/types.h>

namespace AgentCore {

/// What a request sees of a conversation, with where each message came from.
struct ContextView
{
    QList<Message> messages;
    /// For each message, its index in the raw conversation; -1 for the summary.
    QList<qsizetype> sources;
};

/// The index of the latest compaction message of \a conversation that can apply (its
/// coveredCount does not reach past itself); -1 when there is none. It may have been rewound
/// (see conversationFates() for the one the view starts with).
qsizetype latestCompactionIndex(const QList<Message> &conversation);
/// The index of the latest message that changed what the view is made of: a compaction that
/// can apply or a rewind of the conversation (Rewind, context/rewind.h); -1 when there is none.
/// A reply before it answered a request that held what is no longer sent.
qsizetype latestViewChangeIndex(const QList<Message> &conversation);

/// What the view made of each raw message, for showing the conversation as the model sees it.
struct ConversationFates
{
    /// For each raw message, the index of the rewind message that rewound it (see Rewind), -1
    /// when it was not rewound (or only by a rewind that a later one undid).
    QList<qsizetype> rewoundBy;
    /// The compaction message whose summary the view starts with, -1 without one; it stands in
    /// for the raw messages [0, coveredCount) that were not rewound.
    qsizetype compaction = -1;
    qsizetype coveredCount = 0;
};
ConversationFates conversationFates(const QList<Message> &conversation);

/// True for a compaction message, readable or not (the view never sends one as it is).
bool isCompactionMessage(const Message &message);

/// The messages a request carries for \a conversation (the raw, append-only list): a pure,
/// deterministic function (the provider's cache prefix depends on it), O(n).
///
/// Rewinds (context/rewind.h) apply first: with one that rewinds the conversation to raw index
/// N, the view is that of the first N messages followed by what came after the rewind message
/// (the latest such rewind; the first N messages' own rewinds and compactions apply to them).
/// A files-only rewind message is sent where it is (its text tells the model what changed).
///
/// With a compaction (the latest one not rewound): its summary first, as a Custom
/// message (the wire layer sends it as a user message), then the kept tail [coveredCount, index
/// of the compaction message), then everything after the compaction message; compaction
/// messages never appear otherwise. The summary message's text is the summary under a line
/// saying what it is, followed by the text of every pinned message the compaction covers
/// ("Pinned, verbatim:"; not a rewound one): a pinned message itself is not sent where it was, because a tool call
/// or result sent without its pair would break the call/result pairing.
///
/// A tool result whose call is in ContextEdits::droppedToolOutputs (and that is not pinned)
/// is sent as droppedToolOutputText(), under the same toolCallId, so its call stays answered.
///
/// A tool result that says its text is unchanged since an earlier call's (details
/// "unchangedSince": that call's id, as Read answers a repeated Read) is sent with that call's
/// output instead when the view does not carry that output verbatim (compacted or dropped), or
/// with a note to read again when the conversation no longer holds it.
///
/// Without a compaction, a rewind and edits, \a conversation itself (no copy). The result is
/// raw like its input: projectToolCallProtocol still runs on it.
QList<Message> contextView(const QList<Message> &conversation, const ContextEdits &edits = {});
/// contextView() with the source of each message (the compaction planner, the context dialog).
ContextView mapContextView(const QList<Message> &conversation, const ContextEdits &edits = {});

/// The stub a dropped tool output is sent as: "[output removed from the context by the user]".
QString droppedToolOutputText();

} // namespace AgentCore
