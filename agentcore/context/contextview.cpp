#include "contextview.h"
#include "translation.h"

#include "compaction.h"
#include "rewind.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>

namespace AgentCore {

namespace {

// A pinned message as the summary quotes it: who said it, then its words.
QString pinnedText(const Message &message)
{
    QString text = message.text();
    switch (message.role) {
    case Message::Role::User:
    case Message::Role::Custom:
        return ContextTr::tr("User:") + u'\n' + text;
    case Message::Role::Assistant:
        for (const ContentBlock &call : message.toolCalls()) {
            text += u'\n' + call.name + u' '
                    + QString::fromUtf8(
                        QJsonDocument(call.arguments).toJson(QJsonDocument::Compact));
        }
        return ContextTr::tr("Assistant:") + u'\n' + text.trimmed();
    case Message::Role::ToolResult:
        return ContextTr::tr("Output of %1:").arg(message.toolName) + u'\n' + text;
    }
    return text;
}

Message summaryMessage(const QList<Message> &conversation,
                       qsizetype index,
                       const Compaction &compaction,
                       const ContextEdits &edits,
                       const QList<qsizetype> &rewound)
{
    Message summary = conversation.at(index);
    QString text = ContextTr::tr(
                       "The earlier part of this conversation was compacted; this summary "
                       "stands in for it.")
                   + QStringLiteral("\n\n") + compaction.summary;
    if (!edits.pinnedMessages.isEmpty()) {
        QList<qsizetype> pinned;
        for (const qsizetype pin : edits.pinnedMessages) {
            // A rewound message is not quoted: the model goes on as if it had not been said.
            if (pin < compaction.coveredCount && pin < conversation.size()
                && !isCompactionMessage(conversation.at(pin))
                && !isRewindMessage(conversation.at(pin)) && rewound.value(pin, -1) < 0)
                pinned.append(pin);
        }
        std::sort(pinned.begin(), pinned.end());
        if (!pinned.isEmpty()) {
            text += QStringLiteral("\n\n") + ContextTr::tr("Pinned, verbatim:");
            for (const qsizetype pin : std::as_const(pinned))
                text += QStringLiteral("\n\n") + pinnedText(conversation.at(pin));
        }
    }
    summary.content = {ContentBlock::makeText(text)};
    return summary;
}

// The rewind message at \a index when it applies: it rewinds the conversation, and to a point
// at or before itself.
std::optional<Rewind> appliedRewind(const Message &message, qsizetype index)
{
    if (!isRewindMessage(message))
        return std::nullopt;
    std::optional<Rewind> rewind = Rewind::of(message);
    if (!rewind || !rewind->rewindsConversation() || rewind->toIndex > index)
        return std::nullopt;
    return rewind;
}

std::optional<Compaction> appliedCompaction(const Message &message, qsizetype index)
{
    if (!isCompactionMessage(message))
        return std::nullopt;
    std::optional<Compaction> compaction = Compaction::of(message);
    if (!compaction || compaction->coveredCount > index)
        return std::nullopt;
    return compaction;
}

// One message of a view: a raw message (source >= 0), or the summary of the compaction at
// raw index `compaction` (source -1).
struct Entry
{
    qsizetype source = -1;
    qsizetype compaction = -1;
};

// The view of conversation[0, end) as entries, and in \a rewoundBy (sized to the whole
// conversation) which rewind message rewound each raw message. The latest rewind that applies
// sends the view back to what it was before its target, so that prefix is built first (the
// same way: a rewind inside it is a rewind of a rewind), then everything after the rewind is
// replayed: each message appended, each compaction replacing what it covers with its summary.
// The ranges replayed never overlap: O(n) overall.
QList<Entry> buildView(const QList<Message> &conversation,
                       qsizetype end,
                       QList<qsizetype> &rewoundBy)
{
    qsizetype start = 0;
    QList<Entry> entries;
    for (qsizetype i = end - 1; i >= 0; --i) {
        if (const std::optional<Rewind> rewind = appliedRewind(conversation.at(i), i)) {
            for (qsizetype r = rewind->toIndex; r < i; ++r)
                rewoundBy[r] = i;
            entries = buildView(conversation, rewind->toIndex, rewoundBy);
            start = i + 1;
            break;
        }
    }
    for (qsizetype i = start; i < end; ++i) {
        const Message &message = conversation.at(i);
        if (const std::optional<Compaction> compaction = appliedCompaction(message, i)) {
            QList<Entry> kept;
            kept.reserve(entries.size() + 1);
            kept.append(Entry{-1, i});
            for (const Entry &entry : std::as_const(entries)) {
                if (entry.source >= compaction->coveredCount)
                    kept.append(entry);
            }
            entries = std::move(kept);
        } else if (isCompactionMessage(message)) {
            continue; // one that can not apply is never sent
        } else if (isRewindMessage(message)) {
            // A files-only rewind tells the model which files changed under it.
            const std::optional<Rewind> rewind = Rewind::of(message);
            if (rewind && !rewind->rewindsConversation())
                entries.append(Entry{i, -1});
        } else {
            entries.append(Entry{i, -1});
        }
    }
    return entries;
}

bool isDropped(const Message &message, qsizetype index, const ContextEdits &edits)
{
    return message.isToolResult() && edits.droppedToolOutputs.contains(message.toolCallId)
           && !edits.pinnedMessages.contains(index);
}

Message droppedOutput(const Message &result)
{
    Message stub = result;
    stub.content = {ContentBlock::makeText(droppedToolOutputText())};
    stub.isError = false;
    stub.pagedChars = -1; // the note is the whole of it: a paged output is not read back
    return stub;
}

// A Read that answered "unchanged" names the call whose output holds the text
// (details "unchangedSince"). The tools only say so while a request carries that output, but
// the next request may not (a compaction appended before it, an output the user dropped since):
// then the answer carries that output itself, so the model is never pointed at text it lost.
void restoreUnchangedReads(const QList<Message> &conversation,
                           ContextView &view,
                           const ContextEdits &edits)
{
    static const QString sinceKey = QStringLiteral("unchangedSince");
    QList<qsizetype> answers;
    for (qsizetype i = 0; i < view.messages.size(); ++i) {
        const Message &message = view.messages.at(i);
        if (message.isToolResult() && message.details.other.contains(sinceKey)
            && !isDropped(conversation.at(view.sources.at(i)), view.sources.at(i), edits))
            answers.append(i);
    }
    if (answers.isEmpty())
        return;
    QSet<QString> carried;
    for (qsizetype i = 0; i < view.messages.size(); ++i) {
        const Message &message = view.messages.at(i);
        const qsizetype source = view.sources.at(i);
        if (message.isToolResult() && !isDropped(conversation.at(source), source, edits))
            carried.insert(message.toolCallId);
    }
    for (const qsizetype answer : std::as_const(answers)) {
        Message &message = view.messages[answer];
        const QString since = message.details.other.value(sinceKey).toString();
        if (carried.contains(since))
            continue;
        const Message *earlier = nullptr;
        for (qsizetype i = view.sources.at(answer) - 1; i >= 0 && !earlier; --i) {
            const Message &candidate = conversation.at(i);
            if (candidate.isToolResult() && candidate.toolCallId == since
                && !candidate.details.other.contains(sinceKey))
                earlier = &candidate;
        }
        message.content = earlier ? earlier->content
                                  : QList<ContentBlock>{ContentBlock::makeText(
                                      ContextTr::tr("[The file was unchanged since an earlier Read "
                                                    "whose output is no longer in this "
                                                    "conversation: Read it again to see it.]"))};
    }
}

} // namespace

QString droppedToolOutputText()
{
    return ContextTr::tr("[output removed from the context by the user]");
}

bool isCompactionMessage(const Message &message)
{
    return message.role == Message::Role::Custom && message.customType == Compaction::customType();
}

qsizetype latestCompactionIndex(const QList<Message> &conversation)
{
    for (qsizetype i = conversation.size() - 1; i >= 0; --i) {
        if (appliedCompaction(conversation.at(i), i))
            return i;
    }
    return -1;
}

qsizetype latestViewChangeIndex(const QList<Message> &conversation)
{
    for (qsizetype i = conversation.size() - 1; i >= 0; --i) {
        if (appliedCompaction(conversation.at(i), i) || appliedRewind(conversation.at(i), i))
            return i;
    }
    return -1;
}

ContextView mapContextView(const QList<Message> &conversation, const ContextEdits &edits)
{
    QList<qsizetype> rewound(conversation.size(), -1);
    const QList<Entry> entries = buildView(conversation, conversation.size(), rewound);
    ContextView view;
    view.messages.reserve(entries.size());
    view.sources.reserve(entries.size());
    for (const Entry &entry : entries) {
        if (entry.source < 0) {
            const Compaction compaction = *Compaction::of(conversation.at(entry.compaction));
            view.messages.append(
                summaryMessage(conversation, entry.compaction, compaction, edits, rewound));
        } else {
            const Message &message = conversation.at(entry.source);
            view.messages.append(isDropped(message, entry.source, edits) ? droppedOutput(message)
                                                                         : message);
        }
        view.sources.append(entry.source);
    }
    restoreUnchangedReads(conversation, view, edits);
    return view;
}

ConversationFates conversationFates(const QList<Message> &conversation)
{
    ConversationFates fates;
    fates.rewoundBy = QList<qsizetype>(conversation.size(), -1);
    const QList<Entry> entries = buildView(conversation, conversation.size(), fates.rewoundBy);
    if (!entries.isEmpty() && entries.first().source < 0) {
        fates.compaction = entries.first().compaction;
        fates.coveredCount = Compaction::of(conversation.at(fates.compaction))->coveredCount;
    }
    return fates;
}

QList<Message> contextView(const QList<Message> &conversation, const ContextEdits &edits)
{
    if (edits.isEmpty()) {
        // The common case before any compaction or rewind: nothing to copy. A compaction
        // message that can not apply is still left out.
        const bool anyMarker = std::any_of(conversation.cbegin(),
                                           conversation.cend(),
                                           [](const Message &message) {
                                               return isCompactionMessage(message)
                                                      || isRewindMessage(message);
                                           });
        if (!anyMarker)
            return conversation;
    }
    return mapContextView(conversation, edits).messages;
}

} // namespace AgentCore
