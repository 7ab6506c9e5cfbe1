// A fuzz target for every parser that reads what a model or provider sends: the SSE parser, the
// three stream assemblers, the partial-JSON parser, JsonReader, the fake-tool-call scan, schema
// validation and session-message reading (docs/fuzzing.md).
//
// LLVMFuzzerTestOneInput() is libFuzzer's entry point: the first byte of an input picks the
// parser, the rest is its input. Built with clang -fsanitize=fuzzer (AGENTDESK_LIBFUZZER),
// libFuzzer drives it. Otherwise (g++, the asan preset) the main() below does: a seeded,
// deterministic mutation loop over seeds read at run time from shared/fixtures (the recorded
// streams, never copied) plus generated deep nestings, so ASan/UBSan builds fuzz without clang.
//
// Besides crashes and sanitizer reports, each run checks cheap invariants and aborts when one
// fails: the same stream fed whole and in random chunks gives the same events and message; a
// document PartialJsonParser calls complete is one QJsonDocument accepts, with the same value;
// JsonReader accepts exactly what QJsonDocument accepts; no value deeper than the nesting cap is
// ever built; every assembled message survives the session file's JSON round trip.

#include "ai/jsonreader.h"
#include "ai/messagejson.h"
#include "ai/partialjson.h"
#include "ai/protocolviolation.h"
#include "ai/providerconfig.h"
#include "ai/schemavalidator.h"
#include "ai/sseparser.h"
#include "ai/streamassembler.h"

#include <QByteArray>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <utility>
#include <vector>

using namespace AgentCore;

