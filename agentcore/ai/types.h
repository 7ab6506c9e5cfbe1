#pragma once

#include "tooldetails.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QMetaType>
#include <QString>

#include <functional>

namespace AgentCore {

/// Why an assistant message ended. The wire value of each provider is kept apart in
/// Message::providerStopReason.
enum class StopReason {
    Stop,            ///< natural end (end_turn, stop, completed without tool calls)
    Length,          ///< max output tokens reached; tool calls may be truncated
    ToolUse,         ///< the model asked for tools
    Error,           ///< HTTP, network or provider error; errorMessage says which
    Aborted,         ///< the abort token fired; partial content kept
    ContextOverflow, ///< the request did not fit the context window
    Refusal,         ///< the provider refused (OpenAI refusal, Anthropic "refusal")
    TurnLimit,       ///< added by the agent loop when maxTurns is reached
};

/// "stop", "length", "toolUse", "error", "aborted", "contextOverflow", "refusal",
/// "iterationLimit" (TurnLimit: the name sessions and stream-json have always had).
QString stopReasonName(StopReason reason);
StopReason stopReasonFromName(const QString &name, bool *ok = nullptr);

/// Token counts of one assistant message, and its cost in US dollars from the price table.
struct Usage
{
    qint64 input = 0;      ///< uncached input tokens
    qint64 output = 0;     ///< output tokens (reasoning included where the provider counts it)
    qint64 cacheRead = 0;  ///< input tokens served from the prompt cache
    qint64 cacheWrite = 0; ///< input tokens written to the prompt cache
    double cost = 0;       ///< USD; 0 when the model has no price

    qint64 totalTokens() const { return input + output + cacheRead + cacheWrite; }
    Usage &operator+=(const Usage &other)
    {
        input += other.input;
        output += other.output;
        cacheRead += other.cacheRead;
        cacheWrite += other.cacheWrite;
        cost += other.cost;
        return *this;
    }
    friend bool operator==(const Usage &, const Usage &) = default;
};

/// One block of a message's content. A small tagged value rather than a std::variant, so it
/// crosses threads in queued signals and converts to JSON without visitors.
struct ContentBlock
{
    enum class Type { Text, Thinking, ToolCall, Image };

    Type type = Type::Text;
    QString text;          ///< Text: the text. Thinking: the reasoning text.
    QString signature;     ///< Thinking: provider signature / encrypted content (null if none)
    bool redacted = false; ///< Thinking: Anthropic redacted_thinking (data kept in signature)
    QString id;            ///< ToolCall: the call's id, unique within the conversation
    QString name;          ///< ToolCall: tool name
    QJsonObject arguments; ///< ToolCall: parsed arguments (partial while streaming)
    /// ToolCall: why the arguments the model sent could not be read (invalid JSON, nested too
    /// deep, not an object), worded for the model; empty when they could. Such a call is not
    /// run: it gets this as its isError result.
    QString argumentsError;
    /// ToolCall: the id the provider sent, when the conversation had to give the call another
    /// one because an earlier call already had it (loop/toolcallids.h); empty otherwise.
    QString providerId;
    /// Image (in a tool's result): "image/png", "image/jpeg", "image/gif" or "image/webp".
    QString mimeType;
    /// Image: the picture, base64-encoded, as the wire APIs and the session file carry it.
    QByteArray data;

    static ContentBlock makeText(const QString &text);
    static ContentBlock makeThinking(const QString &thinking, const QString &signature = {});
    static ContentBlock makeToolCall(const QString &id,
                                     const QString &name,
                                     const QJsonObject &arguments);
    static ContentBlock makeImage(const QString &mimeType, const QByteArray &base64);
    /// The pictures every provider that takes images reads: PNG, JPEG, GIF and WebP.
    static bool isImageType(const QString &mimeType);
    /// An image's cap, base64 (Anthropic refuses more than 5 MB): a larger one is left out.
    static constexpr qsizetype maxImageBase64 = 5 * 1024 * 1024;

    bool isText() const { return type == Type::Text; }
    bool isThinking() const { return type == Type::Thinking; }
    bool isToolCall() const { return type == Type::ToolCall; }
    bool isImage() const { return type == Type::Image; }
    friend bool operator==(const ContentBlock &, const ContentBlock &) = default;
};

/// Where a user (or custom) message came from, as the loop took it: a new task, steering sent
/// while the agent worked, or a follow-up queued for when the task ended. For the UI only;
/// never sent to a model. A session written before it existed reads as Prompt.
enum class MessageOrigin {
    Prompt,   ///< a task the user started (also what the caller of the loop passes)
    Steering, ///< taken from the steering queue, into the running task
    FollowUp, ///< taken from the follow-up queue once the task had ended
};

/// "prompt", "steering", "followUp".
QString messageOriginName(MessageOrigin origin);
/// Prompt (and *ok false) for an unknown name.
MessageOrigin messageOriginFromName(const QString &name, bool *ok = nullptr);

/// A message of a conversation. One value type for every role keeps histories a plain
/// QList<Message>; fields that do not apply to a role stay empty.
struct Message
{
    enum class Role {
        User,
        Assistant,
        ToolResult,
        Custom, ///< added by the application (e.g. a system reminder); see customType
    };

