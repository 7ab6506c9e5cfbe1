#include "demomodelclient.h"

#include "demoscript.h"
#include "scriptedstream.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonDocument>

namespace AgentCore {

namespace {
struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(AgentCore::DemoModelClient)
};

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
    return Tr::tr("Demo (offline, scripted)");
}

QString DemoModelClient::name()
{
    return QStringLiteral("demo");
}

Message DemoModelClient::complete(const Context &context,
                                  const AbortToken &abort,
                                  const StreamEventSink &sink)
{
    Message message = DemoScript(context).next();
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