namespace {

// The parsers an input's first byte selects (modulo the count).
enum class Target : quint8 {
    Sse,
    JsonReaderDoc,
    PartialJson,
    ChatStream,
    AnthropicStream,
    ResponsesStream,
    FakeToolCalls,
    SchemaValidation,
    SessionMessage,
    Count,
};
constexpr int targetCount = int(Target::Count);

const char *targetName(Target target)
{
    static const char *const names[] = {"sse",
                                        "json-reader",
                                        "partial-json",
                                        "openai-chat",
                                        "anthropic",
                                        "openai-responses",
                                        "fake-tool-calls",
                                        "schema",
                                        "session-message"};
    return names[int(target)];
}

// A small deterministic generator (xorshift64*): the same seed gives the same run everywhere.
class Rng
{
public:
    explicit Rng(quint64 seed)
        : m_state(seed ? seed : 0x9E3779B97F4A7C15ULL)
    {}
    quint64 next()
    {
        m_state ^= m_state >> 12;
        m_state ^= m_state << 25;
        m_state ^= m_state >> 27;
        return m_state * 0x2545F4914F6CDD1DULL;
    }
    /// 0 .. bound-1 (bound > 0).
    qsizetype below(qsizetype bound) { return qsizetype(next() % quint64(bound)); }

private:
    quint64 m_state;
};

quint64 hashBytes(QByteArrayView bytes)
{
    quint64 hash = 1469598103934665603ULL; // FNV-1a
    for (const char c : bytes) {
        hash ^= quint8(c);
        hash *= 1099511628211ULL;
    }
    return hash;
}

[[noreturn]] void invariantFailed(const char *what, QByteArrayView input)
{
    std::fprintf(stderr,
                 "fuzz_parsers: invariant failed: %s (input of %lld bytes)\n",
                 what,
                 static_cast<long long>(input.size()));
    std::abort(); // the driver (or libFuzzer) saves the input that got here
}

#define FUZZ_CHECK(condition, input) \
    do { \
        if (!(condition)) \
            invariantFailed(#condition, input); \
    } while (false)

// The depth of a value, without recursion (what is checked must not overflow the stack itself).
int depthOf(const QJsonValue &root)
{
    int deepest = 0;
    std::vector<std::pair<QJsonValue, int>> pending{{root, 0}};
    while (!pending.empty()) {
        auto [value, depth] = std::move(pending.back());
        pending.pop_back();
        if (value.isArray()) {
            deepest = qMax(deepest, depth + 1);
            for (const QJsonValue &child : value.toArray())
                pending.emplace_back(child, depth + 1);
        } else if (value.isObject()) {
            deepest = qMax(deepest, depth + 1);
            const QJsonObject object = value.toObject();
            for (auto it = object.begin(); it != object.end(); ++it)
                pending.emplace_back(it.value(), depth + 1);
        }
    }
    return deepest;
}

// Qt decodes every JSON string with QString::fromUtf8, which drops a leading byte order mark,
// and QJsonDocument then sorts an object's keys by their bytes, BOM included: "\uFEFFb" comes
// out as "b" after "c". JsonReader and PartialJsonParser drop the BOM too, but sort by the key
// as read. A string starting with U+FEFF is so rare in a payload that the value comparisons with
// Qt skip inputs that have one (found by this fuzzer; docs/fuzzing.md).
bool hasByteOrderMark(QByteArrayView input)
{
    return input.contains(QByteArrayView("\xef\xbb\xbf"));
}

// Cuts \a bytes into reads of 1..maxChunk bytes, drawn from \a rng.
QList<QByteArrayView> chunked(QByteArrayView bytes, Rng &rng, qsizetype maxChunk)
{
    QList<QByteArrayView> chunks;
    qsizetype at = 0;
    while (at < bytes.size()) {
        const qsizetype size = qMin(bytes.size() - at, 1 + rng.below(maxChunk));
        chunks.append(bytes.sliced(at, size));
        at += size;
    }
    return chunks;
}

struct SseRun
{
    QList<SseEvent> events;
    QByteArray lastEventId;
    int retry = -1;
    bool operator==(const SseRun &other) const
    {
        if (events.size() != other.events.size() || lastEventId != other.lastEventId
            || retry != other.retry)
            return false;
        for (qsizetype i = 0; i < events.size(); ++i) {
            const SseEvent &a = events.at(i);
            const SseEvent &b = other.events.at(i);
            if (a.type != b.type || a.data != b.data || a.id != b.id)
                return false;
        }
        return true;
    }
};

SseRun runSse(const QList<QByteArrayView> &chunks)
{
    SseRun run;
    SseParser parser;
    for (const QByteArrayView chunk : chunks)
        parser.feed(chunk, [&](const SseEvent &event) { run.events.append(event); });
    parser.finish();
    run.lastEventId = parser.lastEventId();
    run.retry = parser.retryMs().value_or(-1);
    return run;
}

void fuzzSse(QByteArrayView input, Rng &rng)
{
    const SseRun whole = runSse({input});
    const SseRun pieces = runSse(chunked(input, rng, 1 + rng.below(64)));
    FUZZ_CHECK(whole == pieces, input);
}

void fuzzJsonReader(QByteArrayView input)
{
    JsonReader reader;
    const bool ok = reader.parse(input);
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(input.toByteArray(), &error);
    // The documented contract: exactly the documents QJsonDocument accepts, the same values.
    FUZZ_CHECK(ok == (error.error == QJsonParseError::NoError), input);
    if (!ok)
        return;
    if (hasByteOrderMark(input))
        return;
    const QJsonValue read = reader.root().toJsonValue();
    const QJsonValue qt = document.isArray() ? QJsonValue(document.array())
                                             : QJsonValue(document.object());
    FUZZ_CHECK(read == qt, input);
    FUZZ_CHECK(depthOf(read) <= PartialJsonParser::maxDepth, input);
}

void fuzzPartialJson(QByteArrayView input, Rng &rng)
{
    PartialJsonParser whole;
    whole.append(input);
    PartialJsonParser pieces;
    for (const QByteArrayView chunk : chunked(input, rng, 1 + rng.below(32))) {
        pieces.append(chunk);
        // Snapshots while streaming, as the assemblers take them per delta.
        if (rng.below(4) == 0)
            FUZZ_CHECK(depthOf(pieces.value()) <= PartialJsonParser::maxDepth, input);
    }
    // Where the input was cut does not matter.
    FUZZ_CHECK(whole.isComplete() == pieces.isComplete(), input);
    FUZZ_CHECK(whole.isInvalid() == pieces.isInvalid(), input);
    FUZZ_CHECK(whole.error() == pieces.error(), input);
    FUZZ_CHECK(whole.errorOffset() == pieces.errorOffset(), input);
    const QJsonValue value = whole.value();
    FUZZ_CHECK(value == pieces.value(), input);
    FUZZ_CHECK(depthOf(value) <= PartialJsonParser::maxDepth, input);
    FUZZ_CHECK(whole.isInvalid() == (whole.error() != PartialJsonParser::Error::None), input);
    FUZZ_CHECK(whole.errorOffset() < input.size(), input);
    FUZZ_CHECK(whole.errorExcerpt().size() <= 2 * PartialJsonParser::excerptContext + 1, input);
    // A complete array or object is one QJsonDocument reads the same (the parser is the
    // stricter of the two: Qt's leniencies such as "\x" escapes are not checked the other way).
    if (whole.isComplete() && (value.isArray() || value.isObject()) && !hasByteOrderMark(input)) {
        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(input.toByteArray(), &error);
        FUZZ_CHECK(error.error == QJsonParseError::NoError, input);
        FUZZ_CHECK((document.isArray() ? QJsonValue(document.array())
                                       : QJsonValue(document.object()))
                       == value,
                   input);
    }
}

ProviderConfig configFor(WireApi api)
{
    ProviderConfig config;
    config.api = api;
    config.provider = api == WireApi::AnthropicMessages ? QStringLiteral("anthropic")
                                                        : QStringLiteral("openai");
    config.model = QStringLiteral("fuzz-model");
    return config;
}

struct StreamRun
{
    Message message;
    QList<StreamEvent::Type> events;
};

StreamRun runStream(WireApi api, const QList<QByteArrayView> &chunks, QByteArrayView input)
{
    StreamRun run;
    const auto sink = [&](const StreamEvent &event) {
        run.events.append(event.type);
        // What the UI and --output-format stream-json get must be writable and readable.
        FUZZ_CHECK(depthOf(event.arguments) <= PartialJsonParser::toolArgumentsMaxDepth, input);
    };
    const std::unique_ptr<StreamAssembler> assembler = createStreamAssembler(configFor(api));
    SseParser parser;
    for (const QByteArrayView chunk : chunks) {
        parser.feed(chunk, [&](const SseEvent &event) { assembler->feed(event, sink); });
    }
    parser.finish();
    run.message = assembler->finish(StreamAssembler::EndReason::StreamEnded, {}, sink);
    run.message.timestamp = 0;
    return run;
}

void fuzzStream(WireApi api, QByteArrayView input, Rng &rng)
{
    const StreamRun whole = runStream(api, {input}, input);
    const StreamRun pieces = runStream(api, chunked(input, rng, 1 + rng.below(128)), input);
    FUZZ_CHECK(whole.message == pieces.message, input);
    FUZZ_CHECK(whole.events == pieces.events, input);
    // The event protocol: Start first, exactly one Done or Error, last.
    FUZZ_CHECK(!whole.events.isEmpty() && whole.events.first() == StreamEvent::Type::Start, input);
    const StreamEvent::Type last = whole.events.last();
    FUZZ_CHECK(last == StreamEvent::Type::Done || last == StreamEvent::Type::Error, input);
    FUZZ_CHECK(whole.events.count(StreamEvent::Type::Done)
                       + whole.events.count(StreamEvent::Type::Error)
                   == 1,
               input);
    for (const ContentBlock &call : whole.message.toolCalls()) {
        FUZZ_CHECK(depthOf(call.arguments) <= PartialJsonParser::toolArgumentsMaxDepth, input);
        // A call that cannot be run says why; one that can has an object to validate.
        FUZZ_CHECK(call.argumentsError.isEmpty() || call.arguments.isEmpty()
                       || call.argumentsError.contains(QLatin1String("not valid JSON")),
                   input);
    }
    // The session file keeps the message as one line of JSON, which must read back whole.
    {
        const QByteArray line = QJsonDocument(messageToJson(whole.message))
                                    .toJson(QJsonDocument::Compact);
        QJsonParseError error;
        const QJsonDocument back = QJsonDocument::fromJson(line, &error);
        FUZZ_CHECK(error.error == QJsonParseError::NoError, input);
        Message read;
        FUZZ_CHECK(messageFromJson(back.object(), &read), input);
        read.timestamp = 0;
        FUZZ_CHECK(messageToJson(read) == messageToJson(whole.message), input);
    }
}

void fuzzFakeToolCalls(QByteArrayView input)
{
    const ProtocolViolation violation = detectFakeToolCalls(QString::fromUtf8(input));
    FUZZ_CHECK(violation.found || violation.detail.isEmpty(), input);
}

// The schema of a tool with nested properties, arrays and enums, against arguments from the
// input (read with the partial parser, as the assemblers read them).
void fuzzSchema(QByteArrayView input)
{
    static const QJsonObject schema = QJsonDocument::fromJson(R"({
        "type": "object",
        "properties": {
            "file_path": {"type": "string"},
            "offset": {"type": "integer", "minimum": 0},
            "mode": {"type": "string", "enum": ["a", "b"]},
            "edits": {"type": "array", "items": {"type": "object",
                "properties": {"old": {"type": "string"}, "new": {"type": "string"},
                               "all": {"type": "boolean", "default": false}},
                "required": ["old", "new"], "additionalProperties": false}},
            "nested": {"type": "object", "properties": {"x": {"type": ["number", "null"]}}}
        },
        "required": ["file_path"]
    })")
                                          .object();
    static const CompiledSchema compiled(schema);
    const QJsonObject arguments = PartialJsonParser::parse(input).toObject();
    const ArgumentValidation validation = compiled.validate(QStringLiteral("Fuzz"), arguments);
    FUZZ_CHECK(validation.ok || !validation.error.isEmpty(), input);
    FUZZ_CHECK(depthOf(validation.arguments) <= PartialJsonParser::maxDepth, input);
}

// A session line read back (the session store reads each line with QJsonDocument).
void fuzzSessionMessage(QByteArrayView input)
{
    const QJsonDocument document = QJsonDocument::fromJson(input.toByteArray());
    Message message;
    QString error;
    if (!messageFromJson(document.object(), &message, &error))
        return;
    Message again;
    FUZZ_CHECK(messageFromJson(messageToJson(message), &again), input);
    FUZZ_CHECK(again == message, input);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const auto target = Target(data[0] % targetCount);
    const QByteArrayView input(reinterpret_cast<const char *>(data) + 1, qsizetype(size - 1));
    // The chunking comes from the input itself, so a saved input replays exactly.
    Rng rng(hashBytes(input) ^ data[0]);
    switch (target) {
    case Target::Sse:
        fuzzSse(input, rng);
        break;
    case Target::JsonReaderDoc:
        fuzzJsonReader(input);
        break;
    case Target::PartialJson:
        fuzzPartialJson(input, rng);
        break;
    case Target::ChatStream:
        fuzzStream(WireApi::OpenAiChat, input, rng);
        break;
    case Target::AnthropicStream:
        fuzzStream(WireApi::AnthropicMessages, input, rng);
        break;
    case Target::ResponsesStream:
        fuzzStream(WireApi::OpenAiResponses, input, rng);
        break;
    case Target::FakeToolCalls:
        fuzzFakeToolCalls(input);
        break;
    case Target::SchemaValidation:
        fuzzSchema(input);
        break;
    case Target::SessionMessage:
        fuzzSessionMessage(input);
        break;
    case Target::Count:
        break;
    }
    return 0;
}

#ifndef AGENTDESK_LIBFUZZER

#    if defined(__SANITIZE_ADDRESS__)
extern "C" void __sanitizer_set_death_callback(void (*callback)());
#    endif

namespace {

struct Seed
{
    Target target;
    QByteArray bytes;
};

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

Target streamTarget(const QString &provider)
{
    if (provider == QLatin1String("anthropic"))
        return Target::AnthropicStream;
    if (provider == QLatin1String("openai-responses"))
        return Target::ResponsesStream;
    return Target::ChatStream;
}

// The recorded streams and their expected messages, read where they live.
QList<Seed> fixtureSeeds(const QString &fixtures)
{
    QList<Seed> seeds;
    QDirIterator it(fixtures + QStringLiteral("/sse"),
                    {QStringLiteral("*.sse"), QStringLiteral("*.json")},
                    QDir::Files,
                    QDirIterator::Subdirectories);
    QStringList paths;
    while (it.hasNext())
        paths.append(it.next());
    paths.sort(); // the same order on every machine: the run is deterministic
    for (const QString &path : std::as_const(paths)) {
        const QByteArray bytes = readFile(path);
        if (path.endsWith(QLatin1String(".sse"))) {
            const QString provider = QFileInfo(path).dir().dirName();
            seeds.append({streamTarget(provider), bytes});
            seeds.append({Target::Sse, bytes});
            // The text of the stream's payloads, for the scan of fake tool calls.
            seeds.append({Target::FakeToolCalls, bytes});
        } else {
            seeds.append({Target::JsonReaderDoc, bytes});
            seeds.append({Target::PartialJson, bytes});
            seeds.append({Target::SessionMessage, bytes});
            // The arguments of its tool calls, for the schema and the partial parser.
            const QJsonArray content
                = QJsonDocument::fromJson(bytes).object().value(QLatin1String("content")).toArray();
            for (const QJsonValue &block : content) {
                const QJsonObject arguments = block[QLatin1String("arguments")].toObject();
                if (!arguments.isEmpty()) {
                    const QByteArray json = QJsonDocument(arguments).toJson();
                    seeds.append({Target::SchemaValidation, json});
                    seeds.append({Target::PartialJson, json});
                }
            }
        }
    }
    const QJsonArray vectors = QJsonDocument::fromJson(
                                   readFile(fixtures + QStringLiteral("/sse-vectors.json")))
                                   .object()
                                   .value(QLatin1String("vectors"))
                                   .toArray();
    for (const QJsonValue &vector : vectors) {
        QByteArray stream;
        for (const QJsonValue &chunk : vector[QLatin1String("chunks")].toArray())
            stream += chunk.toString().toUtf8();
        if (!stream.isEmpty())
            seeds.append({Target::Sse, stream});
    }
    return seeds;
}

// Inputs no recording has: tool calls and documents at, below and far past the nesting cap.
QList<Seed> generatedSeeds()
{
    QList<Seed> seeds;
    const QByteArray deep = R"({"file_path":"README.md","x":)" + QByteArray(60'000, '[');
    const auto quoted = [](const QByteArray &text) {
        const QByteArray array = QJsonDocument(QJsonArray{QString::fromUtf8(text)})
                                     .toJson(QJsonDocument::Compact);
        return array.mid(1, array.size() - 2);
    };
    const QByteArray arguments1023 = QByteArray(1023, '[') + QByteArray(1023, ']');
    const QList<QByteArray> argumentTexts{deep,
                                          QByteArray(R"({"file_path": README.md})"),
                                          arguments1023,
                                          QByteArray(R"({"a":[{"b":[1,2.5e3,"\ud83d\ude00"]}]})")};
    for (const QByteArray &arguments : argumentTexts) {
        seeds.append({Target::PartialJson, arguments});
        seeds.append({Target::JsonReaderDoc, arguments});
        seeds.append({Target::SchemaValidation, arguments});
        seeds.append(
            {Target::ChatStream,
             QByteArray(
                 R"(data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"Read","arguments":)"
                 + quoted(arguments)
                 + "}}]}}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":"
                   "\"tool_calls\"}]}\n\ndata: [DONE]\n\n")});
        seeds.append(
            {Target::AnthropicStream,
             QByteArray(
                 "event: content_block_start\ndata: "
                 R"({"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"Read","input":{}}})"
                 "\n\nevent: content_block_delta\ndata: "
                 R"({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":)"
                 + quoted(arguments)
                 + "}}\n\nevent: message_delta\ndata: "
                   R"({"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":1}})"
                   "\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")});
        seeds.append(
            {Target::ResponsesStream,
             QByteArray(
                 "event: response.output_item.done\ndata: "
                 R"({"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","call_id":"c","name":"Read","arguments":)"
                 + quoted(arguments)
                 + "}}\n\nevent: response.completed\ndata: "
                   R"({"type":"response.completed","response":{"status":"completed","output":[]}})"
                   "\n\n")});
        seeds.append({Target::FakeToolCalls, QByteArray("<tool_call>" + arguments)});
    }
    return seeds;
}

