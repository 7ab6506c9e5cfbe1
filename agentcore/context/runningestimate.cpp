#include "runningestimate.h"

#include "tokenestimate.h"

namespace AgentCore {

qint64 RunningEstimate::estimate(const Context &request,
                                 const QList<Message> &conversation,
                                 const ContextEdits &edits)
{
    const QList<Message> &view = request.messages;
    bool keep = m_conversationSize >= 0 && edits == m_edits
                && conversation.size() >= m_conversationSize
                && view.size() - m_viewSize == conversation.size() - m_conversationSize;
    for (qsizetype i = m_conversationSize; keep && i < conversation.size(); ++i)
        keep = conversation.at(i).role != Message::Role::Custom;
    if (!keep) {
        m_edits = edits;
        m_viewSize = 0;
        m_messageTokens = 0;
    }
    for (qsizetype i = m_viewSize; i < view.size(); ++i)
        m_messageTokens += estimateTokens(view.at(i));
    m_viewSize = view.size();
    m_conversationSize = conversation.size();
    return frame(request) + m_messageTokens;
}

qint64 RunningEstimate::frame(const Context &request)
{
    QStringList names;
    names.reserve(request.tools.size());
    for (const ToolDefinition &tool : request.tools)
        names.append(tool.name);
    if (m_frameTokens < 0 || names != m_toolNames || request.systemPrompt != m_systemPrompt) {
        m_toolNames = names;
        m_systemPrompt = request.systemPrompt;
        m_frameTokens = estimateTokens(request.systemPrompt);
        for (const ToolDefinition &tool : request.tools)
            m_frameTokens += estimateTokens(tool);
    }
    return m_frameTokens;
}

} // namespace AgentCore
