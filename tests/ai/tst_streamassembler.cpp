#include "ai/messagejson.h"
#include "ai/pricing.h"
#include "ai/sseparser.h"
#include "ai/streamassembler.h"
#include "fixtures.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QtTest>
#include <testmain.h>

using namespace AgentCore;
Q_DECLARE_METATYPE(AgentCore::StreamAssembler::EndReason)

namespace tst_streamassembler {

using EndReason = StreamAssembler::EndReason;
using namespace Qt::StringLiterals;

namespace {

WireApi apiForDirectory(const QString &directory)
{
    if (directory == QLatin1String("anthropic"))
        return WireApi::AnthropicMessages;
    if (directory == QLatin1String("openai-responses"))
        return WireApi::OpenAiResponses;
    return WireApi::OpenAiChat;
}

ProviderConfig configFor(const QString &directory)
{
    ProviderConfig config;
    config.api = apiForDirectory(directory);
    config.provider = directory == QLatin1String("anthropic") ? QStringLiteral("anthropic")
                                                              : QStringLiteral("openai");
    config.model = QStringLiteral("config-model");
    return config;
}

struct Run
{
    Message message;
    QList<StreamEvent> events;
    bool completeBeforeFinish = false;
};

Run assemble(const QString &directory,
             const QList<QByteArray> &chunks,
             EndReason end = EndReason::StreamEnded,
             const QString &detail = {})
{
    Run run;
    const auto sink = [&run](const StreamEvent &event) { run.events.append(event); };
    const std::unique_ptr<StreamAssembler> assembler = createStreamAssembler(configFor(directory));
    SseParser parser;
    for (const QByteArray &chunk : chunks)
        parser.feed(chunk, [&](const SseEvent &event) { assembler->feed(event, sink); });
    parser.finish();
    run.completeBeforeFinish = assembler->isComplete();
    run.message = assembler->finish(end, detail, sink);
    return run;
}

// Frames one JSON payload per line as the providers do: Anthropic and Responses name each event
// after its "type"; Chat Completions sends bare data lines.
QByteArray framed(const QString &directory, const QByteArray &payloads)
{
    QByteArray stream;
    for (const QByteArray &line : payloads.split('\n')) {
        if (line.trimmed().isEmpty())
            continue;
        const QString type = QJsonDocument::fromJson(line).object().value(u"type").toString();
        if (directory != QLatin1String("openai-chat") && !type.isEmpty())
            stream += "event: " + type.toUtf8() + '\n';
        stream += "data: " + line + "\n\n";
    }
    return stream;
}

QString token(StreamEvent::Type type)
{
    static const char *const names[]
        = {"start", "ts", "td", "te", "ks", "kd", "ke", "cs", "cd", "ce", "retry", "done", "error"};
    return QLatin1String(names[int(type)]);
}

QString sequence(const QList<StreamEvent> &events)
{
    QStringList tokens;
    for (const StreamEvent &event : events)
        tokens.append(token(event.type));
    return tokens.join(QLatin1Char(' '));
}

// The streaming protocol every run must keep: one Start first, one Done/Error last that agrees
// with the message, Start/Delta/End per block in order, deltas that add up to the final content.
QString protocolViolations(const Run &run, bool finalOrderIsStreamOrder = true)
{
    const QList<StreamEvent> &events = run.events;
    if (events.size() < 2 || events.first().type != StreamEvent::Type::Start)
        return QStringLiteral("no Start first: ") + sequence(events);
    const StreamEvent &last = events.last();
    const bool isError = run.message.stopReason == StopReason::Error
                         || run.message.stopReason == StopReason::Aborted
                         || run.message.stopReason == StopReason::ContextOverflow;
    if (last.type != (isError ? StreamEvent::Type::Error : StreamEvent::Type::Done)
        || last.stopReason != run.message.stopReason
        || last.errorMessage != (isError ? run.message.errorMessage : QString()))
        return QStringLiteral("the last event does not match the message");

    QList<QString> texts;
    QList<int> state; // 1 open, 2 ended
    for (qsizetype i = 1; i + 1 < events.size(); ++i) {
        const StreamEvent &event = events.at(i);
        const int index = event.contentIndex;
        switch (event.type) {
        case StreamEvent::Type::TextStart:
        case StreamEvent::Type::ThinkingStart:
        case StreamEvent::Type::ToolCallStart:
            if (index != state.size())
                return QStringLiteral("block %1 started out of order").arg(index);
            state.append(1);
            texts.append(QString());
            break;
        case StreamEvent::Type::TextDelta:
        case StreamEvent::Type::ThinkingDelta:
        case StreamEvent::Type::ToolCallDelta:
            if (index < 0 || index >= state.size() || state.at(index) != 1)
                return QStringLiteral("delta for block %1 outside Start/End").arg(index);
            texts[index] += event.delta;
            break;
        case StreamEvent::Type::TextEnd:
        case StreamEvent::Type::ThinkingEnd:
        case StreamEvent::Type::ToolCallEnd:
            if (index < 0 || index >= state.size() || state.at(index) != 1)
                return QStringLiteral("End for block %1 that is not open").arg(index);
            state[index] = 2;
            break;
        default:
            return QStringLiteral("unexpected event in the middle: ") + token(event.type);
        }
    }
    if (state.contains(1))
        return QStringLiteral("a block was never ended: ") + sequence(events);
    if (state.size() != run.message.content.size())
        return QStringLiteral("%1 blocks streamed, %2 in the message")
            .arg(state.size())
            .arg(run.message.content.size());
    if (!finalOrderIsStreamOrder)
        return {};
    for (qsizetype i = 0; i < state.size(); ++i) {
        const ContentBlock &block = run.message.content.at(i);
        if (!block.isToolCall() && texts.at(i) != block.text)
            return QStringLiteral("the deltas of block %1 do not add up to its text").arg(i);
        const QJsonDocument parsed = QJsonDocument::fromJson(texts.at(i).toUtf8());
        // Arguments refused as unreadable (too deep for a tool call) are dropped on purpose.
        if (block.isToolCall() && block.argumentsError.isEmpty() && parsed.isObject()
            && parsed.object() != block.arguments)
            return QStringLiteral("the argument fragments of block %1 differ").arg(i);
    }
    return {};
}

// One Read call whose argument text is \a arguments, as each provider streams it (one payload a
// line, for framed()): the text arrives as one delta, Responses repeats it when the item is done.
QByteArray readCallPayloads(const QString &directory, const QByteArray &arguments)
{
    const QByteArray array = QJsonDocument(QJsonArray{QString::fromUtf8(arguments)})
                                 .toJson(QJsonDocument::Compact);
    const QByteArray quoted = array.mid(1, array.size() - 2);
    if (directory == QLatin1String("openai-chat")) {
        return R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"Read","arguments":)"
               + quoted + R"(}}]}}]}
{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}
[DONE])";
    }
    if (directory == QLatin1String("anthropic")) {
        return R"({"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}}}
{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"Read","input":{}}}
{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":)"
               + quoted + R"(}}
{"type":"content_block_stop","index":0}
{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":5}}
{"type":"message_stop"})";
    }
    const QByteArray item
        = R"({"type":"function_call","id":"fc_1","call_id":"call_1","name":"Read","arguments":)"
          + quoted + "}";
    return R"({"type":"response.created","response":{"id":"resp_1","model":"m","status":"in_progress","output":[]}}
{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"Read","arguments":""}}
{"type":"response.function_call_arguments.delta","output_index":0,"item_id":"fc_1","delta":)"
           + quoted + R"(}
{"type":"response.output_item.done","output_index":0,"item":)"
           + item + R"(}
{"type":"response.completed","response":{"id":"resp_1","model":"m","status":"completed","output":[)"
           + item + R"(]}})";
}

} // namespace