// Bytes that mean something to one of the parsers.
const QByteArray tokens[] = {"[",
                             "]",
                             "{",
                             "}",
                             "\"",
                             "\\",
                             "\\u",
                             "\\ud83d",
                             "\\udc00",
                             ":",
                             ",",
                             "1e400",
                             "-0",
                             "null",
                             "true",
                             "\xff",
                             "\xc3",
                             "\xed\xa0\x80",
                             "\r",
                             "\n",
                             "\r\n",
                             "\n\n",
                             "data: ",
                             "event: ",
                             "id: ",
                             "retry: ",
                             ":comment",
                             "[DONE]",
                             "\xef\xbb\xbf",
                             "<tool_call>",
                             "{\"name\":",
                             "\"arguments\":",
                             "\"type\":"};

QByteArray nesting(Rng &rng)
{
    // Around the cap, or far past it (the crash of issue #14 took 30,000 levels).
    static const qsizetype depths[] = {1, 2, 1000, 1023, 1024, 1025, 1030, 5000, 70'000};
    const qsizetype depth = depths[rng.below(std::size(depths))];
    const int kind = int(rng.below(3));
    QByteArray text;
    if (kind == 0) {
        text = QByteArray(depth, '[');
    } else if (kind == 1) {
        text.reserve(depth * 6);
        for (qsizetype i = 0; i < depth; ++i)
            text += "{\"a\":";
    } else {
        text = QByteArray(depth, '[') + QByteArray(depth, ']');
    }
    return text;
}

QByteArray mutate(const QByteArray &original, const QList<Seed> &corpus, Rng &rng)
{
    QByteArray bytes = original;
    const int rounds = 1 + int(rng.below(4));
    for (int round = 0; round < rounds; ++round) {
        const qsizetype size = bytes.size();
        const qsizetype at = size > 0 ? rng.below(size + 1) : 0;
        switch (rng.below(9)) {
        case 0: // flip a bit
            if (size > 0) {
                const qsizetype i = rng.below(size);
                bytes[i] = char(bytes[i] ^ (1 << rng.below(8)));
            }
            break;
        case 1: // a random byte
            bytes.insert(at, char(rng.below(256)));
            break;
        case 2: // a meaningful token
            bytes.insert(at, tokens[rng.below(std::size(tokens))]);
            break;
        case 3: // delete a range
            if (size > 0)
                bytes.remove(at == size ? at - 1 : at,
                             1 + rng.below(qMin<qsizetype>(64, size - at + 1)));
            break;
        case 4: // repeat a range
            if (size > 0) {
                const qsizetype from = rng.below(size);
                const qsizetype length = 1 + rng.below(qMin<qsizetype>(256, size - from));
                const QByteArray piece = bytes.mid(from, length);
                for (qsizetype i = 1 + rng.below(8); i > 0; --i)
                    bytes.insert(at, piece);
            }
            break;
        case 5: { // splice in a piece of another seed
            const QByteArray &other = corpus.at(rng.below(corpus.size())).bytes;
            if (!other.isEmpty()) {
                const qsizetype from = rng.below(other.size());
                bytes.insert(at, other.mid(from, 1 + rng.below(512)));
            }
            break;
        }
        case 6: // deep nesting
            bytes.insert(at, nesting(rng));
            break;
        case 7: // truncate
            bytes.truncate(at);
            break;
        default: // overwrite a digit or a quote nearby with another
            if (size > 0) {
                const qsizetype i = rng.below(size);
                static const char swaps[] = "0123456789\"'{}[]:,. \t-+eE";
                bytes[i] = swaps[rng.below(sizeof swaps - 1)];
            }
            break;
        }
        // Inputs stay small enough that a run covers many (the deep ones are the big ones).
        if (bytes.size() > 256 * 1024)
            bytes.truncate(256 * 1024);
    }
    return bytes;
}

QString failurePath(const QString &directory, const QByteArray &input)
{
    return QDir(directory).filePath(
        QStringLiteral("fuzz-failure-%1.bin").arg(hashBytes(input), 16, 16, QLatin1Char('0')));
}

QByteArray g_current; // the input being run, saved by the abort handler
QString g_artifacts;

void saveCurrentInput()
{
    const QString path = failurePath(g_artifacts, g_current);
    if (std::FILE *file = std::fopen(QFile::encodeName(path).constData(), "wb")) {
        std::fwrite(g_current.constData(), 1, size_t(g_current.size()), file);
        std::fclose(file);
        std::fprintf(stderr,
                     "fuzz_parsers: input saved to %s (replay: fuzz_parsers %s)\n",
                     qPrintable(path),
                     qPrintable(path));
    }
}

extern "C" void onAbort(int)
{
    saveCurrentInput();
}

void run(const QByteArray &input)
{
    g_current = input;
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(input.constData()),
                           size_t(input.size()));
}

