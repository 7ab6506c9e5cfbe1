#include "toolcallpairing.h"
#include "translation.h"

#include <QCoreApplication>
#include <QHash>
#include <QVarLengthArray>

#include <vector>

namespace AgentCore {

namespace {
// The context the text had when it lived in the loop's projection: its translations stay valid.

bool hasNonBlankText(const QString &text)
{
    for (const QChar c : text) {
        if (!c.isSpace())
            return true;
    }
    return false;
}
} // namespace

bool isEmptyAssistantMessage(const Message &message)
{
    if (!message.isAssistant())
        return false;
    for (const ContentBlock &block : message.content) {
        if (block.isToolCall() || (block.isText() && hasNonBlankText(block.text)))
            return false;
    }
    return true;
}

Message missingToolResult(const Message &assistant, const ContentBlock &call)
{
    Message result = Message::makeToolResult(
        call.id,
        call.name,
        AiTr::tr(
            "No result was recorded for this tool call: it did not run or its result was lost."),
        true);
    result.timestamp = assistant.timestamp;
    return result;
}

namespace {
// True when the history already follows the rules, so the pairing is the history itself:
// a scan without copies, the common case before every request.
bool isPaired(const QList<Message> &messages)
{
    const qsizetype count = messages.size();
    for (qsizetype i = 0; i < count; ++i) {
        const Message &message = messages.at(i);
        if (message.isToolResult())
            return false;
        if (!message.isAssistant())
            continue;
        qsizetype next = i + 1;
        bool hasCall = false;
        for (const ContentBlock &block : message.content) {
            if (!block.isToolCall())
                continue;
            hasCall = true;
            if (next >= count || !messages.at(next).isToolResult()
                || messages.at(next).toolCallId != block.id) {
                return false;
            }
            ++next;
        }
        if (!hasCall && isEmptyAssistantMessage(message))
            return false;
        i = next - 1;
    }
    return true;
}

// Appends, after \a assistant, one result per call in call order: the first unused of its own
// results (\a candidates, in history order) with the call's id, or a synthetic one.
void appendResults(const QList<Message> &messages,
                   const Message &assistant,
                   const QVarLengthArray<qsizetype, 8> &candidates,
                   QList<Message> &paired)
{
    QVarLengthArray<bool, 8> used(candidates.size(), false);
    QHash<QString, QList<qsizetype>> byId; // only for messages with many results
    const bool indexed = candidates.size() > 16;
    if (indexed) {
        for (qsizetype c = 0; c < candidates.size(); ++c)
            byId[messages.at(candidates.at(c)).toolCallId].append(c);
    }
    for (const ContentBlock &block : assistant.content) {
        if (!block.isToolCall())
            continue;
        qsizetype found = -1;
        if (indexed) {
            auto it = byId.find(block.id);
            if (it != byId.end() && !it->isEmpty())
                found = it->takeFirst();
        } else {
            for (qsizetype c = 0; c < candidates.size() && found < 0; ++c) {
                if (!used.at(c) && messages.at(candidates.at(c)).toolCallId == block.id)
                    found = c;
            }
        }
        if (found >= 0) {
            used[found] = true;
            paired.append(messages.at(candidates.at(found)));
        } else {
            paired.append(missingToolResult(assistant, block));
        }
    }
}
} // namespace

QList<Message> pairToolCalls(const QList<Message> &messages)
{
    if (isPaired(messages))
        return messages;

    const qsizetype count = messages.size();
    // Each result belongs to the nearest assistant message before it with a call of its id.
    // firstResult/nextResult chain an assistant's results in history order (indexes, -1: none).
    std::vector<qsizetype> firstResult(size_t(count), -1);
    std::vector<qsizetype> lastResult(size_t(count), -1);
    std::vector<qsizetype> nextResult(size_t(count), -1);
    QHash<QString, qsizetype> lastCaller;
    for (qsizetype i = 0; i < count; ++i) {
        const Message &message = messages.at(i);
        if (message.isAssistant()) {
            for (const ContentBlock &block : message.content) {
                if (block.isToolCall())
                    lastCaller.insert(block.id, i);
            }
            continue;
        }
        if (!message.isToolResult() || lastCaller.isEmpty())
            continue;
        const auto it = lastCaller.constFind(message.toolCallId);
        if (it == lastCaller.constEnd())
            continue; // an orphan
        const size_t owner = size_t(it.value());
        if (firstResult[owner] < 0)
            firstResult[owner] = i;
        else
            nextResult[size_t(lastResult[owner])] = i;
        lastResult[owner] = i;
    }

    QList<Message> paired;
    paired.reserve(count);
    for (qsizetype i = 0; i < count; ++i) {
        const Message &message = messages.at(i);
        if (message.isToolResult() || isEmptyAssistantMessage(message))
            continue;
        paired.append(message);
        if (!message.isAssistant())
            continue;
        QVarLengthArray<qsizetype, 8> candidates;
        for (qsizetype r = firstResult[size_t(i)]; r >= 0; r = nextResult[size_t(r)])
            candidates.append(r);
        appendResults(messages, message, candidates, paired);
    }
    return paired;
}

} // namespace AgentCore