class tst_StreamAssembler : public QObject
{
    Q_OBJECT

private slots:
    void allFixturesPresent();
    void fixtures_data();
    void fixtures();
    void toolCallEvents_data();
    void toolCallEvents();
    void unfinishedStream_data();
    void unfinishedStream();
    void completedStreamIgnoresLateDrop();
    void malformedJson_data();
    void malformedJson();
    void handWritten_data();
    void handWritten();
    void chatInterleavedReasoningKeepsIndices();
    void anthropicRedactedThinking();
    void anthropicContextWindowExceededIsAnOverflow();
    void modelAndIdsFromStream();
    void costFromPriceTable();
    void fakeToolCallsFlagged();
    void unreadableToolArguments_data();
    void unreadableToolArguments();
};

void tst_StreamAssembler::allFixturesPresent()
{
    // A missing fixture directory must not let the data-driven test pass with no rows.
    QCOMPARE(TestSupport::fixtureNames(QStringLiteral("anthropic")).size(), 8);
    QCOMPARE(TestSupport::fixtureNames(QStringLiteral("openai-chat")).size(), 9);
    QCOMPARE(TestSupport::fixtureNames(QStringLiteral("openai-responses")).size(), 4);
}

void tst_StreamAssembler::fixtures_data()
{
    QTest::addColumn<QString>("directory");
    QTest::addColumn<QList<QByteArray>>("chunks");
    QTest::addColumn<QJsonObject>("expected");
    for (const QString &directory : TestSupport::fixtureProviders()) {
        for (const QString &name : TestSupport::fixtureNames(directory)) {
            const QByteArray bytes = TestSupport::readFixtureStream(directory, name);
            const QJsonObject expected = TestSupport::readFixtureExpected(directory, name);
            for (const TestSupport::NamedChunks &chunking : TestSupport::standardChunkings(bytes)) {
                QTest::addRow("%s/%s/%s",
                              qPrintable(directory),
                              qPrintable(name),
                              qPrintable(chunking.name))
                    << directory << chunking.chunks << expected;
            }
        }
    }
}

