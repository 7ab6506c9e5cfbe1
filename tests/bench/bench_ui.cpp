// The desktop app under load: a conversation streamed at 5,000 tokens a second through the
// Agent into a shown ConversationView (UI-thread stalls), a loaded history of 2,000 messages
// (time to the first paint, memory, scrolling), and the cold start of the agentdesk binary.
//
// Several sessions at once in one window (MainWindow, as the app makes it): N sessions streaming
// together while the user switches between them, the memory of an idle open session, and the
// time to switch to one of 2,000 messages.
//
// A long session resumed in the window (a real session file of 20,000 messages, 2,000 tool
// outputs of 100 KB and the compactions such a session has): the time to its first paint, the
// memory it then holds, scroll passes through it; and a live session of 1,000 turns, each
// reading 100 KB, recorded and compacting: its memory over the run.
//
// usage: bench_ui stream [SECONDS] [TOKENS_PER_SECOND] [TOKENS_PER_TURN]
//        bench_ui history [MESSAGES]
//        bench_ui coldstart [AGENTDESK_BINARY] [STARTS]
//        bench_ui sessions [SESSIONS] [SECONDS] [TOKENS_PER_SECOND]
//        bench_ui idle [SESSIONS]
//        bench_ui switch [MESSAGES] [SWITCHES]
//        bench_ui resume [MESSAGES] [STEPS_PER_PASS]
//        bench_ui live [TURNS] [FILES]
//        one JSON line per measurement; the first three (with their defaults) without a mode.
// Runs offscreen unless QT_QPA_PLATFORM says otherwise; the offscreen platform paints into a
// real backing store, and every measurement checks that paint events happened.
#include <context/compaction.h>
#include <context/contextmanager.h>
#include <context/summaryprompt.h>
#include <context/tokenestimate.h>
#include <conversation/conversationview.h>
#include <loop/agent.h>
#include <session/sessionlog.h>
#include <session/sessionstore.h>

#include <agentsession/agentsession.h>
#include <page/conversationpage.h>
#include <sessions/opensessions.h>
#include <window/mainwindow.h>

#include <QAction>
#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QKeyEvent>
#include <QProcess>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QWheelEvent>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <ctime>
#include <functional>
#include <vector>

#ifdef __GLIBC__
#    include <malloc.h>
#endif

using namespace AgentCore;

namespace {

constexpr int CharsPerToken = 4;
constexpr QSize WindowSize(1000, 760);

void printJson(const QJsonObject &object)
{
    std::printf("%s\n", QJsonDocument(object).toJson(QJsonDocument::Compact).constData());
    std::fflush(stdout);
}

double msSince(const QElapsedTimer &timer)
{
    return double(timer.nsecsElapsed()) / 1e6;
}

/// CPU time of the calling thread, in ms: on a shared machine, the part of a stall that is
/// this thread's own work rather than waiting for a core.
double threadCpuMs()
{
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return double(now.tv_sec) * 1e3 + double(now.tv_nsec) / 1e6;
}

/// The value below which \a fraction of the samples lie (nearest rank); 0 without samples.
double percentile(std::vector<double> samples, double fraction)
{
    if (samples.empty())
        return 0;
    std::sort(samples.begin(), samples.end());
    const auto rank = size_t(fraction * double(samples.size() - 1) + 0.5);
    return samples[std::min(rank, samples.size() - 1)];
}

double maximum(const std::vector<double> &samples)
{
    return samples.empty() ? 0 : *std::max_element(samples.begin(), samples.end());
}

/// VmRSS or VmHWM of this process, in MiB.
double procStatusMiB(const char *field)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith(field))
            return line.mid(qstrlen(field) + 1).trimmed().split(' ').value(0).toDouble() / 1024;
    }
    return -1;
}

/// What the allocator has handed out and not got back, in MiB (glibc: every arena's chunks in
/// use and its mmapped blocks): the memory the program holds, without what the allocator
/// keeps freed for later. -1 elsewhere.
double heapInUseMiB()
{
#ifdef __GLIBC__
    const struct mallinfo2 info = mallinfo2();
    return double(info.uordblks + info.hblkhd) / 1048576;
#else
    return -1;
#endif
}

/// Counts and times the paint events of one widget (the conversation's viewport).
class BenchApplication final : public QApplication
{
public:
    using QApplication::QApplication;

    void watch(const QWidget *widget)
    {
        m_watched = widget;
        m_current = nullptr;
    }
    /// Times the paint events of the widget \a current names when the event arrives (a page that
    /// a window creates later, on a worker's answer).
    void watchCurrent(std::function<const QWidget *()> current) { m_current = std::move(current); }
    /// Times the paint events of every widget (a window with several pages).
    void watchAll() { m_all = true; }
    int paints() const { return int(m_paintMs.size()); }
    const std::vector<double> &paintMs() const { return m_paintMs; }
    void resetPaints() { m_paintMs.clear(); }

    bool notify(QObject *receiver, QEvent *event) override
    {
        const QWidget *watched = m_current ? m_current() : m_watched;
        if (event->type() != QEvent::Paint || (!m_all && receiver != watched))
            return QApplication::notify(receiver, event);
        QElapsedTimer timer;
        timer.start();
        const bool handled = QApplication::notify(receiver, event);
        m_paintMs.push_back(msSince(timer));
        return handled;
    }

private:
    const QWidget *m_watched = nullptr;
    std::function<const QWidget *()> m_current;
    bool m_all = false;
    std::vector<double> m_paintMs;
};

BenchApplication *benchApp()
{
    return static_cast<BenchApplication *>(QCoreApplication::instance());
}

// What a coding agent writes: prose, lists, inline code and fenced code blocks.
const QString &corpus()
{
    static const QString text = QStringLiteral(
        "The loop keeps the history as a plain list, so a restore is a copy and nothing else. "
        "Here is the part of `AgentLoop::runTurn` that decides whether another turn follows:\n\n"
        "```cpp\n"
        "bool AgentLoop::needsAnotherTurn(const Message &assistant) const\n"
        "{\n"
        "    if (assistant.stopReason != StopReason::ToolUse)\n"
        "        return false;\n"
        "    // Every call gets a result, even a skipped one.\n"
        "    return std::any_of(assistant.content.cbegin(), assistant.content.cend(),\n"
        "                       [](const ContentBlock &block) { return block.isToolCall(); });\n"
        "}\n"
        "```\n\n"
        "Three things follow from that:\n\n"
        "- a tool that fails still answers, with `isError` set;\n"
        "- an aborted run keeps its partial text and says **Stopped**;\n"
        "- the projection drops orphan results before the next request.\n\n"
        "### Running the tests\n\n"
        "Build the target and run it offscreen; the output of a failing case names the event "
        "that was missing:\n\n"
        "```sh\n"
        "cmake --build build --target tst_agentloop\n"
        "QT_QPA_PLATFORM=offscreen build/bin/tst_agentloop -v2\n"
        "```\n\n"
        "If the suite passes, the remaining question is performance, which the benchmark "
        "answers with numbers rather than impressions.\n\n");
    return text;
}

/// \a chars characters of the corpus, starting at \a offset (wrapping around).
QString corpusText(qsizetype offset, qsizetype chars)
{
    const QString &source = corpus();
    QString text;
    text.reserve(chars);
    while (text.size() < chars) {
        const qsizetype at = (offset + text.size()) % source.size();
        text += QStringView(source).mid(at, std::min(chars - text.size(), source.size() - at));
    }
    return text;
}

// ---- stream -----------------------------------------------------------------------------

/// Streams text deltas of one token each, paced at a rate over the whole run: every ~2 ms it
/// sends the tokens that are due. Each turn writes tokensPerTurn tokens (0: the whole run is
/// one message) and then calls Read; after the run's duration it answers "done".
class PacedModel final : public ModelClient
{
public:
    PacedModel(double seconds,
               int tokensPerSecond,
               int tokensPerTurn,
               QJsonObject readArguments = {{QStringLiteral("path"),
                                             QStringLiteral("src/agentloop.cpp")}})
        : m_seconds(seconds)
        , m_tokensPerSecond(tokensPerSecond)
        , m_tokensPerTurn(tokensPerTurn)
        , m_readArguments(std::move(readArguments))
    {}

    qint64 tokensSent() const { return m_sent.load(); }

