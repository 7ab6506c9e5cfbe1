// Tools that change while a run goes on (AgentLoopConfig::currentTools, ToolSlot): taken at
// the start of each turn, never in the middle of a batch. An MCP server's list_changed is the
// case (tests/mcp/tst_mcpcontext.cpp runs it against a real server).

#include <loop/agentloop.h>
#include <loop/toolslot.h>
#include <testmain.h>

#include <scriptedmodel.h>
#include <testtools.h>

#include <QTest>

using namespace AgentCore;
using namespace TestSupport;
using namespace Qt::StringLiterals;

namespace tst_livetools {

namespace {

QStringList toolNames(const Context &context)
{
    QStringList names;
    for (const ToolDefinition &tool : context.tools)
        names.append(tool.name);
    return names;
}

std::shared_ptr<FunctionTool> textTool(const QString &name,
                                       const QString &text,
                                       ExecutionMode mode = ExecutionMode::Parallel)
{
    return FunctionTool::make(name, {}, mode, [text](const ToolCallContext &) {
        return ToolResult::makeText(text);
    });
}

} // namespace

class tst_LiveTools : public QObject
{
    Q_OBJECT

private slots:
    void aBatchKeepsItsToolsAndTheNextTurnGetsTheNewOnes()
    {
        // Turn 1 runs "swap" and "old" in one sequential batch: swap replaces "old" by "new"
        // in the slot, and "old" still runs, because the batch began with it. Turn 2 offers
        // "new" and no longer "old".
        auto slot = std::make_shared<ToolSlot>();
        const auto oldTool = textTool(u"old"_s, u"old ran"_s, ExecutionMode::Sequential);
        const auto newTool = textTool(u"new"_s, u"new ran"_s);
        const auto swap = FunctionTool::make(u"swap"_s,
                                             {},
                                             ExecutionMode::Sequential,
                                             [slot, newTool](const ToolCallContext &) {
                                                 slot->setTools({newTool});
                                                 return ToolResult::makeText(u"swapped"_s);
                                             });
        slot->setTools({oldTool});
        auto model = std::make_shared<ScriptedModel>(
            QList{ModelStep::toolCalls({ContentBlock::makeToolCall(u"c1"_s, u"swap"_s, {}),
                                        ContentBlock::makeToolCall(u"c2"_s, u"old"_s, {})}),
                  ModelStep::toolCall(u"c3"_s, u"new"_s, {}),
                  ModelStep::toolCall(u"c4"_s, u"old"_s, {}),
                  ModelStep::text(u"done"_s)});
        AgentLoopConfig config;
        config.model = model;
        int asked = 0;
        config.currentTools = [&asked, swap, slot] {
            ++asked;
            return QList<AgentToolPtr>{swap} + slot->tools();
        };
        AgentContext context;
        context.tools = {swap, oldTool};
        Message prompt = Message::makeUser(u"go"_s);
        const QList<Message> messages = agentLoop({prompt},
                                                  context,
                                                  config,
                                                  AbortToken(),
                                                  [](const AgentEvent &) {});

        QCOMPARE(asked, 4); // once per turn
        const QList<Context> contexts = model->contexts();
        QCOMPARE(contexts.size(), 4);
        QCOMPARE(toolNames(contexts.at(0)), QStringList({u"swap"_s, u"old"_s}));
        QCOMPARE(toolNames(contexts.at(1)), QStringList({u"swap"_s, u"new"_s}));
        QCOMPARE(oldTool->calls(), 1);
        QCOMPARE(newTool->calls(), 1);
        QStringList results;
        for (const Message &message : messages) {
            if (message.role == Message::Role::ToolResult)
                results.append(message.text());
        }
        QCOMPARE(results.size(), 4);
        QCOMPARE(results.at(0), u"swapped"_s);
        QCOMPARE(results.at(1), u"old ran"_s); // in the batch that swapped it out
        QCOMPARE(results.at(2), u"new ran"_s);
        QVERIFY2(results.at(3).contains(u"old"_s), qPrintable(results.at(3))); // unknown now
        QVERIFY(messages.at(messages.size() - 2).isError);
    }

    void theFirstTurnTakesTheCurrentTools()
    {
        // A context without tools: the first request already offers the current ones.
        const auto tool = textTool(u"t"_s, u"ran"_s);
        auto model = std::make_shared<ScriptedModel>(
            QList{ModelStep::toolCall(u"c1"_s, u"t"_s, {}), ModelStep::text(u"done"_s)});
        AgentLoopConfig config;
        config.model = model;
        config.currentTools = [tool] { return QList<AgentToolPtr>{tool}; };
        AgentContext context;
        agentLoop({Message::makeUser(u"go"_s)},
                  context,
                  config,
                  AbortToken(),
                  [](const AgentEvent &) {});
        QCOMPARE(tool->calls(), 1);
        QCOMPARE(toolNames(model->contexts().at(1)), QStringList({u"t"_s}));
    }
};

AGENTDESK_GUILESS_TEST_MAIN(tst_LiveTools)

} // namespace tst_livetools

#include "tst_livetools.moc"