void tst_StreamAssembler::fixtures()
{
    QFETCH(QString, directory);
    QFETCH(QList<QByteArray>, chunks);
    QFETCH(QJsonObject, expected);
    QVERIFY(!expected.isEmpty());

    const Run run = assemble(directory, chunks);
    const QString diff = TestSupport::jsonDifference(expected, toNormalizedJson(run.message));
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    const QString violation = protocolViolations(run);
    QVERIFY2(violation.isEmpty(), qPrintable(violation));
    QCOMPARE(run.message.role, Message::Role::Assistant);
    QCOMPARE(run.message.api, wireApiName(apiForDirectory(directory)));
    QCOMPARE(run.message.provider, configFor(directory).provider);
}

void tst_StreamAssembler::toolCallEvents_data()
{
    QTest::addColumn<QString>("directory");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("pattern");
    QTest::newRow("chat") << "openai-chat"
                          << "gpt4o-tool-single"
                          << "^start cs( cd){14} ce done$";
    QTest::newRow("anthropic") << "anthropic"
                               << "text-then-tool-use"
                               << "^start ts( td){2} te cs( cd){4} ce done$";
    QTest::newRow("responses") << "openai-responses"
                               << "gpt51-codex-reasoning-encrypted-function-call"
                               << "^start ks( kd)+ ke cs( cd){13} ce done$";
}

void tst_StreamAssembler::toolCallEvents()
{
    QFETCH(QString, directory);
    QFETCH(QString, name);
    QFETCH(QString, pattern);
    const Run run = assemble(directory, {TestSupport::readFixtureStream(directory, name)});
    QVERIFY2(QRegularExpression(pattern).match(sequence(run.events)).hasMatch(),
             qPrintable(sequence(run.events)));

    const ContentBlock call = run.message.toolCalls().value(0);
    QVERIFY(!call.arguments.isEmpty());
    qsizetype previousKeys = 0;
    qsizetype firstKeys = -1;
    for (const StreamEvent &event : run.events) {
        if (event.type != StreamEvent::Type::ToolCallDelta
            && event.type != StreamEvent::Type::ToolCallEnd)
            continue;
        QCOMPARE(event.toolCallId, call.id);
        QCOMPARE(event.toolName, call.name);
        QVERIFY2(event.arguments.size() >= previousKeys, "the arguments shrank");
        previousKeys = event.arguments.size();
        if (firstKeys < 0)
            firstKeys = previousKeys;
        if (event.type == StreamEvent::Type::ToolCallEnd)
            QCOMPARE(event.arguments, call.arguments);
    }
    QVERIFY2(firstKeys < call.arguments.size(), "the arguments did not grow while streaming");
}

void tst_StreamAssembler::unfinishedStream_data()
{
    QTest::addColumn<QString>("directory");
    QTest::addColumn<QString>("name");
    QTest::addColumn<EndReason>("end");
    QTest::addColumn<QString>("detail");
    QTest::addColumn<StopReason>("stopReason");
    QTest::addColumn<QString>("errorMessage");

    const QString ended = QStringLiteral("the stream ended before the response was complete");
    const QString reset = QStringLiteral("connection reset by peer");
    const std::pair<const char *, const char *> texts[] = {
        {"anthropic", "sonnet45-text"},
        {"openai-chat", "gpt4o-text-weather"},
        {"openai-responses", "copilot-reasoning-summary-text-id-rotation"},
    };
    for (const auto &[directory, name] : texts) {
        QTest::addRow("%s/dropped", directory) << directory << name << EndReason::ConnectionDropped
                                               << reset << StopReason::Error << reset;
        QTest::addRow("%s/idle", directory)
            << directory << name << EndReason::IdleTimeout << "no data for 120 s"
            << StopReason::Error << "no data for 120 s";
        QTest::addRow("%s/aborted", directory) << directory << name << EndReason::Aborted
                                               << "aborted" << StopReason::Aborted << "aborted";
        QTest::addRow("%s/eof", directory) << directory << name << EndReason::StreamEnded
                                           << QString() << StopReason::Error << ended;
    }
}

void tst_StreamAssembler::unfinishedStream()
{
    QFETCH(QString, directory);
    QFETCH(QString, name);
    QFETCH(EndReason, end);
    QFETCH(QString, detail);
    QFETCH(StopReason, stopReason);
    QFETCH(QString, errorMessage);

    const QByteArray bytes = TestSupport::readFixtureStream(directory, name);
    const QString fullText = TestSupport::readFixtureExpected(directory, name)["content"]
                                 .toArray()
                                 .last()["text"]
                                 .toString();
    const Run run = assemble(directory, {bytes.left(bytes.size() / 2)}, end, detail);
    QCOMPARE(run.message.stopReason, stopReason);
    QCOMPARE(run.message.errorMessage, errorMessage);
    const QString text = run.message.text();
    QVERIFY2(!text.isEmpty() && text.size() < fullText.size() && fullText.startsWith(text),
             qPrintable(text));
    const QString violation = protocolViolations(run);
    QVERIFY2(violation.isEmpty(), qPrintable(violation));
}

