#pragma once

#include <ai/types.h>

namespace AgentCore {

/// A cheap, deterministic estimate of how many tokens a text takes, for what no provider has
/// counted yet (the messages added since the last reply, a request before its first reply).
///
/// No tokenizer: the providers' differ, none ships with us, and a real one costs more than the
/// estimate is worth. Byte-pair tokenizers give English prose about 4 characters per token and
/// code, JSON and paths (the bulk of a coding session: tool outputs) about 3; a character
/// outside ASCII (CJK, emoji, accented letters) is about one token each. The estimate takes
/// ASCII at 3.5 characters per token and every other character as one token, then the caller
/// corrects it with TokenCalibration against what the provider reported.
/// tests/bench measures its error on the recorded fixtures.
qint64 estimateTokens(QStringView text);
/// A message as a request carries it: its text, thinking and tool calls (name and arguments
/// as JSON), plus a few tokens of framing per message and per block.
qint64 estimateTokens(const Message &message);
/// A tool definition: name, description and its parameter schema as JSON.
qint64 estimateTokens(const ToolDefinition &tool);
/// The system prompt, the tool definitions and every message of \a context.
qint64 estimateTokens(const Context &context);

/// Corrects estimates by what the providers counted: the ratio of reported to estimated input
/// tokens, averaged over the requests seen so far (each real usage figure moves it), kept
/// between 0.5 and 2 so one odd figure (a cache miss, a provider that counts differently) can
/// not throw it far. A value type: one per session, copied freely.
class TokenCalibration
{
public:
    /// A request estimated at \a estimatedTokens was reported as \a reportedTokens input tokens.
    /// Ignored when either is not positive.
    void observe(qint64 estimatedTokens, qint64 reportedTokens);
    /// \a estimatedTokens corrected; unchanged before any observation.
    qint64 correct(qint64 estimatedTokens) const;
    double ratio() const { return m_ratio; }
    int observations() const { return m_observations; }

private:
    double m_ratio = 1.0;
    int m_observations = 0;
};

/// The input tokens a provider reported for the request \a reply answered, cache reads and
/// writes included (Usage::input counts only the uncached part).
qint64 reportedInputTokens(const Message &reply);

/// How full a request is, the way the status bar and compaction need to know it.
struct ContextTokens
{
    qint64 total = 0;     ///< reported + estimated
    qint64 reported = 0;  ///< what the last reply's usage says the context held (input + output)
    qint64 estimated = 0; ///< the calibrated estimate of what came after that reply
};

/// How many tokens \a context takes: the last assistant reply's reported input plus its own
/// output (the reply is part of the next request), plus the calibrated estimate of the
/// messages after it. Without a reply that has usage, the estimate of everything (system
/// prompt and tools included). Use it only when the messages up to that reply are the ones its
/// request had; after the history was rewritten (a compaction), estimate instead.
ContextTokens countContextTokens(const Context &context, const TokenCalibration &calibration);

} // namespace AgentCore
