#pragma once

#include "contextedits.h"

#include <ai/types.h>

#include <QStringList>

namespace AgentCore {

/// estimateTokens() of the request made from an append-only conversation, turn after turn, at
/// the cost of what was added since the previous turn. Estimating the whole history again
/// before every request made a session's cost grow with the square of its length: 2.7 ms per
/// turn at 10,000 messages, most of it turning old tool calls' arguments into JSON again
/// (tests/bench/bench_loop, "one conversation of 10,000 turns"). Not thread-safe: one owner.
class RunningEstimate
{
public:
    /// estimateTokens(\a request), where request.messages is contextView(\a conversation,
    /// \a edits). The sum of the earlier messages is kept while the earlier view cannot have
    /// changed: the edits are the same and the conversation only grew, by messages that are not
    /// Custom ones (a compaction, or any other custom message, may change what the view shows
    /// of earlier messages: then everything is estimated again).
    qint64 estimate(const Context &request,
                    const QList<Message> &conversation,
                    const ContextEdits &edits);

private:
    qint64 frame(const Context &request);

    ContextEdits m_edits;
    qsizetype m_conversationSize = -1; // -1: nothing kept
    qsizetype m_viewSize = 0;
    qint64 m_messageTokens = 0; // the first m_viewSize messages of the view
    QString m_systemPrompt;
    QStringList m_toolNames;
    qint64 m_frameTokens = -1; // the system prompt and the tools; -1: not known
};

} // namespace AgentCore
