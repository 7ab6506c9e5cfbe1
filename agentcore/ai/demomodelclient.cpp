#include "demomodelclient.h"
#include "translation.h"

#include "demoscript.h"
#include "scriptedstream.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonDocument>
#include <QMap>
#include <QRegularExpression>

namespace AgentCore {

namespace {

constexpr int chunkSize = 6;

qsizetype characters(const QList<ContentBlock> &content)
{
    qsizetype count = 0;
    for (const ContentBlock &block : content) {
        count += block.text.size() + block.name.size();
        if (block.isToolCall())
            count += QJsonDocument(block.arguments).toJson(QJsonDocument::Compact).size();
    }
    return count;
}

qsizetype characters(const Context &context)
{
    qsizetype count = context.systemPrompt.size();
    for (const Message &message : context.messages)
        count += characters(message.content);
    for (const ToolDefinition &tool : context.tools) {
        count += tool.name.size() + tool.description.size()
                 + QJsonDocument(tool.parameters).toJson(QJsonDocument::Compact).size();
    }
    return count;
}

// About four characters a token, as a rough guide for the status bar.
qint64 tokens(qsizetype characters)
{
    return qint64((characters + 3) / 4);
}

} // namespace

DemoModelClient::DemoModelClient(int chunkPauseMs)
    : m_chunkPauseMs(qMax(0, chunkPauseMs))
{}

void DemoModelClient::setChunkPauseMs(int ms)
{
    m_chunkPauseMs = qMax(0, ms);
}

int DemoModelClient::chunkPauseMs() const
{
    return m_chunkPauseMs;
}

QString DemoModelClient::label()
{
    return AiTr::tr("Demo (offline, scripted)");
}

QString DemoModelClient::name()
{
    return QStringLiteral("demo");
}

namespace {

// The first line of a summary request's system prompt: context/summaryprompt.h's
// summaryRequestMarker() (tests/loop/tst_demomodelclient checks they agree).
bool isSummaryRequest(const Context &context)
{
    return context.systemPrompt.startsWith(QLatin1StringView("[AgentDesk: summary request]"));
}

void appendUnique(QStringList *list, const QString &item)
{
    if (!item.isEmpty() && !list->contains(item))
        list->append(item);
}

// What a model would keep of the transcript a summary request carries, found by its line
// prefixes: the user's requests, the tools used, the paths they named, the queued follow-ups.
// Deterministic: the same transcript gives the same summary.
Message demoSummary(const Context &context)
{
    const QString transcript = context.messages.isEmpty() ? QString()
                                                          : context.messages.last().text();
    QStringList requests;
    QStringList followUps;
    QStringList files;
    QMap<QString, int> tools;
    bool inFollowUps = false;
    static const QRegularExpression pathPattern(
        QStringLiteral("\"(?:path|file_path)\":\"([^\"]+)\""));
    for (const QString &line : transcript.split(u'\n')) {
        if (line.startsWith(QLatin1StringView("[user] ")))
            appendUnique(&requests, line.mid(7).left(200));
        if (line.startsWith(QLatin1StringView("[assistant calls "))) {
            const qsizetype end = line.indexOf(u']');
            if (end > 17)
                ++tools[line.mid(17, end - 17)];
            const QRegularExpressionMatch match = pathPattern.match(line);
            if (match.hasMatch())
                appendUnique(&files, match.captured(1));
        }
        if (line == QLatin1StringView("</transcript>"))
            inFollowUps = true;
        else if (inFollowUps && line.startsWith(QLatin1StringView("- ")))
            followUps.append(line.mid(2));
    }
    QStringList parts{AiTr::tr("Summary of the earlier conversation (written by the offline demo "
                               "model from the transcript it was given).")};
    if (!requests.isEmpty())
        parts.append(AiTr::tr("The user asked:") + QStringLiteral("\n- ")
                     + requests.join(QStringLiteral("\n- ")));
    if (!tools.isEmpty()) {
        QStringList used;
        for (auto it = tools.cbegin(); it != tools.cend(); ++it)
            used.append(QStringLiteral("%1 x%2").arg(it.key()).arg(it.value()));
        parts.append(AiTr::tr("Tools used: %1.").arg(used.join(QStringLiteral(", "))));
    }
    if (!files.isEmpty())
        parts.append(AiTr::tr("Files: %1.").arg(files.join(QStringLiteral(", "))));
    if (!followUps.isEmpty())
        parts.append(AiTr::tr("Follow-ups still queued:") + QStringLiteral("\n- ")
                     + followUps.join(QStringLiteral("\n- ")));
    Message message;
    message.content = {ContentBlock::makeText(parts.join(QStringLiteral("\n\n")))};
    message.stopReason = StopReason::Stop;
    message.providerStopReason = QStringLiteral("stop");
    return message;
}

} // namespace

Message DemoModelClient::complete(const Context &context,
                                  const AbortToken &abort,
                                  const StreamEventSink &sink)
{
    Message message = isSummaryRequest(context) ? demoSummary(context) : DemoScript(context).next();
    message.role = Message::Role::Assistant;
    message.timestamp = QDateTime::currentMSecsSinceEpoch();
    message.api = name();
    message.provider = name();
    message.model = name();
    message.usage.input = tokens(characters(context));
    message.usage.output = tokens(characters(message.content));

    ScriptedStream stream(abort, sink);
    stream.setChunkSize(chunkSize);
    stream.setChunkPauseMs(m_chunkPauseMs);
    Message streamed = stream.play(message);
    if (streamed.stopReason == StopReason::Aborted)
        streamed.usage.output = tokens(characters(streamed.content));
    return streamed;
}

} // namespace AgentCore
