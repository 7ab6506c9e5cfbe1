// Throughput of the model layer on the streams tests/bench/make_streams.py builds from the
// recorded fixtures, and the memory that costs. Two modes per provider:
//   parse     SSE bytes to events: SseParser alone, the events counted (eventsource-parser's job)
//   assemble  parse + assemble: SseParser and the provider's StreamAssembler, to the final message
//             (the job of the SDKs' streaming helpers)
//
// usage: bench_stream STREAM_DIR [REPEATS]        one JSON line per provider and mode
//        bench_stream --memory FILE PROVIDER       peak RSS after one run, and the message size
//
// Both clocks, each the best of REPEATS: "cpuSeconds" (the process's CPU time, user + system:
// what the work costs, whatever else shares the core) and "wallSeconds". The Node peers
// (tests/bench/node/stream-peers.mjs) report the same two, so each is compared with its like.
#include <ai/providerconfig.h>
#include <ai/sseparser.h>
#include <ai/streamassembler.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>
#include <ctime>

using namespace AgentCore;

namespace {

const QList<std::pair<QString, WireApi>> providers{
    {QStringLiteral("anthropic"), WireApi::AnthropicMessages},
    {QStringLiteral("openai-chat"), WireApi::OpenAiChat},
    {QStringLiteral("openai-responses"), WireApi::OpenAiResponses},
};

constexpr qsizetype chunkSize = 64 * 1024;

struct RunResult
{
    qint64 events = 0;
    qint64 messageChars = 0;
    StopReason stopReason = StopReason::Error;
};

// SSE bytes to events and nothing more: what eventsource-parser does.
RunResult parseOnly(const QByteArray &bytes)
{
    SseParser parser;
    RunResult result;
    const SseParser::Sink onSse = [&result](const SseEvent &event) {
        ++result.events;
        result.messageChars += event.data.size(); // the event is read, as a consumer would
    };
    for (qsizetype offset = 0; offset < bytes.size(); offset += chunkSize)
        parser.feed(QByteArrayView(bytes.constData() + offset,
                                   std::min(chunkSize, bytes.size() - offset)),
                    onSse);
    parser.finish();
    result.stopReason = StopReason::Stop;
    return result;
}

RunResult parseAndAssemble(const QByteArray &bytes, WireApi api)
{
    ProviderConfig config;
    config.api = api;
    config.model = QStringLiteral("bench");
    const std::unique_ptr<StreamAssembler> assembler = createStreamAssembler(config);
    SseParser parser;
    RunResult result;
    const StreamEventSink sink = [&result](const StreamEvent &) { ++result.events; };
    const SseParser::Sink onSse = [&](const SseEvent &event) { assembler->feed(event, sink); };
    for (qsizetype offset = 0; offset < bytes.size(); offset += chunkSize)
        parser.feed(QByteArrayView(bytes.constData() + offset,
                                   std::min(chunkSize, bytes.size() - offset)),
                    onSse);
    parser.finish();
    const Message message = assembler->finish(StreamAssembler::EndReason::StreamEnded, {}, sink);
    for (const ContentBlock &block : message.content)
        result.messageChars += block.text.size();
    result.stopReason = message.stopReason;
    return result;
}

double cpuSeconds()
{
    timespec now{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return double(now.tv_sec) + double(now.tv_nsec) / 1e9;
}

qint64 peakRssKiB()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
    }
    return -1;
}

void printJson(const QJsonObject &object)
{
    std::printf("%s\n", QJsonDocument(object).toJson(QJsonDocument::Compact).constData());
    std::fflush(stdout);
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "bench_stream: cannot read %s\n", qPrintable(path));
        std::exit(2);
    }
    return file.readAll();
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    if (args.size() == 3 && args[0] == QLatin1String("--memory")) {
        const QByteArray bytes = readAll(args[1]);
        const auto provider = std::find_if(providers.begin(), providers.end(), [&](const auto &p) {
            return p.first == args[2];
        });
        if (provider == providers.end())
            return 2;
        const qint64 before = peakRssKiB();
        const RunResult result = parseAndAssemble(bytes, provider->second);
        printJson({{QStringLiteral("provider"), provider->first},
                   {QStringLiteral("bytes"), double(bytes.size())},
                   {QStringLiteral("peakRssKiBBefore"), double(before)},
                   {QStringLiteral("peakRssKiBAfter"), double(peakRssKiB())},
                   {QStringLiteral("messageKiB"), double(result.messageChars * 2 / 1024)}});
        return 0;
    }
    if (args.isEmpty() || args.size() > 2) {
        std::fprintf(stderr,
                     "usage: bench_stream STREAM_DIR [REPEATS]\n"
                     "       bench_stream --memory FILE PROVIDER\n");
        return 2;
    }
    const int repeats = args.size() > 1 ? args[1].toInt() : 3;
    for (const auto &[name, api] : providers) {
        const QByteArray bytes = readAll(args[0] + QLatin1Char('/') + name + QStringLiteral(".sse"));
        for (const bool assemble : {false, true}) {
            double bestCpu = 1e9;
            double bestWall = 1e9;
            RunResult result;
            for (int i = 0; i < repeats; ++i) {
                QElapsedTimer timer;
                timer.start();
                const double cpuStart = cpuSeconds();
                result = assemble ? parseAndAssemble(bytes, api) : parseOnly(bytes);
                bestCpu = std::min(bestCpu, cpuSeconds() - cpuStart);
                bestWall = std::min(bestWall, double(timer.nsecsElapsed()) / 1e9);
            }
            const double megabytes = double(bytes.size()) / 1e6;
            printJson({{QStringLiteral("provider"), name},
                       {QStringLiteral("peer"), QStringLiteral("agentdesk")},
                       {QStringLiteral("mode"),
                        assemble ? QStringLiteral("assemble") : QStringLiteral("parse")},
                       {QStringLiteral("bytes"), double(bytes.size())},
                       {QStringLiteral("repeats"), repeats},
                       {QStringLiteral("cpuSeconds"), bestCpu},
                       {QStringLiteral("wallSeconds"), bestWall},
                       {QStringLiteral("cpuMbPerSecond"), megabytes / bestCpu},
                       {QStringLiteral("wallMbPerSecond"), megabytes / bestWall},
                       {QStringLiteral("events"), double(result.events)},
                       {QStringLiteral("stopReason"), stopReasonName(result.stopReason)}});
        }
    }
    return 0;
}
