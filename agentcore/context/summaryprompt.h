#pragma once

#include <ai/types.h>

namespace AgentCore {

/// The first line of every summary request's system prompt: how a scripted model (the offline
/// demo, DemoModelClient) tells a summary request from a turn of the conversation.
QString summaryRequestMarker();

/// The dedicated summary prompt: what a compaction's summary must keep (the user's instructions
/// and decisions verbatim where short, the files read and changed, what was tried and failed,
/// the open work, the follow-ups still queued), and that it is read by the same agent going on.
QString summarySystemPrompt();

/// The request that summarises \a summarised (CompactionPlan::summarised; an earlier summary
/// first when there is one): the summary prompt, no tools, and one user message carrying the
/// messages as a transcript (a transcript rather than the messages themselves, so no provider
/// asks for the tools their calls name), then \a followUps (the queue, still to run) and the
/// user's \a instructions. A tool output is cut to its head and tail around a note of what was
/// cut; the cap shrinks until the request's estimate fits \a maxTokens, and when even the
/// smallest cap does not fit, the oldest messages are left out (an earlier summary is kept).
/// Deterministic.
Context summaryContext(const QList<Message> &summarised,
                       const QString &instructions,
                       const QList<Message> &followUps,
                       qint64 maxTokens);

} // namespace AgentCore
