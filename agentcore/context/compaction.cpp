#include "compaction.h"

#include <QDateTime>

namespace AgentCore {

QString Compaction::customType()
{
    return QStringLiteral("compaction");
}

std::optional<Compaction> Compaction::of(const Message &message)
{
    if (message.role != Message::Role::Custom || message.customType != customType())
        return std::nullopt;
    const QJsonValue covered = message.customData.value(u"coveredCount");
    if (!covered.isDouble() || covered.toInteger(-1) < 0)
        return std::nullopt;
    Compaction compaction;
    compaction.summary = message.text();
    compaction.coveredCount = covered.toInteger();
    compaction.instructions = message.customData.value(u"instructions").toString();
    compaction.api = message.api;
    compaction.provider = message.provider;
    compaction.model = message.model;
    compaction.usage = message.usage;
    compaction.timestamp = message.timestamp;
    return compaction;
}

Message Compaction::toMessage() const
{
    Message message;
    message.role = Message::Role::Custom;
    message.customType = customType();
    message.content = {ContentBlock::makeText(summary)};
    message.customData.insert(u"coveredCount", qint64(coveredCount));
    if (!instructions.isEmpty())
        message.customData.insert(u"instructions", instructions);
    message.api = api;
    message.provider = provider;
    message.model = model;
    message.usage = usage;
    message.timestamp = timestamp != 0 ? timestamp : QDateTime::currentMSecsSinceEpoch();
    return message;
}

} // namespace AgentCore
