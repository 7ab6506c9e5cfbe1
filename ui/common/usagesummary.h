#pragma once

#include <ai/types.h>

#include <QList>

#include <optional>

namespace Ui {

/// What a conversation has used so far, for the status bar. A plain value; build it with
/// summarizeUsage() and keep it current with add() as assistant messages end.
struct UsageSummary
{
    /// What the next request carries. summarizeUsage() and add() set the last reply's input,
    /// cache read, cache write and output (the reply becomes input; replies without usage
    /// leave it as it was); the window then sets the session's ContextMeter figure: that plus
    /// the calibrated estimate of what came after the reply (a tool output, a message sent).
    qint64 contextTokens = 0;
    std::optional<qint64> contextWindow; ///< the model's window; nullopt when unknown
    qint64 input = 0;                    ///< summed over every reply, like the four below
    qint64 output = 0;
    qint64 cacheRead = 0;
    qint64 cacheWrite = 0;
    double cost = 0; ///< USD at list prices
    /// False once a reply with tokens came from a model without a price: cost then only
    /// counts the priced replies.
    bool costKnown = true;

    qint64 totalTokens() const { return input + output + cacheRead + cacheWrite; }
    /// contextTokens as a share of the window, 0..100 (more when the window was exceeded);
    /// nullopt when the window is unknown.
    std::optional<double> contextPercent() const;
    /// The share of input tokens the provider read from its prompt cache, 0..100: cacheRead
    /// over all input (uncached, cache read and cache write; Usage counts them apart for every
    /// provider, so OpenAI's cached tokens are not counted twice). nullopt without input.
    std::optional<double> cacheHitPercent() const;
    /// Counts \a message when it is an assistant message, with the attempts it replaced
    /// (Message::discardedUsage); ignores every other role. \a ofConversation false: a
    /// subagent's reply, billed but no part of the conversation's context.
    void add(const AgentCore::Message &message, bool ofConversation = true);

    friend bool operator==(const UsageSummary &, const UsageSummary &) = default;
};

/// Sums every assistant message of \a messages (Usage::cost as the stream assembler filled it
/// in). Pure; thread-safe.
UsageSummary summarizeUsage(const QList<AgentCore::Message> &messages,
                            std::optional<qint64> contextWindow);

} // namespace Ui
