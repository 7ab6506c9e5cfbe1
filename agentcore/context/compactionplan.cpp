#include "compactionplan.h"

#include "tokenestimate.h"

#include <QHash>

#include <vector>

namespace AgentCore {

QList<qsizetype> compactionCuts(const ContextView &view)
{
    const QList<Message> &messages = view.messages;
    const qsizetype count = messages.size();
    // blocked[v] > 0: a call before v has its result at v or after it. Marked as a difference
    // array over the span (call, result] of every answered call.
    std::vector<int> blocked(std::size_t(count) + 1, 0);
    QHash<QString, qsizetype> callAt; // the nearest assistant message before with that call id
    for (qsizetype i = 0; i < count; ++i) {
        const Message &message = messages.at(i);
        if (message.isAssistant()) {
            for (const ContentBlock &call : message.toolCalls())
                callAt.insert(call.id, i);
        } else if (message.isToolResult()) {
            const auto call = callAt.constFind(message.toolCallId);
            if (call != callAt.constEnd()) {
                ++blocked[std::size_t(*call + 1)];
                --blocked[std::size_t(i + 1)];
            }
        }
    }
    QList<qsizetype> cuts;
    int open = 0;
    bool somethingNew = false; // a message before the cut other than an earlier summary
    for (qsizetype v = 0; v < count; ++v) {
        open += blocked[std::size_t(v)];
        if (v > 0 && somethingNew && open == 0 && !messages.at(v).isToolResult())
            cuts.append(v);
        if (view.sources.value(v, -1) >= 0)
            somethingNew = true;
    }
    return cuts;
}

std::optional<CompactionPlan> planCompaction(const QList<Message> &conversation,
                                             const ContextEdits &edits,
                                             qint64 keepRecentTokens)
{
    const ContextView view = mapContextView(conversation, edits);
    const QList<qsizetype> cuts = compactionCuts(view);
    if (cuts.isEmpty())
        return std::nullopt;
    const qsizetype count = view.messages.size();
    std::vector<qint64> suffix(std::size_t(count) + 1, 0);
    for (qsizetype i = count - 1; i >= 0; --i)
        suffix[std::size_t(i)] = suffix[std::size_t(i + 1)] + estimateTokens(view.messages.at(i));
    qsizetype cut = cuts.last();
    for (const qsizetype candidate : cuts) {
        if (suffix[std::size_t(candidate)] <= keepRecentTokens) {
            cut = candidate;
            break;
        }
    }
    CompactionPlan plan;
    plan.coveredCount = view.sources.at(cut);
    plan.summarised = view.messages.mid(0, cut);
    plan.kept = view.messages.mid(cut);
    plan.summarisedTokens = suffix[0] - suffix[std::size_t(cut)];
    plan.keptTokens = suffix[std::size_t(cut)];
    return plan;
}

} // namespace AgentCore
