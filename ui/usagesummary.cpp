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

void UsageSummary::add(const Message &message)
{
    if (message.role != Message::Role::Assistant)
        return;
    const Usage &usage = message.usage;
    if (usage.totalTokens() == 0)
        return;
    input += usage.input;
    output += usage.output;
    cacheRead += usage.cacheRead;
    cacheWrite += usage.cacheWrite;
    cost += usage.cost;
    // Usage::cost is 0 both for a free reply and for an unknown price: ask the table which.
    if (!AgentCore::priceForModel(message.provider, message.model))
        costKnown = false;
    contextTokens = usage.totalTokens();
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
