#include "contextmeter.h"

#include <utility>

namespace AgentCore {

void ContextMeter::setPreamble(const QString &systemPrompt, const QList<ToolDefinition> &tools)
{
    m_context.systemPrompt = systemPrompt;
    m_context.tools = tools;
    relearn();
}

void ContextMeter::setMessages(const QList<Message> &messages, bool rewritten)
{
    m_context.messages = messages;
    if (rewritten)
        m_countableFrom = messages.size();
    else if (m_countableFrom > messages.size())
        m_countableFrom = 0;
    relearn();
}

void ContextMeter::append(const Message &message)
{
    if (message.isAssistant())
        m_calibration.observe(m_estimate, reportedInputTokens(message));
    m_context.messages.append(message);
    m_estimate += estimateTokens(message);
}

void ContextMeter::relearn()
{
    // The replies the conversation holds teach the calibration as they did live: each against
    // the estimate of what came before it.
    m_calibration = {};
    m_estimate = estimateTokens(m_context.systemPrompt);
    for (const ToolDefinition &tool : std::as_const(m_context.tools))
        m_estimate += estimateTokens(tool);
    for (qsizetype i = 0; i < m_context.messages.size(); ++i) {
        const Message &message = m_context.messages.at(i);
        if (message.isAssistant() && i >= m_countableFrom)
            m_calibration.observe(m_estimate, reportedInputTokens(message));
        m_estimate += estimateTokens(message);
    }
}

ContextTokens ContextMeter::tokens() const
{
    if (m_context.messages.isEmpty())
        return {};
    bool replySinceRewrite = false;
    for (qsizetype i = m_context.messages.size() - 1; i >= m_countableFrom; --i) {
        const Message &message = m_context.messages.at(i);
        if (message.isAssistant() && reportedInputTokens(message) > 0) {
            replySinceRewrite = true;
            break;
        }
    }
    if (!replySinceRewrite) {
        ContextTokens tokens;
        tokens.estimated = m_calibration.correct(m_estimate);
        tokens.total = tokens.estimated;
        return tokens;
    }
    return countContextTokens(m_context, m_calibration);
}

qint64 ContextMeter::estimate(const Message &message) const
{
    return m_calibration.correct(estimateTokens(message));
}

qint64 ContextMeter::estimate(const ToolDefinition &tool) const
{
    return m_calibration.correct(estimateTokens(tool));
}

qint64 ContextMeter::estimate(QStringView text) const
{
    return m_calibration.correct(estimateTokens(text));
}

} // namespace AgentCore
