#pragma once

#include <ai/types.h>

#include <QList>
#include <QString>

#include <optional>

namespace AgentCore {

/// Where the stubs of a conversation (Message::isPaged) are read back whole: the session file
/// (session/sessionpages.h implements it). The loop, the context layer and the stages below the
/// session layer take it through this interface, so that nothing a model or a hook is sent is
/// ever a stub.
class MessagePages
{
public:
    virtual ~MessagePages() = default;

    /// The whole message of the stub whose toolCallId is \a toolCallId; nullopt and \a error
    /// when it cannot be read. May block on the disk; thread-safe.
    virtual std::optional<Message> load(const QString &toolCallId,
                                        QString *error = nullptr) const = 0;

    /// \a messages with every stub replaced by its whole message, read from \a pages. A stub
    /// that cannot be read (\a pages null, the file changed) becomes its preview under a note
    /// that says the rest could not be read: never a stub passed on as if it were whole.
    /// Unchanged (no copy) when \a messages holds no stub.
    static QList<Message> whole(const QList<Message> &messages, const MessagePages *pages);
    /// One message, as whole() does for each.
    static Message whole(const Message &message, const MessagePages *pages);
    /// Whether \a messages holds a stub.
    static bool holdsStub(const QList<Message> &messages);
};

} // namespace AgentCore
