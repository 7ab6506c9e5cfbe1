// The context manager: a summary in the background swapped in at a turn boundary, a request
// that would not fit waiting for one, a long session kept within a 32k window, and a summary
// that fails, comes back empty or is stopped leaving the history as it was.
#include <context/compaction.h>
#include <context/contextmanager.h>
#include <context/summaryprompt.h>
#include <testmain.h>

#include <ai/toolcallpairing.h>
#include <loop/agentloop.h>

#include <scriptedmodel.h>
#include <testtools.h>

#include <QElapsedTimer>
#include <QMutex>
#include <QTest>
#include <QThread>

#include <atomic>

using namespace AgentCore;
using namespace TestSupport;
using namespace Qt::StringLiterals;

namespace tst_contextmanager {

namespace {

struct Recorded
{
    QMutex mutex;
    QList<bool> started;
    QList<Message> finished;
    QStringList failed;
};

ContextManager::Events recordInto(const std::shared_ptr<Recorded> &recorded)
{
    ContextManager::Events events;
    events.started = [recorded](bool waiting) {
        QMutexLocker lock(&recorded->mutex);
        recorded->started.append(waiting);
    };
    events.finished = [recorded](const Message &compaction, bool) {
        QMutexLocker lock(&recorded->mutex);
        recorded->finished.append(compaction);
    };
    events.failed = [recorded](const QString &problem) {
        QMutexLocker lock(&recorded->mutex);
        recorded->failed.append(problem);
    };
    return events;
}

ContextSettings window(qint64 tokens)
{
    ContextSettings settings;
    settings.windowTokens = tokens;
    return settings;
}

// A conversation of \a turns tool turns with outputs of \a outputChars characters.
QList<Message> longConversation(int turns, int outputChars)
{
    QList<Message> messages{Message::makeUser(u"Fix the build"_s)};
    for (int i = 0; i < turns; ++i) {
        Message call;
        call.role = Message::Role::Assistant;
        call.stopReason = StopReason::ToolUse;
        const QString id = u"old_%1"_s.arg(i);
        call.content = {ContentBlock::makeToolCall(id, u"Bash"_s, {{u"command"_s, u"make"_s}})};
        messages.append(call);
        messages.append(Message::makeToolResult(id, u"Bash"_s, QString(outputChars, u'x'), false));
    }
    return messages;
}

std::shared_ptr<FunctionTool> bashTool(int sleepMs, int outputChars)
{
    return FunctionTool::make(u"Bash"_s,
                              {u"command"_s},
                              ExecutionMode::Sequential,
                              [sleepMs, outputChars](const ToolCallContext &) {
                                  if (sleepMs > 0)
                                      QThread::msleep(sleepMs);
                                  return ToolResult::makeText(QString(outputChars, u'o'));
                              });
}

ModelStep bash(int n)
{
    return ModelStep::toolCall(u"call_%1"_s.arg(n), u"Bash"_s, {{u"command"_s, u"make"_s}});
}

bool isSummaryRequest(const Context &context)
{
    return context.systemPrompt.startsWith(summaryRequestMarker());
}

bool waitUntil(const std::function<bool()> &condition, int timeoutMs = 10'000)
{
    QElapsedTimer timer;
    timer.start();
    while (!condition()) {
        if (timer.elapsed() > timeoutMs)
            return false;
        QThread::msleep(2);
    }
    return true;
}

} // namespace

class TestContextManager : public QObject
{
    Q_OBJECT
private slots:
    void backgroundSummaryIsSwappedInAtATurnBoundaryWhileToolsRun();
    void longSessionStaysWithinA32kWindow();
    void overflowCompactsAndTheTurnIsSentAgain();
    void abortDuringTheSummaryStopsAtOnceAndKeepsHistory();
    void failingOrEmptySummaryLeavesHistoryAndSaysSo_data();
    void failingOrEmptySummaryLeavesHistoryAndSaysSo();
    void compactNowPreviewsAndHandsBackTheMessage();
    void summaryRequestFitsTheWindowAndListsFollowUps();
};

void TestContextManager::backgroundSummaryIsSwappedInAtATurnBoundaryWhileToolsRun()
{
    auto summaries = std::make_shared<ScriptedModel>(
        QList{ModelStep::text(u"The build was fixed step by step."_s).withDelay(100)});
    auto model = std::make_shared<ScriptedModel>(QList{bash(1), ModelStep::text(u"done"_s)});
    auto manager = std::make_shared<ContextManager>(window(20'000), [summaries] {
        return std::shared_ptr<ModelClient>(summaries);
    });
    auto recorded = std::make_shared<Recorded>();
    manager->setEvents(recordInto(recorded));

    AgentContext context;
    context.systemPrompt = u"system"_s;
    context.messages = longConversation(12, 3'500); // about 12k tokens: past 70% of 15k usable
    context.tools = {bashTool(600, 10)};            // the summary finishes while it runs
    AgentLoopConfig config;
    config.model = model;
    ContextManager::installInto(manager, config);
    const QList<Message> added = agentLoop({Message::makeUser(u"go on"_s)},
                                           context,
                                           config,
                                           AbortToken(),
                                           {});

    QCOMPARE(summaries->callCount(), 1);
    QCOMPARE(model->callCount(), 2);
    // The first request went out uncompacted, without waiting; the second carries the summary.
    QVERIFY(!Compaction::of(model->contexts().at(0).messages.first()));
    const Context second = model->contexts().at(1);
    QVERIFY(Compaction::of(second.messages.first()));
    QVERIFY(second.messages.first().text().contains(u"The build was fixed step by step."_s));
    QVERIFY(estimateTokens(second) < estimateTokens(model->contexts().at(0)));
    QCOMPARE(pairToolCalls(second.messages), second.messages);
    // In the history, between the tool's result and the reply, as a message of the run.
    QCOMPARE(added.size(), 5); // go on, call, result, compaction, done
    const std::optional<Compaction> compaction = Compaction::of(added.at(3));
    QVERIFY(compaction);
    QVERIFY(compaction->coveredCount > 0);
    QCOMPARE(recorded->started, QList<bool>{false}); // in the background, nobody waited
    QCOMPARE(recorded->finished.size(), 1);
    QVERIFY(recorded->failed.isEmpty());
}

void TestContextManager::longSessionStaysWithinA32kWindow()
{
    // 300 turns of one long task and its follow-ups, each tool output about 1,700 tokens.
    constexpr int turns = 300;
    auto summaries = std::make_shared<ScriptedModel>();
    for (int i = 0; i < 100; ++i)
        summaries->enqueue(
            ModelStep::text(u"Summary %1: the work so far, files and open steps."_s.arg(i)));
    auto model = std::make_shared<ScriptedModel>();
    for (int i = 0; i < turns; ++i) {
        model->enqueue(bash(i));
        if (i % 50 == 49)
            model->enqueue(ModelStep::text(u"part done"_s));
    }
    model->enqueue(ModelStep::text(u"all done"_s));

    ContextSettings settings = window(32'000);
    auto manager = std::make_shared<ContextManager>(settings, [summaries] {
        return std::shared_ptr<ModelClient>(summaries);
    });
    auto recorded = std::make_shared<Recorded>();
    manager->setEvents(recordInto(recorded));
    AgentContext context;
    context.systemPrompt = QString(2'000, u's');
    context.tools = {bashTool(0, 6'000)};
    AgentLoopConfig config;
    config.model = model;
    ContextManager::installInto(manager, config);
    int followUps = 6;
    config.getFollowUpMessages = [&followUps] {
        return followUps-- > 0 ? QList{Message::makeUser(u"next part"_s)} : QList<Message>{};
    };
    const QList<Message> added = agentLoop({Message::makeUser(u"a long task"_s)},
                                           context,
                                           config,
                                           AbortToken(),
                                           {});

    QCOMPARE(model->pendingSteps(), 0); // ran to the end
    QCOMPARE(added.last().text(), u"all done"_s);
    int compactions = 0;
    for (const Message &message : added)
        compactions += Compaction::of(message) ? 1 : 0;
    QVERIFY2(compactions >= 3, qPrintable(QString::number(compactions)));
    // Each summary asked for was applied, but perhaps the last, still in flight at the end.
    QVERIFY(summaries->callCount() - compactions - recorded->failed.size() <= 1);
    QVERIFY(recorded->failed.isEmpty());
    for (const Context &request : model->contexts())
        QVERIFY2(estimateTokens(request) < settings.windowTokens,
                 qPrintable(QString::number(estimateTokens(request))));
    for (const Context &request : summaries->contexts()) {
        QVERIFY(isSummaryRequest(request));
        QVERIFY(estimateTokens(request) < settings.windowTokens);
    }
}

void TestContextManager::overflowCompactsAndTheTurnIsSentAgain()
{
    auto summaries = std::make_shared<ScriptedModel>(QList{ModelStep::text(u"summary"_s)});
    auto model = std::make_shared<ScriptedModel>(
        QList{ModelStep::failure(StopReason::ContextOverflow, u"prompt is too long"_s),
              ModelStep::text(u"answer"_s)});
    // No window known: nothing is compacted before the provider says so.
    auto manager = std::make_shared<ContextManager>(window(0), [summaries] {
        return std::shared_ptr<ModelClient>(summaries);
    });
    AgentContext context;
    context.messages = longConversation(6, 4'000);
    AgentLoopConfig config;
    config.model = model;
    ContextManager::installInto(manager, config);
    const QList<Message> added = agentLoop({Message::makeUser(u"my question"_s)},
                                           context,
                                           config,
                                           AbortToken(),
                                           {});
    QCOMPARE(added.size(), 3);
    QCOMPARE(added.first().text(), u"my question"_s);
    QVERIFY(Compaction::of(added.at(1)));
    QCOMPARE(added.last().text(), u"answer"_s);
    QCOMPARE(model->callCount(), 2);
    bool asked = false;
    for (const Message &message : model->contexts().at(1).messages)
        asked = asked || message.text() == u"my question"_s;
    QVERIFY(asked);
}

void TestContextManager::abortDuringTheSummaryStopsAtOnceAndKeepsHistory()
{
    auto summaries = std::make_shared<ScriptedModel>(QList{ModelStep::waitForAbort()});
    auto model = std::make_shared<ScriptedModel>(
        QList{ModelStep::failure(StopReason::ContextOverflow, u"prompt is too long"_s)});
    auto manager = std::make_shared<ContextManager>(window(0), [summaries] {
        return std::shared_ptr<ModelClient>(summaries);
    });
    auto recorded = std::make_shared<Recorded>();
    manager->setEvents(recordInto(recorded));
    AgentContext context;
    context.messages = longConversation(6, 4'000);
    AgentLoopConfig config;
    config.model = model;
    ContextManager::installInto(manager, config);
    AbortToken abort;
    QThread *stopper = QThread::create([abort, summaries]() mutable {
        waitUntil([&] { return summaries->callCount() == 1; });
        QThread::msleep(20);
        abort.abort();
    });
    stopper->start();
    QElapsedTimer timer;
    timer.start();
    const QList<Message> added = agentLoop({Message::makeUser(u"my question"_s)},
                                           context,
                                           config,
                                           abort,
                                           {});
    stopper->wait();
    delete stopper;
    QVERIFY(timer.elapsed() < 5'000); // the wait ended with the abort, not a timeout
    QCOMPARE(added.size(), 2);        // the question and the overflow reply: no compaction
    QCOMPARE(added.first().text(), u"my question"_s);
    QVERIFY(!manager->isCompacting());
    QCOMPARE(recorded->failed.size(), 1);
    QVERIFY(recorded->failed.first().contains(u"stopped"_s));
    QCOMPARE(recorded->started, QList<bool>{true});
}

void TestContextManager::failingOrEmptySummaryLeavesHistoryAndSaysSo_data()
{
    QTest::addColumn<ModelStep>("reply");
    QTest::addColumn<QString>("problem");
    QTest::newRow("error") << ModelStep::failure(StopReason::Error, u"HTTP 500"_s) << u"HTTP 500"_s;
    QTest::newRow("empty") << ModelStep::text(u"  "_s) << u"empty summary"_s;
}

void TestContextManager::failingOrEmptySummaryLeavesHistoryAndSaysSo()
{
    QFETCH(ModelStep, reply);
    QFETCH(QString, problem);
    auto summaries = std::make_shared<ScriptedModel>(QList{reply});
    auto model = std::make_shared<ScriptedModel>(
        QList{ModelStep::failure(StopReason::ContextOverflow, u"prompt is too long"_s)});
    auto manager = std::make_shared<ContextManager>(window(0), [summaries] {
        return std::shared_ptr<ModelClient>(summaries);
    });
    auto recorded = std::make_shared<Recorded>();
    manager->setEvents(recordInto(recorded));
    AgentContext context;
    context.messages = longConversation(6, 4'000);
    AgentLoopConfig config;
    config.model = model;
    ContextManager::installInto(manager, config);
    const QList<Message> added = agentLoop({Message::makeUser(u"my question"_s)},
                                           context,
                                           config,
                                           AbortToken(),
                                           {});
    QCOMPARE(added.size(), 2);
    QCOMPARE(added.last().stopReason, StopReason::ContextOverflow);
    QCOMPARE(recorded->failed.size(), 1);
    QVERIFY2(recorded->failed.first().contains(problem), qPrintable(recorded->failed.first()));
    QVERIFY(recorded->finished.isEmpty());
}

void TestContextManager::compactNowPreviewsAndHandsBackTheMessage()
{
    auto summaries = std::make_shared<ScriptedModel>(QList{ModelStep::text(u"kept the API"_s)});
    auto manager = std::make_shared<ContextManager>(window(100'000), [summaries] {
        return std::shared_ptr<ModelClient>(summaries);
    });
    auto recorded = std::make_shared<Recorded>();
    manager->setEvents(recordInto(recorded));
    Context conversation;
    conversation.messages = longConversation(10, 4'000);
    const std::optional<CompactionPlan> preview = manager->preview(conversation.messages);
    QVERIFY(preview);
    QVERIFY(!preview->summarised.isEmpty() && !preview->kept.isEmpty());
    QVERIFY(manager->compactNow(conversation, u"keep the API design discussion"_s));
    QVERIFY(waitUntil([&] {
        QMutexLocker lock(&recorded->mutex);
        return !recorded->finished.isEmpty();
    }));
    const std::optional<Compaction> compaction = Compaction::of(recorded->finished.first());
    QVERIFY(compaction);
    QCOMPARE(compaction->instructions, u"keep the API design discussion"_s);
    QCOMPARE(compaction->coveredCount, preview->coveredCount);
    QVERIFY(summaries->contexts().first().messages.first().text().contains(
        u"keep the API design discussion"_s));
    QVERIFY(waitUntil([&] { return !manager->isCompacting(); }));
    const QList<Message> view = manager->view(conversation.messages
                                              + QList{recorded->finished.first()});
    QCOMPARE(view.mid(1), preview->kept);
}

void TestContextManager::summaryRequestFitsTheWindowAndListsFollowUps()
{
    const QList<Message> prefix = longConversation(40, 20'000); // far beyond 8k tokens
    const Context request = summaryContext(prefix,
                                           u"keep it short"_s,
                                           {Message::makeUser(u"then write the docs"_s)},
                                           8'000);
    QVERIFY(isSummaryRequest(request));
    QVERIFY(request.tools.isEmpty());
    QCOMPARE(request.messages.size(), 1);
    QVERIFY(estimateTokens(request) <= 8'000);
    const QString text = request.messages.first().text();
    QVERIFY(text.contains(u"then write the docs"_s));
    QVERIFY(text.contains(u"keep it short"_s));
    QVERIFY(text.contains(u"characters cut"_s));
}

AGENTDESK_GUILESS_TEST_MAIN(TestContextManager)

} // namespace tst_contextmanager

#include "tst_contextmanager.moc"
