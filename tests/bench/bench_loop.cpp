// The agent loop's own costs, without a network: the overhead of a turn (zero-latency model,
// no-op tool, events delivered to the main thread by the Agent facade), the scheduling of tool
// batches, and projectToolCallProtocol on long histories.
//
// usage: bench_loop [RUNS] [TURNS_PER_RUN] [REPEATS] [overhead|batch|projection|variants|long-*]
//        one JSON line per measurement; all of them without a name. overhead-agent and
//        overhead-loop run one path of the overhead scenario (for profilers). variants runs the
//        overhead scenario with each piece of the hand-off machinery (agentcore/loop/internal/) against
//        its simplest alternative, alternating, REPEATS rounds; medians (never run by default).
//        long-agent and long-loop (never run by default; one per process, for its peak RSS):
//        one conversation of TURNS_PER_RUN turns, its history growing with every turn; the
//        per-turn time of its first and last 10%, CPU time, peak RSS (RUNS and REPEATS unused).
//        long-context: long-agent with a ContextManager installed as CodingAgent installs it
//        (its contextView and beforeRequest run before every request; the window is large
//        enough that it never compacts).
// The overhead and long scenarios are the ones tests/bench/node/loop-peer.mjs runs through
// pi-agent-core. A turn's time is the time between two calls of the model (on the loop's thread).
#include <context/contextmanager.h>
#include <loop/agent.h>
#include <loop/agentloop.h>
#include <loop/internal/agentloopboxing.h>
#include <loop/internal/toolrunner.h>
#include <loop/toolprotocol.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <vector>

#include <sys/resource.h>

#ifdef __GLIBC__
#    include <malloc.h>
#endif

using namespace AgentCore;

namespace {

void printJson(const QJsonObject &object)
{
    std::printf("%s\n", QJsonDocument(object).toJson(QJsonDocument::Compact).constData());
    std::fflush(stdout);
}

QJsonObject pathSchema()
{
    return {{QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"),
             QJsonObject{{QStringLiteral("path"),
                          QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}}},
            {QStringLiteral("required"), QJsonArray{QStringLiteral("path")}}};
}

qint64 nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/// A model that costs nothing: per run, turnsPerRun - 1 turns that call each of `calls` (tool
/// names) once, then a text answer; streamed as the peer's script does (start, block
/// start/delta/end, done). With \a callTimes, notes the time of every call (preallocate it).
class InstantModel final : public ModelClient
{
public:
    InstantModel(int turnsPerRun, QStringList calls, std::vector<qint64> *callTimes = nullptr)
        : m_turnsPerRun(turnsPerRun)
        , m_tools(std::move(calls))
        , m_callTimes(callTimes)
    {}

