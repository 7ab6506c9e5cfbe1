#include "sessionconversation.h"

#include <context/compaction.h>
#include <context/rewind.h>
#include <session/sessionpages.h>

namespace Ui {

void SessionConversation::reset(const QList<AgentCore::Message> &messages,
                                const AgentCore::ContextEdits &edits)
{
    m_messages = messages;
    m_unpaged.clear();
    remeasure(edits);
}

void SessionConversation::append(const AgentCore::Message &message,
                                 const AgentCore::SessionPages *pages,
                                 const AgentCore::ContextEdits &edits)
{
    pageRecordedOutputs(pages);
    m_messages.append(message);
    if (AgentCore::SessionPages::isPageable(message))
        m_unpaged.append(m_messages.size() - 1);
    if (AgentCore::isCompactionMessage(message) || AgentCore::isRewindMessage(message)) {
        remeasure(edits);
    } else {
        m_meter.append(message);
        m_meterSources.append(m_messages.size() - 1);
    }
}

void SessionConversation::remeasure(const AgentCore::ContextEdits &edits)
{
    const AgentCore::ContextView view = AgentCore::mapContextView(m_messages, edits);
    // The replies before a compaction or a rewind, or before a dropped output, answered
    // requests that held what is no longer sent: only a reply after it reports what the next
    // request holds.
    const qsizetype compaction = AgentCore::latestViewChangeIndex(m_messages);
    bool replyAfter = false;
    for (qsizetype i = compaction + 1; i < m_messages.size() && compaction >= 0; ++i)
        replyAfter = replyAfter || m_messages.at(i).isAssistant();
    m_meter.setMessages(view.messages, (compaction >= 0 && !replyAfter) || !edits.isEmpty());
    m_meterSources = view.sources;
}

ContextEdits SessionConversation::shownEdits(const AgentCore::ContextEdits &edits) const
{
    ContextEdits shown;
    shown.droppedToolOutputs = edits.droppedToolOutputs;
    for (qsizetype i = 0; i < m_meterSources.size(); ++i) {
        if (edits.pinnedMessages.contains(m_meterSources.at(i)))
            shown.pinnedMessages.insert(i);
    }
    return shown;
}

void SessionConversation::pageRecordedOutputs(const AgentCore::SessionPages *pages)
{
    QList<qsizetype> waiting;
    for (const qsizetype index : std::as_const(m_unpaged)) {
        if (!pages || index >= m_messages.size())
            continue;
        const AgentCore::Message &message = m_messages.at(index);
        if (message.isPaged())
            continue;
        if (pages->contains(message.toolCallId))
            m_messages[index] = pages->stubOf(message); // shares the Agent's preview
        else
            waiting.append(index); // its record is not written yet
    }
    m_unpaged = waiting;
}

} // namespace Ui
