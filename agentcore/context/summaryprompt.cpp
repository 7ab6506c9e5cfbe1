#include "summaryprompt.h"
#include "translation.h"

#include "compaction.h"
#include "tokenestimate.h"

#include <QCoreApplication>
#include <QJsonDocument>

namespace AgentCore {

namespace {

QString capped(const QString &text, qsizetype cap)
{
    if (text.size() <= cap)
        return text;
    const qsizetype head = cap * 2 / 3;
    const qsizetype tail = cap - head;
    return text.left(head)
           + ContextTr::tr("\n[... %1 characters cut from this output ...]\n").arg(text.size() - cap)
           + text.right(tail);
}

QString entry(const Message &message, qsizetype outputCap)
{
    switch (message.role) {
    case Message::Role::User:
        return QStringLiteral("[user] ") + message.text();
    case Message::Role::Custom:
        if (Compaction::of(message))
            return QStringLiteral("[summary of the conversation before] ") + message.text();
        return QStringLiteral("[note] ") + message.text();
    case Message::Role::Assistant: {
        QStringList parts;
        if (!message.text().trimmed().isEmpty())
            parts.append(QStringLiteral("[assistant] ") + message.text());
        for (const ContentBlock &call : message.toolCalls()) {
            parts.append(QStringLiteral("[assistant calls %1] ").arg(call.name)
                         + capped(QString::fromUtf8(
                                      QJsonDocument(call.arguments).toJson(QJsonDocument::Compact)),
                                  outputCap));
        }
        if (message.stopReason == StopReason::Error || message.stopReason == StopReason::Aborted)
            parts.append(QStringLiteral("[reply ended: %1] %2")
                             .arg(stopReasonName(message.stopReason), message.errorMessage));
        return parts.join(u'\n');
    }
    case Message::Role::ToolResult:
        return QStringLiteral("[%1 %2] ")
                   .arg(message.toolName,
                        message.isError ? QStringLiteral("failed") : QStringLiteral("output"))
               + capped(message.text(), outputCap);
    }
    return {};
}

QString request(const QList<Message> &messages,
                qsizetype from,
                const QString &instructions,
                const QList<Message> &followUps,
                qsizetype outputCap)
{
    QStringList lines;
    lines.append(QStringLiteral("<transcript>"));
    // An earlier summary leads whatever was left out after it.
    if (from > 0 && !messages.isEmpty() && Compaction::of(messages.first()))
        lines.append(entry(messages.first(), outputCap));
    if (from > 0)
        lines.append(ContextTr::tr("[%n earlier message(s) left out: too long to include]",
                                   nullptr,
                                   int(from)));
    for (qsizetype i = from; i < messages.size(); ++i) {
        const QString text = entry(messages.at(i), outputCap);
        if (!text.isEmpty())
            lines.append(text);
    }
    lines.append(QStringLiteral("</transcript>"));
    if (!followUps.isEmpty()) {
        lines.append(QString());
        lines.append(
            ContextTr::tr("Follow-up tasks the user queued, still to run (list them in the "
                          "summary, verbatim):"));
        for (const Message &followUp : followUps)
            lines.append(QStringLiteral("- ") + followUp.text());
    }
    lines.append(QString());
    if (!instructions.trimmed().isEmpty())
        lines.append(
            ContextTr::tr("The user's instructions for this summary: %1").arg(instructions));
    lines.append(
        ContextTr::tr("Write the summary of the transcript above now, as the system prompt "
                      "describes."));
    return lines.join(u'\n');
}

} // namespace

QString summaryRequestMarker()
{
    return QStringLiteral("[AgentDesk: summary request]");
}

QString summarySystemPrompt()
{
    return summaryRequestMarker() + u'\n'
           + ContextTr::tr(
               "You summarise the earlier part of a coding session between a user and a coding "
               "agent, so that the same agent can go on with the work from your summary alone: "
               "the transcript will no longer be in its context. Write plain text with these "
               "sections, leaving out any that would be empty:\n"
               "1. The user's requests and decisions: quote their instructions verbatim where "
               "they are short, and every constraint or preference they stated.\n"
               "2. Files: each file read, created or changed, with what was learned or done.\n"
               "3. What was tried and failed, and why, so it is not tried again.\n"
               "4. Where the work stands: what is done, what is open, the next step.\n"
               "5. Follow-up tasks still queued, verbatim.\n"
               "Keep names, paths, commands, error messages and numbers exact. Do not invent "
               "anything the transcript does not say. Do not call tools.");
}

Context summaryContext(const QList<Message> &summarised,
                       const QString &instructions,
                       const QList<Message> &followUps,
                       qint64 maxTokens)
{
    Context context;
    context.systemPrompt = summarySystemPrompt();
    const qint64 fixed = estimateTokens(context.systemPrompt) + 16;
    QString text;
    for (const qsizetype cap : {qsizetype(8000), qsizetype(2000), qsizetype(500), qsizetype(120)}) {
        text = request(summarised, 0, instructions, followUps, cap);
        if (maxTokens <= 0 || fixed + estimateTokens(text) <= maxTokens)
            break;
    }
    // Still too long: leave out the oldest messages, a tenth at a time.
    qsizetype from = 0;
    while (maxTokens > 0 && fixed + estimateTokens(text) > maxTokens
           && from < summarised.size() - 1) {
        from = std::min(summarised.size() - 1,
                        from + std::max<qsizetype>(1, summarised.size() / 10));
        text = request(summarised, from, instructions, followUps, 120);
    }
    context.messages = {Message::makeUser(text)};
    return context;
}

} // namespace AgentCore