    Message complete(const Context &, const AbortToken &abort, const StreamEventSink &sink) override
    {
        if (!m_clock.isValid())
            m_clock.start();
        Message message;
        message.role = Message::Role::Assistant;
        message.api = message.provider = message.model = QStringLiteral("paced");
        sink(StreamEvent::make(StreamEvent::Type::Start));
        sink(StreamEvent::make(StreamEvent::Type::TextStart, 0));
        QString text;
        qint64 turnTokens = 0;
        const auto turnDone = [&] { return m_tokensPerTurn > 0 && turnTokens >= m_tokensPerTurn; };
        while (!abort.isAborted() && !turnDone() && !timeIsUp()) {
            const auto due = qint64(double(m_clock.nsecsElapsed()) / 1e9 * m_tokensPerSecond);
            // A turn change costs a few ms; catch up, but in bursts no larger than a network's.
            for (int burst = 0; m_sent < due && burst < 100 && !turnDone(); ++burst) {
                const QString token = corpusText(m_sent * CharsPerToken, CharsPerToken);
                text += token;
                sink(StreamEvent::make(StreamEvent::Type::TextDelta, 0, token));
                ++m_sent;
                ++turnTokens;
            }
            QThread::usleep(2000);
        }
        sink(StreamEvent::make(StreamEvent::Type::TextEnd, 0));
        message.content.append(
            ContentBlock::makeText(text.isEmpty() ? QStringLiteral("done") : text));
        message.stopReason = timeIsUp() || abort.isAborted() ? StopReason::Stop
                                                             : StopReason::ToolUse;
        if (message.stopReason == StopReason::ToolUse)
            streamToolCall(message, sink);
        StreamEvent done = StreamEvent::make(StreamEvent::Type::Done);
        done.stopReason = message.stopReason;
        sink(done);
        return message;
    }

private:
    bool timeIsUp() const { return double(m_clock.nsecsElapsed()) / 1e9 >= m_seconds; }

    void streamToolCall(Message &message, const StreamEventSink &sink)
    {
        const QString id = QStringLiteral("call_%1").arg(++m_calls);
        const QString name = QStringLiteral("Read");
        const QJsonObject arguments = m_readArguments;
        for (const auto type : {StreamEvent::Type::ToolCallStart,
                                StreamEvent::Type::ToolCallDelta,
                                StreamEvent::Type::ToolCallEnd}) {
            StreamEvent event = StreamEvent::make(type, 1);
            event.toolCallId = id;
            event.toolName = name;
            if (type != StreamEvent::Type::ToolCallStart)
                event.arguments = arguments;
            if (type == StreamEvent::Type::ToolCallDelta) {
                event.delta = QString::fromUtf8(
                    QJsonDocument(arguments).toJson(QJsonDocument::Compact));
            }
            sink(event);
        }
        message.content.append(ContentBlock::makeToolCall(id, name, arguments));
    }

    const double m_seconds;
    const int m_tokensPerSecond;
    const int m_tokensPerTurn;
    const QJsonObject m_readArguments; ///< the stream bench's own Read or the app's (file_path)
    QElapsedTimer m_clock;
    std::atomic<qint64> m_sent{0};
    int m_calls = 0;
};

/// Numbered lines of code, as Read returns them: about \a bytes in all.
QString fileListing(int bytes, int seed)
{
    QString text;
    text.reserve(bytes + 200);
    const QString &source = corpus();
    for (int line = 1; text.size() < bytes; ++line) {
        const qsizetype at = (qsizetype(line) * 37 + seed * 101) % (source.size() - 80);
        text += QStringLiteral("%1\t").arg(line, 6)
                + source.mid(at, 20 + (line * 13 + seed) % 60)
                      .replace(QLatin1Char('\n'), QLatin1Char(' '))
                + QLatin1Char('\n');
    }
    return text;
}

class ReadTool final : public AgentTool
{
public:
    ToolDefinition definition() const override
    {
        return {QStringLiteral("Read"),
                QStringLiteral("Reads a file."),
                QJsonObject{{QStringLiteral("type"), QStringLiteral("object")}}};
    }
    ToolResult execute(const ToolCallContext &) override
    {
        return ToolResult::makeText(fileListing(3000, m_calls++));
    }

private:
    int m_calls = 0;
};

