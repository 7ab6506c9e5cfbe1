#include "usagesummary.h"

#include <ai/pricing.h>

namespace Ui {

using AgentCore::Message;
using AgentCore::Usage;

std::optional<double> UsageSummary::contextPercent() const
{
    if (!contextWindow || *contextWindow <= 0)
        return std::nullopt;
    return 100.0 * double(contextTokens) / double(*contextWindow);
}

std::optional<double> UsageSummary::cacheHitPercent() const
{
    const qint64 allInput = input + cacheRead + cacheWrite;
    if (allInput <= 0)
        return std::nullopt;
    return 100.0 * double(cacheRead) / double(allInput);
}

void UsageSummary::add(const Message &message, bool ofConversation)
{
    // A compaction (a Custom message) carries what its summary request cost: billed, but the
    // context is the next reply's to say.
    const bool summary = message.role == Message::Role::Custom;
    if (message.role != Message::Role::Assistant && !summary)
        return;
    // A withdrawn attempt was billed like any reply, but the next request does not carry it.
    Usage billed = message.usage;
    billed += message.discardedUsage;
    if (billed.totalTokens() == 0)
        return;
    input += billed.input;
    output += billed.output;
    cacheRead += billed.cacheRead;
    cacheWrite += billed.cacheWrite;
    cost += billed.cost;
    // Usage::cost is 0 both for a free reply and for an unknown price: ask the table which.
    if (!AgentCore::priceForModel(message.provider, message.model))
        costKnown = false;
    if (message.usage.totalTokens() > 0 && !summary && ofConversation)
        contextTokens = message.usage.totalTokens();
}

UsageSummary summarizeUsage(const QList<Message> &messages, std::optional<qint64> contextWindow)
{
    UsageSummary summary;
    summary.contextWindow = contextWindow;
    for (const Message &message : messages)
        summary.add(message);
    return summary;
}

} // namespace Ui
