// The loop's seams for context management: what a request sees is a view of the raw
// conversation, a hook may append messages (a compaction) before a request, and a context
// overflow may be compacted and the same turn sent again, once.
#include <loop/agentloop.h>
#include <testmain.h>

#include <eventstreamcheck.h>
#include <scriptedmodel.h>
#include <testtools.h>

#include <QElapsedTimer>
#include <QTest>
#include <QThread>

using namespace AgentCore;
using namespace TestSupport;
using namespace Qt::StringLiterals;

namespace tst_contextseams {

namespace {

Message note(const QString &text)
{
    Message message;
    message.role = Message::Role::Custom;
    message.customType = u"compaction"_s;
    message.content = {ContentBlock::makeText(text)};
    return message;
}

bool hasText(const QList<Message> &messages, const QString &text)
{
    for (const Message &message : messages) {
        if (message.text() == text)
            return true;
    }
    return false;
}

ModelStep overflow(qint64 inputTokens)
{
    ModelStep step = ModelStep::failure(StopReason::ContextOverflow, u"prompt is too long"_s);
    step.message.usage.input = inputTokens;
    return step;
}

AgentContext someContext()
{
    AgentContext context;
    context.systemPrompt = u"system"_s;
    return context;
}

} // namespace

class TestContextSeams : public QObject
{
    Q_OBJECT
private slots:
    void contextViewSeesTheRawConversationBeforeProjection();
    void hookMessagesAreEventsAndNewMessages();
    void overflowCompactsAndRetriesTheSameTurnOnce();
    void secondOverflowEndsTheRun();
    void overflowWithoutACompactionEndsTheRun();
    void blockingHookReturnsOnAbort();
};

void TestContextSeams::contextViewSeesTheRawConversationBeforeProjection()
{
    // An aborted call without a result: projection would add one; the view must see it raw.
    Message aborted;
    aborted.role = Message::Role::Assistant;
    aborted.stopReason = StopReason::Aborted;
    aborted.content = {ContentBlock::makeToolCall(u"c1"_s, u"Read"_s, {{u"path"_s, u"a"_s}})};
    AgentContext context = someContext();
    context.messages = {Message::makeUser(u"old"_s), aborted};

    auto model = std::make_shared<ScriptedModel>(QList{ModelStep::text(u"done"_s)});
    AgentLoopConfig config;
    config.model = model;
    QList<QList<Message>> seen;
    config.contextView = [&seen](const QList<Message> &conversation) {
        seen.append(conversation);
        QList<Message> view = conversation;
        view.removeFirst(); // what a compaction would leave out
        return view;
    };
    agentLoop({Message::makeUser(u"new"_s)}, context, config, AbortToken(), {});

    QCOMPARE(seen.size(), 1);
    QCOMPARE(seen.first().size(), 3); // old, aborted, new: no synthetic result yet
    QVERIFY(!seen.first().at(2).isToolResult());
    const Context request = model->contexts().first();
    QVERIFY(!hasText(request.messages, u"old"_s));
    QCOMPARE(request.messages.size(), 3); // aborted call, its missing result (projected), new
    QVERIFY(request.messages.at(1).isToolResult());
    QCOMPARE(request.messages.at(1).toolCallId, u"c1"_s);
}

void TestContextSeams::hookMessagesAreEventsAndNewMessages()
{
    auto model = std::make_shared<ScriptedModel>(
        QList{ModelStep::toolCall(u"c1"_s, u"Read"_s, {{u"path"_s, u"a"_s}}),
              ModelStep::text(u"done"_s)});
    AgentContext context = someContext();
    context.tools = {FunctionTool::make(u"Read"_s, {u"path"_s}, ExecutionMode::Parallel, [](auto &) {
        return ToolResult::makeText(u"contents"_s);
    })};
    AgentLoopConfig config;
    config.model = model;
    int calls = 0;
    QList<qsizetype> sizes;
    QStringList prompts;
    config.beforeRequest = [&](const Context &conversation, const AbortToken &) -> QList<Message> {
        sizes.append(conversation.messages.size());
        prompts.append(conversation.systemPrompt);
        return ++calls == 2 ? QList{note(u"summary"_s)} : QList<Message>{};
    };
    EventLog log;
    const QList<Message> added = agentLoop({Message::makeUser(u"go"_s)},
                                           context,
                                           config,
                                           AbortToken(),
                                           log.sink());

    QCOMPARE(calls, 2);
    QCOMPARE(sizes, (QList<qsizetype>{1, 3}));
    QCOMPARE(prompts,
             (QStringList{u"system"_s,
                          u"system"_s})); // the prompt; then the call and its result too
    QCOMPARE(added.size(), 5);            // go, call, result, summary, done
    QCOMPARE(added.at(3).text(), u"summary"_s);
    QVERIFY(added.at(3).timestamp > 0);
    QVERIFY(hasText(model->contexts().at(1).messages, u"summary"_s));
    QVERIFY(!hasText(model->contexts().at(0).messages, u"summary"_s));
    QCOMPARE(eventStreamProblem(log.events()), QString());
    int ends = 0;
    for (const AgentEvent &event : log.events()) {
        if (event.type == AgentEvent::Type::MessageEnd && event.message.text() == u"summary"_s)
            ++ends;
    }
    QCOMPARE(ends, 1);
}

void TestContextSeams::overflowCompactsAndRetriesTheSameTurnOnce()
{
    auto model = std::make_shared<ScriptedModel>(
        QList{overflow(30'000), ModelStep::text(u"answer"_s)});
    AgentLoopConfig config;
    config.model = model;
    int compactions = 0;
    config.onContextOverflow =
        [&](const Message &reply, const Context &conversation, const AbortToken &) {
            ++compactions;
            [&] {
                QCOMPARE(reply.stopReason, StopReason::ContextOverflow);
                QCOMPARE(conversation.messages.size(),
                         1); // the prompt; the overflow reply is not in it
            }();
            return std::optional<Message>(note(u"summary"_s));
        };
    EventLog log;
    const QList<Message> added = agentLoop({Message::makeUser(u"the user's words"_s)},
                                           someContext(),
                                           config,
                                           AbortToken(),
                                           log.sink());
    QCOMPARE(compactions, 1);
    QCOMPARE(model->callCount(), 2);
    QCOMPARE(added.size(), 3); // the prompt, the compaction, the answer: the overflow withdrawn
    QCOMPARE(added.at(0).text(), u"the user's words"_s);
    QCOMPARE(added.at(1).text(), u"summary"_s);
    QCOMPARE(added.at(2).text(), u"answer"_s);
    QCOMPARE(added.at(2).discardedUsage.input, 30'000);
    QVERIFY(hasText(model->contexts().at(1).messages, u"the user's words"_s));
    QVERIFY(log.types().contains(u"message_discard"_s));
    QCOMPARE(eventStreamProblem(log.events()), QString());
}

void TestContextSeams::secondOverflowEndsTheRun()
{
    auto model = std::make_shared<ScriptedModel>(
        QList{overflow(1), overflow(2), ModelStep::text(u"never"_s)});
    AgentLoopConfig config;
    config.model = model;
    int compactions = 0;
    config.onContextOverflow = [&](const Message &, const Context &, const AbortToken &) {
        ++compactions;
        return std::optional<Message>(note(u"summary"_s));
    };
    const QList<Message> added = agentLoop({Message::makeUser(u"go"_s)},
                                           someContext(),
                                           config,
                                           AbortToken(),
                                           {});
    QCOMPARE(compactions, 1);
    QCOMPARE(model->callCount(), 2);
    QCOMPARE(added.size(), 3);
    QCOMPARE(added.last().stopReason, StopReason::ContextOverflow);
    QCOMPARE(added.last().discardedUsage.input, 1);
}

void TestContextSeams::overflowWithoutACompactionEndsTheRun()
{
    auto model = std::make_shared<ScriptedModel>(QList{overflow(1), ModelStep::text(u"no"_s)});
    AgentLoopConfig config;
    config.model = model;
    config.onContextOverflow = [](const Message &, const Context &, const AbortToken &) {
        return std::optional<Message>();
    };
    const QList<Message> added = agentLoop({Message::makeUser(u"go"_s)},
                                           someContext(),
                                           config,
                                           AbortToken(),
                                           {});
    QCOMPARE(model->callCount(), 1);
    QCOMPARE(added.size(), 2);
    QCOMPARE(added.last().stopReason, StopReason::ContextOverflow);
}

void TestContextSeams::blockingHookReturnsOnAbort()
{
    auto model = std::make_shared<ScriptedModel>(QList{ModelStep::text(u"never"_s)});
    AgentLoopConfig config;
    config.model = model;
    config.beforeRequest = [](const Context &, const AbortToken &abort) {
        while (!abort.isAborted())
            QThread::msleep(1);
        return QList<Message>{};
    };
    AbortToken abort;
    QThread *stopper = QThread::create([abort]() mutable {
        QThread::msleep(50);
        abort.abort();
    });
    stopper->start();
    const QList<Message> added = agentLoop({Message::makeUser(u"go"_s)},
                                           someContext(),
                                           config,
                                           abort,
                                           {});
    stopper->wait();
    delete stopper;
    QCOMPARE(model->callCount(), 0);
    QCOMPARE(added.last().stopReason, StopReason::Aborted);
    QVERIFY(hasText(added, u"go"_s));
}

AGENTDESK_GUILESS_TEST_MAIN(TestContextSeams)

} // namespace tst_contextseams

#include "tst_contextseams.moc"