void tst_StreamAssembler::completedStreamIgnoresLateDrop()
{
    // [DONE] / message_stop arrived: a connection error after it changes nothing.
    const QString directory = QStringLiteral("openai-chat");
    const QByteArray bytes = TestSupport::readFixtureStream(directory,
                                                            QStringLiteral("gpt4o-logprobs"));
    const Run run = assemble(directory,
                             {bytes},
                             EndReason::ConnectionDropped,
                             QStringLiteral("reset"));
    QVERIFY(run.completeBeforeFinish);
    QCOMPARE(run.message.stopReason, StopReason::Stop);
    QCOMPARE(run.message.text(), QStringLiteral("Foo."));
    QVERIFY(run.message.errorMessage.isEmpty());
}

void tst_StreamAssembler::malformedJson_data()
{
    QTest::addColumn<QString>("directory");
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<QString>("eventName");
    QTest::addColumn<QString>("keptText");

    QTest::newRow("anthropic")
        << "anthropic"
        << QByteArray(
               "event: content_block_start\ndata: "
               R"({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})"
               "\n\nevent: content_block_delta\ndata: "
               R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}})"
               "\n\nevent: content_block_delta\ndata: "
               R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"the")"
               "\n\nevent: content_block_delta\ndata: "
               R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"!"}})"
               "\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
        << "content_block_delta"
        << "Hi";
    QTest::newRow("openai-chat")
        << "openai-chat"
        << QByteArray("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n"
                      "data: {\"choices\":[{\"index\":0,\"delta\n\n"
                      "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"!\"}}]}\n\n"
                      "data: [DONE]\n\n")
        << "message"
        << "Hi";
    QTest::newRow("responses")
        << "openai-responses"
        << QByteArray("event: response.output_text.delta\ndata: "
                      R"({"type":"response.output_text.delta","output_index":0,"delta":"Hi"})"
                      "\n\nevent: response.output_text.delta\ndata: [1,2]\n\n"
                      "event: response.output_text.delta\ndata: "
                      R"({"type":"response.output_text.delta","output_index":0,"delta":"!"})"
                      "\n\n")
        << "response.output_text.delta"
        << "Hi";
}

void tst_StreamAssembler::malformedJson()
{
    QFETCH(QString, directory);
    QFETCH(QByteArray, stream);
    QFETCH(QString, eventName);
    QFETCH(QString, keptText);
    const Run run = assemble(directory, {stream});
    QVERIFY(run.completeBeforeFinish);
    QCOMPARE(run.message.stopReason, StopReason::Error);
    QCOMPARE(run.message.text(), keptText);
    QVERIFY2(run.message.errorMessage.contains(QLatin1String("malformed JSON"))
                 && run.message.errorMessage.contains(QLatin1Char('"') + eventName
                                                      + QLatin1Char('"')),
             qPrintable(run.message.errorMessage));
    const QString violation = protocolViolations(run);
    QVERIFY2(violation.isEmpty(), qPrintable(violation));
}

