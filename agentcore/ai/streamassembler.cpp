#include "streamassembler.h"
#include "translation.h"

#include "anthropicassembler.h"
#include "httperror.h"
#include "openaichatassembler.h"
#include "openairesponsesassembler.h"
#include "pricing.h"
#include "protocolviolation.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonDocument>
#include <QJsonParseError>

namespace AgentCore {

namespace {

constexpr qsizetype malformedSnippetLength = 80;

QString endReasonText(StreamAssembler::EndReason reason)
{
    switch (reason) {
    case StreamAssembler::EndReason::Aborted:
        return AiTr::tr("the request was aborted");
    case StreamAssembler::EndReason::IdleTimeout:
        return AiTr::tr("the provider stopped sending data");
    case StreamAssembler::EndReason::DeadlineExceeded:
        return AiTr::tr("the request took too long");
    case StreamAssembler::EndReason::ConnectionDropped:
    case StreamAssembler::EndReason::StreamEnded:
        break;
    }
    return AiTr::tr("the connection dropped before the response was complete");
}

// An error excerpt as one line of text: invalid UTF-8 shows as U+FFFD, line breaks as spaces.
QString excerptText(const QByteArray &excerpt)
{
    QString text = QString::fromUtf8(excerpt);
    for (QChar &c : text) {
        if (c.unicode() < 0x20)
            c = u' ';
    }
    return text;
}

bool isErrorStop(StopReason reason)
{
    return reason == StopReason::Error || reason == StopReason::Aborted
           || reason == StopReason::ContextOverflow;
}
} // namespace

std::unique_ptr<StreamAssembler> createStreamAssembler(const ProviderConfig &config)
{
    switch (config.api) {
    case WireApi::OpenAiChat:
        return std::make_unique<OpenAiChatAssembler>(config);
    case WireApi::AnthropicMessages:
        return std::make_unique<AnthropicAssembler>(config);
    case WireApi::OpenAiResponses:
        return std::make_unique<OpenAiResponsesAssembler>(config);
    }
    return std::make_unique<OpenAiChatAssembler>(config);
}

StreamAssemblerBase::StreamAssemblerBase(const ProviderConfig &config)
    : m_maxToolArgumentsBytes(config.maxToolArgumentsBytes)
{
    m_message.role = Message::Role::Assistant;
    m_message.api = wireApiName(config.api);
    m_message.provider = config.provider;
    m_message.model = config.model;
    m_message.timestamp = QDateTime::currentMSecsSinceEpoch();
}

StreamAssemblerBase::~StreamAssemblerBase() = default;

void StreamAssemblerBase::feed(const SseEvent &event, const StreamEventSink &sink)
{
    if (m_complete || m_finished)
        return;
    emitStartOnce(sink);
    if (handleRawEvent(event, sink) || !parsePayload(event))
        return;
    const JsonReader::Value data = m_reader.root();
    if (!data.isObject()) {
        failMalformed(event, AiTr::tr("not a JSON object"));
        return;
    }
    handleEvent(event, data, sink);
}

bool StreamAssemblerBase::parsePayload(const SseEvent &event)
{
    if (m_reader.parse(event.data))
        return true;
    // Only the rare malformed payload pays for QJsonDocument: it words the error.
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(event.data, &error);
    if (error.error != QJsonParseError::NoError) {
        failMalformed(event, AiTr::tr("%1 at offset %2").arg(error.errorString()).arg(error.offset));
        return false;
    }
    // The reader agrees with QJsonDocument on every input the tests know; should they ever
    // differ, Qt's reading wins rather than a working stream failing.
    m_requoted = document.toJson(QJsonDocument::Compact);
    if (m_reader.parse(m_requoted))
        return true;
    failMalformed(event, AiTr::tr("unreadable JSON"));
    return false;
}

bool StreamAssemblerBase::handleRawEvent(const SseEvent &, const StreamEventSink &)
{
    return false;
}

Message StreamAssemblerBase::finish(EndReason reason,
                                    const QString &detail,
                                    const StreamEventSink &sink)
{
    if (m_finished)
        return m_message;
    emitStartOnce(sink);
    decideEnd(reason, detail);
    m_finished = true;
    for (int i = 0; i < qsizetype(m_blocks.size()); ++i)
        closeBlock(i, sink);
    finalizeMessage();

    m_message.usage = withCost(m_message.usage, m_message.provider, m_message.model);
    const ProtocolViolation violation = detectFakeToolCalls(m_message.text());
    m_message.protocolViolation = violation.found;
    m_message.protocolViolationDetail = violation.detail;

    StreamEvent end;
    end.stopReason = m_message.stopReason;
    if (isErrorStop(m_message.stopReason)) {
        end.type = StreamEvent::Type::Error;
        end.errorMessage = m_message.errorMessage;
    } else {
        end.type = StreamEvent::Type::Done;
    }
    emitEvent(sink, end);
    return m_message;
}

void StreamAssemblerBase::decideEnd(EndReason reason, const QString &detail)
{
    if (m_providerError)
        return; // failWithProviderError() decided everything
    if (m_complete || reason == EndReason::StreamEnded) {
        if (!m_hasStop) {
            m_message.stopReason = StopReason::Error;
            m_message.errorMessage = AiTr::tr("the stream ended before the response was complete");
        }
        return;
    }
    // The transport cut an unfinished stream: the content so far stays, a stop reason does not.
    m_message.stopReason = reason == EndReason::Aborted ? StopReason::Aborted : StopReason::Error;
    m_message.errorMessage = detail.isEmpty() ? endReasonText(reason) : detail;
}

void StreamAssemblerBase::emitStartOnce(const StreamEventSink &sink)
{
    if (m_started)
        return;
    m_started = true;
    StreamEvent event;
    event.type = StreamEvent::Type::Start;
    emitEvent(sink, event);
}

void StreamAssemblerBase::failMalformed(const SseEvent &event, const QString &reason)
{
    const QString name = event.type.isEmpty() ? QStringLiteral("message")
                                              : QString::fromUtf8(event.type);
    QString snippet = QString::fromUtf8(event.data.left(malformedSnippetLength));
    if (event.data.size() > malformedSnippetLength)
        snippet += QChar(0x2026);
    failWithProviderError(AiTr::tr("The provider sent malformed JSON in a \"%1\" event (%2): %3")
                              .arg(name, reason, snippet));
}

void StreamAssemblerBase::emitEvent(const StreamEventSink &sink, const StreamEvent &event)
{
    if (sink)
        sink(event);
}

int StreamAssemblerBase::appendBlock(ContentBlock block,
                                     StreamEvent::Type startType,
                                     const StreamEventSink &sink)
{
    const int index = int(m_message.content.size());
    StreamEvent event;
    event.type = startType;
    event.contentIndex = index;
    event.toolCallId = block.id;
    event.toolName = block.name;
    event.arguments = block.arguments;
    m_message.content.append(std::move(block));
    m_blocks.emplace_back();
    emitEvent(sink, event);
    return index;
}

int StreamAssemblerBase::openText(const StreamEventSink &sink)
{
    return appendBlock(ContentBlock::makeText({}), StreamEvent::Type::TextStart, sink);
}

int StreamAssemblerBase::openThinking(const StreamEventSink &sink)
{
    return appendBlock(ContentBlock::makeThinking({}), StreamEvent::Type::ThinkingStart, sink);
}

int StreamAssemblerBase::openToolCall(const QString &id,
                                      const QString &name,
                                      const QJsonObject &initialArguments,
                                      const StreamEventSink &sink)
{
    const int index = appendBlock(ContentBlock::makeToolCall(id, name, initialArguments),
                                  StreamEvent::Type::ToolCallStart,
                                  sink);
    m_blocks.back().parser = std::make_unique<PartialJsonParser>(
        PartialJsonParser::toolArgumentsMaxDepth);
    return index;
}

void StreamAssemblerBase::appendText(int index, const QString &delta, const StreamEventSink &sink)
{
    // A delta after the block's End would break the event protocol; servers do not send one.
    if (delta.isEmpty() || !isValidBlock(index) || !m_blocks[index].open)
        return;
    ContentBlock &block = m_message.content[index];
    if (block.isToolCall())
        return;
    block.text += delta;
    StreamEvent event;
    event.type = block.isThinking() ? StreamEvent::Type::ThinkingDelta
                                    : StreamEvent::Type::TextDelta;
    event.contentIndex = index;
    event.delta = delta;
    emitEvent(sink, event);
}

void StreamAssemblerBase::appendToolArguments(int index,
                                              const QString &fragment,
                                              const StreamEventSink &sink)
{
    if (fragment.isEmpty() || !isValidBlock(index))
        return;
    BlockState &state = m_blocks[index];
    if (!state.parser || !state.open)
        return;
    const QByteArray bytes = fragment.toUtf8();
    state.argumentBytes += bytes.size();
    if (m_maxToolArgumentsBytes > 0 && state.argumentBytes > m_maxToolArgumentsBytes) {
        state.parser.reset(); // its buffers are the memory the limit protects
        failWithProviderError(
            streamLimitMessage(StreamLimit::ToolArguments, m_maxToolArgumentsBytes));
        return;
    }
    state.parser->append(bytes);
    ContentBlock &block = m_message.content[index];
    // Until a value starts ("" or whitespace) the initial arguments stand, as in the SDKs.
    // Arguments nested too deep are not shown at all: they will not be run either.
    const QJsonValue value = state.parser->error() == PartialJsonParser::Error::TooDeep
                                 ? QJsonValue(QJsonValue::Undefined)
                                 : state.parser->value();
    if (!value.isUndefined())
        block.arguments = value.toObject();
    StreamEvent event;
    event.type = StreamEvent::Type::ToolCallDelta;
    event.contentIndex = index;
    event.delta = fragment;
    event.toolCallId = block.id;
    event.toolName = block.name;
    event.arguments = block.arguments;
    emitEvent(sink, event);
}

void StreamAssemblerBase::setToolCallIdentity(int index, const QString &id, const QString &name)
{
    if (!isValidBlock(index))
        return;
    ContentBlock &block = m_message.content[index];
    if (!id.isEmpty())
        block.id = id;
    if (!name.isEmpty())
        block.name = name;
}

void StreamAssemblerBase::setToolArgumentsJson(int index, const QString &json)
{
    if (!isValidBlock(index) || !m_blocks[index].open)
        return;
    // The same parser as the streamed fragments, so that the same limits and messages apply.
    auto parser = std::make_unique<PartialJsonParser>(PartialJsonParser::toolArgumentsMaxDepth);
    parser->append(json.toUtf8());
    m_blocks[index].parser = std::move(parser);
}

void StreamAssemblerBase::syncText(int index, const QString &finalText, const StreamEventSink &sink)
{
    if (!isValidBlock(index))
        return;
    ContentBlock &block = m_message.content[index];
    if (block.text == finalText)
        return;
    if (m_blocks[index].open && finalText.startsWith(block.text))
        appendText(index, finalText.mid(block.text.size()), sink);
    else
        block.text = finalText;
}

void StreamAssemblerBase::closeBlock(int index, const StreamEventSink &sink)
{
    if (!isValidBlock(index) || !m_blocks[index].open)
        return;
    BlockState &state = m_blocks[index];
    state.open = false;
    ContentBlock &block = m_message.content[index];
    StreamEvent event;
    event.contentIndex = index;
    switch (block.type) {
    case ContentBlock::Type::Text:
        event.type = StreamEvent::Type::TextEnd;
        break;
    case ContentBlock::Type::Thinking:
        event.type = StreamEvent::Type::ThinkingEnd;
        break;
    case ContentBlock::Type::Image: // only in tool results, never streamed
        return;
    case ContentBlock::Type::ToolCall:
        event.type = StreamEvent::Type::ToolCallEnd;
        if (state.parser)
            applyParsedArguments(block, *state.parser);
        state.parser.reset();
        event.toolCallId = block.id;
        event.toolName = block.name;
        event.arguments = block.arguments;
        break;
    }
    emitEvent(sink, event);
}

// The final arguments of a tool call, or why there are none the tool may run with.
void StreamAssemblerBase::applyParsedArguments(ContentBlock &block, const PartialJsonParser &parser)
{
    const QString tool = block.name.isEmpty() ? AiTr::tr("tool") : block.name;
    switch (parser.error()) {
    case PartialJsonParser::Error::TooDeep:
        // Nothing of it is kept: a value that deep must not reach the session file or the
        // next request (Qt writes and reads JSON recursively, and stops at this depth).
        block.arguments = {};
        block.argumentsError
            = AiTr::tr("The arguments of this %1 call nest deeper than %2 levels; they were not "
                       "read and the call was not run. Call %1 again with flat arguments that "
                       "match its schema.")
                  .arg(tool)
                  .arg(parser.depthLimit());
        return;
    case PartialJsonParser::Error::Syntax: {
        const QJsonValue value = parser.value();
        if (value.isObject())
            block.arguments = value.toObject();
        block.argumentsError
            = AiTr::tr("The arguments of this %1 call are not valid JSON: it goes wrong at byte "
                       "%2, near `%3`. The call was not run; call %1 again with the arguments as "
                       "one valid JSON object (strings in double quotes).")
                  .arg(tool)
                  .arg(parser.errorOffset())
                  .arg(excerptText(parser.errorExcerpt()));
        return;
    }
    case PartialJsonParser::Error::None:
        break;
    }
    const QJsonValue value = parser.value();
    if (value.isUndefined())
        return; // no argument text at all: the initial arguments stand, as in the SDKs
    if (parser.isComplete() && !value.isObject()) {
        block.arguments = {};
        block.argumentsError = AiTr::tr("The arguments of this %1 call are not a JSON object. The "
                                        "call was not run; call %1 again with the arguments as "
                                        "one JSON object.")
                                   .arg(tool);
        return;
    }
    block.arguments = value.toObject();
}

void StreamAssemblerBase::setStop(StopReason reason, const QString &providerStopReason)
{
    if (m_providerError)
        return;
    m_hasStop = true;
    m_message.stopReason = reason;
    m_message.providerStopReason = providerStopReason;
}

void StreamAssemblerBase::failWithProviderError(const QString &errorMessage)
{
    if (m_providerError)
        return;
    m_providerError = true;
    m_hasStop = true;
    m_complete = true;
    m_message.stopReason = StopReason::Error;
    m_message.errorMessage = errorMessage;
    m_message.usage = {};
}

void StreamAssemblerBase::failWithStreamedError(const QString &errorMessage, const QString &code)
{
    if (m_providerError)
        return;
    failWithProviderError(errorMessage);
    if (isContextOverflowError(errorMessage, code))
        m_message.stopReason = StopReason::ContextOverflow;
}

QString StreamAssemblerBase::compactJson(QByteArrayView json)
{
    QByteArray compact;
    compact.reserve(json.size());
    bool inString = false;
    bool escaped = false;
    for (const char c : json) {
        if (inString) {
            compact += c;
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
            compact += c;
        } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
            compact += c;
        }
    }
    return QString::fromUtf8(compact);
}

qint64 StreamAssemblerBase::intValue(JsonReader::Value object, QByteArrayView key, qint64 fallback)
{
    return object.value(key).toInteger(fallback);
}

} // namespace AgentCore
