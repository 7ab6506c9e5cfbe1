#pragma once

#include "httptestserver.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

/// Scripted model replies written as the server-sent events of the real provider APIs, for
/// HttpTestServer: an end-to-end test plays them to the agent as a provider would.
namespace TestSupport {

/// A tool call a scripted reply asks for.
struct ReplyToolCall
{
    QString id;
    QString name;
    QJsonObject arguments;
    /// When set, the argument text sent instead of \a arguments (broken or hostile JSON).
    QByteArray rawArguments = {};
};

/// \a calls with the ids call_0, call_1, ... in order: a reply of a server that numbers tool
/// calls per response (some llama.cpp, vLLM and proxy setups), so the ids repeat from one reply
/// to the next.
QList<ReplyToolCall> numberedPerResponse(QList<ReplyToolCall> calls);

/// Which wire API a reply is written for.
enum class ReplyApi {
    OpenAiChat,        ///< /v1/chat/completions chunks, ending with data: [DONE]
    AnthropicMessages, ///< /v1/messages events, ending with message_stop
    OpenAiResponses,   ///< /v1/responses events, ending with response.completed
};

/// The events of one reply: \a text (if any) then \a calls; one SSE event per element. The
/// stop reason is tool use when there are calls, else a natural end. Usage is 10 in, 5 out.
QList<QByteArray> replyEvents(ReplyApi api,
                              const QString &text,
                              const QList<ReplyToolCall> &calls = {});

/// replyEvents() as a 200 text/event-stream response, each event its own chunk.
ScriptedResponse scriptedReply(ReplyApi api,
                               const QString &text,
                               const QList<ReplyToolCall> &calls = {});

/// A reply that sends its first \a events events (the message start) and then stalls: the
/// connection stays open with nothing more, as a provider that hangs mid-answer.
ScriptedResponse stalledReply(ReplyApi api, int events = 2);

/// The path a request of \a api goes to under the test server ("/v1/chat/completions", ...).
QByteArray replyPath(ReplyApi api);

/// The tool names of a request body of \a api (OpenAI: tools[].function.name; Anthropic:
/// tools[].name), in order.
QStringList requestToolNames(ReplyApi api, const QByteArray &body);

/// "role: text" of each user and assistant message of a Chat Completions request body, in
/// order (a message's text parts joined): the conversation the provider was sent.
QStringList requestConversation(const QByteArray &body);

} // namespace TestSupport

Q_DECLARE_METATYPE(TestSupport::ReplyApi)
