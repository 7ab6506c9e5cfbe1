#pragma once

#include <ai/types.h>

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>

namespace AgentCore {

/// Names the tool calls of a conversation so that each id belongs to one call.
///
/// A provider only promises ids unique within one assistant message: OpenAI-compatible servers
/// that number calls per reply (some llama.cpp, vLLM and proxy setups) send call_0, call_1, ...
/// again in every reply. A call is really known by (its assistant message, its id). That key is
/// made here, once, as the call's id: a call whose id an earlier call of the conversation
/// already has gets another one ("call_0_2") when its message enters the conversation, while it
/// streams, and ContentBlock::providerId keeps what the provider sent. Everything downstream —
/// results, tool events, cards, reviews, the audit log, stream-json, the session file, the
/// request builders — can then key a call by its id alone, with no pairing rule of its own.
///
/// Renaming where the message is assembled, rather than in the request builder: the builder
/// only fixes the ids of one request, after cards, results and the session file were already
/// keyed by the clashing ones; and the session file, which records both ids, says what
/// happened and what the model was told. Providers with ids of their own that never repeat
/// (Anthropic's toolu_..., OpenAI's call_...) never see a renamed call.
///
/// Not thread-safe: one owner (the agent run).
class ToolCallIds final
{
public:
    /// Ids already taken by the calls of \a history.
    explicit ToolCallIds(const QList<Message> &history = {});

    /// Takes the ids of \a message's calls as they are (a message the loop did not assemble).
    void reserve(const Message &message);

    /// A new assistant message starts streaming (or an attempt at one starts again): what
    /// streamed() handed out for the previous attempt is forgotten.
    void startMessage();
    /// The id of the call streamed at \a contentIndex of the current message, which the
    /// provider calls \a providerId. The same answer for every event of that call; empty while
    /// the provider has not sent an id.
    QString streamed(int contentIndex, const QString &providerId);
    /// Gives the calls of the finished assistant message \a message the ids streamed() showed
    /// (a call that did not stream gets one here), and takes them.
    void assign(Message &message);

    /// \a history with ids unique within it: calls renamed as the loop does, and each result
    /// renamed with the call it answers (the nearest call before it with its id). For histories
    /// written before the loop made ids unique; a history with unique ids comes back unchanged.
    static QList<Message> madeUnique(QList<Message> history);

private:
    QString freshId(const QString &providerId) const;

    QSet<QString> m_taken;
    struct Streamed
    {
        QString providerId;
        QString id;
    };
    QHash<int, Streamed> m_streamed; ///< by content index, for the current message
};

} // namespace AgentCore