    // The special members are out of line (types.cpp): inlined, each of the twenty members'
    // destructors and copies is a call in every function that handles a message, because the
    // compiler stops inlining Qt's own at that size; the loop made and dropped a few dozen
    // messages per turn that way (bench_loop, see docs/benchmarks.md).
    Message();
    Message(const Message &other);
    Message(Message &&other) noexcept;
    Message &operator=(const Message &other);
    Message &operator=(Message &&other) noexcept;
    ~Message();

    Role role = Role::User;
    QList<ContentBlock> content;
    qint64 timestamp = 0; ///< ms since the epoch

    // User, Custom
    MessageOrigin origin = MessageOrigin::Prompt; ///< set by the loop where it takes the message

    // Assistant
    StopReason stopReason = StopReason::Stop;
    QString providerStopReason; ///< the raw wire value (finish_reason, stop_reason, status)
    Usage usage;
    /// What the attempts the loop withdrew before this message cost (a reply that wrote its
    /// tool calls as text, retried): the provider bills them, but they are not part of the
    /// conversation, so they count in what the session used, never in its context size.
    Usage discardedUsage;
    QString api;      ///< "openai-chat", "anthropic-messages", "openai-responses", or a test's
    QString provider; ///< "openai", "anthropic", "openrouter", "deepseek", ...
    QString model;
    QString responseId;
    QString errorMessage;           ///< set when stopReason is Error, Aborted or ContextOverflow
    QString refusal;                ///< refusal text streamed by the provider
    bool protocolViolation = false; ///< the text holds fake tool calls instead of native ones
    QString protocolViolationDetail;

    // ToolResult
    QString toolCallId;
    QString toolName;
    ToolDetails details; ///< for the UI only (diffs, full output paths); never sent to a model
    bool isError = false;
    /// A stub (SessionPages): the whole result is in the session file; `content` holds a
    /// preview of its text (whole lines, at most SessionPages::previewChars) and no image
    /// data; pagedChars is the whole text's length. -1: the message is whole.
    qsizetype pagedChars = -1;
    bool isPaged() const { return pagedChars >= 0; }

    // Custom
    QString customType; ///< converted to a user message or dropped at the model boundary
    /// The application's typed data of a Custom message (what a compaction covers: see
    /// context/compaction.h); kept in the session file, never sent to a model.
    QJsonObject customData;

    static Message makeUser(const QString &text);
    static Message makeToolResult(const QString &toolCallId,
                                  const QString &toolName,
                                  const QString &text,
                                  bool isError);

    bool isUser() const { return role == Role::User; }
    bool isAssistant() const { return role == Role::Assistant; }
    bool isToolResult() const { return role == Role::ToolResult; }
    /// All text blocks joined, in order.
    QString text() const;
    /// The ToolCall blocks, in order.
    QList<ContentBlock> toolCalls() const;
    friend bool operator==(const Message &, const Message &) = default;
};

/// A tool as a model sees it: name, description and a JSON Schema of its arguments.
struct ToolDefinition
{
    QString name;
    QString description;
    QJsonObject parameters; ///< JSON Schema, "type": "object"
    friend bool operator==(const ToolDefinition &, const ToolDefinition &) = default;
};

/// Everything one model request is built from.
struct Context
{
    QString systemPrompt;
    QList<Message> messages;
    QList<ToolDefinition> tools;
};

/// One normalized streaming event, whatever the provider.
struct StreamEvent
{
    enum class Type {
        Start,
        TextStart,
        TextDelta,
        TextEnd,
        ThinkingStart,
        ThinkingDelta,
        ThinkingEnd,
        ToolCallStart,
        ToolCallDelta,
        ToolCallEnd,
        Retry, ///< a retryable failure; the request is sent again after retryDelayMs
        Done,  ///< the message is complete (any stop reason but Error/Aborted)
        Error, ///< the message ended with Error, Aborted or ContextOverflow
    };

    Type type = Type::Start;
    int contentIndex = -1; ///< index into the partial message's content
    QString delta;         ///< text, thinking, or raw tool-call argument JSON fragment
    QString toolCallId;    ///< ToolCall*: id and name of the call
    QString toolName;
    QJsonObject arguments; ///< ToolCallDelta/End: arguments parsed so far (tolerant parser)
    StopReason stopReason = StopReason::Stop; ///< Done/Error
    QString errorMessage;                     ///< Error, Retry: readable reason
    int retryAttempt = 0;                     ///< Retry: 1 for the first retry
    int retryDelayMs = 0;                     ///< Retry

    /// An event of \a type for content block \a contentIndex carrying \a delta: what scripted
    /// models (tests, benchmarks) stream.
    static StreamEvent make(Type type, int contentIndex = -1, const QString &delta = {})
    {
        StreamEvent event;
        event.type = type;
        event.contentIndex = contentIndex;
        event.delta = delta;
        return event;
    }
};

/// Receives stream events on the thread that runs the stream.
using StreamEventSink = std::function<void(const StreamEvent &)>;

} // namespace AgentCore

Q_DECLARE_METATYPE(AgentCore::StopReason)
Q_DECLARE_METATYPE(AgentCore::Message)
Q_DECLARE_METATYPE(AgentCore::StreamEvent)
