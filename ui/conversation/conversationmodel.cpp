#include "conversationmodel.h"
#include "common/translation.h"

#include "compactionitem.h"
#include "messageitem.h"
#include "noteitem.h"
#include "rewinditem.h"
#include "taskcarditem.h"
#include "toolcarditem.h"

#include <context/contextview.h>

#include <QCoreApplication>

namespace Ui {

using AgentCore::AgentEvent;
using AgentCore::Message;
using AgentCore::StopReason;
using AgentCore::StreamEvent;

namespace {
/// The line above a user bubble: how the message reached the agent, as the loop took it.
QString originCaption(AgentCore::MessageOrigin origin)
{
    switch (origin) {
    case AgentCore::MessageOrigin::Prompt:
        return {};
    case AgentCore::MessageOrigin::Steering:
        return UiTr::tr("Steering");
    case AgentCore::MessageOrigin::FollowUp:
        return UiTr::tr("Follow-up");
    }
    return {};
}

/// A user bubble for \a message, with its caption.
std::unique_ptr<MessageItem> userItem(const Message &message)
{
    auto item = std::make_unique<MessageItem>(ConversationItem::Kind::User);
    item->setMessage(message);
    item->setCaption(originCaption(message.origin));
    return item;
}
} // namespace

ConversationModel::ConversationModel() = default;
ConversationModel::~ConversationModel() = default;

template<typename T>
T *ConversationModel::append(std::unique_ptr<T> item)
{
    T *raw = item.get();
    raw->setSourceIndex(m_messageIndex);
    m_items.push_back(std::move(item));
    return raw;
}

int ConversationModel::indexOf(const ConversationItem *item) const
{
    for (size_t i = m_items.size(); i-- > 0;) { // most lookups are for recent items
        if (m_items[i].get() == item)
            return int(i);
    }
    return -1;
}

void ConversationModel::apply(const AgentEvent &event, qint64 nowMs)
{
    switch (event.type) {
    case AgentEvent::Type::MessageStart:
        messageStarted(event.message);
        break;
    case AgentEvent::Type::MessageUpdate:
        messageUpdated(event.streamEvent);
        break;
    case AgentEvent::Type::MessageEnd:
        messageEnded(event.message, nowMs);
        break;
    case AgentEvent::Type::MessageDiscard:
        draftDiscarded(event.message);
        break;
    case AgentEvent::Type::ToolExecutionStart: {
        ToolCardItem *card = cardFor(event.toolCallId, event.toolName);
        card->setArguments(event.arguments);
        card->setRunning(nowMs);
        break;
    }
    case AgentEvent::Type::ToolExecutionUpdate:
        cardFor(event.toolCallId, event.toolName)->setPartialResult(event.result);
        break;
    case AgentEvent::Type::ToolExecutionEnd: {
        AgentCore::ToolResult result = event.result;
        result.isError = result.isError || event.isError;
        ToolCardItem *card = cardFor(event.toolCallId, event.toolName);
        card->setResult(result, nowMs);
        noteLargeOutput(card);
        if (auto task = dynamic_cast<TaskCardItem *>(card))
            task->endChild();
        break;
    }
    case AgentEvent::Type::AgentEnd:
        runEnded();
        break;
    case AgentEvent::Type::AgentStart:
    case AgentEvent::Type::TurnEnd:
    case AgentEvent::Type::TurnStart:
        break;
    }
}

void ConversationModel::messageStarted(const Message &message)
{
    switch (message.role) {
    case Message::Role::User:
        m_pendingUser = append(userItem(message));
        break;
    case Message::Role::Assistant:
        m_draft = nullptr;
        m_draftCards.clear();
        draft()->setMessage(message);
        break;
    case Message::Role::ToolResult: // its card shows it
    case Message::Role::Custom:     // shown once complete
        break;
    }
}

MessageItem *ConversationModel::draft()
{
    if (!m_draft) {
        m_draft = append(std::make_unique<MessageItem>(ConversationItem::Kind::Assistant));
        m_draft->setStreaming(true);
    }
    return m_draft;
}

void ConversationModel::messageUpdated(const StreamEvent &event)
{
    switch (event.type) {
    case StreamEvent::Type::TextDelta:
        draft()->appendText(event.contentIndex, event.delta);
        break;
    case StreamEvent::Type::ThinkingDelta:
        draft()->appendThinking(event.contentIndex, event.delta);
        break;
    case StreamEvent::Type::ToolCallStart:
    case StreamEvent::Type::ToolCallDelta:
    case StreamEvent::Type::ToolCallEnd: {
        draft();
        if (event.toolCallId.isEmpty())
            break; // shown once the call has an id
        ToolCardItem *card = cardFor(event.toolCallId, event.toolName);
        if (!m_draftCards.contains(card))
            m_draftCards.append(card);
        if (!event.arguments.isEmpty())
            card->setArguments(event.arguments);
        break;
    }
    case StreamEvent::Type::Retry:
        addNote(UiTr::tr("The request failed (%1); retrying in %2 s (attempt %3).")
                    .arg(event.errorMessage)
                    .arg((event.retryDelayMs + 999) / 1000)
                    .arg(event.retryAttempt),
                false);
        break;
    default:
        break;
    }
}

void ConversationModel::messageEnded(const Message &message, qint64 nowMs)
{
    switch (message.role) {
    case Message::Role::User:
        if (m_pendingUser) {
            m_pendingUser->setMessage(message);
            m_pendingUser->setCaption(originCaption(message.origin));
        } else {
            append(userItem(message));
        }
        m_pendingUser = nullptr;
        break;
    case Message::Role::Assistant:
        draft()->setMessage(message);
        m_draft->setStreaming(false);
        for (const AgentCore::ContentBlock &call : message.toolCalls())
            cardFor(call.id, call.name)->setArguments(call.arguments);
        addStopNote(message);
        m_draft = nullptr;
        m_draftCards.clear();
        break;
    case Message::Role::ToolResult:
        applyResult(message, nowMs);
        break;
    case Message::Role::Custom:
        noteMessage(message);
        addCustom(message);
        ++m_messageIndex;
        return;
    }
    noteMessage(message);
    ++m_messageIndex; // the loop appended it: the next message has the next index
}

void ConversationModel::applyResult(const Message &message, qint64 nowMs)
{
    ToolCardItem *card = cardFor(message.toolCallId, message.toolName);
    // tool_execution_end already filled a card that ran; this only adds skipped calls'
    // results and a loaded history's.
    if (card->state() == ToolCardItem::State::Succeeded
        || card->state() == ToolCardItem::State::Failed
        || card->state() == ToolCardItem::State::Stopped)
        return;
    AgentCore::ToolResult result;
    result.content = message.content;
    result.details = message.details;
    result.isError = message.isError;
    card->setResult(result, nowMs);
    if (message.isPaged())
        card->setPaged(message.pagedChars); // the whole text is read when it is expanded
    else
        noteLargeOutput(card);
}

void ConversationModel::noteLargeOutput(ToolCardItem *card)
{
    if (card->holdsLargeOutput() && (m_largeOutputs.isEmpty() || m_largeOutputs.last() != card))
        m_largeOutputs.append(card);
}

void ConversationModel::addStopNote(const Message &message)
{
    using AgentCore::StopReason;
    switch (message.stopReason) {
    case StopReason::Stop:
    case StopReason::ToolUse:
        return;
    case StopReason::Error:
        addNote(message.errorMessage.isEmpty() ? UiTr::tr("The request failed.")
                                               : message.errorMessage,
                true);
        return;
    case StopReason::Aborted:
        addNote(UiTr::tr("Stopped."), false);
        return;
    case StopReason::Length:
        addNote(UiTr::tr("The reply was cut off at the output token limit."), true);
        return;
    case StopReason::ContextOverflow:
        addNote(UiTr::tr("The conversation no longer fits the model's context window."), true);
        return;
    case StopReason::Refusal:
        addNote(UiTr::tr("The model refused to answer."), true);
        return;
    case StopReason::TurnLimit:
        addNote(UiTr::tr("Stopped after the maximum number of turns."), false);
        return;
    }
}

void ConversationModel::draftDiscarded(const AgentCore::Message &message)
{
    QList<ConversationItem *> withdrawn;
    if (m_draft)
        withdrawn << m_draft;
    for (ToolCardItem *card : std::as_const(m_draftCards))
        withdrawn << card;
    for (ConversationItem *item : std::as_const(withdrawn)) {
        forget(item);
        if (m_removalHandler)
            m_removalHandler(item);
        else
            remove(item);
    }
    // The loop withdraws an attempt for one of two reasons, and the message says which: a
    // reply that wrote its tool calls as text, or a request the provider refused as too long
    // (the conversation is compacted and the request sent again).
    if (message.stopReason == StopReason::ContextOverflow) {
        addNote(UiTr::tr("The request did not fit the model's context: the conversation was "
                         "compacted and the request sent again."),
                false);
        return;
    }
    if (message.protocolViolation)
        addNote(UiTr::tr(
                    "The model wrote its tool calls as text; retrying with native tool calls."),
                false);
}

void ConversationModel::runEnded()
{
    for (ToolCardItem *card : std::as_const(m_cards)) {
        card->setNotRun();
        if (auto task = dynamic_cast<TaskCardItem *>(card))
            task->endChild();
    }
    if (m_draft)
        m_draft->setStreaming(false);
    m_draft = nullptr;
    m_draftCards.clear();
}

void ConversationModel::addNote(const QString &text, bool error)
{
    append(std::make_unique<NoteItem>(text, error ? NoteItem::Tone::Error : NoteItem::Tone::Info));
}

void ConversationModel::noteMessage(const Message &message)
{
    if (AgentCore::isCompactionMessage(message) || AgentCore::isRewindMessage(message))
        m_markers.insert(m_noted, message);
    ++m_noted;
}

void ConversationModel::addCustom(const Message &message)
{
    if (AgentCore::Compaction::of(message))
        addCompaction(message);
    else if (AgentCore::Rewind::of(message))
        addRewind(message);
    else if (!AgentCore::isRewindMessage(message)) // an unreadable rewind never applied
        addNote(message.text(), false);
}

// Where the rewind's message was appended; the items of the messages it rewound hide behind it.
void ConversationModel::addRewind(const Message &message)
{
    RewindItem *item = append(std::make_unique<RewindItem>(*AgentCore::Rewind::of(message)));
    m_rewindItems.insert(m_messageIndex, item);
    applyFates();
}

void ConversationModel::applyFates()
{
    // The raw conversation as far as the fates go: the markers in place, empty messages
    // between them (made for this call only).
    QList<Message> conversation(m_noted);
    for (auto it = m_markers.cbegin(); it != m_markers.cend(); ++it)
        conversation[it.key()] = it.value();
    const AgentCore::ConversationFates fates = AgentCore::conversationFates(conversation);
    CompactionItem *compaction = m_compactionItems.value(fates.compaction);
    QHash<RewindItem *, int> counts;
    for (const auto &item : m_items) {
        const qsizetype source = item->sourceIndex();
        RewindItem *rewind = m_rewindItems.value(fates.rewoundBy.value(source, -1));
        item->setRewoundBy(rewind == item.get() ? nullptr : rewind);
        if (rewind && rewind != item.get())
            ++counts[rewind];
        if (item.get() == compaction)
            item->setCoveredBy(nullptr);
        else if (item->kind() == ConversationItem::Kind::Compaction)
            item->setCoveredBy(compaction && source < fates.compaction ? compaction : nullptr);
        else
            item->setCoveredBy(compaction && source < fates.coveredCount ? compaction : nullptr);
        item->invalidate();
    }
    for (RewindItem *rewind : std::as_const(m_rewindItems)) {
        rewind->setRewoundCount(counts.value(rewind));
        // A rewind a later one rewound is undone by rewinding that one.
        rewind->setUndoable(!rewind->rewoundBy()
                            && (rewind->rewind().rewindsConversation()
                                || !rewind->rewind().undoCheckpoint.isEmpty()));
    }
}

// The summary goes where the messages it covers were, before the kept tail, and covers every
// item before it, earlier summaries included (a later compaction summarises the earlier one).
// The covered items stay: the summary's toggle shows them again in place.
void ConversationModel::addCompaction(const Message &message)
{
    const AgentCore::Compaction compaction = *AgentCore::Compaction::of(message);
    if (compaction.coveredCount > m_messageIndex) { // never applied (contextview.h): a note
        addNote(compaction.summary, false);
        return;
    }
    auto item = std::make_unique<CompactionItem>(compaction);
    item->setSourceIndex(m_messageIndex);
    CompactionItem *raw = item.get();
    m_compactionItems.insert(m_messageIndex, raw);
    size_t position = 0;
    while (position < m_items.size()
           && (m_items[position]->kind() == ConversationItem::Kind::Compaction
               || m_items[position]->sourceIndex() < compaction.coveredCount)) {
        ++position;
    }
    for (size_t i = 0; i < position; ++i)
        m_items[i]->setCoveredBy(raw);
    m_items.insert(m_items.begin() + qsizetype(position), std::move(item));
}

ToolCardItem *ConversationModel::cardFor(const QString &toolCallId, const QString &toolName)
{
    if (ToolCardItem *card = m_cards.value(toolCallId))
        return card;
    // A Task call's card watches its subagent (TaskCardItem).
    ToolCardItem *card = TaskCardItem::isTask(toolName)
                             ? static_cast<ToolCardItem *>(
                                 append(std::make_unique<TaskCardItem>(toolCallId)))
                             : append(std::make_unique<ToolCardItem>(toolCallId, toolName));
    m_cards.insert(toolCallId, card);
    return card;
}

void ConversationModel::forget(const ConversationItem *item)
{
    if (m_draft == item)
        m_draft = nullptr;
    if (m_pendingUser == item)
        m_pendingUser = nullptr;
    m_draftCards.removeAll(item);
    m_largeOutputs.removeAll(item);
    for (auto it = m_cards.begin(); it != m_cards.end();) {
        if (it.value() == item)
            it = m_cards.erase(it);
        else
            ++it;
    }
}

void ConversationModel::remove(ConversationItem *item)
{
    forget(item);
    const int index = indexOf(item);
    if (index >= 0)
        m_items.erase(m_items.begin() + index);
}

void ConversationModel::clear()
{
    m_cards.clear();
    m_draft = m_pendingUser = nullptr;
    m_draftCards.clear();
    m_largeOutputs.clear();
    m_items.clear();
    m_messageIndex = 0;
    m_markers.clear();
    m_noted = 0;
    m_compactionItems.clear();
    m_rewindItems.clear();
}

void ConversationModel::addAssistant(const Message &message)
{
    append(std::make_unique<MessageItem>(ConversationItem::Kind::Assistant))->setMessage(message);
    for (const AgentCore::ContentBlock &call : message.toolCalls())
        cardFor(call.id, call.name)->setArguments(call.arguments);
    addStopNote(message);
}

void ConversationModel::setMessages(const QList<Message> &messages)
{
    clear();
    m_items.reserve(size_t(messages.size()) * 2);
    for (const Message &message : messages) { // m_messageIndex counts them
        switch (message.role) {
        case Message::Role::User:
            append(userItem(message));
            break;
        case Message::Role::Assistant:
            addAssistant(message);
            break;
        case Message::Role::ToolResult:
            applyResult(message, 0);
            break;
        case Message::Role::Custom:
            noteMessage(message);
            addCustom(message);
            ++m_messageIndex;
            continue;
        }
        noteMessage(message);
        ++m_messageIndex;
    }
    runEnded(); // a call of the history without a result never ran
}

} // namespace Ui