void tst_StreamAssembler::handWritten_data()
{
    QTest::addColumn<QString>("directory");
    QTest::addColumn<QByteArray>("payloads"); // one JSON per line, framed like the provider
    QTest::addColumn<QByteArray>("expected");

    QTest::newRow("chat reasoning, text, tool, cached usage")
        << "openai-chat"
        << QByteArray(
               R"({"choices":[{"index":0,"delta":{"role":"assistant","content":null,"reasoning_content":"Let me"}}]}
{"choices":[{"index":0,"delta":{"reasoning_content":" think."}}]}
{"choices":[{"index":0,"delta":{"content":"Reading.","reasoning_content":null}}]}
{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"Read","arguments":"{\"pa"}}]}}]}
{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"th\":\"a.txt\"}"}}]}}]}
{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":100,"completion_tokens":20,"prompt_tokens_details":{"cached_tokens":60}}}
[DONE])")
        << QByteArray(
               R"({"content":[{"type":"thinking","thinking":"Let me think.","signature":null},{"type":"text","text":"Reading."},
{"type":"toolCall","id":"call_1","name":"Read","arguments":{"path":"a.txt"}}],"stopReason":"toolUse","providerStopReason":"tool_calls",
"usage":{"input":40,"output":20,"cacheRead":60,"cacheWrite":0}})");
    QTest::newRow("chat OpenRouter reasoning, Mistral parts")
        << "openai-chat" << QByteArray(R"({"choices":[{"index":0,"delta":{"reasoning":"Hm"}}]}
{"choices":[{"index":0,"delta":{"content":[{"type":"thinking","thinking":[{"type":"text","text":"m."}]},{"type":"text","text":"A"}]}}]}
{"choices":[{"index":0,"delta":{"content":[{"type":"text","text":"B"}]},"finish_reason":"stop"}]}
[DONE])")
        << QByteArray(
               R"({"content":[{"type":"thinking","thinking":"Hmm.","signature":null},{"type":"text","text":"AB"}],
"stopReason":"stop","providerStopReason":"stop","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0}})");
    QTest::newRow("chat refusal")
        << "openai-chat"
        << QByteArray(
               R"({"choices":[{"index":0,"delta":{"role":"assistant","content":null,"refusal":""}}]}
{"choices":[{"index":0,"delta":{"refusal":"I can't"}}]}
{"choices":[{"index":0,"delta":{"refusal":" help."},"finish_reason":"stop"}]}
[DONE])")
        << QByteArray(
               R"({"content":[],"stopReason":"refusal","providerStopReason":"stop","refusal":"I can't help.",
"usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0}})");
    QTest::newRow("chat error chunk")
        << "openai-chat" << QByteArray(R"({"choices":[{"index":0,"delta":{"content":"Hel"}}]}
{"error":{"message":"Provider returned error","code":502}}
{"choices":[{"index":0,"delta":{"content":"lo"}}]})")
        << QByteArray(
               R"({"content":[{"type":"text","text":"Hel"}],"stopReason":"error","providerStopReason":null,
"errorMessage":"Provider returned error","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0}})");
    QTest::newRow("chat content filter")
        << "openai-chat"
        << QByteArray(
               R"({"choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":"content_filter"}]}
[DONE])")
        << QByteArray(
               R"({"content":[{"type":"text","text":"Hel"}],"stopReason":"error","providerStopReason":"content_filter",
"errorMessage":"The provider's content filter stopped the response.","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0}})");
    QTest::newRow("chat [DONE] without finish_reason, tools by index")
        << "openai-chat"
        << QByteArray(
               R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"b","function":{"name":"B","arguments":"{}"}}]}}]}
{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"A","arguments":""}}]}}]}
[DONE])")
        << QByteArray(
               R"({"content":[{"type":"toolCall","id":"a","name":"A","arguments":{}},{"type":"toolCall","id":"b","name":"B","arguments":{}}],
"stopReason":"toolUse","providerStopReason":null,"usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0}})");
    QTest::newRow("chat calls all numbered 0, calls without index")
        << "openai-chat"
        << QByteArray(
               R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"A","arguments":"{\"x\":"}}]}}]}
{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"1}"}}]}}]}
{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"b","function":{"name":"B","arguments":"{}"}}]}}]}
{"choices":[{"index":0,"delta":{"tool_calls":[{"id":"c","function":{"name":"C","arguments":"{\"y\":"}}]}}]}
{"choices":[{"index":0,"delta":{"tool_calls":[{"function":{"arguments":"2}"}}]},"finish_reason":"tool_calls"}]}
[DONE])")
        << QByteArray(
               R"({"content":[{"type":"toolCall","id":"a","name":"A","arguments":{"x":1}},{"type":"toolCall","id":"b","name":"B","arguments":{}},
{"type":"toolCall","id":"c","name":"C","arguments":{"y":2}}],"stopReason":"toolUse","providerStopReason":"tool_calls",
"usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0}})");
    QTest::newRow("anthropic skips server blocks, cache usage, context window")
        << "anthropic"
        << QByteArray(
               R"({"type":"message_start","message":{"id":"msg_1","model":"claude-x","usage":{"input_tokens":5,"cache_read_input_tokens":7,"cache_creation_input_tokens":3,"output_tokens":1}}}
{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srv","name":"web_search","input":{}}}
{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"q\":1}"}}
{"type":"content_block_stop","index":0}
{"type":"something_new","index":0}
{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}
{"type":"content_block_delta","index":1,"delta":{"type":"citations_delta","citation":{}}}
{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Found"}}
{"type":"content_block_stop","index":1}
{"type":"message_delta","delta":{"stop_reason":"model_context_window_exceeded"},"usage":{"output_tokens":9,"cache_read_input_tokens":null}}
{"type":"message_stop"})")
        << QByteArray(
               R"({"content":[{"type":"text","text":"Found"}],"stopReason":"contextOverflow","providerStopReason":"model_context_window_exceeded",
"usage":{"input":5,"output":9,"cacheRead":7,"cacheWrite":3}})");
    QTest::newRow("anthropic error event")
        << "anthropic"
        << QByteArray(
               R"({"type":"message_start","message":{"id":"msg_1","usage":{"input_tokens":5,"output_tokens":1}}}
{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}
{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}
{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})")
        << QByteArray(
               R"({"content":[{"type":"text","text":"Hi"}],"stopReason":"error","providerStopReason":null,
"errorMessage":"{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}",
"usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0}})");
    QTest::newRow("anthropic refusal")
        << "anthropic"
        << QByteArray(
               R"({"type":"message_delta","delta":{"stop_reason":"refusal"},"usage":{"output_tokens":1}})")
        << QByteArray(R"({"content":[],"stopReason":"refusal","providerStopReason":"refusal",
"usage":{"input":0,"output":1,"cacheRead":0,"cacheWrite":0}})");
    QTest::newRow("responses summary parts, refusal, incomplete")
        << "openai-responses"
        << QByteArray(
               R"({"type":"response.output_item.added","output_index":0,"item":{"type":"reasoning","id":"r1","summary":[]}}
{"type":"response.reasoning_summary_part.added","output_index":0,"summary_index":0,"part":{"type":"summary_text","text":""}}
{"type":"response.reasoning_summary_text.delta","output_index":0,"summary_index":0,"delta":"One"}
{"type":"response.reasoning_summary_part.added","output_index":0,"summary_index":1,"part":{"type":"summary_text","text":""}}
{"type":"response.reasoning_summary_text.delta","output_index":0,"summary_index":1,"delta":"Two"}
{"type":"response.output_item.added","output_index":1,"item":{"type":"message","id":"m1","content":[]}}
{"type":"response.content_part.added","output_index":1,"content_index":0,"part":{"type":"refusal","refusal":""}}
{"type":"response.refusal.delta","output_index":1,"content_index":0,"delta":"No."}
{"type":"response.incomplete","response":{"id":"resp_9","model":"gpt-x","status":"incomplete","output":[{"type":"reasoning","summary":[{"type":"summary_text","text":"One"},{"type":"summary_text","text":"Two"}]},{"type":"message","content":[{"type":"refusal","refusal":"No."}]}],"usage":{"input_tokens":50,"input_tokens_details":{"cached_tokens":20},"output_tokens":8}}})")
        << QByteArray(
               R"({"content":[{"type":"thinking","thinking":"One\n\nTwo","signature":null}],"stopReason":"length",
"providerStopReason":"incomplete","refusal":"No.","usage":{"input":30,"output":8,"cacheRead":20,"cacheWrite":0}})");
    QTest::newRow("responses only the final response")
        << "openai-responses"
        << QByteArray(
               R"({"type":"response.completed","response":{"status":"completed","output":[{"type":"message","content":[{"type":"output_text","text":"Hi"}]},{"type":"function_call","call_id":"c1","name":"Ls","arguments":"{\"path\":\".\"}"},{"type":"web_search_call"}]}})")
        << QByteArray(
               R"({"content":[{"type":"text","text":"Hi"},{"type":"toolCall","id":"c1","name":"Ls","arguments":{"path":"."}}],
"stopReason":"toolUse","providerStopReason":"completed","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0}})");
    QTest::newRow("responses failed")
        << "openai-responses"
        << QByteArray(
               R"({"type":"response.failed","response":{"status":"failed","error":{"code":"server_error","message":"Something broke."},"output":[]}})")
        << QByteArray(
               R"({"content":[],"stopReason":"error","providerStopReason":"failed","errorMessage":"Something broke.",
"usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0}})");
}