    Message complete(const Context &, const AbortToken &, const StreamEventSink &sink) override
    {
        if (m_callTimes)
            m_callTimes->push_back(nowNs());
        const int turn = m_calls++ % m_turnsPerRun;
        Message message;
        message.role = Message::Role::Assistant;
        message.api = message.provider = message.model = QStringLiteral("instant");
        sink(StreamEvent::make(StreamEvent::Type::Start));
        if (turn < m_turnsPerRun - 1) {
            for (int i = 0; i < m_tools.size(); ++i) {
                const QString &tool = m_tools.at(i);
                const QString id = QLatin1String("call_") + QString::number(m_calls)
                                   + QLatin1Char('_') + QString::number(i);
                StreamEvent start = StreamEvent::make(StreamEvent::Type::ToolCallStart, i);
                start.toolCallId = id;
                start.toolName = tool;
                sink(start);
                const QString json = QStringLiteral(R"({"path":"a.txt"})");
                StreamEvent delta = StreamEvent::make(StreamEvent::Type::ToolCallDelta, i, json);
                delta.toolCallId = id;
                delta.toolName = tool;
                delta.arguments = m_arguments;
                sink(delta);
                StreamEvent end = StreamEvent::make(StreamEvent::Type::ToolCallEnd, i);
                end.toolCallId = id;
                end.toolName = tool;
                end.arguments = m_arguments;
                sink(end);
                message.content.append(ContentBlock::makeToolCall(id, tool, m_arguments));
            }
            message.stopReason = StopReason::ToolUse;
        } else {
            sink(StreamEvent::make(StreamEvent::Type::TextStart, 0));
            sink(StreamEvent::make(StreamEvent::Type::TextDelta, 0, QStringLiteral("done")));
            sink(StreamEvent::make(StreamEvent::Type::TextEnd, 0));
            message.content.append(ContentBlock::makeText(QStringLiteral("done")));
            message.stopReason = StopReason::Stop;
        }
        StreamEvent done = StreamEvent::make(StreamEvent::Type::Done);
        done.stopReason = message.stopReason;
        sink(done);
        return message;
    }

private:
    int m_turnsPerRun;
    QStringList m_tools;
    std::vector<qint64> *m_callTimes;
    int m_calls = 0;
    const QJsonObject m_arguments{{QStringLiteral("path"), QStringLiteral("a.txt")}};
};

/// Returns "ok" at once, or after sleeping \a sleepMs (a read that takes that long).
class BenchTool final : public AgentTool
{
public:
    BenchTool(QString name, ExecutionMode mode, int sleepMs)
        : m_definition{std::move(name), QStringLiteral("Bench tool."), pathSchema()}
        , m_mode(mode)
        , m_sleepMs(sleepMs)
    {}
    ToolDefinition definition() const override { return m_definition; }
    ExecutionMode executionMode() const override { return m_mode; }
    bool hasSideEffects() const override { return false; }
    ToolResult execute(const ToolCallContext &) override
    {
        if (m_sleepMs > 0)
            QThread::msleep(m_sleepMs);
        return ToolResult::makeText(QStringLiteral("ok"));
    }

private:
    ToolDefinition m_definition;
    ExecutionMode m_mode;
    int m_sleepMs;
};

struct OverheadResult
{
    double seconds = 0;
    qint64 turns = 0;
    qint64 events = 0;
    double cpuSeconds = 0; // the process's user + system time
    qint64 mainSleeps = 0; // voluntary context switches of this (main) thread: its wake-ups
    // The time of every model call, and the end of the last run: turn i took
    // turnTimes[i + 1] - turnTimes[i] (a run's last turn also holds the next run's start).
    std::vector<qint64> turnTimes;
};

/// The hand-off machinery, each piece on or off (the variants below).
struct HandOff
{
    bool batch = true; // the Agent's events go with those that arrive before it runs
    // The Agent's boxing overload: the worker queues the loop's own event boxes. false: the
    // sink copies each event into a box of its own, as a receiver of agentLoop() would.
    bool box = true;
};

struct Usage
{
    double cpu = 0;
    qint64 threadSleeps = 0;
};

Usage usageNow()
{
    Usage usage;
    rusage process{};
    getrusage(RUSAGE_SELF, &process);
    usage.cpu = double(process.ru_utime.tv_sec + process.ru_stime.tv_sec)
                + double(process.ru_utime.tv_usec + process.ru_stime.tv_usec) / 1e6;
    rusage thread{};
    getrusage(RUSAGE_THREAD, &thread);
    usage.threadSleeps = thread.ru_nvcsw;
    return usage;
}

// The realistic path: the loop on the Agent's worker, every event a queued signal to this
// (main) thread. Each run starts from an empty conversation, like the peer's.
OverheadResult overheadThroughAgent(int runs,
                                    int turnsPerRun,
                                    HandOff handOff = {},
                                    bool contextManager = false)
{
    OverheadResult result;
    result.turnTimes.reserve(size_t(runs) * size_t(turnsPerRun) + 1);
    auto model = std::make_shared<InstantModel>(turnsPerRun,
                                                QStringList{QStringLiteral("noop")},
                                                &result.turnTimes);
    ToolRunner runner;
    AgentConfig config;
    config.loop.model = model;
    config.loop.toolRunner = &runner;
    config.batchEvents = handOff.batch;
    config.systemPrompt = QStringLiteral("bench");
    config.tools = {std::make_shared<BenchTool>(QStringLiteral("noop"), ExecutionMode::Parallel, 0)};
    if (contextManager) {
        ContextSettings settings;
        settings.windowTokens = 100'000'000;
        const auto manager = std::make_shared<ContextManager>(settings, [] {
            return std::shared_ptr<ModelClient>();
        });
        ContextManager::installInto(manager, config.loop);
    }
    Agent agent(std::move(config));

    QEventLoop loop;
    QObject::connect(&agent, &Agent::eventEmitted, &agent, [&result](const AgentEvent &event) {
        ++result.events;
        if (event.type == AgentEvent::Type::TurnEnd)
            ++result.turns;
    });
    QObject::connect(&agent, &Agent::idleChanged, &loop, [&loop](bool idle) {
        if (idle)
            loop.quit();
    });
    const Usage before = usageNow();
    QElapsedTimer timer;
    timer.start();
    for (int run = 0; run < runs; ++run) {
        agent.setMessages({});
        agent.prompt(QStringLiteral("go"));
        loop.exec();
    }
    result.turnTimes.push_back(nowNs());
    result.seconds = double(timer.nsecsElapsed()) / 1e9;
    const Usage after = usageNow();
    result.cpuSeconds = after.cpu - before.cpu;
    result.mainSleeps = after.threadSleeps - before.threadSleeps;
    return result;
}

// The loop alone: agentLoop on this thread, events counted by the sink, tools on a runner
// that lives across runs (as the Agent's does).
OverheadResult overheadOfLoop(int runs, int turnsPerRun, HandOff handOff = {})
{
    OverheadResult result;
    result.turnTimes.reserve(size_t(runs) * size_t(turnsPerRun) + 1);
    ToolRunner runner;
    AgentLoopConfig config;
    config.toolRunner = &runner;
    config.model = std::make_shared<InstantModel>(turnsPerRun,
                                                  QStringList{QStringLiteral("noop")},
                                                  &result.turnTimes);
    const AgentContext context{QStringLiteral("bench"),
                               {},
                               {std::make_shared<BenchTool>(QStringLiteral("noop"),
                                                            ExecutionMode::Parallel,
                                                            0)}};
    const bool copy = !handOff.box;
    const AgentEventSink sink = [&result, copy](const AgentEvent &event) {
        if (copy) {
            const auto box = std::make_unique<AgentEvent>(event);
            ++result.events;
            if (box->type == AgentEvent::Type::TurnEnd)
                ++result.turns;
            return;
        }
        ++result.events;
        if (event.type == AgentEvent::Type::TurnEnd)
            ++result.turns;
    };
    const QList<Message> prompt{Message::makeUser(QStringLiteral("go"))};
    const Usage before = usageNow();
    QElapsedTimer timer;
    timer.start();
    for (int run = 0; run < runs; ++run)
        agentLoop(prompt, context, config, AbortToken(), sink);
    result.turnTimes.push_back(nowNs());
    result.seconds = double(timer.nsecsElapsed()) / 1e9;
    const Usage after = usageNow();
    result.cpuSeconds = after.cpu - before.cpu;
    result.mainSleeps = after.threadSleeps - before.threadSleeps;
    return result;
}

double median(QList<double> values)
{
    std::sort(values.begin(), values.end());
    const qsizetype n = values.size();
    return n % 2 ? values.at(n / 2) : (values.at(n / 2 - 1) + values.at(n / 2)) / 2;
}

// Each piece of the hand-off machinery against its simplest alternative, in one process, the
// variants alternating round by round (a busy machine drifts); medians of the rounds.
void reportVariants(int runs, int turnsPerRun, int repeats)
{
    struct Variant
    {
        const char *name;
        bool agent;
        HandOff handOff;
        QList<double> us, cpuUs, sleeps;
    };
    QList<Variant> variants{
        {"agent", true, {true}, {}, {}, {}},
        {"agent-nobatch", true, {false}, {}, {}, {}},
        {"loop", false, {true}, {}, {}, {}},
        {"loop-copy", false, {true, false}, {}, {}, {}},
    };
    for (int round = 0; round < repeats; ++round) {
        for (Variant &variant : variants) {
            const OverheadResult result = variant.agent
                                              ? overheadThroughAgent(runs,
                                                                     turnsPerRun,
                                                                     variant.handOff)
                                              : overheadOfLoop(runs, turnsPerRun, variant.handOff);
            const double turns = double(qMax<qint64>(1, result.turns));
            variant.us.append(result.seconds * 1e6 / turns);
            variant.cpuUs.append(result.cpuSeconds * 1e6 / turns);
            variant.sleeps.append(double(result.mainSleeps) / turns);
        }
    }
    for (const Variant &variant : variants) {
        printJson({{QStringLiteral("bench"), QStringLiteral("variant")},
                   {QStringLiteral("variant"), QLatin1String(variant.name)},
                   {QStringLiteral("rounds"), repeats},
                   {QStringLiteral("usPerTurnMedian"), median(variant.us)},
                   {QStringLiteral("usPerTurnMin"),
                    *std::min_element(variant.us.begin(), variant.us.end())},
                   {QStringLiteral("cpuUsPerTurnMedian"), median(variant.cpuUs)},
                   {QStringLiteral("mainThreadSleepsPerTurn"), median(variant.sleeps)}});
    }
}

/// The turns' times (µs) in the first and the last tenth of a measurement, from its turnTimes.
struct TurnTenths
{
    double firstMedian = 0;
    double lastMedian = 0;
    double firstMean = 0;
    double lastMean = 0;
    double slowest = 0; // the slowest single turn of the whole measurement
};

TurnTenths turnTenths(const std::vector<qint64> &times)
{
    TurnTenths tenths;
    if (times.size() < 11)
        return tenths;
    QList<double> turns;
    turns.reserve(qsizetype(times.size()) - 1);
    for (size_t i = 1; i < times.size(); ++i)
        turns.append(double(times[i] - times[i - 1]) / 1e3);
    const qsizetype tenth = turns.size() / 10;
    const QList<double> first = turns.mid(0, tenth);
    const QList<double> last = turns.mid(turns.size() - tenth);
    const auto mean = [](const QList<double> &values) {
        double sum = 0;
        for (const double value : values)
            sum += value;
        return sum / double(values.size());
    };
    tenths.firstMedian = median(first);
    tenths.lastMedian = median(last);
    tenths.firstMean = mean(first);
    tenths.lastMean = mean(last);
    tenths.slowest = *std::max_element(turns.begin(), turns.end());
    return tenths;
}

/// A line of /proc/self/status in KiB (VmRSS: resident now, VmHWM: the peak).
qint64 statusKiB(const char *field)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith(field))
            return line.mid(qstrlen(field)).trimmed().split(' ').value(0).toLongLong();
    }
    return -1;
}

