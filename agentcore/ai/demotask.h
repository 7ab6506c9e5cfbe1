#pragma once

#include "types.h"

#include <QHash>
#include <QStringList>

namespace AgentCore {

/// The current task of a conversation as the offline demo (DemoScript) sees it, and readers of
/// the coding tools' results. A value over the context's messages; pure, never throws.
class DemoTask final
{
public:
    /// One tool call of the task with its result (null when it has none yet).
    struct Call
    {
        ContentBlock call;
        const Message *result = nullptr;

        bool succeeded() const { return result && !result->isError; }
        QString resultText() const { return result ? result->text() : QString(); }
    };

    /// Reads the task from \a messages, which must outlive this object. A user message starts
    /// a task when nothing but user messages comes before it, or when the assistant message
    /// before it asked for no tool; otherwise it is steering within the task.
    explicit DemoTask(const QList<Message> &messages);

    /// A task ended (an assistant message without tool calls stopped normally) before this one.
    bool followsFinishedTask() const { return m_followsFinished; }
    /// The text of the user messages that started the task.
    QStringList request() const { return m_request; }
    /// The task's assistant messages so far.
    int assistantTurns() const { return int(m_assistants.size()); }
    /// The tool calls of the last assistant message (empty before the first).
    QList<Call> lastCalls() const;
    /// Every tool call of the task, in order.
    QList<Call> allCalls() const;
    /// User messages that came after the last assistant message of the task (steering).
    QStringList steering() const { return m_steering; }

    /// Top-level entries of an LS result ("name" or "name/" for a directory).
    static QStringList lsEntries(const QString &lsText);
    /// Paths of a Glob result.
    static QStringList globPaths(const QString &globText);
    /// The lines a Read result shows, without their line-number prefixes.
    static QStringList readLines(const QString &readText);

private:
    QList<Call> callsOf(const Message &assistant) const;

    QHash<QString, const Message *> m_results;
    QList<const Message *> m_assistants;
    QStringList m_request;
    QStringList m_steering;
    bool m_followsFinished = false;
};

} // namespace AgentCore
