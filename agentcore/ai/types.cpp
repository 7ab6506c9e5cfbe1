#include "types.h"

#include <QDateTime>

#include <array>
#include <utility>

namespace AgentCore {

namespace {
constexpr std::array stopReasonNames{
    std::pair{StopReason::Stop, "stop"},
    std::pair{StopReason::Length, "length"},
    std::pair{StopReason::ToolUse, "toolUse"},
    std::pair{StopReason::Error, "error"},
    std::pair{StopReason::Aborted, "aborted"},
    std::pair{StopReason::ContextOverflow, "contextOverflow"},
    std::pair{StopReason::Refusal, "refusal"},
    // Written in sessions and the --print stream-json output: the old name stays.
    std::pair{StopReason::TurnLimit, "iterationLimit"},
};

constexpr std::array messageOriginNames{
    std::pair{MessageOrigin::Prompt, "prompt"},
    std::pair{MessageOrigin::Steering, "steering"},
    std::pair{MessageOrigin::FollowUp, "followUp"},
};
} // namespace

QString stopReasonName(StopReason reason)
{
    for (const auto &[value, name] : stopReasonNames) {
        if (value == reason)
            return QString::fromLatin1(name);
    }
    return {};
}

StopReason stopReasonFromName(const QString &name, bool *ok)
{
    for (const auto &[value, text] : stopReasonNames) {
        if (name == QLatin1String(text)) {
            if (ok)
                *ok = true;
            return value;
        }
    }
    if (ok)
        *ok = false;
    return StopReason::Error;
}

QString messageOriginName(MessageOrigin origin)
{
    for (const auto &[value, name] : messageOriginNames) {
        if (value == origin)
            return QString::fromLatin1(name);
    }
    return {};
}

MessageOrigin messageOriginFromName(const QString &name, bool *ok)
{
    for (const auto &[value, text] : messageOriginNames) {
        if (name == QLatin1String(text)) {
            if (ok)
                *ok = true;
            return value;
        }
    }
    if (ok)
        *ok = false;
    return MessageOrigin::Prompt;
}

ContentBlock ContentBlock::makeText(const QString &text)
{
    ContentBlock block;
    block.type = Type::Text;
    block.text = text;
    return block;
}

ContentBlock ContentBlock::makeThinking(const QString &thinking, const QString &signature)
{
    ContentBlock block;
    block.type = Type::Thinking;
    block.text = thinking;
    block.signature = signature;
    return block;
}

ContentBlock ContentBlock::makeToolCall(const QString &id,
                                        const QString &name,
                                        const QJsonObject &arguments)
{
    ContentBlock block;
    block.type = Type::ToolCall;
    block.id = id;
    block.name = name;
    block.arguments = arguments;
    return block;
}

ContentBlock ContentBlock::makeImage(const QString &mimeType, const QByteArray &base64)
{
    ContentBlock block;
    block.type = Type::Image;
    block.mimeType = mimeType;
    block.data = base64;
    return block;
}

bool ContentBlock::isImageType(const QString &mimeType)
{
    static const QStringList types{QStringLiteral("image/png"),
                                   QStringLiteral("image/jpeg"),
                                   QStringLiteral("image/gif"),
                                   QStringLiteral("image/webp")};
    return types.contains(mimeType);
}

Message::Message() = default;
Message::Message(const Message &other) = default;
Message::Message(Message &&other) noexcept = default;
Message &Message::operator=(const Message &other) = default;
Message &Message::operator=(Message &&other) noexcept = default;
Message::~Message() = default;

Message Message::makeUser(const QString &text)
{
    Message message;
    message.role = Role::User;
    message.content.append(ContentBlock::makeText(text));
    message.timestamp = QDateTime::currentMSecsSinceEpoch();
    return message;
}

Message Message::makeToolResult(const QString &toolCallId,
                                const QString &toolName,
                                const QString &text,
                                bool isError)
{
    Message message;
    message.role = Role::ToolResult;
    message.toolCallId = toolCallId;
    message.toolName = toolName;
    message.content.append(ContentBlock::makeText(text));
    message.isError = isError;
    message.timestamp = QDateTime::currentMSecsSinceEpoch();
    return message;
}

QString Message::text() const
{
    QString result;
    for (const ContentBlock &block : content) {
        if (block.isText())
            result += block.text;
    }
    return result;
}

QList<ContentBlock> Message::toolCalls() const
{
    QList<ContentBlock> calls;
    for (const ContentBlock &block : content) {
        if (block.isToolCall())
            calls.append(block);
    }
    return calls;
}

} // namespace AgentCore