template<typename Measure>
void reportOverhead(const QString &peer,
                    const QString &path,
                    int runs,
                    int turnsPerRun,
                    int repeats,
                    Measure measure)
{
    OverheadResult best;
    best.seconds = 1e9;
    for (int i = 0; i < repeats; ++i) {
        const OverheadResult result = measure(runs, turnsPerRun);
        if (result.seconds < best.seconds)
            best = result;
    }
    const TurnTenths tenths = turnTenths(best.turnTimes);
    printJson(
        {{QStringLiteral("bench"), QStringLiteral("overhead")},
         {QStringLiteral("peer"), peer},
         {QStringLiteral("path"), path},
         {QStringLiteral("runs"), runs},
         {QStringLiteral("turnsPerRun"), turnsPerRun},
         {QStringLiteral("turns"), double(best.turns)},
         {QStringLiteral("events"), double(best.events)},
         {QStringLiteral("seconds"), best.seconds},
         {QStringLiteral("cpuSeconds"), best.cpuSeconds},
         {QStringLiteral("usPerTurn"), best.seconds * 1e6 / double(qMax<qint64>(1, best.turns))},
         {QStringLiteral("usPerTurnFirstTenthMedian"), tenths.firstMedian},
         {QStringLiteral("usPerTurnLastTenthMedian"), tenths.lastMedian}});
}

