#pragma once

#include <loop/agenttypes.h>

#include <QHash>
#include <QMap>

#include <functional>
#include <memory>
#include <vector>

namespace Ui {

class CompactionItem;
class ConversationItem;
class MessageItem;
class RewindItem;
class ToolCardItem;

/// The items of a conversation, built from agent events or from a loaded history. Knows
/// nothing of geometry: every item it changes is invalidated, and the view lays it out again.
/// UI thread only.
class ConversationModel
{
public:
    /// Called with each item that must go (a withdrawn draft); the handler removes it with
    /// remove(), usually after an animation. The model has already forgotten it.
    using RemovalHandler = std::function<void(ConversationItem *item)>;

    ConversationModel();
    ~ConversationModel();
    ConversationModel(const ConversationModel &) = delete;
    ConversationModel &operator=(const ConversationModel &) = delete;

    void setRemovalHandler(RemovalHandler handler) { m_removalHandler = std::move(handler); }

    void apply(const AgentCore::AgentEvent &event, qint64 nowMs);
    void setMessages(const QList<AgentCore::Message> &messages);
    void clear();
    void remove(ConversationItem *item);

    int count() const { return int(m_items.size()); }
    ConversationItem *at(int index) const { return m_items.at(size_t(index)).get(); }
    int indexOf(const ConversationItem *item) const;
    ToolCardItem *card(const QString &toolCallId) const { return m_cards.value(toolCallId); }
    /// The cards that hold a whole output long enough to page (ToolCardItem::holdsLargeOutput),
    /// oldest first: what may be cut to its preview once the session file holds it.
    const QList<ToolCardItem *> &largeOutputs() const { return m_largeOutputs; }
    void forgetLargeOutput(ToolCardItem *card) { m_largeOutputs.removeOne(card); }
    /// How many messages the items were built from: the raw index the next one gets.
    qsizetype messageCount() const { return m_messageIndex; }

private:
    void messageStarted(const AgentCore::Message &message);
    void messageUpdated(const AgentCore::StreamEvent &event);
    void messageEnded(const AgentCore::Message &message, qint64 nowMs);
    void draftDiscarded(const AgentCore::Message &message);
    void runEnded();
    void addAssistant(const AgentCore::Message &message);
    void addNote(const QString &text, bool error);
    void addCustom(const AgentCore::Message &message);
    void addCompaction(const AgentCore::Message &message);
    void addRewind(const AgentCore::Message &message);
    /// Marks the items as the context view sees their messages (AgentCore::conversationFates):
    /// rewound, or covered by the compaction whose summary is sent.
    void applyFates();
    /// Every message's place in the raw conversation; only compactions and rewinds are kept,
    /// by their index: what applyFates() needs of them.
    void noteMessage(const AgentCore::Message &message);
    void addStopNote(const AgentCore::Message &message);
    MessageItem *draft();
    ToolCardItem *cardFor(const QString &toolCallId, const QString &toolName);
    void applyResult(const AgentCore::Message &message, qint64 nowMs);
    void forget(const ConversationItem *item);
    void noteLargeOutput(ToolCardItem *card);
    template<typename T>
    T *append(std::unique_ptr<T> item);

    std::vector<std::unique_ptr<ConversationItem>> m_items;
    QHash<QString, ToolCardItem *> m_cards;
    MessageItem *m_draft = nullptr;     ///< the assistant message being streamed
    QList<ToolCardItem *> m_draftCards; ///< the cards its tool calls made
    QList<ToolCardItem *> m_largeOutputs;
    MessageItem *m_pendingUser = nullptr; ///< between a user message's start and end
    RemovalHandler m_removalHandler;
    /// The raw index in the conversation of the message being shown (each item's source).
    qsizetype m_messageIndex = 0;
    /// The compactions and rewinds by raw index, and how many messages were noted: an empty
    /// message for each of the others would cost its 552 bytes for the session's whole life.
    QMap<qsizetype, AgentCore::Message> m_markers;
    qsizetype m_noted = 0;
    QHash<qsizetype, CompactionItem *> m_compactionItems; ///< by raw index
    QHash<qsizetype, RewindItem *> m_rewindItems;         ///< by raw index
};

} // namespace Ui
