#include "checkpoint.h"
#include "translation.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace AgentCore {

QJsonObject SkippedFile::toJson() const
{
    QJsonObject object{{QStringLiteral("path"), path},
                       {QStringLiteral("why"),
                        why == Why::OverSizeCap ? QStringLiteral("over_size_cap")
                                                : QStringLiteral("unreadable")}};
    if (size >= 0)
        object.insert(QStringLiteral("size"), size);
    return object;
}

SkippedFile SkippedFile::fromJson(const QJsonObject &object)
{
    SkippedFile file;
    file.path = object.value(QStringLiteral("path")).toString();
    file.why = object.value(QStringLiteral("why")).toString() == QLatin1String("unreadable")
                   ? Why::Unreadable
                   : Why::OverSizeCap;
    file.size = object.value(QStringLiteral("size")).toInteger(-1);
    return file;
}

QString Checkpoint::reasonText() const
{
    switch (reason) {
    case Reason::UserMessage:
        return CheckpointTr::tr("at your message");
    case Reason::BeforeTool:
        return toolName.isEmpty() ? CheckpointTr::tr("before the turn's tools")
                                  : CheckpointTr::tr("before %1").arg(toolName);
    case Reason::BeforeRestore:
        return CheckpointTr::tr("before the rewind");
    }
    return {};
}

QString Checkpoint::reasonName(Reason reason)
{
    switch (reason) {
    case Reason::UserMessage:
        return QStringLiteral("user_message");
    case Reason::BeforeTool:
        return QStringLiteral("before_tool");
    case Reason::BeforeRestore:
        return QStringLiteral("before_restore");
    }
    return {};
}

std::optional<Checkpoint::Reason> Checkpoint::reasonFromName(const QString &name)
{
    for (Reason reason : {Reason::UserMessage, Reason::BeforeTool, Reason::BeforeRestore}) {
        if (reasonName(reason) == name)
            return reason;
    }
    return std::nullopt;
}

bool Checkpoint::isOnBranch(const QList<qint64> &branchTimes) const
{
    if (messageIndex < 1 || afterMessageTime == 0)
        return true;
    return messageIndex - 1 < branchTimes.size()
           && branchTimes.at(messageIndex - 1) == afterMessageTime;
}

QJsonObject Checkpoint::toJson() const
{
    QJsonObject object{{QStringLiteral("id"), id},
                       {QStringLiteral("session"), sessionId},
                       {QStringLiteral("messageIndex"), messageIndex},
                       {QStringLiteral("reason"), reasonName(reason)},
                       {QStringLiteral("time"), time.toUTC().toString(Qt::ISODateWithMs)}};
    if (!toolName.isEmpty())
        object.insert(QStringLiteral("tool"), toolName);
    if (afterMessageTime != 0)
        object.insert(QStringLiteral("afterMessageTime"), afterMessageTime);
    if (!skipped.isEmpty()) {
        QJsonArray files;
        for (const SkippedFile &file : skipped)
            files.append(file.toJson());
        object.insert(QStringLiteral("skipped"), files);
    }
    return object;
}

std::optional<Checkpoint> Checkpoint::fromJson(const QJsonObject &object)
{
    Checkpoint checkpoint;
    checkpoint.id = object.value(QStringLiteral("id")).toString();
    if (checkpoint.id.isEmpty())
        return std::nullopt;
    checkpoint.sessionId = object.value(QStringLiteral("session")).toString();
    checkpoint.messageIndex = object.value(QStringLiteral("messageIndex")).toInt(-1);
    checkpoint.reason = reasonFromName(object.value(QStringLiteral("reason")).toString())
                            .value_or(Reason::BeforeTool);
    checkpoint.toolName = object.value(QStringLiteral("tool")).toString();
    checkpoint.afterMessageTime = object.value(QStringLiteral("afterMessageTime")).toInteger();
    checkpoint.time = QDateTime::fromString(object.value(QStringLiteral("time")).toString(),
                                            Qt::ISODateWithMs);
    for (const QJsonValue &file : object.value(QStringLiteral("skipped")).toArray())
        checkpoint.skipped.append(SkippedFile::fromJson(file.toObject()));
    return checkpoint;
}

} // namespace AgentCore