void tst_StreamAssembler::handWritten()
{
    QFETCH(QString, directory);
    QFETCH(QByteArray, payloads);
    QFETCH(QByteArray, expected);
    QJsonParseError error;
    const QJsonObject expectedJson = QJsonDocument::fromJson(expected, &error).object();
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));

    const QByteArray stream = framed(directory, payloads);
    for (const TestSupport::NamedChunks &chunking : TestSupport::standardChunkings(stream)) {
        const Run run = assemble(directory, chunking.chunks);
        const QString diff = TestSupport::jsonDifference(expectedJson,
                                                         toNormalizedJson(run.message));
        QVERIFY2(diff.isEmpty(), qPrintable(chunking.name + QStringLiteral(": ") + diff));
        const QString violation = protocolViolations(run, directory != QLatin1String("openai-chat"));
        QVERIFY2(violation.isEmpty(), qPrintable(violation));
    }
}

void tst_StreamAssembler::chatInterleavedReasoningKeepsIndices()
{
    const QByteArray stream = framed(QStringLiteral("openai-chat"), R"(
{"choices":[{"index":0,"delta":{"content":"Answer"}}]}
{"choices":[{"index":0,"delta":{"reasoning_content":"Late thought"}}]}
{"choices":[{"index":0,"delta":{"content":" done"},"finish_reason":"stop"}]}
[DONE])");
    const Run run = assemble(QStringLiteral("openai-chat"), {stream});
    // Streaming indices follow arrival and never change ...
    QCOMPARE(sequence(run.events), QStringLiteral("start ts td ks kd td te ke done"));
    QCOMPARE(run.events.at(2).contentIndex, 0);
    QCOMPARE(run.events.at(4).contentIndex, 1);
    QCOMPARE(run.events.at(5).contentIndex, 0);
    // ... the final message has the README's order.
    QCOMPARE(run.message.content.size(), 2);
    QVERIFY(run.message.content.at(0).isThinking());
    QCOMPARE(run.message.content.at(0).text, QStringLiteral("Late thought"));
    QCOMPARE(run.message.content.at(1).text, QStringLiteral("Answer done"));
}