void showView(Ui::ConversationView &view)
{
    view.resize(WindowSize);
    view.show();
    benchApp()->watch(view.viewport());
    QElapsedTimer timer;
    timer.start();
    while (benchApp()->paints() == 0 && timer.elapsed() < 5000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
}

void benchStream(double seconds, int tokensPerSecond, int tokensPerTurn)
{
    Ui::ConversationView view;
    showView(view);
    auto model = std::make_shared<PacedModel>(seconds, tokensPerSecond, tokensPerTurn);
    AgentConfig config;
    config.loop.model = model;
    config.systemPrompt = QStringLiteral("bench");
    config.tools = {std::make_shared<ReadTool>()};
    Agent agent(std::move(config));

    qint64 deliveredChars = 0;
    qint64 events = 0;
    QObject::connect(&agent, &Agent::eventEmitted, &view, [&](const AgentEvent &event) {
        ++events;
        if (event.type == AgentEvent::Type::MessageUpdate
            && event.streamEvent.type == StreamEvent::Type::TextDelta)
            deliveredChars += event.streamEvent.delta.size();
        view.apply(event);
    });

    // The UI thread's heartbeat: a 1 ms timer; a gap between two firings is the time the
    // thread was busy with something else (delivering events, laying out, painting).
    std::vector<double> gaps;
    std::vector<double> gapsCpu;
    gaps.reserve(size_t(seconds * 1100) + 100);
    gapsCpu.reserve(gaps.capacity());
    double beatCpu = 0;
    QElapsedTimer beat;
    QTimer heartbeat;
    heartbeat.setTimerType(Qt::PreciseTimer);
    heartbeat.setInterval(1);
    QObject::connect(&heartbeat, &QTimer::timeout, &heartbeat, [&] {
        gaps.push_back(msSince(beat));
        beat.start();
        const double cpu = threadCpuMs();
        gapsCpu.push_back(cpu - beatCpu);
        beatCpu = cpu;
    });

    QEventLoop loop;
    QObject::connect(&agent, &Agent::idleChanged, &loop, [&loop](bool idle) {
        if (idle)
            loop.quit();
    });
    benchApp()->resetPaints();
    QElapsedTimer wall;
    wall.start();
    beat.start();
    beatCpu = threadCpuMs();
    heartbeat.start();
    agent.prompt(QStringLiteral("Explain the agent loop, reading the files you need."));
    loop.exec();
    heartbeat.stop();
    const double wallSeconds = msSince(wall) / 1000;
    view.flush();
    QCoreApplication::processEvents();

    const std::vector<double> &paints = benchApp()->paintMs();
    printJson(
        {{QStringLiteral("bench"), QStringLiteral("stream")},
         {QStringLiteral("seconds"), wallSeconds},
         {QStringLiteral("tokensPerSecondTarget"), tokensPerSecond},
         {QStringLiteral("tokensPerTurn"), tokensPerTurn},
         {QStringLiteral("tokensSent"), double(model->tokensSent())},
         {QStringLiteral("tokensDelivered"), double(deliveredChars / CharsPerToken)},
         {QStringLiteral("tokensPerSecond"), double(deliveredChars / CharsPerToken) / wallSeconds},
         {QStringLiteral("events"), double(events)},
         {QStringLiteral("items"), view.itemCount()},
         {QStringLiteral("paints"), int(paints.size())},
         {QStringLiteral("paintMsP50"), percentile(paints, 0.5)},
         {QStringLiteral("paintMsP99"), percentile(paints, 0.99)},
         {QStringLiteral("paintMsMax"), maximum(paints)},
         {QStringLiteral("heartbeats"), double(gaps.size())},
         {QStringLiteral("gapMsP50"), percentile(gaps, 0.5)},
         {QStringLiteral("gapMsP99"), percentile(gaps, 0.99)},
         {QStringLiteral("stallMsMax"), maximum(gaps)},
         {QStringLiteral("gapCpuMsP99"), percentile(gapsCpu, 0.99)},
         {QStringLiteral("stallCpuMsMax"), maximum(gapsCpu)},
         {QStringLiteral("rssMiB"), procStatusMiB("VmRSS:")}});
}

// ---- history ----------------------------------------------------------------------------

Message assistantWithCall(const QString &text,
                          const QString &id,
                          const QString &tool,
                          const QJsonObject &arguments)
{
    Message message;
    message.role = Message::Role::Assistant;
    message.stopReason = StopReason::ToolUse;
    message.content = {ContentBlock::makeText(text),
                       ContentBlock::makeToolCall(id, tool, arguments)};
    return message;
}

/// A session as long work leaves it, in blocks of ten messages: a prompt, four tool calls with
/// short notes (one Read of a 100 KB file, a Grep, two Bash runs), their results, and a long
/// answer with code blocks.
QList<Message> makeHistory(int size)
{
    QList<Message> history;
    history.reserve(size);
    for (int block = 0; history.size() < size; ++block) {
        history.append(Message::makeUser(
            QStringLiteral("Task %1: find why the run hangs after a tool is aborted, "
                           "and fix it with a test.")
                .arg(block)));
        const QString id = QStringLiteral("call_%1_").arg(block);
        struct Call
        {
            const char *tool;
            QJsonObject arguments;
            int outputBytes;
        };
        const Call calls[] = {
            {"Read", {{QStringLiteral("path"), QStringLiteral("src/agentloop.cpp")}}, 100 * 1024},
            {"Grep", {{QStringLiteral("pattern"), QStringLiteral("raceAbort")}}, 1500},
            {"Bash", {{QStringLiteral("command"), QStringLiteral("ctest -R loop")}}, 3000},
            {"Bash", {{QStringLiteral("command"), QStringLiteral("git diff --stat")}}, 800},
        };
        for (int c = 0; c < 4; ++c) {
            const QString callId = id + QString::number(c);
            const QString tool = QString::fromLatin1(calls[c].tool);
            history.append(assistantWithCall(corpusText(block * 131 + c * 17, 200 + c * 60),
                                             callId,
                                             tool,
                                             calls[c].arguments));
            history.append(Message::makeToolResult(callId,
                                                   tool,
                                                   fileListing(calls[c].outputBytes, block + c),
                                                   false));
        }
        Message answer;
        answer.role = Message::Role::Assistant;
        answer.content.append(ContentBlock::makeText(corpusText(block * 71, 2400)));
        history.append(answer);
    }
    history.resize(size);
    return history;
}

struct StepTimes
{
    std::vector<double> ms;
    std::vector<double> cpuMs; ///< the UI thread's own part of each step
    int finalValue = 0;
    bool reachedEnd = false;
    /// Why the pass ended: "end", "stuck" (steps that no longer moved the bar short of the end,
    /// a flush between them), or "step limit".
    QString stoppedBecause;
    int segments = 1;       ///< stretches of consecutive steps (1: the whole way)
    double covered = 0;     ///< the share of the way travelled in steps rather than jumped
    int maximumChanges = 0; ///< how often the bar's maximum moved under the pass

    QJsonObject json(const QString &prefix) const
    {
        return {{prefix + QStringLiteral("Steps"), int(ms.size())},
                {prefix + QStringLiteral("StepMsP99"), percentile(ms, 0.99)},
                {prefix + QStringLiteral("StepMsMax"), maximum(ms)},
                {prefix + QStringLiteral("StepCpuMsP99"), percentile(cpuMs, 0.99)},
                {prefix + QStringLiteral("StepCpuMsMax"), maximum(cpuMs)},
                {prefix + QStringLiteral("ReachedEnd"), reachedEnd},
                {prefix + QStringLiteral("StoppedBecause"), stoppedBecause},
                {prefix + QStringLiteral("Segments"), segments},
                {prefix + QStringLiteral("Covered"), covered},
                {prefix + QStringLiteral("MaximumChanges"), maximumChanges}};
    }
};

enum class Towards { End, Start };

/// Scrolls \a view with \a step (a page step or a wheel notch) towards its end or its start,
/// painting synchronously after each step; \a settle runs after each step, before the paint
/// (events the step caused, answers of worker threads). The end counts only once a flush
/// leaves it there: items laid out for the first time replace their estimated heights, so the
/// content grows or shrinks under the pass and a bar at its maximum may have more below after
/// the next layout. A step that does not move the bar short of the end is followed by a flush
/// and tried again, at most three times in a row, then the pass is "stuck".
///
/// With \a maxSteps below what the whole way needs, the pass goes in \a segments stretches of
/// consecutive steps spread evenly over the content, jumping between them as a dragged scroll
/// bar does (jumps are not timed steps), the last stretch reaching the end: every part of a
/// long conversation is stepped through, within a bounded time.
template<typename Step, typename Settle>
StepTimes scrollThrough(
    Ui::ConversationView &view, Towards towards, Step step, Settle settle, int maxSteps)
{
    StepTimes times;
    QScrollBar *bar = view.verticalScrollBar();
    const auto atEnd = [&] {
        return towards == Towards::End ? bar->value() >= bar->maximum() : bar->value() <= 0;
    };
    const auto timedStep = [&] {
        QElapsedTimer timer;
        timer.start();
        const double cpu = threadCpuMs();
        step();
        settle();
        view.viewport()->repaint();
        times.ms.push_back(msSince(timer));
        times.cpuMs.push_back(threadCpuMs() - cpu);
    };
    // How far one step goes, from a first one (it counts as a step of the pass).
    const int startValue = bar->value();
    const int startMaximum = std::max(1, bar->maximum());
    timedStep();
    const int stride = std::max(1, std::abs(bar->value() - startValue));
    const int way = towards == Towards::End ? startMaximum - startValue : startValue;
    const int stepsNeeded = way / stride + 1;
    times.segments = stepsNeeded > maxSteps ? std::max(2, maxSteps / 25) : 1;
    const int perSegment = times.segments > 1 ? std::max(1, maxSteps / times.segments) : maxSteps;
    qint64 travelled = std::abs(bar->value() - startValue);
    int lastMaximum = bar->maximum();
    for (int segment = 0; segment < times.segments; ++segment) {
        const bool last = segment == times.segments - 1;
        if (segment > 0) {
            // Jump to where this stretch starts, as far along as the way is now: the stretches
            // spread evenly, the last one a stretch's steps from the end.
            const int length = bar->maximum();
            const int lastStart = std::max(0, length - perSegment * stride);
            const int along = int(double(segment) / (times.segments - 1) * lastStart);
            bar->setValue(towards == Towards::End ? along : length - along);
            settle();
            view.viewport()->repaint();
        }
        int stuck = 0;
        int taken = segment == 0 ? 1 : 0;
        // The last stretch goes on to the end, within a bound that only a runaway pass meets
        // (the content growing faster than the steps go).
        const int bound = !last                ? perSegment
                          : times.segments > 1 ? 4 * perSegment + 100
                                               : perSegment + 4 * stepsNeeded;
        while (taken < bound) {
            if (atEnd()) {
                view.flush(); // the end, once what is on screen is laid out
                if (atEnd()) {
                    times.reachedEnd = true; // early too, when the content shrank under it
                    break;
                }
            }
            const int before = bar->value();
            timedStep();
            ++taken;
            travelled += std::abs(bar->value() - before);
            if (bar->maximum() != lastMaximum) {
                ++times.maximumChanges;
                lastMaximum = bar->maximum();
            }
            if (bar->value() != before) {
                stuck = 0;
            } else if (!atEnd() && ++stuck >= 3) {
                times.stoppedBecause = QStringLiteral("stuck");
                break;
            } else if (!atEnd()) {
                view.flush();
            }
        }
        if (times.reachedEnd || !times.stoppedBecause.isEmpty())
            break;
        if (last && !times.reachedEnd)
            times.stoppedBecause = QStringLiteral("step limit");
    }
    if (times.reachedEnd)
        times.stoppedBecause = QStringLiteral("end");
    times.finalValue = bar->value();
    times.covered = std::min(1.0, double(travelled) / std::max(1, bar->maximum()));
    return times;
}

void wheelNotch(Ui::ConversationView &view, int notches)
{
    const QPointF at(view.viewport()->width() / 2.0, view.viewport()->height() / 2.0);
    QWheelEvent event(at,
                      view.viewport()->mapToGlobal(at),
                      QPoint(),
                      QPoint(0, 120 * notches),
                      Qt::NoButton,
                      Qt::NoModifier,
                      Qt::NoScrollPhase,
                      false);
    QCoreApplication::sendEvent(view.viewport(), &event);
}

int shownItems(const Ui::ConversationView &view)
{
    int shown = 0;
    for (int i = 0; i < view.itemCount(); ++i)
        shown += view.isItemShown(i);
    return shown;
}

void benchHistory(int size)
{
    Ui::ConversationView view;
    showView(view);
    const double rssEmpty = procStatusMiB("VmRSS:");
    const QList<Message> history = makeHistory(size); // the Agent holds it too
    qint64 bigOutputs = 0;
    qint64 toolResults = 0;
    for (const Message &message : history) {
        toolResults += message.isToolResult();
        bigOutputs += message.isToolResult() && message.text().size() >= 100 * 1024;
    }
    const double rssBefore = procStatusMiB("VmRSS:");

    benchApp()->resetPaints();
    QElapsedTimer timer;
    timer.start();
    view.setMessages(history);
    const double msModel = msSince(timer);
    view.viewport()->repaint(); // an expose before the next frame: lays out and paints
    const double msShown = msSince(timer);
    const int paintsShown = benchApp()->paints();
    QCoreApplication::processEvents();
    const double rssShown = procStatusMiB("VmRSS:");
    QScrollBar *bar = view.verticalScrollBar();
    const int contentHeight = bar->maximum() + bar->pageStep();

    bar->setValue(0);
    view.viewport()->repaint();
    const auto noSettle = [] {};
    const StepTimes pages = scrollThrough(
        view,
        Towards::End,
        [bar] { bar->triggerAction(QAbstractSlider::SliderPageStepAdd); },
        noSettle,
        1'000'000);
    const StepTimes wheel = scrollThrough(
        view, Towards::Start, [&view] { wheelNotch(view, 1); }, noSettle, 1'000'000);
    const double rssScrolled = procStatusMiB("VmRSS:");
    const bool reachedEnd = pages.reachedEnd && wheel.reachedEnd;

    // A compaction arrives, as the loop appends it at a turn boundary: all but the last turns
    // go behind its summary. What the UI thread does for it, until the view is painted again:
    // first on the view as the scroll-through left it, then on the history set again and
    // scrolled to its top (the same state: the user reading back, the newest items not laid
    // out), the median of them all (one figure on a shared machine is mostly its load).
    Compaction compaction;
    compaction.summary = corpusText(0, 4000);
    compaction.coveredCount = std::max<qsizetype>(1, history.size() - 20);
    AgentEvent arrived;
    arrived.type = AgentEvent::Type::MessageEnd;
    arrived.message = compaction.toMessage();
    arrived.message.timestamp = 1;
    std::vector<double> swapMs;
    std::vector<double> swapCpuMs;
    for (int swaps = 0; swaps < 5; ++swaps) {
        if (swaps > 0) {
            view.setMessages(history);
            view.viewport()->repaint();
            for (int i = 0; i < 5; ++i) { // up from the bottom, then to the top
                wheelNotch(view, 1);
                view.viewport()->repaint();
            }
            bar->setValue(0);
            view.viewport()->repaint();
        }
        QElapsedTimer swap;
        swap.start();
        const double cpu = threadCpuMs();
        view.apply(arrived);
        view.flush();
        view.viewport()->repaint();
        swapMs.push_back(msSince(swap));
        swapCpuMs.push_back(threadCpuMs() - cpu);
    }
    const double msCompaction = percentile(swapMs, 0.5);

    std::vector<double> steps = pages.ms;
    steps.insert(steps.end(), wheel.ms.begin(), wheel.ms.end());
    QJsonObject result{{QStringLiteral("bench"), QStringLiteral("history")},
                       {QStringLiteral("messages"), int(history.size())},
                       {QStringLiteral("toolResults"), double(toolResults)},
                       {QStringLiteral("bigOutputs"), double(bigOutputs)},
                       {QStringLiteral("items"), view.itemCount()},
                       {QStringLiteral("contentHeight"), contentHeight},
                       {QStringLiteral("msModel"), msModel},
                       {QStringLiteral("msShown"), msShown},
                       {QStringLiteral("paintsShown"), paintsShown},
                       {QStringLiteral("rssMiBEmptyView"), rssEmpty},
                       {QStringLiteral("rssMiBHistoryBuilt"), rssBefore},
                       {QStringLiteral("rssMiBShown"), rssShown},
                       {QStringLiteral("rssMiBScrolled"), rssScrolled},
                       {QStringLiteral("hwmMiB"), procStatusMiB("VmHWM:")},
                       {QStringLiteral("stepMsP99"), percentile(steps, 0.99)},
                       {QStringLiteral("stepMsMax"), maximum(steps)},
                       {QStringLiteral("reachedEnd"), reachedEnd},
                       {QStringLiteral("msCompactionShown"), msCompaction},
                       {QStringLiteral("msCompactionShownMax"), maximum(swapMs)},
                       {QStringLiteral("cpuMsCompactionShown"), percentile(swapCpuMs, 0.5)},
                       {QStringLiteral("compactionSwaps"), int(swapMs.size())},
                       {QStringLiteral("itemsShownAfterCompaction"), shownItems(view)}};
    for (const auto &[prefix, times] :
         {std::pair{QStringLiteral("page"), &pages}, std::pair{QStringLiteral("wheel"), &wheel}}) {
        const QJsonObject pass = times->json(prefix);
        for (auto it = pass.begin(); it != pass.end(); ++it)
            result.insert(it.key(), it.value());
    }
    printJson(result);
}

// ---- cold start -------------------------------------------------------------------------

bool makeRepository(const QString &dir)
{
    QFile readme(dir + QStringLiteral("/README.md"));
    if (!readme.open(QIODevice::WriteOnly) || readme.write("# bench\n") < 0)
        return false;
    readme.close();
    QProcess git;
    git.setWorkingDirectory(dir);
    git.start(QStringLiteral("git"), {QStringLiteral("init"), QStringLiteral("-q")});
    return git.waitForFinished(30'000) && git.exitCode() == 0;
}

struct Start
{
    double mainMs = -1;  ///< what the app measured from main() to its first paint
    double spawnMs = -1; ///< from spawning it to reading that line
};

Start startOnce(const QString &binary, const QString &repository, const QString &home)
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.insert(QStringLiteral("AGENTDESK_REPORT_FIRST_PAINT"), QStringLiteral("1"));
    for (const char *name : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"})
        environment.insert(QString::fromLatin1(name), home + QLatin1Char('/') + QLatin1String(name));
    process.setProcessEnvironment(environment);
    process.setProcessChannelMode(QProcess::ForwardedOutputChannel);
    process.setReadChannel(QProcess::StandardError);

    Start start;
    QByteArray output;
    QElapsedTimer timer;
    timer.start();
    process.start(binary, {repository});
    while (start.spawnMs < 0 && process.waitForReadyRead(10'000)) {
        output += process.readAllStandardError();
        const qsizetype at = output.indexOf("first-paint ");
        const qsizetype end = output.indexOf('\n', at);
        if (at >= 0 && end > at) {
            start.spawnMs = msSince(timer);
            start.mainMs = output.mid(at + 12, end - at - 12).trimmed().toDouble();
        }
    }
    if (!process.waitForFinished(10'000) || process.exitCode() != 0) {
        process.kill();
        process.waitForFinished();
        output += process.readAllStandardError();
        std::fprintf(stderr,
                     "bench_ui: %s did not report its first paint:\n%s\n",
                     qPrintable(binary),
                     output.constData());
        return {};
    }
    return start;
}

bool benchColdStart(const QString &binary, int starts)
{
    QTemporaryDir dir;
    QTemporaryDir home;
    if (!dir.isValid() || !home.isValid() || !makeRepository(dir.path())) {
        std::fprintf(stderr, "bench_ui: cannot create a temporary git repository\n");
        return false;
    }
    std::vector<double> mainMs;
    std::vector<double> spawnMs;
    for (int i = 0; i < starts; ++i) {
        const Start start = startOnce(binary, dir.path(), home.path());
        if (start.spawnMs < 0)
            return false;
        mainMs.push_back(start.mainMs);
        spawnMs.push_back(start.spawnMs);
    }
    const double firstSpawn = spawnMs.front();
    const double firstMain = mainMs.front();
    printJson({{QStringLiteral("bench"), QStringLiteral("coldstart")},
               {QStringLiteral("starts"), starts},
               {QStringLiteral("mainMsFirst"), firstMain},
               {QStringLiteral("mainMsBest"), *std::min_element(mainMs.begin(), mainMs.end())},
               {QStringLiteral("mainMsMedian"), percentile(mainMs, 0.5)},
               {QStringLiteral("spawnMsFirst"), firstSpawn},
               {QStringLiteral("spawnMsBest"), *std::min_element(spawnMs.begin(), spawnMs.end())},
               {QStringLiteral("spawnMsMedian"), percentile(spawnMs, 0.5)}});
    return true;
}

// ---- several sessions at once -------------------------------------------------------------

/// Runs the event loop for \a ms (timers fire, posted events and paints are delivered).
void runEventsFor(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

/// Runs the event loop until \a done, at most \a timeoutMs; false on time-out.
template<typename Done>
bool runEventsUntil(Done done, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > timeoutMs)
            return false;
        runEventsFor(5);
    }
    return true;
}

/// A window action's result, shown on the UI thread once its file was read on a worker thread.
bool resumed(const QFuture<bool> &future, int timeoutMs = 30'000)
{
    return runEventsUntil([&future] { return future.isFinished(); }, timeoutMs)
           && !future.isCanceled() && future.result();
}

/// Starts VmHWM again from the current RSS (Linux: "5" into /proc/self/clear_refs).
bool resetPeakRss()
{
    QFile clear(QStringLiteral("/proc/self/clear_refs"));
    return clear.open(QIODevice::WriteOnly) && clear.write("5") == 1;
}

/// RSS in MiB once freed memory went back to the system (as far as malloc gives it back).
double trimmedRssMiB()
{
    runEventsFor(200); // deferred deletes and late layouts
#ifdef __GLIBC__
    malloc_trim(0);
#endif
    return procStatusMiB("VmRSS:");
}

/// The window's own action for \a keys (Ctrl+N, Ctrl+1...9): what the keyboard triggers.
QAction *windowAction(const Ui::MainWindow &window, const QKeySequence &keys)
{
    const QList<QAction *> actions = window.findChildren<QAction *>();
    for (QAction *action : actions) {
        if (action->shortcut() == keys)
            return action;
    }
    return nullptr;
}

QAction *sessionAction(const Ui::MainWindow &window, int index)
{
    return windowAction(window, QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + index)));
}

bool fail(const char *what)
{
    std::fprintf(stderr, "bench_ui: %s\n", what);
    return false;
}

/// A git repository for the window, with the file the paced models read, and a sessions
/// folder of its own.
struct BenchRepository
{
    QTemporaryDir root;
    QTemporaryDir sessions;

    bool make()
    {
        if (!root.isValid() || !sessions.isValid() || !makeRepository(root.path()))
            return false;
        QDir(root.path()).mkpath(QStringLiteral("src"));
        QFile file(root.filePath(QStringLiteral("src/agentloop.cpp")));
        return file.open(QIODevice::WriteOnly) && file.write(fileListing(3000, 0).toUtf8()) > 0;
    }

    /// A session file of this repository holding \a messages.
    QString writeSession(const QString &name, const QList<Message> &messages) const
    {
        const QString path = QDir(sessions.path()).filePath(name + QStringLiteral(".jsonl"));
        QString error;
        const std::unique_ptr<SessionLog> log
            = SessionLog::open(path, SessionStore::newHeader(root.path()), &error);
        for (const Message &message : messages) {
            if (!log || !log->appendMessage(message, &error))
                break;
        }
        if (!error.isEmpty()) {
            std::fprintf(stderr, "bench_ui: %s: %s\n", qPrintable(path), qPrintable(error));
            return {};
        }
        return path;
    }
};

/// The app's window on \a repository, offscreen, with its first (new) session ready. Every
/// session gets a model of its own later; this one is never asked.
std::unique_ptr<Ui::MainWindow> openWindow(const BenchRepository &repository)
{
    Ui::AgentSetup setup;
    setup.model.client = std::make_shared<PacedModel>(1, 1, 0);
    setup.model.label = QStringLiteral("paced");
    setup.options.systemPrompt = QStringLiteral("bench");
    setup.options.context.autoCompact = false;
    setup.sessionsDirectory = repository.sessions.path();
    auto window = std::make_unique<Ui::MainWindow>(setup);
    window->resize(1200, 760);
    window->show();
    if (!window->openRepository(repository.root.path())
        || !runEventsUntil([&] { return window->session() && window->session()->agent(); },
                           30'000)) {
        fail("the window did not open its repository");
        return nullptr;
    }
    runEventsFor(200);
    return window;
}

/// N sessions in one window, each streaming from a model of its own (the combined rate spread
/// over them) while the user switches to the next one every 500 ms with Ctrl+1...N.
bool benchSessions(int count, double seconds, int tokensPerSecond)
{
    BenchRepository repository;
    if (!repository.make())
        return fail("cannot create a temporary git repository");
    const std::unique_ptr<Ui::MainWindow> window = openWindow(repository);
    if (!window)
        return false;
    QAction *newSession = windowAction(*window, QKeySequence::New);
    if (!newSession)
        return fail("the window has no Ctrl+N action");

    // Each starts its task as soon as it is open (Ctrl+N keeps a running session open beside
    // the new one, an unused one it closes); the measurement starts once all of them stream:
    // opening a session is not what it measures.
    const int perSession = std::max(1, tokensPerSecond / count);
    std::vector<std::shared_ptr<PacedModel>> models;
    QList<Ui::AgentSession *> sessions;
    qint64 deliveredChars = 0;
    for (int i = 0; i < count; ++i) {
        if (i > 0) {
            newSession->trigger();
            if (window->session() == sessions.constLast())
                return fail("Ctrl+N did not open a session");
        }
        Ui::AgentSession *session = window->session();
        auto model = std::make_shared<PacedModel>(seconds,
                                                  perSession,
                                                  2000,
                                                  QJsonObject{
                                                      {QStringLiteral("file_path"),
                                                       QStringLiteral("src/agentloop.cpp")}});
        Ui::ModelChoice choice;
        choice.client = model;
        choice.label = QStringLiteral("paced %1").arg(i + 1);
        session->setModel(choice);
        if (!runEventsUntil([session] { return session->agent() != nullptr; }, 30'000))
            return fail("a session's agent did not start");
        QObject::connect(session->agent(),
                         &Agent::eventEmitted,
                         window.get(),
                         [&deliveredChars](const AgentEvent &event) {
                             if (event.type == AgentEvent::Type::MessageUpdate
                                 && event.streamEvent.type == StreamEvent::Type::TextDelta)
                                 deliveredChars += event.streamEvent.delta.size();
                         });
        models.push_back(model);
        sessions.append(session);
        session->send(QStringLiteral("Explain the agent loop, reading the files you need."));
    }
    if (window->openSessions()->count() != count)
        return fail("not every session stayed open");

    std::vector<double> gaps;
    std::vector<double> gapsCpu;
    gaps.reserve(size_t(seconds * 1100) + 100);
    gapsCpu.reserve(gaps.capacity());
    double beatCpu = 0;
    QElapsedTimer beat;
    QTimer heartbeat;
    heartbeat.setTimerType(Qt::PreciseTimer);
    heartbeat.setInterval(1);
    QObject::connect(&heartbeat, &QTimer::timeout, &heartbeat, [&] {
        gaps.push_back(msSince(beat));
        beat.start();
        const double cpu = threadCpuMs();
        gapsCpu.push_back(cpu - beatCpu);
        beatCpu = cpu;
    });
    // The user: the next session every 500 ms, as Ctrl+1...9 do it (beyond nine, the list).
    int shown = count - 1;
    int switches = 0;
    QTimer user;
    user.setInterval(500);
    QObject::connect(&user, &QTimer::timeout, &user, [&] {
        shown = (shown + 1) % count;
        if (QAction *action = shown < 9 ? sessionAction(*window, shown) : nullptr)
            action->trigger();
        else
            window->openSessions()->setCurrent(sessions.at(shown));
        switches += window->session() == sessions.at(shown);
    });

    benchApp()->watchAll();
    benchApp()->resetPaints();
    qint64 sentBefore = 0;
    for (const auto &model : models)
        sentBefore += model->tokensSent();
    const qint64 deliveredBefore = deliveredChars;
    QElapsedTimer wall;
    wall.start();
    beat.start();
    beatCpu = threadCpuMs();
    heartbeat.start();
    user.start();
    const bool ended = runEventsUntil(
        [&] {
            return wall.elapsed() > seconds * 1000 && window->openSessions()->runningCount() == 0;
        },
        int(seconds * 1000) + 60'000);
    user.stop();
    heartbeat.stop();
    const double wallSeconds = msSince(wall) / 1000;
    if (!ended)
        return fail("the sessions did not finish");
    runEventsFor(100);

    qint64 sent = -sentBefore; // counted while measured
    for (const auto &model : models)
        sent += model->tokensSent();
    deliveredChars -= deliveredBefore;
    const std::vector<double> &paints = benchApp()->paintMs();
    printJson(
        {{QStringLiteral("bench"), QStringLiteral("sessions")},
         {QStringLiteral("sessions"), count},
         {QStringLiteral("seconds"), wallSeconds},
         {QStringLiteral("tokensPerSecondTarget"), tokensPerSecond},
         {QStringLiteral("tokensSent"), double(sent)},
         {QStringLiteral("tokensDelivered"), double(deliveredChars / CharsPerToken)},
         {QStringLiteral("tokensPerSecond"), double(deliveredChars / CharsPerToken) / wallSeconds},
         {QStringLiteral("switches"), switches},
         {QStringLiteral("paints"), int(paints.size())},
         {QStringLiteral("paintMsP99"), percentile(paints, 0.99)},
         {QStringLiteral("paintMsMax"), maximum(paints)},
         {QStringLiteral("heartbeats"), double(gaps.size())},
         {QStringLiteral("gapMsP50"), percentile(gaps, 0.5)},
         {QStringLiteral("gapMsP99"), percentile(gaps, 0.99)},
         {QStringLiteral("stallMsMax"), maximum(gaps)},
         {QStringLiteral("gapCpuMsP99"), percentile(gapsCpu, 0.99)},
         {QStringLiteral("stallCpuMsMax"), maximum(gapsCpu)},
         {QStringLiteral("rssMiB"), procStatusMiB("VmRSS:")}});
    return true;
}

/// What an idle open session costs beyond its conversation: RSS before and after resuming
/// \a count sessions with empty conversations next to the one already open.
bool benchIdleSessions(int count)
{
    BenchRepository repository;
    if (!repository.make())
        return fail("cannot create a temporary git repository");
    QStringList paths;
    for (int i = 0; i <= count; ++i)
        paths.append(repository.writeSession(QStringLiteral("idle-%1").arg(i), {}));
    if (paths.contains(QString()))
        return false;
    const std::unique_ptr<Ui::MainWindow> window = openWindow(repository);
    if (!window)
        return false;
    const auto resume = [&window](const QString &path) {
        return resumed(window->resumeSession(path))
               && runEventsUntil([&window] { return window->session()->agent() != nullptr; },
                                 30'000);
    };
    // The window's first session is replaced by the first resumed one (an unused new one
    // closes), so both figures have the same window, page and first session.
    if (!resume(paths.first()))
        return fail("cannot resume an empty session");
    const double before = trimmedRssMiB();
    const int openBefore = window->openSessions()->count();
    for (const QString &path : paths.mid(1)) {
        if (!resume(path))
            return fail("cannot resume an empty session");
    }
    const double after = trimmedRssMiB();
    const int opened = window->openSessions()->count() - openBefore;
    if (opened != count)
        return fail("not every idle session stayed open");
    printJson({{QStringLiteral("bench"), QStringLiteral("idle")},
               {QStringLiteral("sessions"), opened},
               {QStringLiteral("rssMiBBefore"), before},
               {QStringLiteral("rssMiBAfter"), after},
               {QStringLiteral("mibPerSession"), (after - before) / opened},
               {QStringLiteral("threads"),
                int(QDir(QStringLiteral("/proc/self/task"))
                        .entryList(QDir::Dirs | QDir::NoDotAndDotDot)
                        .size())}});
    return true;
}

/// The time to switch to an open session of \a size messages (resumed once), from the switch
/// (Ctrl+1) to its page's first paint: the median of \a switches, after switching away.
bool benchSwitch(int size, int switches)
{
    BenchRepository repository;
    if (!repository.make())
        return fail("cannot create a temporary git repository");
    const QString longPath = repository.writeSession(QStringLiteral("long"), makeHistory(size));
    const QString shortPath = repository.writeSession(QStringLiteral("short"),
                                                      {Message::makeUser(
                                                          QStringLiteral("a short task"))});
    if (longPath.isEmpty() || shortPath.isEmpty())
        return false;
    const std::unique_ptr<Ui::MainWindow> window = openWindow(repository);
    if (!window)
        return false;

    // The session is read on a worker and its page made on the answer, inside resumed()'s
    // event loop: the paints of whichever page is the resumed session's count from the start.
    const Ui::AgentSession *first = window->session();
    benchApp()->resetPaints();
    benchApp()->watchCurrent([&window, first]() -> const QWidget * {
        if (window->session() == first)
            return nullptr;
        return window->conversationPage()->conversation()->viewport();
    });
    QElapsedTimer timer;
    timer.start();
    if (!resumed(window->resumeSession(longPath)))
        return fail("cannot resume the long session");
    if (!runEventsUntil([] { return benchApp()->paints() > 0; }, 60'000))
        return fail("the long session was never painted");
    const double msResumed = msSince(timer);
    Ui::AgentSession *longSession = window->session();
    const QWidget *longViewport = window->conversationPage()->conversation()->viewport();
    benchApp()->watch(longViewport);
    const int items = window->conversationPage()->conversation()->itemCount();
    if (!resumed(window->resumeSession(shortPath)) || window->openSessions()->count() != 2)
        return fail("cannot open the short session beside the long one");
    runEventsFor(300);

    QAction *toLong = sessionAction(*window, window->openSessions()->indexOf(longSession));
    QAction *away = sessionAction(*window, window->openSessions()->indexOf(window->session()));
    if (!toLong || !away)
        return fail("the window has no Ctrl+1 / Ctrl+2 actions");
    std::vector<double> ms;
    std::vector<double> cpuMs;
    for (int i = 0; i < switches; ++i) {
        away->trigger();
        runEventsFor(200);
        benchApp()->resetPaints();
        timer.start();
        const double cpu = threadCpuMs();
        toLong->trigger();
        if (!runEventsUntil([] { return benchApp()->paints() > 0; }, 10'000))
            return fail("the long session's page was not painted after a switch");
        ms.push_back(msSince(timer));
        cpuMs.push_back(threadCpuMs() - cpu);
        if (window->session() != longSession)
            return fail("Ctrl+1 did not show the long session");
        runEventsFor(100);
    }
    printJson({{QStringLiteral("bench"), QStringLiteral("switch")},
               {QStringLiteral("messages"), size},
               {QStringLiteral("items"), items},
               {QStringLiteral("msResumedShown"), msResumed},
               {QStringLiteral("switches"), switches},
               {QStringLiteral("msMedian"), percentile(ms, 0.5)},
               {QStringLiteral("msMax"), maximum(ms)},
               {QStringLiteral("cpuMsMedian"), percentile(cpuMs, 0.5)}});
    return true;
}

// ---- a long session resumed, and a long session live ---------------------------------------

/// The window's conversation view of the session shown.
Ui::ConversationView *shownConversation(const Ui::MainWindow &window)
{
    return window.conversationPage()->conversation();
}

/// A session file as a long session leaves it: \a size messages of makeHistory() (a Read of
/// 100 KB in every block of ten), written message by message with SessionLog as the recorder
/// writes them, and a compaction whenever the context would have filled: a 200,000-token
/// window, a summary once a request passes 70% of it (less the 16,000 kept for the reply),
/// keeping the latest block verbatim (a fifth of the window, as ContextSettings keeps). A real
/// agent could not hold 200 MB of context: this is what its file holds instead.
struct LongSession
{
    QString path;
    int messages = 0; ///< of the history, compactions not counted
    int compactions = 0;
    int bigOutputs = 0;
    qint64 bytes = 0;
};

LongSession writeLongSession(const BenchRepository &repository, int size)
{
    LongSession session;
    session.path = QDir(repository.sessions.path()).filePath(QStringLiteral("long.jsonl"));
    QString error;
    const std::unique_ptr<SessionLog> log
        = SessionLog::open(session.path, SessionStore::newHeader(repository.root.path()), &error);
    if (!log) {
        std::fprintf(stderr, "bench_ui: %s: %s\n", qPrintable(session.path), qPrintable(error));
        return {};
    }
    const QList<Message> history = makeHistory(size);
    constexpr qint64 windowTokens = 200'000;
    constexpr qint64 usable = windowTokens - 16'000;
    const auto threshold = qint64(0.7 * usable);
    qint64 raw = 0;           // messages in the file: the raw index of the next one
    qint64 blockRaw = 0;      // the raw index of the current block's prompt
    qsizetype blockFirst = 0; // its index in the history
    qint64 viewTokens = 0;    // what the next request would carry, estimated
    for (const Message &message : history) {
        if (message.role == Message::Role::User) {
            // A turn boundary: compact when the context passed the threshold, keeping the
            // block that just ended.
            if (viewTokens > threshold && raw > 0) {
                Compaction compaction;
                compaction.summary = corpusText(raw * 7, 4000);
                compaction.coveredCount = blockRaw;
                compaction.model = QStringLiteral("paced");
                compaction.timestamp = QDateTime::currentMSecsSinceEpoch();
                if (!log->appendMessage(compaction.toMessage(), &error))
                    break;
                ++raw;
                ++session.compactions;
                viewTokens = estimateTokens(QStringView(compaction.summary));
                for (qsizetype i = blockFirst; i < qsizetype(session.messages); ++i)
                    viewTokens += estimateTokens(history.at(i));
            }
            blockRaw = raw;
            blockFirst = session.messages;
        }
        if (!log->appendMessage(message, &error))
            break;
        ++raw;
        ++session.messages;
        viewTokens += estimateTokens(message);
        session.bigOutputs += message.isToolResult() && message.text().size() >= 100 * 1024;
    }
    if (error.isEmpty())
        log->sync(&error);
    if (!error.isEmpty()) {
        std::fprintf(stderr, "bench_ui: %s: %s\n", qPrintable(session.path), qPrintable(error));
        return {};
    }
    session.bytes = QFileInfo(session.path).size();
    return session;
}

/// Resumes a long session in the window (as the sessions list does: MainWindow::resumeSession)
/// and measures: the time to its first paint with its conversation in it, the resident memory
/// once it settled, and two scroll passes through it, each with the mouse wheel from the
/// bottom to the top and then page by page back down (the growth of the second over the
/// first), with at most \a stepsPerPass steps a pass.
bool benchResume(int size, int stepsPerPass)
{
    BenchRepository repository;
    if (!repository.make())
        return fail("cannot create a temporary git repository");
    QElapsedTimer writing;
    writing.start();
    const LongSession written = writeLongSession(repository, size);
    if (written.path.isEmpty())
        return false;
    const double msWritten = msSince(writing);
    const std::unique_ptr<Ui::MainWindow> window = openWindow(repository);
    if (!window)
        return false;
    const double rssWindow = trimmedRssMiB();
    // The history the file was written from peaked at twice its text (UTF-16): the peak to
    // report is the resume's.
    const bool peakReset = resetPeakRss();

    // Its first paint with the conversation in it: the paints of whichever page is the resumed
    // session's, once its conversation has items.
    const Ui::AgentSession *first = window->session();
    benchApp()->resetPaints();
    benchApp()->watchCurrent([&window, first]() -> const QWidget * {
        if (window->session() == first || shownConversation(*window)->itemCount() == 0)
            return nullptr;
        return shownConversation(*window)->viewport();
    });
    QElapsedTimer timer;
    timer.start();
    const double cpuStart = threadCpuMs();
    const QFuture<bool> resuming = window->resumeSession(written.path);
    if (!runEventsUntil([] { return benchApp()->paints() > 0; }, 120'000))
        return fail("the long session was never painted");
    const double msFirstPaint = msSince(timer);
    const double cpuMsFirstPaint = threadCpuMs() - cpuStart;
    if (!resumed(resuming, 120'000))
        return fail("cannot resume the long session");
    const double msResumed = msSince(timer);
    Ui::ConversationView *view = shownConversation(*window);
    benchApp()->watch(view->viewport());
    // Steady: what the window holds once the resume's work is done, as the user sees it in a
    // system monitor (and after malloc_trim, what it could give back).
    runEventsFor(1000);
    const double rssSteady = procStatusMiB("VmRSS:");
    const double rssSteadyTrimmed = trimmedRssMiB();
    const double hwmResume = procStatusMiB("VmHWM:");

    // Resumed, the latest summary stands in for everything before its kept tail (each
    // compaction covers the ones before it): the user reading back shows the originals first,
    // with Enter on the summary, as the view offers. The passes then go through all of it.
    const int itemsShownResumed = shownItems(*view);
    view->setFocus();
    QElapsedTimer expanding;
    expanding.start();
    QKeyEvent enter(QEvent::KeyPress, Qt::Key_Return, Qt::NoModifier);
    QCoreApplication::sendEvent(view, &enter);
    view->flush();
    view->viewport()->repaint();
    const double msOriginalsShown = msSince(expanding);
    const int itemsShown = shownItems(*view);
    if (itemsShown <= itemsShownResumed)
        return fail("Enter on the summary did not show the original messages");
    runEventsFor(200);

    QScrollBar *bar = view->verticalScrollBar();
    const auto settle = [] { QCoreApplication::processEvents(); };
    const auto wheelPass = [&] {
        return scrollThrough(
            *view, Towards::Start, [view] { wheelNotch(*view, 1); }, settle, stepsPerPass);
    };
    const auto pagePass = [&] {
        return scrollThrough(
            *view,
            Towards::End,
            [bar] { bar->triggerAction(QAbstractSlider::SliderPageStepAdd); },
            settle,
            stepsPerPass);
    };
    const StepTimes wheel1 = wheelPass();
    const double rssWheel1 = trimmedRssMiB();
    const StepTimes page1 = pagePass();
    const double rssPage1 = trimmedRssMiB();
    const StepTimes wheel2 = wheelPass();
    const double rssWheel2 = trimmedRssMiB();
    const StepTimes page2 = pagePass();
    const double rssPage2 = trimmedRssMiB();

    std::vector<double> wheelMs = wheel1.ms;
    wheelMs.insert(wheelMs.end(), wheel2.ms.begin(), wheel2.ms.end());
    std::vector<double> pageMs = page1.ms;
    pageMs.insert(pageMs.end(), page2.ms.begin(), page2.ms.end());
    QJsonObject result{{QStringLiteral("bench"), QStringLiteral("resume")},
                       {QStringLiteral("messages"), written.messages},
                       {QStringLiteral("compactions"), written.compactions},
                       {QStringLiteral("bigOutputs"), written.bigOutputs},
                       {QStringLiteral("fileMiB"), double(written.bytes) / 1048576},
                       {QStringLiteral("msWritten"), msWritten},
                       {QStringLiteral("items"), view->itemCount()},
                       {QStringLiteral("itemsShownResumed"), itemsShownResumed},
                       {QStringLiteral("itemsShown"), itemsShown},
                       {QStringLiteral("msOriginalsShown"), msOriginalsShown},
                       {QStringLiteral("contentHeight"), bar->maximum() + bar->pageStep()},
                       {QStringLiteral("msFirstPaint"), msFirstPaint},
                       {QStringLiteral("cpuMsFirstPaint"), cpuMsFirstPaint},
                       {QStringLiteral("msResumed"), msResumed},
                       {QStringLiteral("rssMiBWindow"), rssWindow},
                       {QStringLiteral("rssMiBSteady"), rssSteady},
                       {QStringLiteral("rssMiBSteadyTrimmed"), rssSteadyTrimmed},
                       {QStringLiteral("hwmMiBResume"), hwmResume},
                       {QStringLiteral("peakReset"), peakReset},
                       {QStringLiteral("rssMiBWheel1"), rssWheel1},
                       {QStringLiteral("rssMiBPage1"), rssPage1},
                       {QStringLiteral("rssMiBWheel2"), rssWheel2},
                       {QStringLiteral("rssMiBPage2"), rssPage2},
                       {QStringLiteral("growthMiBWheel"), rssWheel2 - rssWheel1},
                       {QStringLiteral("growthMiBPage"), rssPage2 - rssPage1},
                       {QStringLiteral("hwmMiB"), procStatusMiB("VmHWM:")},
                       {QStringLiteral("wheelStepMsP99"), percentile(wheelMs, 0.99)},
                       {QStringLiteral("wheelStepMsMax"), maximum(wheelMs)},
                       {QStringLiteral("pageStepMsP99"), percentile(pageMs, 0.99)},
                       {QStringLiteral("pageStepMsMax"), maximum(pageMs)},
                       {QStringLiteral("reachedEnd"),
                        wheel1.reachedEnd && page1.reachedEnd && wheel2.reachedEnd
                            && page2.reachedEnd}};
    for (const auto &[prefix, times] : {std::pair{QStringLiteral("wheel1"), &wheel1},
                                        std::pair{QStringLiteral("page1"), &page1},
                                        std::pair{QStringLiteral("wheel2"), &wheel2},
                                        std::pair{QStringLiteral("page2"), &page2}}) {
        const QJsonObject pass = times->json(prefix);
        for (auto it = pass.begin(); it != pass.end(); ++it)
            result.insert(it.key(), it.value());
    }
    printJson(result);
    return true;
}

/// A model that answers every turn with a line of text and a Read of the next of the
/// repository's 100 KB files, \a turns times, then "done"; a summary request (the compaction's,
/// told by its system prompt's first line) gets a summary. Called on the loop's thread and on
/// the summary's: its state is atomic.
class ReadingModel final : public ModelClient
{
public:
    ReadingModel(int turns, int files)
        : m_turns(turns)
        , m_files(files)
    {}

    int turns() const { return m_turn.load(); }
    int summaries() const { return m_summaries.load(); }

    Message complete(const Context &context,
                     const AbortToken &,
                     const StreamEventSink &sink) override
    {
        Message message;
        message.role = Message::Role::Assistant;
        message.api = message.provider = message.model = QStringLiteral("paced");
        if (context.systemPrompt.startsWith(summaryRequestMarker())) {
            const int n = ++m_summaries;
            message.content.append(ContentBlock::makeText(corpusText(n * 311, 4000)));
            message.stopReason = StopReason::Stop;
            return message; // the summary request is not streamed to anyone
        }
        // A model takes its time: without it the loop would run ahead of the window, whose
        // queue of events (each with its 100 KB) would be measured instead of what it keeps.
        QThread::msleep(TurnMs);
        const int turn = ++m_turn;
        const bool reading = turn <= m_turns;
        const QString text = reading ? corpusText(turn * 53, 160) : QStringLiteral("done");
        sink(StreamEvent::make(StreamEvent::Type::Start));
        sink(StreamEvent::make(StreamEvent::Type::TextStart, 0));
        sink(StreamEvent::make(StreamEvent::Type::TextDelta, 0, text));
        sink(StreamEvent::make(StreamEvent::Type::TextEnd, 0));
        message.content.append(ContentBlock::makeText(text));
        message.stopReason = reading ? StopReason::ToolUse : StopReason::Stop;
        if (reading) {
            const QString id = QStringLiteral("read_%1").arg(turn);
            const QString name = QStringLiteral("Read");
            const QJsonObject arguments{
                {QStringLiteral("file_path"),
                 QStringLiteral("src/output-%1.txt").arg(turn % m_files, 3, 10, QLatin1Char('0'))}};
            for (const auto type :
                 {StreamEvent::Type::ToolCallStart, StreamEvent::Type::ToolCallEnd}) {
                StreamEvent event = StreamEvent::make(type, 1);
                event.toolCallId = id;
                event.toolName = name;
                if (type == StreamEvent::Type::ToolCallEnd)
                    event.arguments = arguments;
                sink(event);
            }
            message.content.append(ContentBlock::makeToolCall(id, name, arguments));
        }
        StreamEvent done = StreamEvent::make(StreamEvent::Type::Done);
        done.stopReason = message.stopReason;
        sink(done);
        return message;
    }

    /// How long each answer takes (the summaries take no time).
    static constexpr int TurnMs = 20;

private:
    const int m_turns;
    const int m_files;
    std::atomic<int> m_turn{0};
    std::atomic<int> m_summaries{0};
};

/// A live session of \a turns turns in the window, each a Read of a 100 KB file (\a files of
/// them in the repository, read in turn: a Read of a file already in the context would answer
/// "unchanged"), recorded in its session file, compacting as the context fills (a 200,000-token
/// window): the resident memory sampled every 10 turns, reported at 25, 50, 75 and 100%.
bool benchLive(int turns, int files)
{
    BenchRepository repository;
    if (!repository.make())
        return fail("cannot create a temporary git repository");
    for (int i = 0; i < files; ++i) {
        QFile file(repository.root.filePath(
            QStringLiteral("src/output-%1.txt").arg(i, 3, 10, QLatin1Char('0'))));
        if (!file.open(QIODevice::WriteOnly) || file.write(fileListing(100 * 1024, i).toUtf8()) < 0)
            return fail("cannot write the files to read");
    }
    const std::unique_ptr<Ui::MainWindow> window = openWindow(repository);
    if (!window)
        return false;
    Ui::AgentSession *session = window->session();
    auto model = std::make_shared<ReadingModel>(turns, files);
    Ui::ModelChoice choice;
    choice.client = model;
    choice.label = QStringLiteral("reading");
    session->setModel(choice);
    if (!runEventsUntil([session] { return session->agent() && session->contextManager(); }, 30'000))
        return fail("the session's agent did not start");
    ContextSettings context = session->contextManager()->settings();
    context.windowTokens = 200'000;
    context.autoCompact = true;
    session->contextManager()->setSettings(context);

    std::vector<double> rss; // at every 10th turn's end
    std::vector<double> heap;
    std::vector<int> rssTurns;
    int turnEnds = 0;
    int bigOutputs = 0;
    int compactions = 0;
    bool ended = false;
    QElapsedTimer wall;
    QObject::connect(session->agent(),
                     &Agent::eventEmitted,
                     window.get(),
                     [&](const AgentEvent &event) {
                         if (event.type == AgentEvent::Type::ToolExecutionEnd)
                             bigOutputs += event.result.text().size() >= 90 * 1024;
                         ended = ended || event.type == AgentEvent::Type::AgentEnd;
                         if (event.type == AgentEvent::Type::MessageEnd
                             && Compaction::of(event.message))
                             ++compactions;
                         if (event.type != AgentEvent::Type::TurnEnd)
                             return;
                         if (++turnEnds % 10 == 0) {
                             rss.push_back(procStatusMiB("VmRSS:"));
                             heap.push_back(heapInUseMiB());
                             rssTurns.push_back(turnEnds);
                         }
                     });
    const double rssBefore = trimmedRssMiB();
    wall.start();
    session->send(QStringLiteral("Read the outputs one by one and tell me what they hold."));
    if (!runEventsUntil([&] { return ended && window->openSessions()->runningCount() == 0; },
                        600'000))
        return fail("the live session did not finish");
    if (turnEnds <= turns) {
        std::fprintf(stderr, "bench_ui: the live run ended after %d turns\n", turnEnds);
        return false;
    }
    const double seconds = msSince(wall) / 1000;
    runEventsFor(500);
    const auto sampleAt = [&](const std::vector<double> &samples, double share) {
        const int turn = int(share * turns) / 10 * 10;
        for (size_t i = 0; i < rssTurns.size(); ++i) {
            if (rssTurns[i] >= turn)
                return samples[i];
        }
        return samples.empty() ? -1.0 : samples.back();
    };
    const auto at = [&](double share) { return sampleAt(rss, share); };
    const double half = at(0.5);
    const double end = at(1.0);
    // What the session itself keeps a turn (its histories, the cards), apart from what the
    // allocator holds freed: the growth that is the program's own.
    const double heapHalf = sampleAt(heap, 0.5);
    const double heapEnd = sampleAt(heap, 1.0);
    printJson(
        {{QStringLiteral("bench"), QStringLiteral("live")},
         {QStringLiteral("turns"), turnEnds - 1}, // the last one answers
         {QStringLiteral("bigOutputs"), bigOutputs},
         {QStringLiteral("compactions"), compactions},
         {QStringLiteral("summaries"), model->summaries()},
         {QStringLiteral("seconds"), seconds},
         {QStringLiteral("fileMiB"), double(QFileInfo(session->sessionPath()).size()) / 1048576},
         {QStringLiteral("items"), shownConversation(*window)->itemCount()},
         {QStringLiteral("rssMiBBefore"), rssBefore},
         {QStringLiteral("rssMiB25"), at(0.25)},
         {QStringLiteral("rssMiB50"), half},
         {QStringLiteral("rssMiB75"), at(0.75)},
         {QStringLiteral("rssMiB100"), end},
         {QStringLiteral("rssMiBMax"), maximum(rss)},
         {QStringLiteral("growthSecondHalf"), half > 0 ? end / half - 1 : -1},
         {QStringLiteral("heapMiB50"), heapHalf},
         {QStringLiteral("heapMiB100"), heapEnd},
         {QStringLiteral("heapKiBPerTurnSecondHalf"),
          (heapEnd - heapHalf) * 1024 / std::max(1, turns - turns / 2)},
         {QStringLiteral("rssMiBEndTrimmed"), trimmedRssMiB()},
         {QStringLiteral("hwmMiB"), procStatusMiB("VmHWM:")}});
    return true;
}

int usage()
{
    std::fprintf(stderr,
                 "usage: bench_ui stream [SECONDS] [TOKENS_PER_SECOND] [TOKENS_PER_TURN]\n"
                 "       bench_ui history [MESSAGES]\n"
                 "       bench_ui coldstart [AGENTDESK_BINARY] [STARTS]\n"
                 "       bench_ui sessions [SESSIONS] [SECONDS] [TOKENS_PER_SECOND]\n"
                 "       bench_ui idle [SESSIONS]\n"
                 "       bench_ui switch [MESSAGES] [SWITCHES]\n"
                 "       bench_ui resume [MESSAGES] [STEPS_PER_PASS]\n"
                 "       bench_ui live [TURNS] [FILES]\n");
    return 2;
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    BenchApplication app(argc, argv);
    // The window's settings and data of the session benches stay out of the user's.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("AgentDeskBench"));
    QCoreApplication::setApplicationName(QStringLiteral("bench_ui"));
    const QStringList args = app.arguments().mid(1);
    const QString mode = args.value(0);
    const auto number = [&args](int index, double fallback) {
        return args.size() > index ? args.at(index).toDouble() : fallback;
    };
    if (mode == QLatin1String("stream")) {
        const double seconds = number(1, 30);
        const int rate = int(number(2, 5000));
        const int perTurn = int(number(3, 2000));
        if (seconds <= 0 || rate <= 0 || perTurn < 0)
            return usage();
        benchStream(seconds, rate, perTurn);
    } else if (mode == QLatin1String("history")) {
        const int size = int(number(1, 2000));
        if (size <= 0)
            return usage();
        benchHistory(size);
    } else if (mode == QLatin1String("coldstart")) {
        const QString binary = args.value(1,
                                          app.applicationDirPath() + QStringLiteral("/agentdesk"));
        const int starts = int(number(2, 10));
        if (starts <= 0)
            return usage();
        return benchColdStart(binary, starts) ? 0 : 1;
    } else if (mode == QLatin1String("sessions")) {
        const int count = int(number(1, 8));
        const double seconds = number(2, 30);
        const int rate = int(number(3, 5000));
        if (count <= 0 || seconds <= 0 || rate <= 0)
            return usage();
        return benchSessions(count, seconds, rate) ? 0 : 1;
    } else if (mode == QLatin1String("idle")) {
        const int count = int(number(1, 8));
        if (count <= 0 || count >= 9) // the window keeps at most nine open
            return usage();
        return benchIdleSessions(count) ? 0 : 1;
    } else if (mode == QLatin1String("switch")) {
        const int size = int(number(1, 2000));
        const int switches = int(number(2, 15));
        if (size <= 0 || switches <= 0)
            return usage();
        return benchSwitch(size, switches) ? 0 : 1;
    } else if (mode == QLatin1String("resume")) {
        const int size = int(number(1, 20000));
        const int steps = int(number(2, 1000));
        if (size <= 0 || steps < 50)
            return usage();
        return benchResume(size, steps) ? 0 : 1;
    } else if (mode == QLatin1String("live")) {
        const int turns = int(number(1, 1000));
        const int files = int(number(2, 100));
        if (turns < 10 || files <= 0)
            return usage();
        return benchLive(turns, files) ? 0 : 1;
    } else if (mode.isEmpty()) {
        benchStream(30, 5000, 2000);
        benchHistory(2000);
        return benchColdStart(app.applicationDirPath() + QStringLiteral("/agentdesk"), 10) ? 0 : 1;
    } else {
        return usage();
    }
    return 0;
}