// One conversation of \a turns turns: does a turn cost more as the history grows?
template<typename Measure>
void reportLong(const QString &peer, const QString &path, int turns, Measure measure)
{
    const qint64 rssBefore = statusKiB("VmRSS:");
    const OverheadResult result = measure(1, turns);
    const TurnTenths tenths = turnTenths(result.turnTimes);
    printJson({{QStringLiteral("bench"), QStringLiteral("long")},
               {QStringLiteral("peer"), peer},
               {QStringLiteral("path"), path},
               {QStringLiteral("turns"), double(result.turns)},
               {QStringLiteral("events"), double(result.events)},
               {QStringLiteral("seconds"), result.seconds},
               {QStringLiteral("cpuSeconds"), result.cpuSeconds},
               {QStringLiteral("usPerTurn"),
                result.seconds * 1e6 / double(qMax<qint64>(1, result.turns))},
               {QStringLiteral("usPerTurnFirstTenthMedian"), tenths.firstMedian},
               {QStringLiteral("usPerTurnLastTenthMedian"), tenths.lastMedian},
               {QStringLiteral("usPerTurnFirstTenthMean"), tenths.firstMean},
               {QStringLiteral("usPerTurnLastTenthMean"), tenths.lastMean},
               {QStringLiteral("usSlowestTurn"), tenths.slowest},
               {QStringLiteral("rssKiBBefore"), double(rssBefore)},
               {QStringLiteral("rssKiBAfter"), double(statusKiB("VmRSS:"))},
               {QStringLiteral("peakRssKiB"), double(statusKiB("VmHWM:"))}});
}