void tst_StreamAssembler::anthropicRedactedThinking()
{
    const QByteArray stream = framed(QStringLiteral("anthropic"), R"(
{"type":"content_block_start","index":0,"content_block":{"type":"redacted_thinking","data":"EmwKAhgBEgy3va"}}
{"type":"content_block_stop","index":0}
{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}
{"type":"content_block_stop","index":1}
{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":3}}
{"type":"message_stop"})");
    const Run run = assemble(QStringLiteral("anthropic"), {stream});
    QCOMPARE(run.message.content.size(), 2);
    const ContentBlock thinking = run.message.content.at(0);
    QVERIFY(thinking.isThinking());
    QVERIFY(thinking.redacted);
    QCOMPARE(thinking.signature, QStringLiteral("EmwKAhgBEgy3va"));
    QVERIFY(run.message.content.at(1).isText()); // an empty text block stays
    QCOMPARE(sequence(run.events), QStringLiteral("start ks ke ts te done"));
}

// Issue #16: the reply ran into the end of the context window, which the history must be made
// smaller for (the seed's contextOverflow), not into the request's output limit: a tool call it
// was writing is cut, and the run stops with a reason the user can act on.
void tst_StreamAssembler::anthropicContextWindowExceededIsAnOverflow()
{
    const QByteArray stream = framed(QStringLiteral("anthropic"), R"(
{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"Write","input":{}}}
{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"file_path\":\"a.txt\",\"content\":\"hel"}}
{"type":"message_delta","delta":{"stop_reason":"model_context_window_exceeded"},"usage":{"output_tokens":3}}
{"type":"message_stop"})");
    const Run run = assemble(QStringLiteral("anthropic"), {stream});
    QCOMPARE(run.message.stopReason, StopReason::ContextOverflow);
    QCOMPARE(run.message.providerStopReason, QStringLiteral("model_context_window_exceeded"));
    QCOMPARE(run.message.errorMessage,
             QStringLiteral("The reply filled the model's context window and was cut off there."));
    QCOMPARE(run.events.constLast().type, StreamEvent::Type::Error);
    QCOMPARE(run.events.constLast().errorMessage, run.message.errorMessage);
    QCOMPARE(run.message.usage.output, 3);
}

void tst_StreamAssembler::modelAndIdsFromStream()
{
    const QString chat = QStringLiteral("openai-chat");
    Run run = assemble(chat,
                       {TestSupport::readFixtureStream(chat,
                                                       QStringLiteral("placeholder-first-chunk"))});
    QCOMPARE(run.message.model, QStringLiteral("actual-model-name"));
    QCOMPARE(run.message.responseId, QStringLiteral("chatcmpl-123"));
    QCOMPARE(run.message.api, QStringLiteral("openai-chat"));

    const QString anthropic = QStringLiteral("anthropic");
    run = assemble(anthropic,
                   {TestSupport::readFixtureStream(anthropic, QStringLiteral("sonnet45-text"))});
    QCOMPARE(run.message.model, QStringLiteral("claude-sonnet-4-5-20250929"));
    QCOMPARE(run.message.responseId, QStringLiteral("msg_01QC4g3HwBThD4BaNtBckFDJ"));

    const QString responses = QStringLiteral("openai-responses");
    run = assemble(responses,
                   {TestSupport::readFixtureStream(responses, QStringLiteral("gpt4o-mini-text"))});
    QCOMPARE(run.message.model, QStringLiteral("gpt-4o-mini-2024-07-18"));
    QCOMPARE(run.message.responseId, QStringLiteral("resp_sanitized_streaming"));

    // A stream that names no model keeps the configured one.
    run = assemble(chat,
                   {QByteArray("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"},"
                               "\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")});
    QCOMPARE(run.message.model, QStringLiteral("config-model"));
}

void tst_StreamAssembler::costFromPriceTable()
{
    const QString anthropic = QStringLiteral("anthropic");
    const Run run = assemble(anthropic,
                             {TestSupport::readFixtureStream(anthropic,
                                                             QStringLiteral("sonnet45-text"))});
    QVERIFY2(priceForModel(run.message.provider, run.message.model).has_value(),
             "the price table lacks claude-sonnet-4-5");
    Usage tokens = run.message.usage;
    tokens.cost = 0;
    QVERIFY(run.message.usage.cost > 0);
    QCOMPARE(run.message.usage.cost, withCost(tokens, run.message.provider, run.message.model).cost);
}

void tst_StreamAssembler::fakeToolCallsFlagged()
{
    const QByteArray stream = framed(QStringLiteral("openai-chat"), R"(
{"choices":[{"index":0,"delta":{"content":"I will read it.\n<tool_call>{\"name\": \"Read\", \"arguments\": {\"path\": \"a\"}}</tool_call>"},"finish_reason":"stop"}]}
[DONE])");
    const Run run = assemble(QStringLiteral("openai-chat"), {stream});
    QCOMPARE(run.message.stopReason, StopReason::Stop);
    QVERIFY(run.message.protocolViolation);
    QVERIFY(!run.message.protocolViolationDetail.isEmpty());

    const Run clean = assemble(QStringLiteral("openai-chat"),
                               {TestSupport::readFixtureStream(QStringLiteral("openai-chat"),
                                                               QStringLiteral("gpt4o-logprobs"))});
    QVERIFY(!clean.message.protocolViolation);
}

