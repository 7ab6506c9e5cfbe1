#include "contextedits.h"

#include <QJsonArray>

#include <algorithm>

namespace AgentCore {

QJsonObject ContextEdits::toJson() const
{
    QJsonObject json;
    QStringList dropped(droppedToolOutputs.cbegin(), droppedToolOutputs.cend());
    dropped.sort(); // a deterministic file, whatever the set's order
    if (!dropped.isEmpty())
        json.insert(u"droppedToolOutputs", QJsonArray::fromStringList(dropped));
    QList<qsizetype> pinned(pinnedMessages.cbegin(), pinnedMessages.cend());
    std::sort(pinned.begin(), pinned.end());
    if (!pinned.isEmpty()) {
        QJsonArray indexes;
        for (const qsizetype index : pinned)
            indexes.append(qint64(index));
        json.insert(u"pinnedMessages", indexes);
    }
    return json;
}

ContextEdits ContextEdits::fromJson(const QJsonObject &json)
{
    ContextEdits edits;
    for (const QJsonValue &id : json.value(u"droppedToolOutputs").toArray()) {
        if (id.isString() && !id.toString().isEmpty())
            edits.droppedToolOutputs.insert(id.toString());
    }
    for (const QJsonValue &index : json.value(u"pinnedMessages").toArray()) {
        if (index.isDouble() && index.toInteger(-1) >= 0)
            edits.pinnedMessages.insert(index.toInteger());
    }
    return edits;
}

} // namespace AgentCore