// Eight calls of a 50 ms read in one assistant message; with \a oneSequential the last one is a
// 50 ms sequential tool instead, which makes the whole batch sequential. Returns the batch's
// wall time: from the end of the assistant message to the end of its turn.
double batchMs(bool oneSequential)
{
    QStringList calls(8, QStringLiteral("SlowRead"));
    if (oneSequential)
        calls.last() = QStringLiteral("SlowEdit");
    AgentLoopConfig config;
    config.model = std::make_shared<InstantModel>(2, calls);
    AgentContext context;
    context.tools
        = {std::make_shared<BenchTool>(QStringLiteral("SlowRead"), ExecutionMode::Parallel, 50),
           std::make_shared<BenchTool>(QStringLiteral("SlowEdit"), ExecutionMode::Sequential, 50)};
    QElapsedTimer timer;
    double ms = -1;
    bool inBatch = false;
    const AgentEventSink sink = [&](const AgentEvent &event) {
        if (event.type == AgentEvent::Type::MessageEnd && event.message.isAssistant()
            && event.message.stopReason == StopReason::ToolUse) {
            inBatch = true;
            timer.start();
        } else if (event.type == AgentEvent::Type::TurnEnd && inBatch) {
            ms = double(timer.nsecsElapsed()) / 1e6;
            inBatch = false;
        }
    };
    agentLoop({Message::makeUser(QStringLiteral("read eight files"))},
              context,
              config,
              AbortToken(),
              sink);
    return ms;
}

void reportBatch(bool oneSequential, int repeats)
{
    QList<double> times;
    for (int i = 0; i < repeats; ++i)
        times.append(batchMs(oneSequential));
    std::sort(times.begin(), times.end());
    printJson({{QStringLiteral("bench"), QStringLiteral("batch")},
               {QStringLiteral("mode"),
                oneSequential ? QStringLiteral("oneSequential") : QStringLiteral("parallel")},
               {QStringLiteral("tools"), 8},
               {QStringLiteral("toolMs"), 50},
               {QStringLiteral("msMin"), times.first()},
               {QStringLiteral("msMedian"), times.at(times.size() / 2)},
               {QStringLiteral("msMax"), times.last()}});
}

// A history as a long session leaves it: prompts, assistant messages with one to three calls,
// their results (some out of order), final answers, and the debris of errors and aborts
// (empty assistant messages, orphan results, calls without a result, an inserted reminder).
QList<Message> makeHistory(int size)
{
    QList<Message> history;
    history.reserve(size + 8);
    const QString body = QStringLiteral("Some file content, a line of a log or an answer. ")
                             .repeated(4);
    const QJsonObject args{{QStringLiteral("path"), QStringLiteral("src/loop.ts")}};
    int block = 0;
    while (history.size() < size) {
        ++block;
        history.append(Message::makeUser(QStringLiteral("task %1").arg(block)));
        Message assistant;
        assistant.role = Message::Role::Assistant;
        assistant.stopReason = StopReason::ToolUse;
        const int calls = 1 + block % 3;
        QList<Message> results;
        for (int c = 0; c < calls; ++c) {
            const QString id = QStringLiteral("call_%1_%2").arg(block).arg(c);
            assistant.content.append(ContentBlock::makeToolCall(id, QStringLiteral("Read"), args));
            results.append(Message::makeToolResult(id, QStringLiteral("Read"), body, false));
        }
        history.append(assistant);
        if (block % 7 == 0)
            std::reverse(results.begin(), results.end());
        if (block % 11 == 0)
            results.removeLast(); // a call that never got its result
        if (block % 13 == 0) {
            Message reminder = Message::makeUser(QStringLiteral("<system-reminder>"));
            reminder.role = Message::Role::Custom;
            reminder.customType = QStringLiteral("reminder");
            history.append(reminder);
        }
        history.append(results);
        if (block % 17 == 0) {
            history.append(Message::makeToolResult(QStringLiteral("orphan_%1").arg(block),
                                                   QStringLiteral("Read"),
                                                   body,
                                                   false));
        }
        if (block % 19 == 0) {
            Message empty;
            empty.role = Message::Role::Assistant;
            empty.stopReason = StopReason::Aborted;
            history.append(empty);
        }
        Message answer;
        answer.role = Message::Role::Assistant;
        answer.content.append(ContentBlock::makeText(body));
        history.append(answer);
    }
    history.resize(size);
    return history;
}