int usage()
{
    std::fprintf(stderr,
                 "usage: fuzz_parsers [--seconds S] [--iterations N] [--seed X]\n"
                 "                    [--fixtures DIR] [--artifacts DIR] [INPUT...]\n"
                 "Mutates the fixture streams for S seconds or N inputs (whichever ends first;\n"
                 "default 20 s), or replays the given INPUT files once each.\n");
    return 2;
}

} // namespace

int main(int argc, char **argv)
{
    double seconds = -1;
    qint64 iterations = -1;
    quint64 seed = 1;
    QString fixtures = QStringLiteral(AGENTDESK_FIXTURES_DIR);
    QStringList inputs;
    g_artifacts = QDir::currentPath();
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg = argv[i];
        const bool hasValue = i + 1 < argc;
        if (arg == "--seconds" && hasValue)
            seconds = std::atof(argv[++i]);
        else if (arg == "--iterations" && hasValue)
            iterations = std::atoll(argv[++i]);
        else if (arg == "--seed" && hasValue)
            seed = std::strtoull(argv[++i], nullptr, 0);
        else if (arg == "--fixtures" && hasValue)
            fixtures = QFile::decodeName(argv[++i]);
        else if (arg == "--artifacts" && hasValue)
            g_artifacts = QFile::decodeName(argv[++i]);
        else if (arg.startsWith('-'))
            return usage();
        else
            inputs.append(QFile::decodeName(arg));
    }
    // A failed invariant aborts; a sanitizer report ends the process through its own exit.
    std::signal(SIGABRT, onAbort);
