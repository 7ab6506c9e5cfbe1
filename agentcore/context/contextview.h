#pragma once

#include "contextedits.h"

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
/// coveredCount does not reach past itself); -1 when there is none.
qsizetype latestCompactionIndex(const QList<Message> &conversation);

/// True for a compaction message, readable or not (the view never sends one as it is).
bool isCompactionMessage(const Message &message);

/// The messages a request carries for \a conversation (the raw, append-only list): a pure,
/// deterministic function (the provider's cache prefix depends on it), O(n).
///
/// With a compaction (the latest, see latestCompactionIndex): its summary first, as a Custom
/// message (the wire layer sends it as a user message), then the kept tail [coveredCount, index
/// of the compaction message), then everything after the compaction message; compaction
/// messages never appear otherwise. The summary message's text is the summary under a line
/// saying what it is, followed by the text of every pinned message the compaction covers
/// ("Pinned, verbatim:"): a pinned message itself is not sent where it was, because a tool call
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
/// Without a compaction and without edits, \a conversation itself (no copy). The result is
/// raw like its input: projectToolCallProtocol still runs on it.
QList<Message> contextView(const QList<Message> &conversation, const ContextEdits &edits = {});
/// contextView() with the source of each message (the compaction planner, the context dialog).
ContextView mapContextView(const QList<Message> &conversation, const ContextEdits &edits = {});

/// The stub a dropped tool output is sent as: "[output removed from the context by the user]".
QString droppedToolOutputText();

} // namespace AgentCore
