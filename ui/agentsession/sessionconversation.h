#pragma once

#include "contextview/contextsnapshot.h"

#include <context/contextmeter.h>
#include <context/contextview.h>

#include <QList>

namespace AgentCore {
class SessionPages;
} // namespace AgentCore

namespace Ui {

/// The conversation a window shows, as its messages came (the Agent's history holds a run's
/// messages only at its end), and the context meter that counts what the next request carries
/// of it: the conversation as the context manager shows it to the model (a compaction's
/// summary in place of what it covers, dropped outputs as stubs).
class SessionConversation
{
public:
    /// Raw indexes (ConversationItem::sourceIndex) are into this list.
    const QList<AgentCore::Message> &messages() const { return m_messages; }
    const AgentCore::ContextMeter &meter() const { return m_meter; }
    void setPreamble(const QString &systemPrompt, const QList<AgentCore::ToolDefinition> &tools)
    {
        m_meter.setPreamble(systemPrompt, tools);
    }

    /// The conversation is \a messages now (a resumed session's history, a branch's, the
    /// Agent's at a run's end): their long outputs are stubs already.
    void reset(const QList<AgentCore::Message> &messages, const AgentCore::ContextEdits &edits);
    /// \a message came. The long outputs before it whose records \a pages holds become their
    /// stubs: a long run's outputs would pile up here whole until its end otherwise.
    void append(const AgentCore::Message &message,
                const AgentCore::SessionPages *pages,
                const AgentCore::ContextEdits &edits);
    /// The meter counts the view of the conversation again (a compaction, an edit).
    void remeasure(const AgentCore::ContextEdits &edits);
    /// \a edits as the context view shows them: pins by meter() message index.
    ContextEdits shownEdits(const AgentCore::ContextEdits &edits) const;
    /// The raw index of meter() message \a meterIndex; -1 out of range.
    qsizetype sourceOf(qsizetype meterIndex) const { return m_meterSources.value(meterIndex, -1); }

private:
    void pageRecordedOutputs(const AgentCore::SessionPages *pages);

    QList<AgentCore::Message> m_messages;
    /// Indexes in m_messages of long tool outputs still held whole (pageRecordedOutputs).
    QList<qsizetype> m_unpaged;
    AgentCore::ContextMeter m_meter;
    QList<qsizetype> m_meterSources; ///< for each of the meter's messages, its m_messages index
};

} // namespace Ui
