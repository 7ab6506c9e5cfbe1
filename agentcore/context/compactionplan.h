#pragma once

#include "contextview.h"

#include <optional>

namespace AgentCore {

/// Where a compaction cuts a conversation: what the summary replaces and what stays verbatim.
///
/// The cut lies between turns. A turn is one model reply and the tool results that answer it;
/// a user or custom message (a prompt, steering, a follow-up, a reminder) starts a turn of its
/// own. So a cut is a position in the view (contextView) before a user, custom or assistant
/// message such that no tool call before it has its result after it (a call without any result,
/// left by an abort, counts as answered where it is). A cut before a tool result is never one.
struct CompactionPlan
{
    /// The new compaction covers the raw messages [0, coveredCount) (Compaction::coveredCount).
    qsizetype coveredCount = 0;
    /// The view's messages the summary replaces, in order: an earlier compaction's summary
    /// first when there is one. What the summary request is made from.
    QList<Message> summarised;
    /// The view's messages that stay verbatim after the summary.
    QList<Message> kept;
    qint64 summarisedTokens = 0; ///< estimateTokens of summarised
    qint64 keptTokens = 0;       ///< estimateTokens of kept
};

/// The positions of \a view where a cut may lie (see CompactionPlan), ascending: each v means
/// view.messages [0, v) are summarised and [v, end) kept. Never 0, never the end (at least the
/// latest turn stays), and each leaves something besides an earlier summary to summarise.
QList<qsizetype> compactionCuts(const ContextView &view);

/// The plan for compacting \a conversation as seen with \a edits: the most recent turns stay
/// verbatim as long as they fit \a keepRecentTokens (estimated); the earliest cut whose kept
/// part fits, or, when even the latest turn alone does not, the latest cut. nullopt when no cut
/// is possible (a single turn, or nothing new since the last compaction). Pure, O(n).
std::optional<CompactionPlan> planCompaction(const QList<Message> &conversation,
                                             const ContextEdits &edits,
                                             qint64 keepRecentTokens);

} // namespace AgentCore