void reportProjection(int size, int repeats)
{
    const QList<Message> history = makeHistory(size);
    double first = 0;
    double best = 1e9;
    qsizetype projected = 0;
    for (int i = 0; i < repeats; ++i) {
        QElapsedTimer timer;
        timer.start();
        const QList<Message> out = projectToolCallProtocol(history);
        const double ms = double(timer.nsecsElapsed()) / 1e6;
        if (i == 0)
            first = ms;
        best = std::min(best, ms);
        projected = out.size();
    }
    printJson({{QStringLiteral("bench"), QStringLiteral("projection")},
               {QStringLiteral("messages"), size},
               {QStringLiteral("projected"), double(projected)},
               {QStringLiteral("msFirst"), first},
               {QStringLiteral("ms"), best},
               {QStringLiteral("nsPerMessage"), best * 1e6 / size}});
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    const int runs = args.value(0, QStringLiteral("1000")).toInt();
    const int turnsPerRun = args.value(1, QStringLiteral("10")).toInt();
    const int repeats = args.value(2, QStringLiteral("3")).toInt();
    const QString only = args.value(3);
    if (runs <= 0 || turnsPerRun <= 0 || repeats <= 0) {
        std::fprintf(stderr,
                     "usage: bench_loop [RUNS] [TURNS_PER_RUN] [REPEATS] "
                     "[overhead|batch|projection|variants|long-agent|long-loop|long-context]\n");
        return 2;
    }
    const auto wanted = [&only](const char *name) {
        return only.isEmpty() || only == QLatin1String(name);
    };
    if (only == QLatin1String("long-agent")) {
        reportLong(QStringLiteral("agentdesk"),
                   QStringLiteral("Agent facade, events to the main thread"),
                   turnsPerRun,
                   [](int r, int t) { return overheadThroughAgent(r, t); });
        return 0;
    }
    if (only == QLatin1String("long-context")) {
        reportLong(QStringLiteral("agentdesk-context"),
                   QStringLiteral("Agent facade with a ContextManager, events to the main thread"),
                   turnsPerRun,
                   [](int r, int t) { return overheadThroughAgent(r, t, {}, true); });
        return 0;
    }
    if (only == QLatin1String("long-loop")) {
        reportLong(QStringLiteral("agentdesk-loop"),
                   QStringLiteral("agentLoop, events counted on its thread"),
                   turnsPerRun,
                   [](int r, int t) { return overheadOfLoop(r, t); });
        return 0;
    }
    if (wanted("overhead") || wanted("overhead-agent")) {
        reportOverhead(QStringLiteral("agentdesk"),
                       QStringLiteral("Agent facade, events to the main thread"),
                       runs,
                       turnsPerRun,
                       repeats,
                       [](int r, int t) { return overheadThroughAgent(r, t); });
    }
    if (wanted("overhead") || wanted("overhead-loop")) {
        reportOverhead(QStringLiteral("agentdesk-loop"),
                       QStringLiteral("agentLoop, events counted on its thread"),
                       runs,
                       turnsPerRun,
                       repeats,
                       [](int r, int t) { return overheadOfLoop(r, t); });
    }
    if (only == QLatin1String("variants")) {
        reportVariants(runs, turnsPerRun, repeats);
        return 0;
    }
    if (wanted("batch")) {
        reportBatch(false, 5);
        reportBatch(true, 5);
    }
    if (wanted("projection")) {
#ifdef __GLIBC__
        // The projected copy of 100k messages is ~40 MB: above glibc's largest mmap threshold,
        // every call would map (and fault in) fresh pages, which measures the kernel. The first
        // call still pays that; "msFirst" reports it.
        mallopt(M_MMAP_THRESHOLD, 512 * 1024 * 1024);
        mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
#endif
        for (const int size : {10'000, 50'000, 100'000})
            reportProjection(size, 5);
    }
    return 0;
}
