#include "demotask.h"

#include <QRegularExpression>

namespace AgentCore {

namespace {

bool asksForTools(const Message &assistant)
{
    return assistant.stopReason == StopReason::ToolUse && !assistant.toolCalls().isEmpty();
}

bool finishesTask(const Message &assistant)
{
    return assistant.stopReason == StopReason::Stop && assistant.toolCalls().isEmpty();
}

} // namespace

DemoTask::DemoTask(const QList<Message> &messages)
{
    // Custom messages (reminders an application adds) neither start nor split a task.
    qsizetype start = -1;
    bool finishedSeen = false;
    const Message *previous = nullptr;
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const Message &message = messages.at(i);
        if (message.role == Message::Role::Custom)
            continue;
        const bool startsTask = message.isUser()
                                && (!previous
                                    || (previous->isAssistant() && !asksForTools(*previous)));
        if (startsTask) {
            start = i;
            m_followsFinished = finishedSeen;
        }
        if (message.isAssistant() && finishesTask(message))
            finishedSeen = true;
        previous = &message;
    }
    if (start < 0)
        start = 0;

    bool inRequest = true;
    for (qsizetype i = start; i < messages.size(); ++i) {
        const Message &message = messages.at(i);
        switch (message.role) {
        case Message::Role::User:
            (inRequest ? m_request : m_steering).append(message.text());
            break;
        case Message::Role::Assistant:
            inRequest = false;
            m_assistants.append(&message);
            m_steering.clear();
            break;
        case Message::Role::ToolResult:
            inRequest = false;
            m_results.insert(message.toolCallId, &message);
            break;
        case Message::Role::Custom:
            break;
        }
    }
}

QList<DemoTask::Call> DemoTask::callsOf(const Message &assistant) const
{
    QList<Call> calls;
    for (const ContentBlock &block : assistant.toolCalls())
        calls.append({block, m_results.value(block.id)});
    return calls;
}

QList<DemoTask::Call> DemoTask::lastCalls() const
{
    return m_assistants.isEmpty() ? QList<Call>() : callsOf(*m_assistants.last());
}

QList<DemoTask::Call> DemoTask::allCalls() const
{
    QList<Call> calls;
    for (const Message *assistant : m_assistants)
        calls.append(callsOf(*assistant));
    return calls;
}

QStringList DemoTask::lsEntries(const QString &lsText)
{
    // LS prints "dir/" then one line per entry, indented two spaces per level; notes about
    // truncation or ignored entries are in brackets or parentheses.
    QStringList entries;
    const QStringList lines = lsText.split(QLatin1Char('\n'));
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QString &line = lines.at(i);
        if (!line.startsWith(QLatin1String("  ")) || line.size() < 3 || line.at(2).isSpace())
            continue;
        const QString name = line.mid(2);
        if (!name.startsWith(QLatin1Char('(')) && !name.startsWith(QLatin1Char('[')))
            entries.append(name);
    }
    return entries;
}

QStringList DemoTask::globPaths(const QString &globText)
{
    // "Found N files." then one path a line, maybe a bracketed note; or one "No files" line.
    QStringList paths;
    const QStringList lines = globText.split(QLatin1Char('\n'));
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QString &line = lines.at(i);
        if (!line.trimmed().isEmpty() && !line.startsWith(QLatin1Char('[')))
            paths.append(line);
    }
    return paths;
}

QStringList DemoTask::readLines(const QString &readText)
{
    // The numbered lines come first; a note may follow ("[Showing lines ...]").
    static const QRegularExpression numbered(QStringLiteral("^ *\\d+\\t"));
    QStringList lines;
    for (const QString &line : readText.split(QLatin1Char('\n'))) {
        const QRegularExpressionMatch match = numbered.match(line);
        if (!match.hasMatch())
            break;
        lines.append(line.mid(match.capturedLength()));
    }
    return lines;
}

} // namespace AgentCore
