#include "tokenestimate.h"

#include <QJsonDocument>

#include <algorithm>
#include <cmath>

namespace AgentCore {

namespace {

// Framing the wire formats add around each message and block (role, type, ids): a few tokens,
// the figure the OpenAI cookbook gives for chat messages.
constexpr qint64 messageOverhead = 4;
constexpr qint64 blockOverhead = 2;
// An image's tokens depend on its size in pixels, which the core does not decode: Anthropic
// counts width x height / 750 of an image scaled to at most 1.15 megapixels (about 1,600 at
// most), OpenAI at most about 1,100 at high detail. The larger figure, so a context with
// pictures is never thought smaller than it is.
constexpr qint64 imageTokens = 1600;

qint64 estimateJson(const QJsonObject &object)
{
    if (object.isEmpty())
        return 1;
    return estimateTokens(QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact)));
}

} // namespace

qint64 estimateTokens(QStringView text)
{
    // Branch-free, so the compiler vectorises it: a 2,000-message history is megabytes of
    // text (tests/bench/bench_context).
    const char16_t *chars = text.utf16();
    qint64 ascii = 0;
    qint64 lowSurrogates = 0; // a surrogate pair is one character
    for (qsizetype i = 0, size = text.size(); i < size; ++i) {
        ascii += chars[i] < 0x80 ? 1 : 0;
        lowSurrogates += (chars[i] & 0xFC00) == 0xDC00 ? 1 : 0;
    }
    const qint64 other = text.size() - ascii - lowSurrogates;
    // 3.5 characters per token, rounded up: 2 tokens per 7 characters.
    return (ascii * 2 + 6) / 7 + other;
}

qint64 estimateTokens(const Message &message)
{
    qint64 tokens = messageOverhead;
    if (message.isPaged()) {
        // A stub holds a preview of pagedChars characters: the whole text is counted as its
        // preview is (its mix of ASCII and other characters), scaled to its length.
        const QString preview = message.text();
        const qint64 previewTokens = estimateTokens(QStringView(preview));
        const qint64 whole = preview.isEmpty()
                                 ? (message.pagedChars * 2 + 6) / 7
                                 : previewTokens * message.pagedChars / preview.size();
        return tokens + blockOverhead + std::max(whole, previewTokens);
    }
    for (const ContentBlock &block : message.content) {
        tokens += blockOverhead;
        switch (block.type) {
        case ContentBlock::Type::Text:
        case ContentBlock::Type::Thinking:
            tokens += estimateTokens(block.text);
            break;
        case ContentBlock::Type::ToolCall:
            tokens += estimateTokens(block.name) + estimateJson(block.arguments);
            break;
        case ContentBlock::Type::Image:
            tokens += imageTokens;
            break;
        }
    }
    return tokens;
}

qint64 estimateTokens(const ToolDefinition &tool)
{
    return messageOverhead + estimateTokens(tool.name) + estimateTokens(tool.description)
           + estimateJson(tool.parameters);
}

qint64 estimateTokens(const Context &context)
{
    qint64 tokens = estimateTokens(context.systemPrompt);
    for (const ToolDefinition &tool : context.tools)
        tokens += estimateTokens(tool);
    for (const Message &message : context.messages)
        tokens += estimateTokens(message);
    return tokens;
}

void TokenCalibration::observe(qint64 estimatedTokens, qint64 reportedTokens)
{
    if (estimatedTokens <= 0 || reportedTokens <= 0)
        return;
    const double sample = std::clamp(double(reportedTokens) / double(estimatedTokens), 0.5, 2.0);
    // A running mean that settles: the first figures count fully, later ones a tenth each.
    ++m_observations;
    const double weight = 1.0 / std::min(m_observations, 10);
    m_ratio += (sample - m_ratio) * weight;
}

qint64 TokenCalibration::correct(qint64 estimatedTokens) const
{
    return qint64(std::llround(double(estimatedTokens) * m_ratio));
}

qint64 reportedInputTokens(const Message &reply)
{
    return reply.usage.input + reply.usage.cacheRead + reply.usage.cacheWrite;
}

ContextTokens countContextTokens(const Context &context, const TokenCalibration &calibration)
{
    ContextTokens tokens;
    qsizetype after = 0;
    for (qsizetype i = context.messages.size() - 1; i >= 0; --i) {
        const Message &message = context.messages.at(i);
        if (message.isAssistant() && reportedInputTokens(message) > 0) {
            tokens.reported = reportedInputTokens(message) + message.usage.output;
            after = i + 1;
            break;
        }
    }
    qint64 estimate = 0;
    if (tokens.reported == 0) {
        estimate = estimateTokens(context);
    } else {
        for (qsizetype i = after; i < context.messages.size(); ++i)
            estimate += estimateTokens(context.messages.at(i));
    }
    tokens.estimated = calibration.correct(estimate);
    tokens.total = tokens.reported + tokens.estimated;
    return tokens;
}

} // namespace AgentCore
