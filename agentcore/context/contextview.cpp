#include "contextview.h"

#include "compaction.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>

namespace AgentCore {

namespace {
struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(AgentCore::ContextView)
};

// A pinned message as the summary quotes it: who said it, then its words.
QString pinnedText(const Message &message)
{
    QString text = message.text();
    switch (message.role) {
    case Message::Role::User:
    case Message::Role::Custom:
        return Tr::tr("User:") + u'\n' + text;
    case Message::Role::Assistant:
        for (const ContentBlock &call : message.toolCalls()) {
            text += u'\n' + call.name + u' '
                    + QString::fromUtf8(
                        QJsonDocument(call.arguments).toJson(QJsonDocument::Compact));
        }
        return Tr::tr("Assistant:") + u'\n' + text.trimmed();
    case Message::Role::ToolResult:
        return Tr::tr("Output of %1:").arg(message.toolName) + u'\n' + text;
    }
    return text;
}

Message summaryMessage(const QList<Message> &conversation,
                       qsizetype index,
                       const Compaction &compaction,
                       const ContextEdits &edits)
{
    Message summary = conversation.at(index);
    QString text = Tr::tr("The earlier part of this conversation was compacted; this summary "
                          "stands in for it.")
                   + QStringLiteral("\n\n") + compaction.summary;
    if (!edits.pinnedMessages.isEmpty()) {
        QList<qsizetype> pinned;
        for (const qsizetype pin : edits.pinnedMessages) {
            if (pin < compaction.coveredCount && pin < conversation.size()
                && !isCompactionMessage(conversation.at(pin)))
                pinned.append(pin);
        }
        std::sort(pinned.begin(), pinned.end());
        if (!pinned.isEmpty()) {
            text += QStringLiteral("\n\n") + Tr::tr("Pinned, verbatim:");
            for (const qsizetype pin : std::as_const(pinned))
                text += QStringLiteral("\n\n") + pinnedText(conversation.at(pin));
        }
    }
    summary.content = {ContentBlock::makeText(text)};
    return summary;
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
                                      Tr::tr("[The file was unchanged since an earlier Read "
                                             "whose output is no longer in this "
                                             "conversation: Read it again to see it.]"))};
    }
}

} // namespace

QString droppedToolOutputText()
{
    return Tr::tr("[output removed from the context by the user]");
}

bool isCompactionMessage(const Message &message)
{
    return message.role == Message::Role::Custom && message.customType == Compaction::customType();
}

qsizetype latestCompactionIndex(const QList<Message> &conversation)
{
    for (qsizetype i = conversation.size() - 1; i >= 0; --i) {
        const Message &message = conversation.at(i);
        if (message.role != Message::Role::Custom || !isCompactionMessage(message))
            continue;
        const std::optional<Compaction> compaction = Compaction::of(message);
        if (compaction && compaction->coveredCount <= i)
            return i;
    }
    return -1;
}

ContextView mapContextView(const QList<Message> &conversation, const ContextEdits &edits)
{
    ContextView view;
    const qsizetype latest = latestCompactionIndex(conversation);
    qsizetype first = 0;
    if (latest >= 0) {
        const Compaction compaction = *Compaction::of(conversation.at(latest));
        view.messages.reserve(conversation.size() - compaction.coveredCount);
        view.sources.reserve(conversation.size() - compaction.coveredCount);
        view.messages.append(summaryMessage(conversation, latest, compaction, edits));
        view.sources.append(-1);
        first = compaction.coveredCount;
    } else {
        view.messages.reserve(conversation.size());
        view.sources.reserve(conversation.size());
    }
    for (qsizetype i = first; i < conversation.size(); ++i) {
        const Message &message = conversation.at(i);
        if (isCompactionMessage(message))
            continue;
        view.messages.append(isDropped(message, i, edits) ? droppedOutput(message) : message);
        view.sources.append(i);
    }
    restoreUnchangedReads(conversation, view, edits);
    return view;
}

QList<Message> contextView(const QList<Message> &conversation, const ContextEdits &edits)
{
    if (edits.isEmpty() && latestCompactionIndex(conversation) < 0) {
        // The common case before any compaction: nothing to copy. A compaction message that
        // can not apply is still left out.
        const bool anyCompaction = std::any_of(conversation.cbegin(),
                                               conversation.cend(),
                                               isCompactionMessage);
        if (!anyCompaction)
            return conversation;
    }
    return mapContextView(conversation, edits).messages;
}

} // namespace AgentCore
