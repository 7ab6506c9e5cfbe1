#include "toolcallids.h"

namespace AgentCore {

ToolCallIds::ToolCallIds(const QList<Message> &history)
{
    for (const Message &message : history)
        reserve(message);
}

void ToolCallIds::reserve(const Message &message)
{
    if (!message.isAssistant())
        return;
    for (const ContentBlock &block : message.content) {
        if (block.isToolCall())
            m_taken.insert(block.id);
    }
}

void ToolCallIds::startMessage()
{
    m_streamed.clear();
}

QString ToolCallIds::streamed(int contentIndex, const QString &providerId)
{
    if (providerId.isEmpty())
        return {}; // some servers send the id after the name: the call is shown once it has one
    const auto it = m_streamed.constFind(contentIndex);
    if (it != m_streamed.constEnd() && it->providerId == providerId)
        return it->id;
    m_streamed.remove(contentIndex);
    const QString id = freshId(providerId);
    m_streamed.insert(contentIndex, {providerId, id});
    return id;
}

void ToolCallIds::assign(Message &message)
{
    for (qsizetype i = 0; i < message.content.size(); ++i) {
        ContentBlock &block = message.content[i];
        if (!block.isToolCall())
            continue;
        const auto it = m_streamed.constFind(int(i));
        const bool asStreamed = it != m_streamed.constEnd() && it->providerId == block.id
                                && !m_taken.contains(it->id);
        const QString id = asStreamed ? it->id : freshId(block.id);
        if (id != block.id) {
            if (block.providerId.isEmpty())
                block.providerId = block.id;
            block.id = id;
        }
        m_taken.insert(id);
    }
    m_streamed.clear();
}

QString ToolCallIds::freshId(const QString &providerId) const
{
    const auto isFree = [this](const QString &id) {
        if (m_taken.contains(id))
            return false;
        for (const Streamed &streamed : m_streamed) {
            if (streamed.id == id)
                return false;
        }
        return true;
    };
    if (!providerId.isEmpty() && isFree(providerId))
        return providerId;
    // Letters, digits and _ only, so the request builders need not change it again.
    const QString base = providerId.isEmpty() ? QStringLiteral("call") : providerId;
    for (int n = providerId.isEmpty() ? 1 : 2;; ++n) {
        const QString candidate = base + u'_' + QString::number(n);
        if (isFree(candidate))
            return candidate;
    }
}

QList<Message> ToolCallIds::madeUnique(QList<Message> history)
{
    ToolCallIds ids;
    // Per id as written: the new ids of the latest message that called it that no result has
    // answered yet, in call order; and the last one answered (a duplicate result goes there).
    QHash<QString, QStringList> unanswered;
    QHash<QString, QString> answered;
    QStringList written;
    for (Message &message : history) {
        if (message.isAssistant()) {
            written.clear();
            for (const ContentBlock &block : std::as_const(message.content)) {
                if (block.isToolCall())
                    written.append(block.id);
            }
            if (written.isEmpty())
                continue;
            ids.assign(message);
            for (const QString &id : std::as_const(written)) {
                unanswered.remove(id); // a later call with the id shadows the earlier ones
                answered.remove(id);
            }
            qsizetype k = 0;
            for (const ContentBlock &block : std::as_const(message.content)) {
                if (block.isToolCall())
                    unanswered[written.at(k++)].append(block.id);
            }
        } else if (message.isToolResult()) {
            const auto it = unanswered.find(message.toolCallId);
            if (it != unanswered.end() && !it->isEmpty()) {
                const QString id = it->takeFirst();
                answered.insert(message.toolCallId, id);
                message.toolCallId = id;
            } else if (const auto last = answered.constFind(message.toolCallId);
                       last != answered.constEnd()) {
                message.toolCallId = last.value();
            }
        }
    }
    return history;
}

} // namespace AgentCore
