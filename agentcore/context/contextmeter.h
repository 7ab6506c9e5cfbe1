#pragma once

#include "tokenestimate.h"

namespace AgentCore {

/// How full one conversation's context window is, kept current as its messages come: what
/// the status bar shows and the context view breaks down. Owns the conversation's
/// TokenCalibration: each reply with usage is observed against the estimate of the request it
/// answered (the system prompt, the tools and every message before it), so the estimate of
/// what came after the last reply learns from every real figure.
///
/// A plain value, one per conversation; not thread-safe (the window keeps it on the UI thread,
/// fed from the Agent's events). Appending costs one message's estimate; setting the whole
/// conversation costs one estimate of it (about a millisecond for 2,000 messages, see
/// tests/bench/bench_context).
class ContextMeter
{
public:
    /// What every request starts with. Unknown (empty) until the agent is assembled; set
    /// again when it changes.
    void setPreamble(const QString &systemPrompt, const QList<ToolDefinition> &tools);
    /// Replaces the conversation (a resumed session, the Agent's messages after a run). The
    /// calibration is learnt again from its replies. \a rewritten: the history was rewritten
    /// (a compaction, a dropped tool output), so the replies in it counted other requests: the
    /// whole context is estimated until the next reply.
    void setMessages(const QList<Message> &messages, bool rewritten = false);
    /// A message the conversation gained (the loop's message_end). A reply with usage is
    /// observed by the calibration first.
    void append(const Message &message);

    /// What the next request carries: countContextTokens() over the preamble and the
    /// conversation. Zero for an empty conversation (no request was made, none is waiting).
    ContextTokens tokens() const;
    /// The calibrated estimate of one message, one tool definition or a text.
    qint64 estimate(const Message &message) const;
    qint64 estimate(const ToolDefinition &tool) const;
    qint64 estimate(QStringView text) const;

    const Context &context() const { return m_context; }
    const TokenCalibration &calibration() const { return m_calibration; }

private:
    void relearn();

    Context m_context;
    TokenCalibration m_calibration;
    qint64 m_estimate = 0; ///< uncalibrated estimate of m_context, kept as messages come
    /// Replies before this index answered requests of another history (see setMessages).
    qsizetype m_countableFrom = 0;
};

} // namespace AgentCore