void tst_StreamAssembler::unreadableToolArguments_data()
{
    QTest::addColumn<QString>("directory");
    QTest::addColumn<QByteArray>("arguments");
    QTest::addColumn<QString>("error"); // a part of ContentBlock::argumentsError; "" for none
    QTest::addColumn<QJsonObject>("expected");

    const QByteArray deep = R"({"file_path":"README.md","x":)" + QByteArray(60'000, '[');
    const QByteArray closedDeep = R"({"file_path":"README.md","x":)" + QByteArray(2000, '[')
                                  + QByteArray(2000, ']') + "}";
    // 512 levels are the most tool arguments may have (PartialJsonParser::toolArgumentsMaxDepth):
    // the object and 511 arrays pass, one more array does not.
    const auto nested = [](int arrays) -> QByteArray {
        return R"({"file_path":"README.md","x":)" + QByteArray(arrays, '[')
               + QByteArray(arrays, ']') + "}";
    };
    const QJsonObject deepest = QJsonDocument::fromJson(nested(511)).object();
    const QByteArray unquoted = R"({"file_path": README.md})";
    const QJsonObject readme{{"file_path"_L1, "README.md"_L1}};
    for (const char *directory : {"openai-chat", "anthropic", "openai-responses"}) {
        const QString dir = QString::fromLatin1(directory);
        QTest::addRow("%s: 60,000 levels", directory)
            << dir << deep << u"The arguments of this Read call nest deeper than 512 levels;"_s
            << QJsonObject();
        QTest::addRow("%s: 2,000 levels, closed", directory)
            << dir << closedDeep << u"nest deeper than 512 levels"_s << QJsonObject();
        QTest::addRow("%s: 513 levels", directory)
            << dir << nested(512) << u"nest deeper than 512 levels"_s << QJsonObject();
        QTest::addRow("%s: 512 levels", directory) << dir << nested(511) << QString() << deepest;
        QTest::addRow("%s: unquoted string", directory)
            << dir << unquoted
            << u"The arguments of this Read call are not valid JSON: it goes wrong at byte 14, "
               "near `{\"file_path\": README.md}`."_s
            << QJsonObject();
        QTest::addRow("%s: not an object", directory)
            << dir << QByteArray(R"(["README.md"])") << u"are not a JSON object"_s << QJsonObject();
        QTest::addRow("%s: valid", directory)
            << dir << QByteArray(R"({"file_path": "README.md"})") << QString() << readme;
    }
}

// Issue #14: deeply nested arguments crashed the process; broken JSON read as "required".
void tst_StreamAssembler::unreadableToolArguments()
{
    QFETCH(QString, directory);
    QFETCH(QByteArray, arguments);
    QFETCH(QString, error);
    QFETCH(QJsonObject, expected);

    const QByteArray stream = framed(directory, readCallPayloads(directory, arguments));
    const Run run = assemble(directory, {stream});
    QCOMPARE(run.message.stopReason, StopReason::ToolUse);
    const QList<ContentBlock> calls = run.message.toolCalls();
    QCOMPARE(calls.size(), 1);
    QCOMPARE(calls.first().name, u"Read"_s);
    if (error.isEmpty())
        QVERIFY2(calls.first().argumentsError.isEmpty(), qPrintable(calls.first().argumentsError));
    else
        QVERIFY2(calls.first().argumentsError.contains(error),
                 qPrintable(calls.first().argumentsError));
    QCOMPARE(calls.first().arguments, expected);
    // Every event the stream produced carries arguments that Qt can write and read back.
    for (const StreamEvent &event : run.events) {
        const QByteArray json = QJsonDocument(QJsonObject{{"arguments"_L1, event.arguments}})
                                    .toJson(QJsonDocument::Compact);
        QJsonParseError parseError;
        QJsonDocument::fromJson(json, &parseError);
        QCOMPARE(parseError.error, QJsonParseError::NoError);
    }
    const QString violation = protocolViolations(run, directory != QLatin1String("openai-chat"));
    QVERIFY2(violation.isEmpty(), qPrintable(violation));
    // The message as a session line, inside one more object, reads back whole: the deepest
    // arguments accepted leave room for the levels a session file and a request add.
    const QByteArray line = QJsonDocument(QJsonObject{{"message"_L1, messageToJson(run.message)}})
                                .toJson(QJsonDocument::Compact);
    QJsonParseError lineError;
    const QJsonDocument read = QJsonDocument::fromJson(line, &lineError);
    QCOMPARE(lineError.error, QJsonParseError::NoError);
    Message back;
    QVERIFY(messageFromJson(read.object().value("message"_L1).toObject(), &back));
    QCOMPARE(back.toolCalls().first().arguments, expected);
}

AGENTDESK_GUILESS_TEST_MAIN(tst_StreamAssembler)

} // namespace tst_streamassembler

#include "tst_streamassembler.moc"
