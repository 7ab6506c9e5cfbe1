#include "messagepages.h"
#include "translation.h"

#include <QCoreApplication>

#include <algorithm>

namespace AgentCore {

bool MessagePages::holdsStub(const QList<Message> &messages)
{
    return std::any_of(messages.cbegin(), messages.cend(), [](const Message &message) {
        return message.isPaged();
    });
}

Message MessagePages::whole(const Message &message, const MessagePages *pages)
{
    if (!message.isPaged())
        return message;
    QString error;
    if (pages) {
        if (std::optional<Message> loaded = pages->load(message.toolCallId, &error)) {
            loaded->pagedChars = -1;
            return *std::move(loaded);
        }
    } else {
        error = LoopTr::tr("it is kept in the session file, which this conversation no longer "
                           "reads");
    }
    // The model (or whoever reads it) learns that it sees only the beginning, and why.
    Message cut = message;
    cut.pagedChars = -1;
    const QString note = LoopTr::tr("[AgentDesk could not read the whole of this tool output "
                                    "back (%1); its first part follows.]\n")
                             .arg(error);
    if (!cut.content.isEmpty() && cut.content.first().isText())
        cut.content.first().text.prepend(note);
    else
        cut.content.prepend(ContentBlock::makeText(note));
    return cut;
}

QList<Message> MessagePages::whole(const QList<Message> &messages, const MessagePages *pages)
{
    if (!holdsStub(messages))
        return messages;
    QList<Message> result = messages;
    for (Message &message : result) {
        if (message.isPaged())
            message = whole(message, pages);
    }
    return result;
}

} // namespace AgentCore
