// The context layer's costs on a long conversation (issue #17): the swap at a turn boundary
// (a compaction appended, the next request's view built and projected: what the loop's thread
// does before that request; target < 10 ms for 2,000 messages), the token estimate of the
// history (target < 5 ms) and the plan of where to cut.
//
// usage: bench_compaction [MESSAGES] [REPEATS]
//        one JSON line per measurement: best and median of REPEATS, in milliseconds.
#include <context/compaction.h>
#include <context/compactionplan.h>
#include <context/contextview.h>
#include <context/tokenestimate.h>
#include <loop/toolprotocol.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

using namespace AgentCore;

namespace {

// One long task: a prompt, then tool turns whose outputs are about 2 KB each.
QList<Message> conversation(int count)
{
    QList<Message> messages{Message::makeUser(QStringLiteral("Fix the failing tests"))};
    int call = 0;
    while (messages.size() < count) {
        Message reply;
        reply.role = Message::Role::Assistant;
        reply.stopReason = StopReason::ToolUse;
        const QString id = QStringLiteral("call_%1").arg(call++);
        reply.content = {ContentBlock::makeText(QStringLiteral("Reading the next file.")),
                         ContentBlock::makeToolCall(id,
                                                    QStringLiteral("Read"),
                                                    {{"file_path",
                                                      QStringLiteral("src/f%1.cpp").arg(call)}})};
        messages.append(reply);
        messages.append(
            Message::makeToolResult(id, QStringLiteral("Read"), QString(2048, u'x'), false));
    }
    return messages;
}

void measure(const char *name, int messages, int repeats, const std::function<void()> &body)
{
    std::vector<double> times;
    for (int i = 0; i < repeats; ++i) {
        QElapsedTimer timer;
        timer.start();
        body();
        times.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    std::sort(times.begin(), times.end());
    QJsonObject line{{"bench", "compaction"},
                     {"name", QString::fromLatin1(name)},
                     {"messages", messages},
                     {"bestMs", times.front()},
                     {"medianMs", times[times.size() / 2]}};
    std::printf("%s\n", QJsonDocument(line).toJson(QJsonDocument::Compact).constData());
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int count = args.size() > 1 ? args.at(1).toInt() : 2000;
    const int repeats = args.size() > 2 ? args.at(2).toInt() : 20;
    const QList<Message> history = conversation(count);
    const std::optional<CompactionPlan> plan = planCompaction(history, {}, 20'000);
    if (!plan) {
        std::fprintf(stderr, "bench_compaction: no plan\n");
        return 2;
    }
    Compaction compaction;
    compaction.summary = QString(4000, u's');
    compaction.coveredCount = plan->coveredCount;
    const Message compactionMessage = compaction.toMessage();

    qsizetype sink = 0;
    measure("swap at a turn boundary", count, repeats, [&] {
        QList<Message> next = history;
        next.append(compactionMessage);
        sink += projectToolCallProtocol(contextView(next)).size();
    });
    measure("view without a compaction", count, repeats, [&] {
        sink += projectToolCallProtocol(contextView(history)).size();
    });
    measure("token estimate of the history", count, repeats, [&] {
        qint64 tokens = 0;
        for (const Message &message : history)
            tokens += estimateTokens(message);
        sink += tokens;
    });
    measure("plan the cut", count, repeats, [&] {
        sink += planCompaction(history, {}, 20'000)->coveredCount;
    });
    return sink > 0 ? 0 : 1;
}
