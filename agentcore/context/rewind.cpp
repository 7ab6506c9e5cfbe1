#include "rewind.h"
#include "translation.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>

namespace AgentCore {

namespace {

QString scopeName(Rewind::Scope scope)
{
    switch (scope) {
    case Rewind::Scope::Files:
        return QStringLiteral("files");
    case Rewind::Scope::Conversation:
        return QStringLiteral("conversation");
    case Rewind::Scope::Both:
        return QStringLiteral("both");
    }
    return {};
}

std::optional<Rewind::Scope> scopeOf(const QString &name)
{
    for (const Rewind::Scope scope :
         {Rewind::Scope::Files, Rewind::Scope::Conversation, Rewind::Scope::Both}) {
        if (scopeName(scope) == name)
            return scope;
    }
    return std::nullopt;
}

QStringList strings(const QJsonValue &value)
{
    QStringList out;
    for (const QJsonValue &item : value.toArray())
        out.append(item.toString());
    return out;
}
} // namespace

QString Rewind::customType()
{
    return QStringLiteral("rewind");
}

bool isRewindMessage(const Message &message)
{
    return message.role == Message::Role::Custom && message.customType == Rewind::customType();
}

std::optional<Rewind> Rewind::of(const Message &message)
{
    if (!isRewindMessage(message))
        return std::nullopt;
    const QJsonValue to = message.customData.value(u"toIndex");
    const std::optional<Scope> scope = scopeOf(message.customData.value(u"scope").toString());
    if (!to.isDouble() || to.toInteger(-1) < 0 || !scope)
        return std::nullopt;
    Rewind rewind;
    rewind.toIndex = to.toInteger();
    rewind.scope = *scope;
    rewind.checkpoint = message.customData.value(u"checkpoint").toString();
    rewind.undoCheckpoint = message.customData.value(u"undoCheckpoint").toString();
    rewind.restoredFiles = strings(message.customData.value(u"restoredFiles"));
    rewind.keptFiles = strings(message.customData.value(u"keptFiles"));
    rewind.timestamp = message.timestamp;
    return rewind;
}

Message Rewind::toMessage() const
{
    Message message;
    message.role = Message::Role::Custom;
    message.customType = customType();
    message.customData.insert(u"toIndex", qint64(toIndex));
    message.customData.insert(u"scope", scopeName(scope));
    if (!checkpoint.isEmpty())
        message.customData.insert(u"checkpoint", checkpoint);
    if (!undoCheckpoint.isEmpty())
        message.customData.insert(u"undoCheckpoint", undoCheckpoint);
    if (!restoredFiles.isEmpty())
        message.customData.insert(u"restoredFiles", QJsonArray::fromStringList(restoredFiles));
    if (!keptFiles.isEmpty())
        message.customData.insert(u"keptFiles", QJsonArray::fromStringList(keptFiles));
    // The model reads this only for a files-only rewind: its earlier edits may be gone.
    QString text;
    if (scope == Scope::Files) {
        text = restoredFiles.isEmpty()
                   ? ContextTr::tr("The user restored the files to an earlier state of this "
                                   "conversation; nothing differed.")
                   : ContextTr::tr(
                         "The user restored these files to an earlier state of this "
                         "conversation, undoing changes made since: %1. Read a file again "
                         "before you change it.")
                         .arg(restoredFiles.join(QStringLiteral(", ")));
    } else {
        text = ContextTr::tr("The conversation was rewound to an earlier point.");
    }
    message.content = {ContentBlock::makeText(text)};
    message.timestamp = timestamp != 0 ? timestamp : QDateTime::currentMSecsSinceEpoch();
    return message;
}

} // namespace AgentCore