#    if defined(__SANITIZE_ADDRESS__)
    __sanitizer_set_death_callback(saveCurrentInput);
#    endif

    if (!inputs.isEmpty()) {
        for (const QString &path : std::as_const(inputs)) {
            std::fprintf(stderr, "fuzz_parsers: replaying %s\n", qPrintable(path));
            run(readFile(path));
        }
        return 0;
    }
    if (seconds < 0 && iterations < 0)
        seconds = 20;

    QList<Seed> corpus = fixtureSeeds(fixtures);
    if (corpus.isEmpty()) {
        std::fprintf(stderr, "fuzz_parsers: no fixtures in %s\n", qPrintable(fixtures));
        return 1;
    }
    const qsizetype fixtureCount = corpus.size();
    corpus += generatedSeeds();

    // Every seed once as it is, then mutations of random seeds.
    qint64 runs = 0;
    qint64 perTarget[targetCount] = {};
    const auto runSeed = [&](const Seed &entry) {
        run(QByteArray(1, char(entry.target)) + entry.bytes);
        ++perTarget[int(entry.target)];
        ++runs;
    };
    for (const Seed &entry : std::as_const(corpus))
        runSeed(entry);

    Rng rng(seed);
    QElapsedTimer timer;
    timer.start();
    while ((iterations < 0 || runs < iterations)
           && (seconds < 0 || timer.elapsed() < qint64(seconds * 1000))) {
        const Seed &base = corpus.at(rng.below(corpus.size()));
        Seed mutated{base.target, mutate(base.bytes, corpus, rng)};
        // Now and then the input goes to another parser than the one it was recorded for.
        if (rng.below(16) == 0)
            mutated.target = Target(rng.below(targetCount));
        runSeed(mutated);
    }
    std::printf("fuzz_parsers: %lld inputs in %.1f s (seed %llu, %lld fixture seeds, %lld "
                "generated); no crash, no failed invariant\n",
                static_cast<long long>(runs),
                timer.elapsed() / 1000.0,
                static_cast<unsigned long long>(seed),
                static_cast<long long>(fixtureCount),
                static_cast<long long>(corpus.size() - fixtureCount));
    for (int t = 0; t < targetCount; ++t)
        std::printf("  %-17s %lld\n", targetName(Target(t)), static_cast<long long>(perTarget[t]));
    return 0;
}

#endif // AGENTDESK_LIBFUZZER
